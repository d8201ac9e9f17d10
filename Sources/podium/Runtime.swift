import Foundation
import Logging
import PodiumCore
import PodiumStore
import Postgres
import Redis

/// The pools and stores a command works with, opened from the settings.
struct Runtime {
    let settings: Settings
    let logger: Logger
    let storage: PodiumStorage

    /// Opens pools and builds the stores (nothing connects until first use).
    init(settings: Settings) throws {
        self.settings = settings
        logger = settings.logger("podium")
        let rules = try settings.rules()
        storage = PodiumStorage(
            postgres: settings.postgresPool(logger: logger), redis: try settings.redisPool(logger: logger), rules: rules,
            logger: logger, now: { Date() }, maxBatchSize: settings.batchSize, maxConcurrentBatches: settings.batchConcurrency)
    }

    /// Applies pending migrations.
    func migrate() async throws -> [Int] {
        try await Migrator(pool: storage.postgres, logger: logger).migrate(try Migration.bundled())
    }

    /// Closes both pools.
    func close() async {
        await storage.postgres.close()
        await storage.redis.close()
    }

    /// Runs `body` with a runtime, closing the pools afterwards whatever happens.
    static func with<T>(_ body: (Runtime) async throws -> T) async throws -> T {
        let runtime = try Runtime(settings: try Settings())
        do {
            let result = try await body(runtime)
            await runtime.close()
            return result
        } catch {
            await runtime.close()
            throw error
        }
    }
}
