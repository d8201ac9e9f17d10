import Foundation
import PodiumCore
import PodiumHTTP
import PodiumStore
import PodiumWebhooks
import Postgres
import Redis

/// One environment variable `podium serve` reads: its name, its default and what it does.
///
/// `SettingsTable.all` is the one list of them: `Settings` takes each default from it, `podium config` shows the
/// settings in its order, and the README's configuration table is `SettingsTable.markdown` (a test compares them).
public struct SettingDefinition: Sendable {
    /// The variable's name, such as `PODIUM_PORT`.
    public let name: String
    /// The value used when the variable is unset or empty, as it would be written; nil when there is none.
    public let defaultValue: String?
    /// What the README shows as the default when there is no default value ("unset", "host name and process id").
    public let unsetText: String
    /// What the setting does, in Markdown, as the README's table shows it.
    public let meaning: String

    /// A setting whose default is `defaultValue`.
    init(_ name: String, default defaultValue: String, _ meaning: String) {
        self.name = name
        self.defaultValue = defaultValue
        self.unsetText = ""
        self.meaning = meaning
    }

    /// A setting without a default value; `unset` says what applies instead.
    init(_ name: String, unset: String, _ meaning: String) {
        self.name = name
        self.defaultValue = nil
        self.unsetText = unset
        self.meaning = meaning
    }
}

/// Every setting of `podium serve`, in the order the README and `podium config` show them.
///
/// A default the code also needs (a pool's size, a timeout, a rate limit) is written once, where the code keeps it
/// (`HTTPSettings()`, `WebhookSettings()`, `CompletionWriter`, `PostgresConfiguration`...), and read from there.
public enum SettingsTable {
    /// The HTTP settings' defaults.
    private static let http = HTTPSettings()
    /// The webhook senders' defaults.
    private static let webhooks = WebhookSettings()

