import Foundation
import Logging
import PodiumCore
import PodiumHTTP
import PodiumScheduler
import PodiumWebhooks
import Postgres
import Redis

/// Podium's configuration, read from the environment; every value has a quick-start default.
///
/// | variable | default |
/// |---|---|
/// | `PODIUM_DATABASE_URL` | `host=127.0.0.1 port=5432 user=postgres dbname=podium` |
/// | `PODIUM_REDIS_URL` | `redis://127.0.0.1:6379/0` |
/// | `PODIUM_HOST`, `PODIUM_PORT` | `127.0.0.1`, `8080` |
/// | `PODIUM_ADMIN_KEY` or `PODIUM_ADMIN_KEY_FILE` | none (bootstrap admin key, not stored; or the file holding it) |
/// | `PODIUM_PUBLIC_LEADERBOARDS` | `false` |
/// | `PODIUM_RULES_FILE` | none (spec defaults) |
/// | `PODIUM_PG_POOL_SIZE`, `PODIUM_REDIS_POOL_SIZE` | `16`, `16` |
/// | `PODIUM_REDIS_READ_TIMEOUT_MS` | `250`: a read with a PostgreSQL fallback waits no longer for Redis (0: no deadline) |
/// | `PODIUM_LEADERBOARD_CACHE_MS` | `1000` |
/// | `PODIUM_BATCH_SIZE`, `PODIUM_BATCH_CONCURRENCY` | `128`, `4` |
/// | `PODIUM_SYNC_INTERVAL_MS` | `2000` |
/// | `PODIUM_SCHEDULER_TICK_MS` | `1000` |
/// | `PODIUM_STARTUP_WAIT_SECONDS` | `60`: how long `serve` waits for PostgreSQL before giving up |
/// | `PODIUM_SHUTDOWN_GRACE_S` | `10`: how long `serve` drains and stops after SIGTERM before cancelling what still runs |
/// | `PODIUM_LIVE_STREAM_SECONDS` | `300` |
/// | `PODIUM_REPLICA_NAME` | host name and process id |
/// | `PODIUM_WEBHOOK_TIMEOUT_MS`, `PODIUM_WEBHOOK_MAX_ATTEMPTS`, `PODIUM_WEBHOOK_BACKOFF_MS` | `5000`, `8`, `2000` |
/// | `PODIUM_TEST_JOB_DELAY` | none; `<job>=<ms>` makes a job sleep first (fault injection for tests) |
/// | `PODIUM_PLAYER_TOKEN_HS256_KEYS` | none; `kid:secret,kid:secret` (each secret 32+ bytes) |
/// | `PODIUM_PLAYER_TOKEN_JWKS_FILE` | none; a JWKS file of ES256/RS256 public keys, each with `kid` and `alg` |
/// | `PODIUM_PLAYER_TOKEN_MAX_LIFETIME_S`, `PODIUM_PLAYER_TOKEN_AUDIENCE` | `3600`, none |
/// | `PODIUM_CORS_ORIGINS` | none; comma-separated origins such as `https://quiz.example.org` |
/// | `PODIUM_HEADER_TIMEOUT_MS`, `PODIUM_BODY_TIMEOUT_MS`, `PODIUM_IDLE_TIMEOUT_MS` | `10000`, `30000`, `60000` |
/// | `PODIUM_MAX_CONNECTIONS` | `4096` (at most what the descriptor limit leaves room for) |
/// | `PODIUM_RATE_LIMITS` | `ingest=6000,read=6000,display=1200,admin=600,player=120,failed-auth=60` (per minute) |
/// | `PODIUM_PLAYER_MIN_SECONDS_PER_QUESTION`, `PODIUM_PLAYER_MAX_COMPLETIONS_PER_MINUTE`, `PODIUM_PLAYER_REPEAT_QUIZ_WINDOW_S` | `1`, `6`, `60` |
/// | `PODIUM_LOG_LEVEL` | `info` |
/// | `PODIUM_LOG_FORMAT` | `text`; `json` writes one JSON object per line |
/// | `PODIUM_ACCESS_LOG` | `true`: one `info` line per request |
struct Settings {
    var databaseURL: String
    var redisURL: String
    var http: HTTPSettings
    var rulesFile: String?
    var postgresPoolSize: Int
    var redisPoolSize: Int
    /// How long a read with a PostgreSQL fallback waits for Redis; nil: no deadline.
    var redisReadDeadline: Duration?
    var batchSize: Int
    var batchConcurrency: Int
    var syncInterval: Duration
    var schedulerTick: Duration
    /// How long `serve` waits for PostgreSQL at start.
    var startupWait: Duration
    /// How long `serve` may take to stop after SIGTERM or SIGINT.
    var shutdownGrace: Duration
    var replicaName: String
    var testJobDelay: (job: String, delay: Duration)?
    var webhooks: WebhookSettings
    var logLevel: Logger.Level
    var logFormat: LogFormat
    /// The JWKS file player tokens are checked with, as named.
    var jwksFile: String?

