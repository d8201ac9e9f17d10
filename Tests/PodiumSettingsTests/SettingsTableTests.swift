import Foundation
import PodiumCore
import PodiumHTTP
@testable import PodiumSettings
import PodiumStore
import PodiumWebhooks
import Postgres
import Redis
import Testing

/// The one table of settings: the parser reads exactly its names, its defaults are the ones in force, `podium config`
/// shows every one, and the README's table is the table.
@Suite(.timeLimit(.minutes(5)))
struct SettingsTableTests {
    /// Every name in the table is read by the parser, and no other (a name outside the table would stop the process).
    @Test func theParserReadsEveryNameInTheTable() throws {
        let source = SettingsSource(environment: [:])
        _ = try Settings(source: source)
        #expect(Set(source.namesRead) == Set(SettingsTable.all.map(\.name)))
        #expect(SettingsTable.all.count == Set(SettingsTable.all.map(\.name)).count)
    }

    /// `podium config` lists every setting once, in the table's order, and none it cannot show.
    @Test func theSummaryShowsEverySettingInTableOrder() throws {
        let settings = try Settings(environment: [:])
        #expect(settings.summary().map(\.name) == SettingsTable.all.map(\.name))
        #expect(Set(settings.shownValues().keys) == Set(SettingsTable.all.map(\.name)))
    }

    /// With nothing set, the summary shows each table default as written (settings without one show what applies).
    @Test func unsetVariablesTakeTheTablesDefaults() throws {
        let summary = Dictionary(uniqueKeysWithValues: try Settings(environment: [:]).summary().map { ($0.name, $0.value) })
        for setting in SettingsTable.all {
            guard let defaultValue = setting.defaultValue else { continue }
            #expect(summary[setting.name] == defaultValue, "\(setting.name)")
        }
        #expect(summary["PODIUM_ADMIN_KEY"] == "(not set)")
        #expect(summary["PODIUM_CORS_ORIGINS"] == "(none)")
    }

    /// An empty variable counts as unset; a set one wins over the default.
    @Test func setVariablesWinAndEmptyOnesAreUnset() throws {
        let settings = try Settings(environment: ["PODIUM_PORT": "9090", "PODIUM_BATCH_SIZE": "", "PODIUM_ACCESS_LOG": "off"])
        #expect(settings.http.port == 9090)
        #expect(settings.batchSize == 128)
        #expect(settings.http.accessLog == false)
    }

    /// The defaults in the table are the ones the HTTP layer's own types start from, so tests and production agree.
    @Test func tableDefaultsMatchTheLibraryDefaults() throws {
        let settings = try Settings(environment: [:])
        #expect(settings.http.rateLimits.description == RateLimits().description)
        let rules = PlausibilityRules()
        #expect(settings.http.plausibility.minimumSecondsPerQuestion == rules.minimumSecondsPerQuestion)
        #expect(settings.http.plausibility.maximumPerMinute == rules.maximumPerMinute)
        #expect(settings.http.plausibility.repeatQuizWindow == rules.repeatQuizWindow)
        #expect(settings.batchSize == CompletionWriter.defaultMaxBatchSize)
        #expect(settings.batchConcurrency == CompletionWriter.defaultMaxConcurrentBatches)
        let limits = ConnectionLimits()
        #expect(settings.http.connections.headerTimeout == limits.headerTimeout)
        #expect(settings.http.connections.bodyTimeout == limits.bodyTimeout)
        #expect(settings.http.connections.idleTimeout == limits.idleTimeout)
        #expect(settings.http.connections.maxConnections == limits.maxConnections)
        #expect(settings.postgresPoolSize == PostgresConfiguration.defaultPoolSize)
        #expect(settings.redisPoolSize == RedisConfiguration.defaultPoolSize)
        #expect(settings.webhooks.maxAttempts == WebhookStore.defaultMaxAttempts)
        #expect(settings.http.webhookAttempts == WebhookStore.defaultMaxAttempts)
        #expect(settings.webhooks.timeout == WebhookSettings().timeout)
        #expect(settings.webhooks.backoff == WebhookSettings().backoff)
        #expect(settings.http.playerTokens.maxLifetime == PlayerTokenSettings().maxLifetime)
        #expect(settings.http.leaderboardCacheLifetime == HTTPSettings().leaderboardCacheLifetime)
        #expect(settings.http.liveStreamLifetime == HTTPSettings().liveStreamLifetime)
    }

    /// The public address loses a trailing slash and keeps a path, so display links join it with `/display/…`.
    @Test func thePublicAddressIsKeptWithoutItsTrailingSlash() throws {
        #expect(try Settings(environment: ["PODIUM_PUBLIC_URL": "https://podium.example.org/"]).http.publicURL == "https://podium.example.org")
        #expect(try Settings(environment: ["PODIUM_PUBLIC_URL": "http://school.example:8080/podium"]).http.publicURL
            == "http://school.example:8080/podium")
        #expect(try Settings(environment: [:]).http.publicURL == nil)
    }

    /// A value that cannot be used stops the start with a message naming the variable.
    @Test func badValuesNameTheVariable() {
        let cases: [(String, String)] = [
            ("PODIUM_PORT", "0"), ("PODIUM_PORT", "eighty"), ("PODIUM_PUBLIC_LEADERBOARDS", "maybe"),
            ("PODIUM_RATE_LIMITS", "ingest=lots"), ("PODIUM_LOG_LEVEL", "loud"), ("PODIUM_LOG_FORMAT", "xml"),
            ("PODIUM_DATABASE_URL", "host='unterminated"), ("PODIUM_DATABASE_READ_URL", "host='unterminated"),
            ("PODIUM_DATABASE_READ_MAX_LAG_MS", "1999"), ("PODIUM_DATABASE_READ_MAX_LAG_MS", "soon"),
            ("PODIUM_PUBLIC_URL", "podium.example.org"), ("PODIUM_PUBLIC_URL", "ftp://podium.example.org"),
            ("PODIUM_PUBLIC_URL", "https://podium.example.org/?x=1"), ("PODIUM_PUBLIC_URL", "https://podium.example.org/#top"),
        ]
        for (name, value) in cases {
            do {
                _ = try Settings(environment: [name: value])
                Issue.record("\(name)=\(value) was accepted")
            } catch {
                #expect((error as? SettingsError)?.message.contains(name) == true, "\(error)")
            }
        }
    }

    /// The README's configuration table is `SettingsTable.markdown` (`podium config --markdown` prints it).
    @Test func theReadmeTableIsTheTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex(of: "| variable | default | meaning |"))
        let table = lines[header...].prefix { $0.hasPrefix("|") }
        #expect(table.joined(separator: "\n") == SettingsTable.markdown)
    }
}