    /// The settings.
    public static let all: [SettingDefinition] = [
        SettingDefinition("PODIUM_DATABASE_URL", default: "host=127.0.0.1 port=5432 user=postgres dbname=podium",
            "libpq conninfo (or `postgres://` URI) of the PostgreSQL database (the truth); name a primary and its standbys as `host=a,b target_session_attrs=read-write` to follow a failover (ops/README.md)"),
        SettingDefinition("PODIUM_DATABASE_READ_URL", unset: "unset",
            "a streaming standby of that database for reads that may be slightly behind (profiles and their ranks, history, topic statistics, the events feed, snapshots and rank history); unset, every read goes to `PODIUM_DATABASE_URL` ([ops/README.md](ops/README.md#read-replicas))"),
        SettingDefinition("PODIUM_DATABASE_READ_MAX_LAG_MS", default: "5000",
            "while the standby of `PODIUM_DATABASE_READ_URL` is further behind the primary than this (or does not answer), its reads go to the primary; at least 2000 (the lag is measured every second)"),
        SettingDefinition("PODIUM_REDIS_URL", default: "redis://127.0.0.1:6379/0",
            "Redis holding the live rankings: `redis://[[user]:password@]host[:port][/db]` (a user is a Redis ACL user; percent-encode `@ : /`), or a Redis Cluster through seed nodes, `redis+cluster://[[user]:password@]host:port,host:port…` (ops/README.md, \"Redis Cluster\"); `rediss://` is refused, see ops/README.md, \"Redis over TLS\""),
        SettingDefinition("PODIUM_HOST", default: http.host,
            "address to listen on (`0.0.0.0` in the container image)"),
        SettingDefinition("PODIUM_PORT", default: "\(http.port)",
            "port to listen on, 1–65535"),
        SettingDefinition("PODIUM_ADMIN_KEY", unset: "unset",
            "bootstrap admin API key, never stored; surrounding spaces and newlines (as a secret file leaves them) are ignored"),
        SettingDefinition("PODIUM_ADMIN_KEY_FILE", unset: "unset",
            "instead of `PODIUM_ADMIN_KEY` (not both): a file holding the key (a Docker or Kubernetes secret), so it is not in the environment"),
        SettingDefinition("PODIUM_PUBLIC_LEADERBOARDS", default: "\(http.publicLeaderboards)",
            "`true`: leaderboard reads need no key (`true`/`false`, `yes`/`no` or `1`/`0`; anything else stops the start)"),
        SettingDefinition("PODIUM_RULES_FILE", unset: "unset",
            "JSON rules file (see below)"),
        SettingDefinition("PODIUM_PG_POOL_SIZE", default: "\(PostgresConfiguration.defaultPoolSize)",
            "PostgreSQL connections per replica"),
        SettingDefinition("PODIUM_REDIS_POOL_SIZE", default: "\(RedisConfiguration.defaultPoolSize)",
            "Redis connections per replica"),
        SettingDefinition("PODIUM_REDIS_READ_TIMEOUT_MS", default: "250",
            "longest wait for Redis on a read that PostgreSQL can answer (a hung Redis); `0`: none"),
        SettingDefinition("PODIUM_LEADERBOARD_CACHE_MS", default: milliseconds(http.leaderboardCacheLifetime),
            "how long a replica reuses a leaderboard answer it has computed, and on a Redis Cluster the players' names it read"),
        SettingDefinition("PODIUM_STARTUP_WAIT_SECONDS", default: "60",
            "how long `serve` waits for PostgreSQL at start, trying again with backoff and logging each try (it listens once migrations ran)"),
        SettingDefinition("PODIUM_SHUTDOWN_GRACE_S", default: "10",
            "how long `serve` takes at most to stop after SIGTERM or SIGINT: it answers every request already received, then cancels what still runs ([ops/README.md](ops/README.md#stopping-a-replica))"),
        SettingDefinition("PODIUM_LIVE_STREAM_SECONDS", default: seconds(http.liveStreamLifetime),
            "how long one live stream (`…/live`) stays open before the server ends it; clients reconnect with `Last-Event-ID`"),
        SettingDefinition("PODIUM_BATCH_SIZE", default: "\(CompletionWriter.defaultMaxBatchSize)",
            "most completions written together in one PostgreSQL transaction"),
        SettingDefinition("PODIUM_BATCH_CONCURRENCY", default: "\(CompletionWriter.defaultMaxConcurrentBatches)",
            "ingest transactions in flight at once: fewer, larger batches cost less CPU per completion (a third less than 4 on the 2-core development machine, ops/bench/HISTORY.md); raise it for a PostgreSQL with many cores"),
        SettingDefinition("PODIUM_SYNC_INTERVAL_MS", default: "2000",
            "how often the background PostgreSQL → Redis ranking sync looks for work (it asks Redis; PostgreSQL only when work waits, and every 30 s)"),
        SettingDefinition("PODIUM_SCHEDULER_TICK_MS", default: "1000",
            "the shortest time between two looks of a replica's scheduler for due slots and runs (it looks when something comes due or changes, and every 30 s; every tick while PostgreSQL notifications do not arrive)"),
        SettingDefinition("PODIUM_REPLICA_NAME", unset: "host name and process id",
            "this replica's name in run and delivery history"),
        SettingDefinition("PODIUM_WEBHOOK_TIMEOUT_MS", default: milliseconds(webhooks.timeout),
            "how long a webhook receiver may take to answer"),
        SettingDefinition("PODIUM_WEBHOOK_MAX_ATTEMPTS", default: "\(WebhookStore.defaultMaxAttempts)",
            "attempts per delivery before it is dead"),
        SettingDefinition("PODIUM_WEBHOOK_BACKOFF_MS", default: milliseconds(webhooks.backoff),
            "first retry delay; doubled per attempt, ±20 % jitter, at most 1 h"),
        SettingDefinition("PODIUM_PLAYER_TOKEN_HS256_KEYS", unset: "unset",
            "player token secrets as `kid:secret,kid:secret` (each 32+ bytes)"),
        SettingDefinition("PODIUM_PLAYER_TOKEN_JWKS_FILE", unset: "unset",
            "a JWKS file of ES256/RS256 public keys for player tokens, each with `kid` and `alg`"),
        SettingDefinition("PODIUM_PLAYER_TOKEN_MAX_LIFETIME_S", default: "\(Int(http.playerTokens.maxLifetime))",
            "the longest a player token may live (`exp` − `iat`)"),
        SettingDefinition("PODIUM_PLAYER_TOKEN_AUDIENCE", unset: "unset",
            "when set, a token that names an audience must name this one"),
        SettingDefinition("PODIUM_PUBLIC_URL", unset: "unset",
            "the address people open Podium's pages at (`https://podium.example.org`), for the display links made with display keys; unset: the address each request was sent to"),
        SettingDefinition("PODIUM_CORS_ORIGINS", unset: "unset",
            "comma-separated origins allowed to call the API from a browser; `http://localhost:*` allows any port (`bash ops/run.sh` sets loopback origins for development)"),
        SettingDefinition("PODIUM_HEADER_TIMEOUT_MS", default: milliseconds(http.connections.headerTimeout),
            "from connecting to the end of the first request's headers"),
        SettingDefinition("PODIUM_BODY_TIMEOUT_MS", default: milliseconds(http.connections.bodyTimeout),
            "from a request's headers to the end of its body"),
        SettingDefinition("PODIUM_IDLE_TIMEOUT_MS", default: milliseconds(http.connections.idleTimeout),
            "an idle keep-alive connection is closed after this"),
        SettingDefinition("PODIUM_MAX_CONNECTIONS", default: "\(http.connections.maxConnections)",
            "connections open at once per replica; at the limit the longest-idle keep-alive connection makes room for a new client; lowered to what the descriptor limit allows ([docs/ACCESS.md](docs/ACCESS.md#connections))"),
        SettingDefinition("PODIUM_RATE_LIMITS", default: http.rateLimits.description,
            "requests per minute (any subset)"),
        SettingDefinition("PODIUM_PLAYER_MIN_SECONDS_PER_QUESTION", default: number(http.plausibility.minimumSecondsPerQuestion),
            "a player token's completion needs `duration_ms` of at least this many seconds per question ([plausibility](docs/ACCESS.md#plausibility); `0` turns the rule off)"),
        SettingDefinition("PODIUM_PLAYER_MAX_COMPLETIONS_PER_MINUTE", default: "\(http.plausibility.maximumPerMinute)",
            "most completions of a player token finished within any 60 s by `completed_at` (plausibility; `0` turns the rule off)"),
        SettingDefinition("PODIUM_PLAYER_REPEAT_QUIZ_WINDOW_S", default: number(http.plausibility.repeatQuizWindow),
            "a player token's completion of the same quiz within this many seconds either side is refused (plausibility; `0` turns the rule off)"),
        SettingDefinition("PODIUM_LOG_LEVEL", default: "info",
            "`trace`, `debug`, `info`, `notice`, `warning`, `error`, `critical`"),
        SettingDefinition("PODIUM_LOG_FORMAT", default: "text",
            "`text` (lines for people) or `json` (one object per line: `time`, `level`, `logger`, `message`, `labels`)"),
        SettingDefinition("PODIUM_ACCESS_LOG", default: "\(http.accessLog)",
            "one `info` line per request (method, route template, status, duration, bytes, request id, key id or token subject); `false` turns them off"),
    ]

