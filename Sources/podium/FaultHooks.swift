#if PODIUM_FAULT_HOOKS
import ArgumentParser
import PodiumScheduler
import PodiumStore
import Postgres

/// Fault injection for the multi-process drills, compiled into debug builds only (`PODIUM_FAULT_HOOKS`, Package.swift):
/// the release binary that ships has neither these options nor the gates. The drills run `.build/debug/podium`.
struct FaultHooks: ParsableArguments {
    /// `<job>=<lock>` makes that job wait, before it works, while a test holds PostgreSQL advisory lock `<lock>`
    /// (`TestGate`); for the multi-process scheduler tests.
    @Option(name: .customLong("test-job-gate"), help: .hidden) var jobGate: JobGate?
    /// `<size>=<lock>` makes close-periods close pages of `<size>` periods and wait after each while a test holds
    /// advisory lock `<lock>`; for the league close drill.
    @Option(name: .customLong("test-close-pages"), help: .hidden) var closePages: ClosePages?

    /// `jobs` with the gated job wrapped in its gate and close-periods paged, as the options ask.
    func gate(_ jobs: [any ScheduledJob], storage: PodiumStorage, postgres: PostgresPool) -> [any ScheduledJob] {
        var jobs = jobs
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
        return jobs
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
            try connection.execute("SET LOCAL statement_timeout = '4min'")
            try connection.run(WaitAtGate(lock: lock))
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

/// Waits while a test holds the gate's lock exclusively, then lets it go at once (shared, until the transaction ends).
private struct WaitAtGate: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT pg_advisory_xact_lock_shared(\(\.lock))"
    typealias Row = NoRows
    let lock: Int64
}
#endif
