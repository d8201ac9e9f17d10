import ArgumentParser
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
    /// A job made to wait at a test's gate before working (`serve --test-job-gate`), if any.
    let jobGate: JobGate?
    /// Small pages for close-periods, each followed by a test's gate (`serve --test-close-pages`), if any.
    let closePages: ClosePages?

    /// Opens pools and builds the stores (nothing connects until first use).
    init(settings: Settings, jobGate: JobGate? = nil, closePages: ClosePages? = nil) throws {
        self.settings = settings
        self.jobGate = jobGate
        self.closePages = closePages
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
        if let jobGate {
            let gate = TestGate(lock: jobGate.lock, postgres: postgres)
            jobs = jobs.map { $0.name == jobGate.job ? GatedJob(job: $0, gate: gate) : $0 }
        }
        if let closePages {
            let gate = TestGate(lock: closePages.lock, postgres: postgres)
            let job = ClosePeriodsJob(
                periods: storage.periods, closing: storage.closing, pageSize: closePages.size, afterPage: { try await gate.pass() })
            jobs = jobs.map { $0.name == job.name ? job : $0 }
        }
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

/// Fault injection for the multi-process drills: a gate a test holds shut, so that it can kill a replica at a known
/// point of a job's run instead of within a window of time. Passing it takes PostgreSQL advisory lock `lock` shared, in
/// a transaction of its own, and lets it go at once: it waits while a test holds that lock exclusively
/// (`pg_advisory_lock(lock)`), and a test sees the waiter in `pg_locks`.
struct TestGate: Sendable {
    /// The advisory lock's key.
    let lock: Int64
    /// The pool whose database the test locks in (advisory locks belong to one database).
    let postgres: PostgresPool

    /// Returns once the gate is open; fails after four minutes shut (the pool's 30 s statement timeout would end the
    /// wait while a slow machine's test still holds the gate on purpose).
    func pass() async throws {
        try await postgres.withTransaction { connection in
            _ = try connection.query("SET LOCAL statement_timeout = '4min'")
            _ = try connection.query("SELECT pg_advisory_xact_lock_shared($1)", [lock])
        }
    }
}

/// `serve --test-job-gate <job>=<lock>` (hidden from help): that job passes a `TestGate` before it works.
struct JobGate: ExpressibleByArgument, Sendable {
    /// The job's name.
    let job: String
    /// The gate's advisory lock.
    let lock: Int64

    /// Reads `<job>=<lock>`.
    init?(argument: String) {
        let parts = argument.split(separator: "=")
        guard parts.count == 2, let lock = Int64(parts[1]) else { return nil }
        job = String(parts[0])
        self.lock = lock
    }
}

/// `serve --test-close-pages <size>=<lock>` (hidden from help): close-periods closes `size` periods per transaction
/// (two pages at once, as it ships) and passes a `TestGate` after each page, so a test can kill its replica between
/// the pages of one run.
struct ClosePages: ExpressibleByArgument, Sendable {
    /// Periods per page.
    let size: Int
    /// The gate's advisory lock.
    let lock: Int64

    /// Reads `<size>=<lock>`.
    init?(argument: String) {
        let parts = argument.split(separator: "=")
        guard parts.count == 2, let size = Int(parts[0]), size > 0, let lock = Int64(parts[1]) else { return nil }
        self.size = size
        self.lock = lock
    }
}

/// A job that passes a `TestGate` before it works (`JobGate`).
struct GatedJob: ScheduledJob {
    /// The job that works once the gate is passed.
    let job: any ScheduledJob
    /// The gate passed first.
    let gate: TestGate

    /// The gated job's name.
    var name: String { job.name }

    /// Passes the gate, then runs the job.
    func run(_ context: JobContext) async throws -> [String: Int] {
        try await gate.pass()
        return try await job.run(context)
    }
}
