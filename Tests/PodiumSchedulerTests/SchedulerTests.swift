import Foundation
import PodiumCore
import PodiumScheduler
import PodiumStore
import Testing

/// Claims, leases, retries, misfires, pauses and manual runs against the real PostgreSQL, on an injected clock.
@Suite("Scheduler", .timeLimit(.minutes(5)))
struct SchedulerTests {
    @Test("two replicas ticking at the same slot run it exactly once")
    func slotRunsOnceAcrossReplicas() async throws {
        let store = JobRunStore(postgres: try await SchedulerTestEnvironment.postgres())
        let clock = TestClock(instant("2026-11-21T10:00:05Z"))
        let job = RecordingJob(name: SchedulerTestEnvironment.uniqueJob("once"))
        let replicas = try ["a", "b", "c"].map { try makeScheduler(job, cron: "* * * * *", store: store, clock: clock, replica: $0) }
        let outcomes = await withTaskGroup(of: [JobOutcome].self) { group in
            for replica in replicas { group.addTask { await replica.tick() } }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(outcomes.map(\.outcome) == [.succeeded])
        #expect(job.slots == [instant("2026-11-21T10:00:00Z")])
        let run = try #require(try await store.runs(job: job.name, limit: 5).first)
        #expect(run.status == .succeeded)
        #expect(run.trigger == "schedule")
        #expect(run.attempts.count == 1)
        #expect(run.result == ["ran": 1])
        // Ticking again in the same minute finds nothing to do.
        for replica in replicas { #expect(await replica.tick().isEmpty) }
        #expect(job.slots.count == 1)
    }

    @Test("a replica that dies holding the lease is taken over after it expires, and its late success does not count")
    func expiredLeaseIsTakenOver() async throws {
        let store = JobRunStore(postgres: try await SchedulerTestEnvironment.postgres())
        let clock = TestClock(instant("2026-11-21T10:00:01Z"))
        let job = RecordingJob(name: SchedulerTestEnvironment.uniqueJob("takeover"))
        let dying = try makeScheduler(job, cron: "0 * * * *", lease: 30, store: store, clock: clock, replica: "dying")
        let survivor = try makeScheduler(job, cron: "0 * * * *", lease: 30, store: store, clock: clock, replica: "survivor")

        let claims = await dying.claimDueRuns()
        let lost = try #require(claims.first)
        #expect(await survivor.tick().isEmpty, "the lease is still held")
        clock.advance(29)
        #expect(await survivor.tick().isEmpty, "the lease has 1 s left")
        clock.advance(2)
        let outcomes = await survivor.tick()
        #expect(outcomes.map(\.outcome) == [.succeeded])
        #expect(outcomes.first?.claim.attempt == 2)

        #expect(try await store.succeed(lost, result: [:], now: clock.now) == false)
        let run = try #require(try await store.runs(job: job.name, limit: 1).first)
        #expect(run.status == .succeeded)
        #expect(run.replica == "survivor")
        #expect(run.attempts.map(\.replica) == ["dying", "survivor"])
        #expect(run.attempts.map(\.outcome) == [.leaseLost, .succeeded])
        #expect(job.slots == [instant("2026-11-21T10:00:00Z")])
    }

    @Test("failures retry with exponential backoff, then the run is marked failed")
    func retriesThenGivesUp() async throws {
        let store = JobRunStore(postgres: try await SchedulerTestEnvironment.postgres())
        let clock = TestClock(instant("2026-11-21T10:00:00Z"))
        let job = RecordingJob(name: SchedulerTestEnvironment.uniqueJob("retry"), failures: 10)
        let scheduler = try makeScheduler(job, cron: "0 10 * * *", retryLimit: 2, backoff: 10, store: store, clock: clock, replica: "a")

        #expect(await scheduler.tick().map(\.outcome) == [.failed])
        var run = try #require(try await store.runs(job: job.name, limit: 1).first)
        #expect(run.status == .pending)
        #expect(run.nextAttemptAt == "2026-11-21T10:00:10.000Z")
        clock.advance(9)
        #expect(await scheduler.tick().isEmpty, "backoff of 10 s not over")
        clock.advance(1)
        #expect(await scheduler.tick().map(\.claim.attempt) == [2])
        run = try #require(try await store.runs(job: job.name, limit: 1).first)
        #expect(run.nextAttemptAt == "2026-11-21T10:00:30.000Z", "second retry waits 20 s")
        clock.advance(20)
        #expect(await scheduler.tick().map(\.claim.attempt) == [3])
        run = try #require(try await store.runs(job: job.name, limit: 1).first)
        #expect(run.status == .failed)
        #expect(run.error == "planned test failure")
        #expect(run.attempts.map(\.outcome) == [.failed, .failed, .failed])
        clock.advance(3600)
        #expect(await scheduler.tick().isEmpty, "no attempt after the limit")
        #expect(job.slots.isEmpty)

        // Re-run by hand: a fresh set of attempts, backing off from the first delay again (10 s, not 80 s).
        _ = try await store.requestRun(job: job.name, slot: instant("2026-11-21T10:00:00Z"), attemptLimit: 3, now: clock.now)
        #expect(await scheduler.tick().map(\.claim.attempt) == [4])
        run = try #require(try await store.runs(job: job.name, limit: 1).first)
        #expect(run.nextAttemptAt.flatMap(RFC3339.parse) == clock.now.addingTimeInterval(10))
        clock.advance(10)
        #expect(await scheduler.tick().map(\.claim.attemptOfRequest) == [2])
        run = try #require(try await store.runs(job: job.name, limit: 1).first)
        #expect(run.nextAttemptAt.flatMap(RFC3339.parse) == clock.now.addingTimeInterval(20))
    }

    @Test("a job that fails once succeeds on its retry")
    func retrySucceeds() async throws {
        let store = JobRunStore(postgres: try await SchedulerTestEnvironment.postgres())
        let clock = TestClock(instant("2026-11-21T10:00:00Z"))
        let job = RecordingJob(name: SchedulerTestEnvironment.uniqueJob("flaky"), failures: 1)
        let scheduler = try makeScheduler(job, cron: "0 10 * * *", backoff: 5, store: store, clock: clock, replica: "a")
        #expect(await scheduler.tick().map(\.outcome) == [.failed])
        clock.advance(5)
        #expect(await scheduler.tick().map(\.outcome) == [.succeeded])
        let run = try #require(try await store.runs(job: job.name, limit: 1).first)
        #expect(run.status == .succeeded)
        #expect(run.error == nil)
        #expect(job.slots == [instant("2026-11-21T10:00:00Z")])
    }

    @Test("after downtime, run-latest runs the latest missed slot once at start-up and records the others as missed")
    func runLatestCatchesUp() async throws {
        let store = JobRunStore(postgres: try await SchedulerTestEnvironment.postgres())
        let clock = TestClock(instant("2026-11-21T10:00:00Z"))
        let job = RecordingJob(name: SchedulerTestEnvironment.uniqueJob("latest"))
        _ = await (try makeScheduler(job, cron: "0 * * * *", store: store, clock: clock, replica: "before")).tick()
        clock.set(instant("2026-11-21T14:30:00Z"))
        // A fresh replica (a restart): its first tick catches up.
        let restarted = try makeScheduler(job, cron: "0 * * * *", store: store, clock: clock, replica: "after")
        #expect(await restarted.tick().map(\.outcome) == [.succeeded])
        #expect(job.slots == [instant("2026-11-21T10:00:00Z"), instant("2026-11-21T14:00:00Z")])
        #expect(try await statuses(store, job.name) == [
            "2026-11-21T10:00:00.000Z": "succeeded", "2026-11-21T11:00:00.000Z": "missed",
            "2026-11-21T12:00:00.000Z": "missed", "2026-11-21T13:00:00.000Z": "missed", "2026-11-21T14:00:00.000Z": "succeeded",
        ])
        #expect(try await store.runs(job: job.name, limit: 1).first?.trigger == "catch-up")

        let summary = try #require(try await restarted.summaries(now: clock.now).first)
        #expect(summary.name == job.name)
        #expect(summary.lastRun?.slot == "2026-11-21T14:00:00.000Z", "the newest slot, not the first or a missed one")
        #expect(summary.lastRun?.status == .succeeded)
        #expect(summary.nextSlot == "2026-11-21T15:00:00.000Z")
        let never = RecordingJob(name: SchedulerTestEnvironment.uniqueJob("never"))
        let idle = try makeScheduler(never, cron: "0 * * * *", store: store, clock: clock, replica: "after")
        #expect(try await idle.summaries(now: clock.now).map { "\($0.name) \($0.lastRun == nil)" } == ["\(never.name) true"])
    }

