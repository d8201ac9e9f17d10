import Foundation
import Logging
import PodiumCore
import PodiumScheduler
import PodiumStore
import PodiumTestSupport
import Postgres
import Testing

/// When a replica's scheduler ticks next, on an injected clock, and the notices its writes send.
@Suite("Scheduler: the next tick", .timeLimit(.minutes(3)))
struct NextTickTests {
    /// A scheduler of `jobs` (name and cron, UTC, backoff 10 s, lease 60 s) as replica `replica`.
    func scheduler(_ jobs: [(RecordingJob, String)], store: JobRunStore, clock: TestClock, replica: String) throws -> Scheduler {
        let utc = try #require(TimeZone(identifier: "UTC"))
        let settings = SchedulerSettings(jobs: try jobs.map { job, cron in
            JobSettings(name: job.name, schedule: CronSchedule(expression: try CronExpression(cron), timeZone: utc), backoff: 10)
        })
        return Scheduler(
            store: store, settings: settings, jobs: jobs.map(\.0), replica: replica, now: { clock.now }, logger: SchedulerTestEnvironment.logger)
    }

    @Test("the next tick is the next slot of a job not paused, a stored retry or another replica's lease expiry, whichever is first")
    func nextTickFollowsSlotsRetriesPausesAndLeases() async throws {
        let store = JobRunStore(postgres: try await SchedulerTestEnvironment.postgres())
        let clock = TestClock(instant("2026-11-21T10:00:00Z"))
        let hourly = RecordingJob(name: SchedulerTestEnvironment.uniqueJob("hourly"))
        let flaky = RecordingJob(name: SchedulerTestEnvironment.uniqueJob("flaky"), failures: 1)
        let jobs = [(hourly, "0 * * * *"), (flaky, "0 10 * * *")]
        let first = try scheduler(jobs, store: store, clock: clock, replica: "first")
        #expect(first.nextTick(after: clock.now) == nil, "nothing read yet")

        #expect(Set(await first.tick().map(\.outcome)) == [.succeeded, .failed])
        // The tick after the runs (the service ticks when a run ends) reads the retry, 10 s after the failure.
        #expect(await first.tick().isEmpty)
        #expect(first.nextTick(after: clock.now) == instant("2026-11-21T10:00:10Z"))

        clock.advance(10)
        #expect(await first.tick().map(\.outcome) == [.succeeded])
        #expect(await first.tick().isEmpty)
        #expect(first.nextTick(after: clock.now) == instant("2026-11-21T11:00:00Z"))

        try await store.setPaused(job: hourly.name, paused: true, now: clock.now)
        #expect(await first.tick().isEmpty)
        #expect(first.nextTick(after: clock.now) == instant("2026-11-22T10:00:00Z"), "a paused job's slots wake nothing")

        try await store.setPaused(job: hourly.name, paused: false, now: clock.now)
        clock.set(instant("2026-11-21T11:00:00Z"))
        let second = try scheduler(jobs, store: store, clock: clock, replica: "second")
        #expect(await second.claimDueRuns().map(\.job) == [hourly.name])
        #expect(await first.tick().isEmpty, "the second replica holds the run")
        #expect(first.nextTick(after: clock.now) == instant("2026-11-21T11:01:00Z"), "its lease of 60 s may expire unrenewed")
    }

    @Test("pausing, resuming, asking for a run and claiming it notify every replica's scheduler when they commit")
    func jobWritesNotify() async throws {
        try await withOwnDatabase(on: SchedulerTestEnvironment.databaseURL) { url in
            let logger = SchedulerTestEnvironment.logger
            let postgres = PostgresPool(configuration: PostgresConfiguration(connectionString: url, poolSize: 2), logger: logger)
            try await Migrator(pool: postgres, logger: logger).migrate(try Migration.bundled())
            let store = JobRunStore(postgres: postgres)
            let changes = ChangeNotices(configuration: postgres.configuration, logger: logger)
            try await whileRunning([], listening: changes) {
                let signal = changes.signal(.jobs)
                for (what, write) in [
                    ("pausing", { @Sendable in try await store.setPaused(job: "prune", paused: true, now: Date()) }),
                    ("resuming", { @Sendable in try await store.setPaused(job: "prune", paused: false, now: Date()) }),
                    ("asking for a run", { @Sendable in _ = try await store.requestRun(job: "prune", slot: Date(timeIntervalSince1970: 0), attemptLimit: 1, now: Date()) }),
                    ("claiming the run", { @Sendable in
                        let claim = try await store.claimNext(job: "prune", replica: "claimer", lease: 60, now: Date())
                        #expect(claim?.slot == Date(timeIntervalSince1970: 0))
                    }),
                ] as [(String, @Sendable () async throws -> Void)] {
                    let before = signal.generation
                    try await write()
                    try await eventually("\(what) notifies podium_jobs") { signal.generation > before }
                }
            }
            await postgres.close()
        }
    }
}
