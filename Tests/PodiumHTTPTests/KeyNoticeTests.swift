import Foundation
import Logging
import PodiumCore
@testable import PodiumHTTP
@testable import PodiumStore
import PodiumTestSupport
import Postgres
import Redis
import Testing

/// API keys across replicas: stores over one database of the test's own (notifications are per database), as two
/// processes would be, each with its own key directory.
@Suite("API keys across replicas", .timeLimit(.minutes(3)))
struct KeyNoticeTests {
    @Test("a key created or revoked on one replica is known to another by notification, although its copy never ages")
    func keysFollowNotifications() async throws {
        try await withOwnDatabase(on: HTTPHarness.databaseURL) { url in
            let logger = Logger(label: "podium-http-tests")
            func replica() async throws -> PodiumStorage {
                let postgres = PostgresPool(configuration: PostgresConfiguration(connectionString: url, poolSize: 4), logger: logger)
                try await Migrator(pool: postgres, logger: logger).migrate(try Migration.bundled())
                let redis = RedisClient(configuration: try RedisConfiguration(url: HTTPHarness.redisURL), logger: logger)
                return PodiumStorage(postgres: postgres, redis: redis, rules: GameRules(), logger: logger, now: { Date() })
            }
            let (first, second) = (try await replica(), try await replica())
            // The second replica's copy never grows old: only a notification can make it read the keys again.
            let frozen = ContinuousClock.now
            let directory = KeyDirectory.following(second, logger: logger, clock: { frozen })
            try await whileRunning([], listening: second.changes) {
                let early = try await first.apiKeys.create(name: "early", role: .read, now: Date())
                #expect(try await directory.grant(forHash: ApiKeyStore.hash(early.secret))?.id == early.key.id)
                let late = try await first.apiKeys.create(name: "late", role: .ingest, now: Date())
                try await eventually("the new key works on the second replica") {
                    try await directory.grant(forHash: ApiKeyStore.hash(late.secret)) != nil
                }
                #expect(try await first.apiKeys.revoke(id: early.key.id, now: Date()))
                try await eventually("the revoked key is refused on the second replica") {
                    try await directory.grant(forHash: ApiKeyStore.hash(early.secret)) == nil
                }
                #expect(try await directory.grant(forHash: ApiKeyStore.hash(late.secret))?.role == .ingest)
            }
            for storage in [first, second] {
                await storage.postgres.close()
                await storage.redis.close()
            }
        }
    }
}
