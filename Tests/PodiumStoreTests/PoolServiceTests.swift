import Foundation
import Postgres
import Redis
import ServiceLifecycle
import Synchronization
import Testing

@Suite("Connection pools as services of a service group", .timeLimit(.minutes(5)))
struct PoolServiceTests {
    /// A service that, once the group shuts down, still reads from both pools (as the HTTP server drains).
    final class LastReader: Service, Sendable {
        let postgres: PostgresPool
        let redis: RedisClient
        let reads = Mutex<[String]>([])

        init(postgres: PostgresPool, redis: RedisClient) {
            (self.postgres, self.redis) = (postgres, redis)
        }

        func run() async throws {
            try? await gracefulShutdown()
            let one = try await postgres.query("SELECT 1 AS one").rows[0].int("one")
            let pong = try await redis.command(["PING"]).string ?? "-"
            reads.withLock { $0 += [String(one), pong] }
        }
    }

    @Test("listed first, the pools close after every service listed after them, and are closed once the group ends")
    func poolsCloseLast() async throws {
        let postgres = try await StoreTestEnvironment.postgres(poolSize: 2)
        let redis = try StoreTestEnvironment.redis()
        let reader = LastReader(postgres: postgres, redis: redis)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: postgres), .init(service: redis), .init(service: reader)], logger: StoreTestEnvironment.logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(reader.reads.withLock { $0 } == ["1", "PONG"], "both pools answered the last service's shutdown")
        await #expect(throws: (any Error).self) { try await postgres.query("SELECT 1") }
        await #expect(throws: (any Error).self) { try await redis.command(["PING"]) }
    }

    @Test("a cancelled group leaves the pools open for what still winds down beside them")
    func cancelledGroupLeavesPoolsOpen() async throws {
        let postgres = try await StoreTestEnvironment.postgres(poolSize: 2)
        let redis = try StoreTestEnvironment.redis()
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: postgres), .init(service: redis)], logger: StoreTestEnvironment.logger))
        let running = Task { try await group.run() }
        running.cancel()
        _ = try? await running.value
        #expect(try await postgres.query("SELECT 1 AS one").rows[0].int("one") == 1)
        #expect(try await redis.command(["PING"]).string == "PONG")
        await postgres.close()
        await redis.close()
    }
}
