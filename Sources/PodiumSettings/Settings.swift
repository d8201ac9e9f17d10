import Foundation
import Logging
import PodiumCore
import PodiumHTTP
import PodiumScheduler
import PodiumWebhooks
import Postgres
import Redis

/// Podium's configuration, read from the environment. The variables, their defaults and their meaning are in
/// `SettingsTable`; every default comes from there.
public struct Settings: Sendable {
    /// libpq conninfo or URI of the database.
    public var databaseURL: String
    /// libpq conninfo or URI of a streaming standby for reads that may lag; nil: reads go to `databaseURL`.
    public var databaseReadURL: String?
    /// How far behind the standby may be and still take reads.
    public var databaseReadMaxLag: Duration
    /// The Redis URL.
    public var redisURL: String
    /// What the HTTP server and its routes need.
    public var http: HTTPSettings
    /// The file the bootstrap admin key was read from, as named.
    public var adminKeyFile: String?
    /// The rules file, as named.
    public var rulesFile: String?
    /// PostgreSQL connections per replica.
    public var postgresPoolSize: Int
    /// Redis connections per replica.
    public var redisPoolSize: Int
    /// How long a read with a PostgreSQL fallback waits for Redis; nil: no deadline.
    public var redisReadDeadline: Duration?
    /// Most completions written in one transaction.
    public var batchSize: Int
    /// Ingest transactions in flight at once.
    public var batchConcurrency: Int
    /// How often the ranking sync looks for work.
    public var syncInterval: Duration
    /// The shortest time between two looks of the scheduler.
    public var schedulerTick: Duration
    /// How long `serve` waits for PostgreSQL at start.
    public var startupWait: Duration
    /// How long `serve` may take to stop after SIGTERM or SIGINT.
    public var shutdownGrace: Duration
    /// This replica's name in run and delivery history.
    public var replicaName: String
    /// Webhook delivery limits.
    public var webhooks: WebhookSettings
    /// The least severe log level written.
    public var logLevel: Logger.Level
    /// Text or JSON log lines.
    public var logFormat: LogFormat
    /// The JWKS file player tokens are checked with, as named.
    public var jwksFile: String?

    /// Reads the settings from the process environment and installs the log format they name.
    public static func load() throws -> Settings {
        let settings = try Settings()
        settings.logFormat.bootstrap()
        return settings
    }