    /// Reads the settings from the process environment and installs the log format they name.
    static func load() throws -> Settings {
        let settings = try Settings()
        settings.logFormat.bootstrap()
        return settings
    }

    /// Reads the settings from `environment`.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        func flag(_ name: String, _ fallback: Bool) throws -> Bool {
            switch value(name)?.lowercased() {
            case nil: return fallback
            case "0", "false", "no", "off": return false
            case "1", "true", "yes", "on": return true
            case let text?: throw SettingsError(message: "\(name) must be true or false, got \(text)")
            }
        }
        func integer(_ name: String, _ fallback: Int) throws -> Int {
            guard let text = value(name) else { return fallback }
            guard let number = Int(text), number >= 0 else { throw SettingsError(message: "\(name) must be a whole number, got \(text)") }
            return number
        }
        databaseURL = value("PODIUM_DATABASE_URL") ?? "host=127.0.0.1 port=5432 user=postgres dbname=podium"
        guard PostgresConfiguration.isReadable(connectionString: databaseURL) else {
            // Not quoted: it may hold a password.
            throw SettingsError(message: "PODIUM_DATABASE_URL is neither a libpq conninfo string (host=… dbname=…) nor a postgres:// URI")
        }
        redisURL = value("PODIUM_REDIS_URL") ?? "redis://127.0.0.1:6379/0"
        let port = try integer("PODIUM_PORT", 8080)
        guard (1...65535).contains(port) else { throw SettingsError(message: "PODIUM_PORT must be 1 to 65535, got \(port)") }
        let publicLeaderboards = try flag("PODIUM_PUBLIC_LEADERBOARDS", false)
        var adminKey = value("PODIUM_ADMIN_KEY")
        if let path = value("PODIUM_ADMIN_KEY_FILE") {
            guard adminKey == nil else { throw SettingsError(message: "set PODIUM_ADMIN_KEY or PODIUM_ADMIN_KEY_FILE, not both") }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw SettingsError(message: "PODIUM_ADMIN_KEY_FILE \(path) cannot be read")
            }
            adminKey = String(decoding: data, as: UTF8.self)
        }
        http = HTTPSettings(
            host: value("PODIUM_HOST") ?? "127.0.0.1", port: port,
            // A key read from a secret file often ends in a newline; presented keys are trimmed too.
            bootstrapAdminKey: adminKey.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 },
            publicLeaderboards: publicLeaderboards,
            leaderboardCacheLifetime: .milliseconds(try integer("PODIUM_LEADERBOARD_CACHE_MS", 1000)),
            liveStreamLifetime: .seconds(max(1, try integer("PODIUM_LIVE_STREAM_SECONDS", 300))),
            accessLog: try flag("PODIUM_ACCESS_LOG", true))
        rulesFile = value("PODIUM_RULES_FILE")
        postgresPoolSize = max(2, try integer("PODIUM_PG_POOL_SIZE", 16))
        redisPoolSize = max(2, try integer("PODIUM_REDIS_POOL_SIZE", 16))
        let readTimeout = try integer("PODIUM_REDIS_READ_TIMEOUT_MS", 250)
        redisReadDeadline = readTimeout == 0 ? nil : .milliseconds(readTimeout)
        batchSize = max(1, try integer("PODIUM_BATCH_SIZE", 128))
        batchConcurrency = max(1, try integer("PODIUM_BATCH_CONCURRENCY", 4))
        syncInterval = .milliseconds(max(100, try integer("PODIUM_SYNC_INTERVAL_MS", 2000)))
        webhooks = WebhookSettings(
            maxAttempts: max(1, try integer("PODIUM_WEBHOOK_MAX_ATTEMPTS", 8)),
            timeout: Double(max(100, try integer("PODIUM_WEBHOOK_TIMEOUT_MS", 5000))) / 1000,
            backoff: Double(try integer("PODIUM_WEBHOOK_BACKOFF_MS", 2000)) / 1000)
        http.webhookAttempts = webhooks.maxAttempts
        jwksFile = value("PODIUM_PLAYER_TOKEN_JWKS_FILE")
        http.playerTokens = try Self.playerTokens(value: value, integer: integer)
        http.cors = CORSPolicy(origins: Set((value("PODIUM_CORS_ORIGINS") ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }))
        if let text = value("PODIUM_RATE_LIMITS") {
            guard let limits = RateLimits.parse(text) else {
                throw SettingsError(message: "PODIUM_RATE_LIMITS must look like ingest=6000,read=6000,display=1200,admin=600,player=120,failed-auth=60, got \(text)")
            }
            http.rateLimits = limits
        }
        // Values are kept within sane bounds (an hour a question, a day for any timeout): larger ones only overflow.
        http.plausibility = PlausibilityRules(
            minimumSecondsPerQuestion: Double(min(3600, try integer("PODIUM_PLAYER_MIN_SECONDS_PER_QUESTION", 1))),
            maximumPerMinute: min(1_000_000, try integer("PODIUM_PLAYER_MAX_COMPLETIONS_PER_MINUTE", 6)),
            repeatQuizWindow: TimeInterval(min(86_400 * 366, try integer("PODIUM_PLAYER_REPEAT_QUIZ_WINDOW_S", 60))))
        func timeout(_ name: String, _ fallback: Int) throws -> Duration {
            .milliseconds(min(86_400_000, max(100, try integer(name, fallback))))
        }
        http.connections = ConnectionLimits(
            headerTimeout: try timeout("PODIUM_HEADER_TIMEOUT_MS", 10_000), bodyTimeout: try timeout("PODIUM_BODY_TIMEOUT_MS", 30_000),
            idleTimeout: try timeout("PODIUM_IDLE_TIMEOUT_MS", 60_000),
            maxConnections: min(1_000_000, max(1, try integer("PODIUM_MAX_CONNECTIONS", 4096))))
        schedulerTick = .milliseconds(max(50, try integer("PODIUM_SCHEDULER_TICK_MS", 1000)))
        startupWait = .seconds(try integer("PODIUM_STARTUP_WAIT_SECONDS", 60))
        shutdownGrace = .seconds(min(3600, max(1, try integer("PODIUM_SHUTDOWN_GRACE_S", 10))))
        replicaName = value("PODIUM_REPLICA_NAME") ?? Scheduler.defaultReplicaName()
        if let text = value("PODIUM_TEST_JOB_DELAY") {
            let parts = text.split(separator: "=")
            guard parts.count == 2, let milliseconds = Int(parts[1]), milliseconds >= 0 else {
                throw SettingsError(message: "PODIUM_TEST_JOB_DELAY must look like close-periods=5000, got \(text)")
            }
            testJobDelay = (String(parts[0]), .milliseconds(milliseconds))
        }
        guard let level = Logger.Level(rawValue: value("PODIUM_LOG_LEVEL") ?? "info") else {
            throw SettingsError(message: "PODIUM_LOG_LEVEL must be one of trace, debug, info, notice, warning, error, critical")
        }
        logLevel = level
        guard let format = LogFormat(rawValue: value("PODIUM_LOG_FORMAT") ?? "text") else {
            throw SettingsError(message: "PODIUM_LOG_FORMAT must be text or json, got \(value("PODIUM_LOG_FORMAT") ?? "")")
        }
        logFormat = format
    }

    /// The effective configuration, one setting a line, secrets masked: what `podium config` prints and `serve` logs at start.
    ///
    /// Passwords in the database and Redis addresses, the admin key and the player token secrets are never shown,
    /// only whether they are set (and the token key ids).
    func summary() -> [(name: String, value: String)] {
        let seconds = { (duration: Duration) in "\(duration.components.seconds)" }
        let milliseconds = { (duration: Duration) in "\(Int(duration.inSeconds * 1000))" }
        return [
            ("PODIUM_DATABASE_URL", Self.maskedPassword(in: databaseURL)),
            ("PODIUM_REDIS_URL", Self.maskedPassword(in: redisURL)),
            ("PODIUM_HOST", http.host), ("PODIUM_PORT", "\(http.port)"),
            ("PODIUM_ADMIN_KEY", http.bootstrapAdminKey == nil ? "(not set)" : "(set, hidden)"),
            ("PODIUM_PUBLIC_LEADERBOARDS", "\(http.publicLeaderboards)"),
            ("PODIUM_RULES_FILE", rulesFile ?? "(none: default rules)"),
            ("PODIUM_PG_POOL_SIZE", "\(postgresPoolSize)"), ("PODIUM_REDIS_POOL_SIZE", "\(redisPoolSize)"),
            ("PODIUM_REDIS_READ_TIMEOUT_MS", redisReadDeadline.map(milliseconds) ?? "0"),
            ("PODIUM_LEADERBOARD_CACHE_MS", milliseconds(http.leaderboardCacheLifetime)),
            ("PODIUM_BATCH_SIZE", "\(batchSize)"), ("PODIUM_BATCH_CONCURRENCY", "\(batchConcurrency)"),
            ("PODIUM_SYNC_INTERVAL_MS", milliseconds(syncInterval)), ("PODIUM_SCHEDULER_TICK_MS", milliseconds(schedulerTick)),
            ("PODIUM_STARTUP_WAIT_SECONDS", seconds(startupWait)), ("PODIUM_SHUTDOWN_GRACE_S", seconds(shutdownGrace)),
            ("PODIUM_LIVE_STREAM_SECONDS", seconds(http.liveStreamLifetime)),
            ("PODIUM_REPLICA_NAME", replicaName),
            ("PODIUM_WEBHOOK_TIMEOUT_MS", "\(Int(webhooks.timeout * 1000))"), ("PODIUM_WEBHOOK_MAX_ATTEMPTS", "\(webhooks.maxAttempts)"),
            ("PODIUM_WEBHOOK_BACKOFF_MS", "\(Int(webhooks.backoff * 1000))"),
            ("PODIUM_PLAYER_TOKEN_HS256_KEYS", http.playerTokens.hmacSecrets.isEmpty
                ? "(none)" : "key ids " + http.playerTokens.hmacSecrets.keys.sorted().joined(separator: ",") + " (secrets hidden)"),
            ("PODIUM_PLAYER_TOKEN_JWKS_FILE", jwksFile ?? "(none)"),
            ("PODIUM_PLAYER_TOKEN_MAX_LIFETIME_S", "\(Int(http.playerTokens.maxLifetime))"),
            ("PODIUM_PLAYER_TOKEN_AUDIENCE", http.playerTokens.audience ?? "(none)"),
            ("PODIUM_CORS_ORIGINS", http.cors.origins.isEmpty ? "(none)" : http.cors.origins.sorted().joined(separator: ",")),
            ("PODIUM_HEADER_TIMEOUT_MS", milliseconds(http.connections.headerTimeout)),
            ("PODIUM_BODY_TIMEOUT_MS", milliseconds(http.connections.bodyTimeout)),
            ("PODIUM_IDLE_TIMEOUT_MS", milliseconds(http.connections.idleTimeout)),
            ("PODIUM_MAX_CONNECTIONS", "\(http.connections.maxConnections)"),
            ("PODIUM_RATE_LIMITS", http.rateLimits.description),
            ("PODIUM_LOG_LEVEL", logLevel.rawValue), ("PODIUM_LOG_FORMAT", logFormat.rawValue), ("PODIUM_ACCESS_LOG", "\(http.accessLog)"),
        ]
    }

    /// `text` with every password replaced by `*****`: the one of a `scheme://user:password@host` URL, and every
    /// `password=` or `sslpassword=` field of a conninfo string (quoted or not) or of a URL's query.
    static func maskedPassword(in text: String) -> String {
        var masked = text
        if let scheme = masked.range(of: "://"), let at = masked.range(of: "@", range: scheme.upperBound..<masked.endIndex),
           let colon = masked.range(of: ":", range: scheme.upperBound..<at.lowerBound) {
            masked.replaceSubrange(colon.upperBound..<at.lowerBound, with: "*****")
        }
        return passwordField.stringByReplacingMatches(
            in: masked, range: NSRange(masked.startIndex..., in: masked), withTemplate: "$1password=*****")
    }

    /// A `password=` or `sslpassword=` field (not part of a longer name), with its value: quoted, or up to a space or `&`.
    private static let passwordField = try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9_])(ssl)?password\s*=\s*('(?:[^'\\]|\\.)*'|[^\s&]+)"#)

    /// Player token keys and limits from `PODIUM_PLAYER_TOKEN_*`.
    private static func playerTokens(
        value: (String) -> String?, integer: (String, Int) throws -> Int
    ) throws -> PlayerTokenSettings {
        var secrets: [String: String] = [:]
        for pair in (value("PODIUM_PLAYER_TOKEN_HS256_KEYS") ?? "").split(separator: ",") {
            let parts = pair.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            // Not quoted: it holds a secret.
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw SettingsError(message: "PODIUM_PLAYER_TOKEN_HS256_KEYS must look like kid1:secret1,kid2:secret2")
            }
            guard secrets.updateValue(parts[1], forKey: parts[0]) == nil else {
                throw SettingsError(message: "PODIUM_PLAYER_TOKEN_HS256_KEYS names key id \(parts[0]) twice")
            }
        }
        var jwks: String?
        if let path = value("PODIUM_PLAYER_TOKEN_JWKS_FILE") {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw SettingsError(message: "PODIUM_PLAYER_TOKEN_JWKS_FILE \(path) cannot be read")
            }
            jwks = String(decoding: data, as: UTF8.self)
        }
        return PlayerTokenSettings(
            hmacSecrets: secrets, jwks: jwks,
            maxLifetime: TimeInterval(min(86_400 * 366, max(1, try integer("PODIUM_PLAYER_TOKEN_MAX_LIFETIME_S", 3600)))),
            audience: value("PODIUM_PLAYER_TOKEN_AUDIENCE"))
    }

    /// The game rules: the rules file if set, else the defaults.
    func rules() throws -> GameRules {
        guard let rulesFile else { return GameRules() }
        return try Self.rules(fromFile: rulesFile, setting: "PODIUM_RULES_FILE")
    }

    /// The rules of the file at `path`; errors name the path, and the `setting` that named it when there is one.
    static func rules(fromFile path: String, setting: String?) throws -> GameRules {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
            throw SettingsError(message: setting.map { "\($0) names \(path), which \(reason)" } ?? "\(path) \(reason)")
        }
        do {
            return try RulesDocument.rules(from: data)
        } catch {
            throw SettingsError(message: (setting.map { "\($0) " } ?? "") + "\(path): \(error)")
        }
    }

    /// A logger at the configured level.
    func logger(_ label: String) -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = logLevel
        return logger
    }

    /// The PostgreSQL pool.
    func postgresPool(logger: Logger) -> PostgresPool {
        PostgresPool(configuration: PostgresConfiguration(connectionString: databaseURL, poolSize: postgresPoolSize), logger: logger)
    }

    /// The Redis pool.
    func redisPool(logger: Logger) throws -> RedisPool {
        var configuration = try RedisConfiguration(url: redisURL)
        configuration.poolSize = redisPoolSize
        configuration.readDeadline = redisReadDeadline
        return RedisPool(configuration: configuration, logger: logger)
    }
}

/// A setting that cannot be used.
struct SettingsError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
