import Foundation
import Logging
import PodiumCore
import PodiumScheduler
import PodiumSettings
import PodiumStore
import Postgres
import Redis

/// The pools and stores a command works with, opened from the settings.
struct Runtime {
    let settings: Settings
    let logger: Logger
    let storage: PodiumStorage
    let runs: JobRunStore
    /// The pools behind `storage` and `runs`, which this runtime opened: `serve` runs them as services of its group,
    /// other commands close them (`with`).
    let postgres: PostgresPool
    let redis: RedisClient
    /// The standby's pool for reads that may lag (`PODIUM_DATABASE_READ_URL`), if one is named.
    let standby: PostgresPool?
    #if PODIUM_FAULT_HOOKS
    /// The drills' gates (`serve --test-job-gate`, `--test-close-pages`); debug builds only.
    var faults = FaultHooks()
    #endif

    /// Opens pools and builds the stores (nothing connects until first use).
    init(settings: Settings) throws {
        self.settings = settings
        logger = settings.logger("podium")
        let rules = try settings.rules()
        postgres = settings.postgresPool(logger: logger)
        redis = try settings.redisClient(logger: logger)
        standby = settings.postgresReadPool(logger: logger)
        let replica = ReadReplica(primary: postgres, standby: standby, maxLag: settings.databaseReadMaxLag, logger: logger)
        storage = PodiumStorage(
            postgres: postgres, replica: replica, redis: redis, rules: rules,
            logger: logger, now: { Date() }, maxBatchSize: settings.batchSize, maxConcurrentBatches: settings.batchConcurrency,
            playerValueLifetime: settings.http.leaderboardCacheLifetime)
        runs = JobRunStore(postgres: postgres)
    }

    /// The scheduler with every built-in job.
    func scheduler() -> Scheduler {
        var jobs = BuiltInJobs.all(storage: storage, runs: runs)
        #if PODIUM_FAULT_HOOKS
        jobs = faults.gate(jobs, storage: storage, postgres: postgres)
        #endif
        return Scheduler(
            store: runs, settings: storage.rules.scheduler, jobs: jobs, replica: settings.replicaName, now: { Date() }, logger: logger)
    }

    /// Applies pending migrations.
    func migrate() async throws -> [Int] {
        try await Migrator(pool: postgres, logger: logger).migrate(try Migration.bundled())
    }

    /// Applies pending migrations once PostgreSQL answers: a replica started before its database (a compose stack,
    /// a restart) tries again with backoff (0.5 s doubling to 5 s), logging each try, for at most `wait`.
    func migrateWhenPostgreSQLAnswers(within wait: Duration) async throws -> [Int] {
        let deadline = ContinuousClock.now + wait
        var delay = Duration.milliseconds(500)
        var attempt = 1
        while true {
            do {
                return try await migrate()
            } catch let error where StoreError(classifying: error)?.unavailableService == .postgreSQL {
                guard ContinuousClock.now + delay < deadline else { throw error }
                logger.warning("PostgreSQL does not answer yet; trying again", metadata: [
                    "attempt": "\(attempt)", "retry_in": "\(delay)", "error": "\(error)"])
                try await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(5))
                attempt += 1
            }
        }
    }

    /// Closes the pools.
    func close() async {
        await postgres.close()
        await standby?.close()
        await redis.close()
    }

    /// Runs `body` with a runtime, closing the pools afterwards whatever happens.
    static func with<T>(_ body: (Runtime) async throws -> T) async throws -> T {
        let runtime = try Runtime(settings: try Settings.load())
        do {
            // Jobs and period closes need the contests. Before the first migration there is no table to read: a
            // command then meets the missing schema itself, or (migrate) creates it.
            _ = try? await runtime.storage.contests.refresh()
            let result = try await body(runtime)
            await runtime.close()
            return result
        } catch {
            await runtime.close()
            throw error
        }
    }
}