    @Test("run-all runs every missed slot in order; skip runs none of them")
    func otherMisfirePolicies() async throws {
        let store = JobRunStore(postgres: try await SchedulerTestEnvironment.postgres())
        let clock = TestClock(instant("2026-11-21T10:00:00Z"))
        let all = RecordingJob(name: SchedulerTestEnvironment.uniqueJob("all"))
        let skip = RecordingJob(name: SchedulerTestEnvironment.uniqueJob("skip"))
        let allScheduler = try makeScheduler(all, cron: "0 * * * *", misfire: .runAll, store: store, clock: clock, replica: "a")
        let skipScheduler = try makeScheduler(skip, cron: "0 * * * *", misfire: .skip, store: store, clock: clock, replica: "a")
        _ = await allScheduler.tick()
        _ = await skipScheduler.tick()
        clock.set(instant("2026-11-21T13:30:00Z"))
        for _ in 0..<5 { _ = await allScheduler.tick() }
        _ = await skipScheduler.tick()
        #expect(all.slots == ["10", "11", "12", "13"].map { instant("2026-11-21T\($0):00:00Z") })
        #expect(skip.slots == [instant("2026-11-21T10:00:00Z")])
        #expect(try await statuses(store, skip.name) == [
            "2026-11-21T10:00:00.000Z": "succeeded", "2026-11-21T11:00:00.000Z": "missed",
            "2026-11-21T12:00:00.000Z": "missed", "2026-11-21T13:00:00.000Z": "missed",
        ])
        // The next slot arrives on time: skip runs it.
        clock.set(instant("2026-11-21T14:00:02Z"))
        _ = await skipScheduler.tick()
        #expect(skip.slots.last == instant("2026-11-21T14:00:00Z"))
    }

    @Test("a paused job runs nothing; on resume its missed slots follow the misfire policy")
    func pauseAndResume() async throws {
        let store = JobRunStore(postgres: try await SchedulerTestEnvironment.postgres())
        let clock = TestClock(instant("2026-11-21T10:00:00Z"))
        let job = RecordingJob(name: SchedulerTestEnvironment.uniqueJob("pause"))
        let scheduler = try makeScheduler(job, cron: "0 * * * *", store: store, clock: clock, replica: "a")
        _ = await scheduler.tick()
        try await store.setPaused(job: job.name, paused: true, now: clock.now)
        clock.set(instant("2026-11-21T11:00:00Z"))
        #expect(await scheduler.tick().isEmpty)
        clock.set(instant("2026-11-21T12:00:00Z"))
        #expect(await scheduler.tick().isEmpty)
        #expect(try await store.pausedJobs().contains(job.name))
        #expect(try await scheduler.summaries(now: clock.now).map(\.paused) == [true])
        try await store.setPaused(job: job.name, paused: false, now: clock.now)
        clock.advance(10)
        #expect(await scheduler.tick().map(\.outcome) == [.succeeded])
        #expect(job.slots == [instant("2026-11-21T10:00:00Z"), instant("2026-11-21T12:00:00Z")])
        #expect(try await statuses(store, job.name)["2026-11-21T11:00:00.000Z"] == "missed")
    }

    @Test("run now is never refused: in the second of a scheduled run it takes the next free second")
    func runNowTakesAFreeSlot() async throws {
        let store = JobRunStore(postgres: try await SchedulerTestEnvironment.postgres())
        let clock = TestClock(instant("2026-11-21T10:20:00Z"))
        let job = RecordingJob(name: SchedulerTestEnvironment.uniqueJob("run-now"), failures: 0)
        let scheduler = try makeScheduler(job, cron: "0 0 1 1 *", retryLimit: 0, store: store, clock: clock, replica: "a")
        #expect(await scheduler.tick().map(\.outcome) == [.succeeded], "the latest yearly slot, on a first start")
        // A run that holds this very second, as a scheduled slot on a whole second does.
        _ = try await store.requestRun(job: job.name, slot: instant("2026-11-21T10:20:00Z"), attemptLimit: 1, now: clock.now)
        #expect(await scheduler.tick().map(\.outcome) == [.succeeded])
        #expect(try await statuses(store, job.name)["2026-11-21T10:20:00.000Z"] == "succeeded")
        let first = try await scheduler.requestRun(job.name, slot: "now")
        #expect(first.slot == "2026-11-21T10:20:01.000Z")
        #expect(first.status == .pending && first.trigger == "manual")
        let second = try await scheduler.requestRun(job.name, slot: "now")
        #expect(second.slot == "2026-11-21T10:20:02.000Z", "a second request in the same second gets its own run too")
        await #expect(throws: RunRequestError.slotTaken(job: job.name, slot: instant("2026-11-21T10:20:00Z"), status: .succeeded)) {
            try await scheduler.requestRun(job.name, slot: "2026-11-21T10:20:00Z")
        }
    }

    @Test("run now: a pending manual run any replica claims; a failed slot can be re-run, a done one cannot")
    func manualRuns() async throws {
        let store = JobRunStore(postgres: try await SchedulerTestEnvironment.postgres())
        let clock = TestClock(instant("2026-11-21T10:20:00Z"))
        let job = RecordingJob(name: SchedulerTestEnvironment.uniqueJob("manual"), failures: 1)
        let scheduler = try makeScheduler(job, cron: "0 0 1 1 *", retryLimit: 0, store: store, clock: clock, replica: "a")
        // First start: the latest yearly slot runs once and fails for good (no retries).
        let yearly = instant("2026-01-01T00:00:00Z")
        #expect(await scheduler.tick().map(\.outcome) == [.failed])
        #expect(try await statuses(store, job.name) == ["2026-01-01T00:00:00.000Z": "failed"])

        let now = instant("2026-11-21T10:20:00Z")
        let requested = try await store.requestRun(job: job.name, slot: now, attemptLimit: 1, now: clock.now)
        #expect(requested.status == .pending)
        #expect(requested.trigger == "manual")
        #expect(requested.slot == "2026-11-21T10:20:00.000Z")
        #expect(requested.attempts.isEmpty)
        #expect(await scheduler.tick().map(\.outcome) == [.succeeded])
        await #expect(throws: RunRequestError.slotTaken(job: job.name, slot: now, status: .succeeded)) {
            try await store.requestRun(job: job.name, slot: now, attemptLimit: 1, now: clock.now)
        }

        let rerun = try await store.requestRun(job: job.name, slot: yearly, attemptLimit: 1, now: clock.now)
        #expect(rerun.status == .pending)
        #expect(rerun.attempts.map { "\($0.attempt) \($0.outcome?.rawValue ?? "-")" } == ["1 failed"], "the failed attempt stays in its history")
        #expect(await scheduler.tick().map(\.claim.attempt) == [2])
        #expect(job.slots == [now, yearly])
        #expect(try await statuses(store, job.name) == [
            "2026-01-01T00:00:00.000Z": "succeeded", "2026-11-21T10:20:00.000Z": "succeeded",
        ])
    }

    @Test("a claim that fails with a database error leaves the job free for the next tick")
    func failedClaimIsRetriedNextTick() async throws {
        let postgres = try await SchedulerTestEnvironment.postgres()
        let store = JobRunStore(postgres: postgres)
        let clock = TestClock(instant("2026-11-21T10:00:00Z"))
        let job = RecordingJob(name: SchedulerTestEnvironment.uniqueJob("claimfail"))
        let scheduler = try makeScheduler(job, cron: "0 10 * * *", store: store, clock: clock, replica: "a")
        // Only this job's claim (its row turning 'running') fails, so tests running alongside are untouched.
        let trigger = "fail_claim_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        try await postgres.query("""
            CREATE FUNCTION \(trigger)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF NEW.job = '\(job.name)' AND NEW.status = 'running' THEN RAISE EXCEPTION 'injected claim failure'; END IF;
              RETURN NEW;
            END $$
            """)
        try await postgres.query("CREATE TRIGGER \(trigger) BEFORE UPDATE ON job_runs FOR EACH ROW EXECUTE FUNCTION \(trigger)()")
        let failed = await scheduler.tick()
        try await postgres.query("DROP TRIGGER \(trigger) ON job_runs")
        try await postgres.query("DROP FUNCTION \(trigger)()")
        #expect(failed.isEmpty)
        #expect(await scheduler.tick().map(\.outcome) == [.succeeded])
        #expect(job.slots == [instant("2026-11-21T10:00:00Z")])
    }

    @Test("prune keeps each job's latest scheduled run, so a job rarer than the retention does not run its last slot again")
    func pruneKeepsTheLatestScheduledRun() async throws {
        let store = JobRunStore(postgres: try await SchedulerTestEnvironment.postgres())
        // Dated 2024, before every other test's runs: pruning is global, and this cutoff reaches none of theirs.
        let clock = TestClock(instant("2024-12-01T00:00:00Z"))
        let job = RecordingJob(name: SchedulerTestEnvironment.uniqueJob("monthly"))
        let scheduler = try makeScheduler(job, cron: "0 0 1 * *", store: store, clock: clock, replica: "a")
        #expect(await scheduler.tick().map(\.outcome) == [.succeeded])
        clock.set(instant("2024-12-28T00:00:00Z"))
        _ = try await store.prune(before: clock.now)
        #expect(try await statuses(store, job.name) == ["2024-12-01T00:00:00.000Z": "succeeded"])
        let restarted = try makeScheduler(job, cron: "0 0 1 * *", store: store, clock: clock, replica: "b")
        #expect(await restarted.tick().isEmpty)
        #expect(job.slots == [instant("2024-12-01T00:00:00Z")])
    }
}
