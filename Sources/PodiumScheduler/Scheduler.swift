import Foundation
import Logging
import Metrics
import PodiumCore
import PodiumWire
import Synchronization

/// What a job gets to work with for one attempt.
public struct JobContext: Sendable {
    /// The slot being run (a cron instant, or the requested instant of a manual run).
    public let slot: Date
    /// Attempt number, 1 for the first.
    public let attempt: Int
    /// The scheduler's clock.
    public let now: @Sendable () -> Date
    /// Logger with the job and slot attached.
    public let logger: Logger

    /// Creates a context (the scheduler does; tests run jobs directly with one).
    public init(slot: Date, attempt: Int, now: @escaping @Sendable () -> Date, logger: Logger) {
        self.slot = slot
        self.attempt = attempt
        self.now = now
        self.logger = logger
    }
}

/// A job the scheduler can run; it must be idempotent, since a replica that lost its lease may have done part of it.
public protocol ScheduledJob: Sendable {
    /// The job's name, as configured and shown to ops.
    var name: String { get }
    /// Does the work of one slot and returns counts for the run history (e.g. `["closed": 3]`).
    func run(_ context: JobContext) async throws -> [String: Int]
}

/// How one attempt ended, as `tick()` reports it.
public struct JobOutcome: Sendable, Equatable {
    /// The claim that was run.
    public let claim: JobClaim
    /// How it ended.
    public let outcome: AttemptOutcome
    /// Error text of a failed attempt.
    public let error: String?
}

/// Runs configured jobs on every replica; PostgreSQL alone decides which replica runs a slot.
///
/// Each tick plans (records the slots that came due, applying the misfire policy to slots that
/// passed while nothing ran) and then claims due runs through `JobRunStore`; `nextTick(after:)`
/// says when the next one can find work. The runner renews its lease while the job works; a
/// replica that dies stops renewing, and after the lease expires another replica's tick takes
/// the run over as the next attempt. Time comes only from the injected clock, so every rule is
/// testable without sleeping.
public final class Scheduler: Sendable {
    /// Slots planned late by more than this count as caught up, not on time.
    public static let onTimeTolerance: TimeInterval = 60