    /// `duration` in whole milliseconds, as the `_MS` settings are written (here and in `Settings.summary`).
    static func milliseconds(_ duration: Duration) -> String {
        "\(Int(duration.inSeconds * 1000))"
    }

    /// `interval` in whole milliseconds.
    static func milliseconds(_ interval: TimeInterval) -> String {
        "\(Int(interval * 1000))"
    }

    /// `duration` in whole seconds, as the `_SECONDS` settings are written.
    static func seconds(_ duration: Duration) -> String {
        "\(duration.components.seconds)"
    }

    /// `value` as written in a setting: without a fraction when it is whole (`1`, not `1.0`).
    private static func number(_ value: Double) -> String {
        value.rounded() == value ? "\(Int(value))" : "\(value)"
    }

    /// The settings by name.
    private static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The setting named `name`; reading a name that is not in the table is a programming error.
    static func definition(_ name: String) -> SettingDefinition {
        guard let definition = byName[name] else { preconditionFailure("\(name) is not in SettingsTable.all") }
        return definition
    }

    /// The README's configuration table (header included), one line per setting.
    public static var markdown: String {
        var lines = ["| variable | default | meaning |", "|---|---|---|"]
        for setting in all {
            let shownDefault = setting.defaultValue.map { "`\($0)`" } ?? setting.unsetText
            lines.append("| `\(setting.name)` | \(shownDefault) | \(setting.meaning) |")
        }
        return lines.joined(separator: "\n")
    }
}