    /// Reads the settings from `environment`, each unset or empty variable at its default from `SettingsTable`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        try self.init(source: SettingsSource(environment: environment))
    }

    /// Reads the settings from `source`.
    init(source: SettingsSource) throws {
        let value = source.value
        func flag(_ name: String) throws -> Bool {
            switch source.text(name).lowercased() {
            case "0", "false", "no", "off": return false
            case "1", "true", "yes", "on": return true
            case let text: throw SettingsError(message: "\(name) must be true or false, got \(text)")
            }
        }
        func integer(_ name: String) throws -> Int {
            let text = source.text(name)
            guard let number = Int(text), number >= 0 else { throw SettingsError(message: "\(name) must be a whole number, got \(text)") }
            return number
        }
        databaseURL = source.text("PODIUM_DATABASE_URL")
        guard PostgresConfiguration.isReadable(connectionString: databaseURL) else {
            // Not quoted: it may hold a password.
            throw SettingsError(message: "PODIUM_DATABASE_URL is neither a libpq conninfo string (host=… dbname=…) nor a postgres:// URI")
        }
        databaseReadURL = source.value("PODIUM_DATABASE_READ_URL")
        if let readURL = databaseReadURL, !PostgresConfiguration.isReadable(connectionString: readURL) {
            throw SettingsError(message: "PODIUM_DATABASE_READ_URL is neither a libpq conninfo string (host=… dbname=…) nor a postgres:// URI")
        }
        let maxLag = try integer("PODIUM_DATABASE_READ_MAX_LAG_MS")
        // The standby is measured every second: a tighter bound would keep reads off it, or move them to and fro.
        guard maxLag >= 2000 else {
            throw SettingsError(message: "PODIUM_DATABASE_READ_MAX_LAG_MS must be at least 2000 (the lag is measured every second), got \(maxLag)")
        }
        databaseReadMaxLag = .milliseconds(maxLag)
        redisURL = source.text("PODIUM_REDIS_URL")
        let port = try integer("PODIUM_PORT")
        guard (1...65535).contains(port) else { throw SettingsError(message: "PODIUM_PORT must be 1 to 65535, got \(port)") }
        let publicLeaderboards = try flag("PODIUM_PUBLIC_LEADERBOARDS")
        var adminKey = value("PODIUM_ADMIN_KEY")
        adminKeyFile = value("PODIUM_ADMIN_KEY_FILE")
        if let path = adminKeyFile {
            guard adminKey == nil else { throw SettingsError(message: "set PODIUM_ADMIN_KEY or PODIUM_ADMIN_KEY_FILE, not both") }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw SettingsError(message: "PODIUM_ADMIN_KEY_FILE \(path) cannot be read")
            }
            adminKey = String(decoding: data, as: UTF8.self)
        }
        http = HTTPSettings(
            host: source.text("PODIUM_HOST"), port: port,
            // A key read from a secret file often ends in a newline; presented keys are trimmed too.
            bootstrapAdminKey: adminKey.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 },
            publicLeaderboards: publicLeaderboards,
            leaderboardCacheLifetime: .milliseconds(try integer("PODIUM_LEADERBOARD_CACHE_MS")),
            liveStreamLifetime: .seconds(max(1, try integer("PODIUM_LIVE_STREAM_SECONDS"))),
            accessLog: try flag("PODIUM_ACCESS_LOG"))
        rulesFile = value("PODIUM_RULES_FILE")
        postgresPoolSize = max(2, try integer("PODIUM_PG_POOL_SIZE"))
        redisPoolSize = max(2, try integer("PODIUM_REDIS_POOL_SIZE"))
        let readTimeout = try integer("PODIUM_REDIS_READ_TIMEOUT_MS")
        redisReadDeadline = readTimeout == 0 ? nil : .milliseconds(readTimeout)
        batchSize = max(1, try integer("PODIUM_BATCH_SIZE"))
        batchConcurrency = max(1, try integer("PODIUM_BATCH_CONCURRENCY"))
        syncInterval = .milliseconds(max(100, try integer("PODIUM_SYNC_INTERVAL_MS")))
        webhooks = WebhookSettings(
            maxAttempts: max(1, try integer("PODIUM_WEBHOOK_MAX_ATTEMPTS")),
            timeout: Double(max(100, try integer("PODIUM_WEBHOOK_TIMEOUT_MS"))) / 1000,
            backoff: Double(try integer("PODIUM_WEBHOOK_BACKOFF_MS")) / 1000)
        http.webhookAttempts = webhooks.maxAttempts
        jwksFile = value("PODIUM_PLAYER_TOKEN_JWKS_FILE")
        http.playerTokens = try Self.playerTokens(value: value, integer: integer)
        http.cors = CORSPolicy(origins: Set((value("PODIUM_CORS_ORIGINS") ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }))
        http.publicURL = try Self.publicURL(value("PODIUM_PUBLIC_URL"))
        let rateLimits = source.text("PODIUM_RATE_LIMITS")
        guard let limits = RateLimits.parse(rateLimits) else {
            throw SettingsError(
                message: "PODIUM_RATE_LIMITS must look like \(SettingsTable.definition("PODIUM_RATE_LIMITS").defaultValue ?? ""), got \(rateLimits)")
        }
        http.rateLimits = limits
        // Values are kept within sane bounds (an hour a question, a day for any timeout): larger ones only overflow.
        http.plausibility = PlausibilityRules(
            minimumSecondsPerQuestion: Double(min(3600, try integer("PODIUM_PLAYER_MIN_SECONDS_PER_QUESTION"))),
            maximumPerMinute: min(1_000_000, try integer("PODIUM_PLAYER_MAX_COMPLETIONS_PER_MINUTE")),
            repeatQuizWindow: TimeInterval(min(86_400 * 366, try integer("PODIUM_PLAYER_REPEAT_QUIZ_WINDOW_S"))))
        func timeout(_ name: String) throws -> Duration {
            .milliseconds(min(86_400_000, max(100, try integer(name))))
        }
        http.connections = ConnectionLimits(
            headerTimeout: try timeout("PODIUM_HEADER_TIMEOUT_MS"), bodyTimeout: try timeout("PODIUM_BODY_TIMEOUT_MS"),
            idleTimeout: try timeout("PODIUM_IDLE_TIMEOUT_MS"),
            maxConnections: min(1_000_000, max(1, try integer("PODIUM_MAX_CONNECTIONS"))))
        schedulerTick = .milliseconds(max(50, try integer("PODIUM_SCHEDULER_TICK_MS")))
        startupWait = .seconds(try integer("PODIUM_STARTUP_WAIT_SECONDS"))
        shutdownGrace = .seconds(min(3600, max(1, try integer("PODIUM_SHUTDOWN_GRACE_S"))))
        replicaName = value("PODIUM_REPLICA_NAME") ?? Scheduler.defaultReplicaName()
        guard let level = Logger.Level(rawValue: source.text("PODIUM_LOG_LEVEL")) else {
            throw SettingsError(message: "PODIUM_LOG_LEVEL must be one of trace, debug, info, notice, warning, error, critical")
        }
        logLevel = level
        let formatName = source.text("PODIUM_LOG_FORMAT")
        guard let format = LogFormat(rawValue: formatName) else {
            throw SettingsError(message: "PODIUM_LOG_FORMAT must be text or json, got \(formatName)")
        }
        logFormat = format
    }

    /// The effective configuration, one setting a line, secrets masked: what `podium config` prints and `serve` logs at start.
    ///
    /// Passwords in the database and Redis addresses, the admin key and the player token secrets are never shown,
    /// only whether they are set (and the token key ids).
    /// Settings are listed in `SettingsTable` order.
    public func summary() -> [(name: String, value: String)] {
        let shown = shownValues()
        return SettingsTable.all.map { ($0.name, shown[$0.name] ?? "(not shown)") }
    }

    /// `PODIUM_PUBLIC_URL` checked: an `http` or `https` address with a host, and perhaps a path, but no query or
    /// fragment; a trailing slash is dropped.
    static func publicURL(_ text: String?) throws -> String? {
        guard let text else { return nil }
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        guard let url = URL(string: trimmed), ["http", "https"].contains(url.scheme ?? ""), !(url.host ?? "").isEmpty,
              url.query == nil, url.fragment == nil, url.user == nil
        else {
            throw SettingsError(message: "PODIUM_PUBLIC_URL must be an http or https address such as https://podium.school.example, got \(text)")
        }
        return trimmed
    }

    /// Each setting's effective value as `summary` shows it, by name.
    func shownValues() -> [String: String] {
        let (seconds, milliseconds) = (SettingsTable.seconds, SettingsTable.milliseconds as (Duration) -> String)
        return Dictionary(uniqueKeysWithValues: [
            ("PODIUM_DATABASE_URL", Self.maskedPassword(in: databaseURL)),
            ("PODIUM_DATABASE_READ_URL", databaseReadURL.map(Self.maskedPassword(in:)) ?? "(not set)"),
            ("PODIUM_DATABASE_READ_MAX_LAG_MS", milliseconds(databaseReadMaxLag)),
            ("PODIUM_REDIS_URL", Self.maskedPassword(in: redisURL)),
            ("PODIUM_HOST", http.host), ("PODIUM_PORT", "\(http.port)"),
            ("PODIUM_ADMIN_KEY", http.bootstrapAdminKey == nil ? "(not set)" : "(set, hidden)"),
            ("PODIUM_ADMIN_KEY_FILE", adminKeyFile ?? "(not set)"),
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
            ("PODIUM_WEBHOOK_TIMEOUT_MS", SettingsTable.milliseconds(webhooks.timeout)), ("PODIUM_WEBHOOK_MAX_ATTEMPTS", "\(webhooks.maxAttempts)"),
            ("PODIUM_WEBHOOK_BACKOFF_MS", SettingsTable.milliseconds(webhooks.backoff)),
            ("PODIUM_PLAYER_TOKEN_HS256_KEYS", http.playerTokens.hmacSecrets.isEmpty
                ? "(none)" : "key ids " + http.playerTokens.hmacSecrets.keys.sorted().joined(separator: ",") + " (secrets hidden)"),
            ("PODIUM_PLAYER_TOKEN_JWKS_FILE", jwksFile ?? "(none)"),
            ("PODIUM_PLAYER_TOKEN_MAX_LIFETIME_S", "\(Int(http.playerTokens.maxLifetime))"),
            ("PODIUM_PLAYER_TOKEN_AUDIENCE", http.playerTokens.audience ?? "(none)"),
            ("PODIUM_PUBLIC_URL", http.publicURL ?? "(from each request's Host)"),
            ("PODIUM_CORS_ORIGINS", http.cors.origins.isEmpty ? "(none)" : http.cors.origins.sorted().joined(separator: ",")),
            ("PODIUM_HEADER_TIMEOUT_MS", milliseconds(http.connections.headerTimeout)),
            ("PODIUM_BODY_TIMEOUT_MS", milliseconds(http.connections.bodyTimeout)),
            ("PODIUM_IDLE_TIMEOUT_MS", milliseconds(http.connections.idleTimeout)),
            ("PODIUM_MAX_CONNECTIONS", "\(http.connections.maxConnections)"),
            ("PODIUM_RATE_LIMITS", http.rateLimits.description),
            ("PODIUM_PLAYER_MIN_SECONDS_PER_QUESTION", "\(Int(http.plausibility.minimumSecondsPerQuestion))"),
            ("PODIUM_PLAYER_MAX_COMPLETIONS_PER_MINUTE", "\(http.plausibility.maximumPerMinute)"),
            ("PODIUM_PLAYER_REPEAT_QUIZ_WINDOW_S", "\(Int(http.plausibility.repeatQuizWindow))"),
            ("PODIUM_LOG_LEVEL", logLevel.rawValue), ("PODIUM_LOG_FORMAT", logFormat.rawValue), ("PODIUM_ACCESS_LOG", "\(http.accessLog)"),
        ])
    }

    /// `text` with every password replaced by `*****`: the one of a `scheme://user:password@host` URL, and every
    /// `password=` or `sslpassword=` field of a conninfo string (quoted or not) or of a URL's query.
    public static func maskedPassword(in text: String) -> String {
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
        value: (String) -> String?, integer: (String) throws -> Int
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
            maxLifetime: TimeInterval(min(86_400 * 366, max(1, try integer("PODIUM_PLAYER_TOKEN_MAX_LIFETIME_S")))),
            audience: value("PODIUM_PLAYER_TOKEN_AUDIENCE"))
    }

    /// The game rules: the rules file if set, else the defaults.
    public func rules() throws -> GameRules {
        guard let rulesFile else { return GameRules() }
        return try Self.rules(fromFile: rulesFile, setting: "PODIUM_RULES_FILE")
    }

    /// The rules of the file at `path`; errors name the path, and the `setting` that named it when there is one.
    public static func rules(fromFile path: String, setting: String?) throws -> GameRules {
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
    public func logger(_ label: String) -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = logLevel
        return logger
    }

    /// The PostgreSQL pool.
    public func postgresPool(logger: Logger) -> PostgresPool {
        PostgresPool(configuration: PostgresConfiguration(connectionString: databaseURL, poolSize: postgresPoolSize), logger: logger)
    }

    /// The pool of the standby for reads that may lag, when `PODIUM_DATABASE_READ_URL` names one.
    public func postgresReadPool(logger: Logger) -> PostgresPool? {
        databaseReadURL.map {
            PostgresPool(configuration: PostgresConfiguration(connectionString: $0, poolSize: postgresPoolSize), logger: logger)
        }
    }

    /// The Redis client: one server's pool, or a pool per primary of a cluster (`redis+cluster://`).
    public func redisClient(logger: Logger) throws -> RedisClient {
        var configuration = try RedisConfiguration(url: redisURL)
        configuration.poolSize = redisPoolSize
        configuration.readDeadline = redisReadDeadline
        return RedisClient(configuration: configuration, logger: logger)
    }
}

/// The environment as `Settings` reads it: each variable's value, or its default from `SettingsTable` when it is unset
/// or empty. It remembers the names read, so a test can check that every setting in the table is read.
final class SettingsSource {
    private let environment: [String: String]
    /// The names read so far, in order.
    private(set) var namesRead: [String] = []

    /// Reads from `environment`.
    init(environment: [String: String]) {
        self.environment = environment
    }

    /// The variable's value or its default; nil when it has neither.
    func value(_ name: String) -> String? {
        let definition = SettingsTable.definition(name)
        namesRead.append(name)
        return environment[name].flatMap { $0.isEmpty ? nil : $0 } ?? definition.defaultValue
    }

    /// The value of a variable the table gives a default.
    func text(_ name: String) -> String {
        guard let text = value(name) else { preconditionFailure("\(name) has no default in SettingsTable.all") }
        return text
    }
}

/// A setting that cannot be used.
public struct SettingsError: Error, CustomStringConvertible {
    /// What is wrong, naming the variable.
    public let message: String
    /// The message.
    public var description: String { message }
}