    let store: JobRunStore
    let jobs: [String: (settings: JobSettings, job: any ScheduledJob)]
    /// This replica's name in run history (host and process id by default).
    public let replica: String
    let now: @Sendable () -> Date
    let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var planned: [String: Date] = [:]
        var running: Set<String> = []
        /// What the last tick read: paused jobs, and when a stored run comes due next.
        var outlook: JobOutlook?
    }

    /// Creates a scheduler for `jobs`, each configured by the entry of `settings` with its name (jobs without one are not scheduled).
    public init(
        store: JobRunStore, settings: SchedulerSettings, jobs: [any ScheduledJob], replica: String, now: @escaping @Sendable () -> Date,
        logger: Logger
    ) {
        self.store = store
        var table: [String: (settings: JobSettings, job: any ScheduledJob)] = [:]
        for job in jobs {
            if let configured = settings.job(named: job.name) { table[job.name] = (configured, job) }
        }
        self.jobs = table
        self.replica = replica
        self.now = now
        self.logger = logger
    }

    /// The scheduled jobs' names, sorted.
    public var jobNames: [String] { jobs.keys.sorted() }

    /// The settings of job `name`, if scheduled.
    public func settings(of name: String) -> JobSettings? { jobs[name]?.settings }

    /// Every scheduled job by name with its schedule, pause state, next slot after `now` and newest run.
    public func summaries(now: Date) async throws -> [JobSummary] {
        let paused = try await store.pausedJobs()
        let latest = try await store.latestRuns(of: jobNames)
        return jobNames.compactMap { name in
            settings(of: name).map { settings in
                JobSummary(
                    name: name, cron: settings.schedule.expression.description, timeZone: settings.schedule.timeZone.configuredName,
                    misfire: settings.misfire.rawValue, retryLimit: settings.retryLimit, leaseSeconds: Int(settings.lease),
                    paused: paused.contains(name), nextSlot: settings.schedule.next(after: now).map(RFC3339.format),
                    nextSlots: Self.slots(of: settings.schedule, after: now, count: 3).map(RFC3339.format),
                    scheduleWords: settings.schedule.expression.words, lastRun: latest[name])
            }
        }
    }

    /// The first `count` slots of `schedule` after `after`.
    static func slots(of schedule: CronSchedule, after: Date, count: Int) -> [Date] {
        var slots: [Date] = []
        while slots.count < count, let next = schedule.next(after: slots.last ?? after) { slots.append(next) }
        return slots
    }

    /// Asks for a run of scheduled job `name` at `slot` (`now`, the current second, or an RFC 3339 time),
    /// with the job's own retry limit; any replica's next tick claims it.
    ///
    /// `now` is never refused: it takes the current second, or the first later one no run holds (a scheduled slot
    /// falls on a whole second, and another request may have taken this one). Whole seconds, because they stay exact
    /// through PostgreSQL and RFC 3339; the run is claimable at once whatever its slot says.
    public func requestRun(_ name: String, slot text: String) async throws -> JobRun {
        let at = now()
        let attempts = (settings(of: name)?.retryLimit ?? 0) + 1
        guard text == "now" else {
            guard let parsed = RFC3339.parse(text) else { throw RunRequestError.badSlot(text) }
            return try await store.requestRun(job: name, slot: RFC3339.wholeMilliseconds(parsed), attemptLimit: attempts, now: at)
        }
        return try await store.requestRunAtFirstFreeSecond(
            job: name, from: Date(timeIntervalSince1970: at.timeIntervalSince1970.rounded(.down)), attemptLimit: attempts, now: at)
    }

    /// One pass: plan due slots, claim every due run and run them all, returning how each attempt ended.
    public func tick() async -> [JobOutcome] {
        let claims = await claimDueRuns()
        return await withTaskGroup(of: JobOutcome.self) { group in
            for claim in claims { group.addTask { await self.execute(claim) } }
            var outcomes: [JobOutcome] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes.sorted { ($0.claim.job, $0.claim.slot) < ($1.claim.job, $1.claim.slot) }
        }
    }

    /// Plans due slots and claims at most one due run per job not already running on this replica.
    ///
    /// Claimed runs are marked running here until `execute` finishes them.
    public func claimDueRuns() async -> [JobClaim] {
        let at = now()
        var due: Set<String>
        let paused: Set<String>
        do {
            let outlook = try await store.outlook(of: jobNames, now: at)
            state.withLock { $0.outlook = outlook }
            (due, paused) = (outlook.due, outlook.paused)
            // A slot planned now is due now, unless another replica has claimed it meanwhile (then the claim finds nothing).
            for name in jobNames where !paused.contains(name) {
                if try await plan(name, now: at) { due.insert(name) }
            }
        } catch {
            logger.warning("scheduler could not plan slots; retrying next tick", metadata: ["error": "\(error)"])
            return []
        }
        var claims: [JobClaim] = []
        do {
            for name in due.sorted() where !paused.contains(name) {
                guard let settings = jobs[name]?.settings, reserve(name) else { continue }
                let claim: JobClaim?
                do {
                    claim = try await store.claimNext(job: name, replica: replica, lease: settings.lease, now: at)
                } catch {
                    // Not claimed: free the job for the next tick, or it would stay "running" here for good.
                    release(name)
                    throw error
                }
                if let claim { claims.append(claim) } else { release(name) }
            }
        } catch {
            logger.warning("scheduler could not claim runs; retrying next tick", metadata: ["error": "\(error)"])
        }
        return claims
    }

    /// Runs a claimed attempt to its end: renews the lease meanwhile and records success, failure (with retry) or a lost lease.
    public func execute(_ claim: JobClaim) async -> JobOutcome {
        defer { release(claim.job) }
        guard let (settings, job) = jobs[claim.job] else {
            return JobOutcome(claim: claim, outcome: .failed, error: "job \(claim.job) is not configured on this replica")
        }
        var logger = logger
        logger[metadataKey: "job"] = "\(claim.job)"
        logger[metadataKey: "slot"] = "\(RFC3339.format(claim.slot))"
        logger[metadataKey: "attempt"] = "\(claim.attempt)"
        let context = JobContext(slot: claim.slot, attempt: claim.attempt, now: now, logger: logger)
        // How long after its slot the run started: a manual run of a past slot is as late as its slot is old.
        Timer(label: "podium_job_lateness_seconds", dimensions: [("job", claim.job)], preferredDisplayUnit: .seconds)
            .recordSeconds(max(0, now().timeIntervalSince(claim.slot)))
        let started = ContinuousClock.now
        let result = await withTaskGroup(of: AttemptResult?.self) { group in
            group.addTask {
                do { return .finished(try await job.run(context)) } catch { return .failed("\(error)") }
            }
            group.addTask { await self.renewLease(claim, lease: settings.lease) }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failed("job ended without a result")
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        Timer(label: "podium_job_duration_seconds", dimensions: [("job", claim.job)], preferredDisplayUnit: .seconds)
            .recordSeconds(seconds)
        let outcome: JobOutcome
        do {
            switch result {
            case .finished(let counts):
                let held = try await store.succeed(claim, result: counts, now: now())
                outcome = JobOutcome(claim: claim, outcome: held ? .succeeded : .leaseLost, error: nil)
                if held {
                    Gauge(label: "podium_job_last_success_timestamp_seconds", dimensions: [("job", claim.job)]).record(now().timeIntervalSince1970)
                    logger.info("job run succeeded", metadata: [
                        "duration_s": "\(String(format: "%.3f", seconds))",
                        "result": "\(counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))"])
                }
                for (name, value) in counts {
                    Counter(label: "podium_job_items_total", dimensions: [("job", claim.job), ("item", name)]).increment(by: value)
                }
            case .failed(let error):
                let held = try await store.fail(claim, error: error, retryDelay: settings.retryDelay(afterAttempt: claim.attemptOfRequest), now: now())
                outcome = JobOutcome(claim: claim, outcome: held ? .failed : .leaseLost, error: error)
                logger.warning("job attempt failed", metadata: ["error": "\(error)"])
            case .leaseLost:
                outcome = JobOutcome(claim: claim, outcome: .leaseLost, error: "lease lost while running")
                logger.warning("job lease lost; another replica has taken the run over")
            }
        } catch {
            // The run stays `running` until its lease expires, then it is retried.
            outcome = JobOutcome(claim: claim, outcome: .failed, error: "could not record the outcome: \(error)")
            logger.error("could not record job outcome", metadata: ["error": "\(error)"])
        }
        Counter(label: "podium_job_runs_total", dimensions: [("job", claim.job), ("outcome", outcome.outcome.rawValue)]).increment()
        return outcome
    }

    private enum AttemptResult: Sendable {
        case finished([String: Int])
        case failed(String)
        case leaseLost
    }

    /// Renews the lease every third of its length; returns `.leaseLost` when another replica holds the run, nil when cancelled.
    private func renewLease(_ claim: JobClaim, lease: TimeInterval) async -> AttemptResult? {
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(Int(lease * 1000 / 3)))
            if Task.isCancelled { return nil }
            do {
                if try await !store.renew(claim, lease: lease, now: now()) { return .leaseLost }
            } catch {
                logger.warning("could not renew job lease; retrying", metadata: ["job": "\(claim.job)", "error": "\(error)"])
            }
        }
        return nil
    }

    /// The earliest instant after `now` at which a tick can find work, from what the last tick read: the next slot of
    /// each job not paused, and the next stored run to come due or lease to expire. Nil before the first tick read
    /// PostgreSQL, or when nothing is ever due again.
    public func nextTick(after now: Date) -> Date? {
        guard let outlook = state.withLock({ $0.outlook }) else { return nil }
        let slots = jobs.filter { !outlook.paused.contains($0.key) }.compactMap { $0.value.settings.schedule.next(after: now) }
        return (slots + [outlook.nextDue].compactMap { $0 }).min()
    }

    /// Records the slots of `name` that came due since the last one recorded, by its misfire policy; returns whether it
    /// recorded a slot to run.
    private func plan(_ name: String, now: Date) async throws -> Bool {
        guard let settings = jobs[name]?.settings, let latest = settings.schedule.latest(atOrBefore: now) else { return false }
        if let planned = state.withLock({ $0.planned[name] }), planned >= latest { return false }
        let last = try await store.lastScheduledSlot(job: name)
        if let last, last >= latest {
            state.withLock { $0.planned[name] = last }
            return false
        }
        let onTime = now.timeIntervalSince(latest) <= Self.onTimeTolerance
        let earlier = last.map {
            settings.schedule.slots(after: $0, through: latest, limit: SchedulerSettings.maximumCatchUp + 1).filter { $0 < latest }
        } ?? []
        var missed: [Date] = []
        var due: [Date] = []
        switch settings.misfire {
        case .runLatest:
            (missed, due) = (earlier, [latest])
        case .runAll:
            due = Array(earlier.prefix(SchedulerSettings.maximumCatchUp)) + [latest]
        case .skip:
            (missed, due) = onTime ? (earlier, [latest]) : (earlier + [latest], [])
        }
        let trigger = onTime && earlier.isEmpty ? "schedule" : "catch-up"
        try await store.recordSlots(
            job: name, missed: Array(missed.prefix(SchedulerSettings.maximumCatchUp)), due: due, trigger: trigger,
            attemptLimit: settings.retryLimit + 1, now: now)
        if !missed.isEmpty { logger.notice("job slots missed", metadata: ["job": "\(name)", "missed": "\(missed.count)"]) }
        state.withLock { $0.planned[name] = latest }
        return !due.isEmpty
    }

    private func reserve(_ name: String) -> Bool {
        state.withLock { $0.running.insert(name).inserted }
    }

    private func release(_ name: String) {
        _ = state.withLock { $0.running.remove(name) }
    }

    /// A replica name for run history: host name and process id.
    public static func defaultReplicaName() -> String {
        "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
    }
}
