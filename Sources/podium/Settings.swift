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
/// | `PODIUM_LEADERBOARD_CACHE_MS` | `1000` |
/// | `PODIUM_BATCH_SIZE`, `PODIUM_BATCH_CONCURRENCY` | `128`, `4` |
/// | `PODIUM_SYNC_INTERVAL_MS` | `2000` |
/// | `PODIUM_SCHEDULER_TICK_MS` | `1000` |
/// | `PODIUM_STARTUP_WAIT_SECONDS` | `60`: how long `serve` waits for PostgreSQL before giving up |
/// | `PODIUM_LIVE_STREAM_SECONDS` | `300` |
/// | `PODIUM_REPLICA_NAME` | host name and process id |
/// | `PODIUM_WEBHOOK_TIMEOUT_MS`, `PODIUM_WEBHOOK_MAX_ATTEMPTS`, `PODIUM_WEBHOOK_BACKOFF_MS` | `5000`, `8`, `2000` |
/// | `PODIUM_TEST_JOB_DELAY` | none; `<job>=<ms>` makes a job sleep first (fault injection for tests) |
/// | `PODIUM_PLAYER_TOKEN_HS256_KEYS` | none; `kid:secret,kid:secret` (each secret 32+ bytes) |
/// | `PODIUM_PLAYER_TOKEN_JWKS_FILE` | none; a JWKS file of ES256/RS256 public keys, each with `kid` and `alg` |
/// | `PODIUM_PLAYER_TOKEN_MAX_LIFETIME_S`, `PODIUM_PLAYER_TOKEN_AUDIENCE` | `3600`, none |
/// | `PODIUM_CORS_ORIGINS` | none; comma-separated origins such as `https://quiz.example.org` |
/// | `PODIUM_HEADER_TIMEOUT_MS`, `PODIUM_BODY_TIMEOUT_MS`, `PODIUM_IDLE_TIMEOUT_MS` | `10000`, `30000`, `60000` |
/// | `PODIUM_MAX_CONNECTIONS` | `4096` |
/// | `PODIUM_RATE_LIMITS` | `ingest=6000,read=6000,display=1200,admin=600,player=120,failed-auth=60` (per minute) |
/// | `PODIUM_PLAYER_MIN_SECONDS_PER_QUESTION`, `PODIUM_PLAYER_MAX_COMPLETIONS_PER_MINUTE`, `PODIUM_PLAYER_REPEAT_QUIZ_WINDOW_S` | `1`, `6`, `60` |
/// | `PODIUM_LOG_LEVEL` | `info` |
struct Settings {
    var databaseURL: String
    var redisURL: String
    var http: HTTPSettings
    var rulesFile: String?
    var postgresPoolSize: Int
    var redisPoolSize: Int
    var batchSize: Int
    var batchConcurrency: Int
    var syncInterval: Duration
    var schedulerTick: Duration
    /// How long `serve` waits for PostgreSQL at start.
    var startupWait: Duration
    var replicaName: String
    var testJobDelay: (job: String, delay: Duration)?
    var webhooks: WebhookSettings
    var logLevel: Logger.Level

    /// Reads the settings from `environment`.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
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
        let publicLeaderboards: Bool
        switch value("PODIUM_PUBLIC_LEADERBOARDS")?.lowercased() {
        case nil, "0", "false", "no": publicLeaderboards = false
        case "1", "true", "yes": publicLeaderboards = true
        case let text?: throw SettingsError(message: "PODIUM_PUBLIC_LEADERBOARDS must be true or false, got \(text)")
        }
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
            liveStreamLifetime: .seconds(max(1, try integer("PODIUM_LIVE_STREAM_SECONDS", 300))))
        rulesFile = value("PODIUM_RULES_FILE")
        postgresPoolSize = max(2, try integer("PODIUM_PG_POOL_SIZE", 16))
        redisPoolSize = max(2, try integer("PODIUM_REDIS_POOL_SIZE", 16))
        batchSize = max(1, try integer("PODIUM_BATCH_SIZE", 128))
        batchConcurrency = max(1, try integer("PODIUM_BATCH_CONCURRENCY", 4))
        syncInterval = .milliseconds(max(100, try integer("PODIUM_SYNC_INTERVAL_MS", 2000)))
        webhooks = WebhookSettings(
            maxAttempts: max(1, try integer("PODIUM_WEBHOOK_MAX_ATTEMPTS", 8)),
            timeout: Double(max(100, try integer("PODIUM_WEBHOOK_TIMEOUT_MS", 5000))) / 1000,
            backoff: Double(try integer("PODIUM_WEBHOOK_BACKOFF_MS", 2000)) / 1000)
        http.webhookAttempts = webhooks.maxAttempts
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
    }

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
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: rulesFile))
        } catch {
            let reason = FileManager.default.fileExists(atPath: rulesFile) ? "cannot be read" : "does not exist"
            throw SettingsError(message: "PODIUM_RULES_FILE names \(rulesFile), which \(reason)")
        }
        do {
            return try RulesDocument.rules(from: data)
        } catch {
            throw SettingsError(message: "PODIUM_RULES_FILE \(rulesFile): \(error)")
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
        return RedisPool(configuration: configuration, logger: logger)
    }
}

/// A setting that cannot be used.
struct SettingsError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
