import Foundation

/// What the scheduler does with slots that passed while no replica ran the job.
public enum MisfirePolicy: String, Sendable, Codable, CaseIterable {
    /// Run the latest missed slot once; record the older ones as missed (the default).
    case runLatest = "run-latest"
    /// Run every missed slot, oldest first (at most `SchedulerSettings.maximumCatchUp`).
    case runAll = "run-all"
    /// Record every missed slot as missed and wait for the next one.
    case skip
}

/// One job's schedule and run limits.
public struct JobSettings: Sendable, Equatable {
    /// Built-in job name, e.g. `close-periods`.
    public var name: String
    /// When it runs: a 5-field cron expression read in `timeZone`.
    public var schedule: CronSchedule
    /// Missed-slot handling.
    public var misfire: MisfirePolicy
    /// Retries after a failed first attempt before the run is marked failed.
    public var retryLimit: Int
    /// How long a runner's claim lasts without renewal; another replica takes over after it expires.
    public var lease: TimeInterval
    /// Delay before the first retry; doubled for each further retry, at most `maximumBackoff`.
    public var backoff: TimeInterval

    /// The longest wait between retries.
    public static let maximumBackoff: TimeInterval = 600

    /// Creates settings.
    public init(name: String, schedule: CronSchedule, misfire: MisfirePolicy = .runLatest, retryLimit: Int = 3,
                lease: TimeInterval = 60, backoff: TimeInterval = 5) {
        self.name = name
        self.schedule = schedule
        self.misfire = misfire
        self.retryLimit = retryLimit
        self.lease = lease
        self.backoff = backoff
    }

    /// Wait before retrying after failed attempt number `attempt` (1-based): backoff × 2^(attempt−1), capped.
    public func retryDelay(afterAttempt attempt: Int) -> TimeInterval {
        Backoff.delay(base: backoff, afterAttempt: attempt, maximum: Self.maximumBackoff)
    }
}

/// Exponential backoff, shared by job retries and webhook retries.
public enum Backoff {
    /// `base × 2^(attempt−1)` after failed attempt number `attempt` (1-based), at most `maximum`.
    public static func delay(base: TimeInterval, afterAttempt attempt: Int, maximum: TimeInterval) -> TimeInterval {
        min(base * pow(2, Double(max(attempt - 1, 0))), maximum)
    }
}

/// How long kept data stays before the prune job deletes it.
public struct RetentionSettings: Sendable, Equatable, Codable {
    /// Finished job runs and their attempts.
    public var runHistoryDays: Double = 30
    /// Scheduled snapshots (final snapshots hold medals and are kept).
    public var snapshotDays: Double = 90
    /// Outbox events.
    public var eventDays: Double = 90
    /// Redis sorted sets of closed periods (closed boards are read from their final snapshot).
    public var closedRankingDays: Double = 2
    /// Completions (each player's history; totals, scores and medals stay); nil keeps them (the default).
    public var completionDays: Double?

    /// The defaults.
    public init() {}

    /// Decodes retention; any key left out keeps its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = RetentionSettings()
        runHistoryDays = try container.decodeIfPresent(Double.self, forKey: .runHistoryDays) ?? defaults.runHistoryDays
        snapshotDays = try container.decodeIfPresent(Double.self, forKey: .snapshotDays) ?? defaults.snapshotDays
        eventDays = try container.decodeIfPresent(Double.self, forKey: .eventDays) ?? defaults.eventDays
        closedRankingDays = try container.decodeIfPresent(Double.self, forKey: .closedRankingDays) ?? defaults.closedRankingDays
        completionDays = try container.decodeIfPresent(Double.self, forKey: .completionDays)
    }
}

/// The scheduler's configuration: the built-in jobs' schedules, retention, snapshot size.
public struct SchedulerSettings: Sendable, Equatable {
    /// Every scheduled job.
    public var jobs: [JobSettings]
    /// Retention for the prune job.
    public var retention: RetentionSettings
    /// Entries kept in a scheduled snapshot.
    public var snapshotTop: Int

    /// At most this many missed slots are recorded or run per catch-up.
    public static let maximumCatchUp = 1000

    /// The built-in jobs with their default schedules (UTC).
    public static let defaultJobs: [JobSettings] = [
        JobSettings(name: "close-periods", schedule: .utc("* * * * *")),
        JobSettings(name: "snapshot-leaderboards", schedule: .utc("0 * * * *")),
        JobSettings(name: "reconcile-rankings", schedule: .utc("*/10 * * * *")),
        JobSettings(name: "prune", schedule: .utc("30 3 * * *")),
        JobSettings(name: "emit-reminders", schedule: .utc("* * * * *")),
    ]

    /// Creates settings; the defaults suit the quick start.
    public init(jobs: [JobSettings] = SchedulerSettings.defaultJobs, retention: RetentionSettings = RetentionSettings(), snapshotTop: Int = 100) {
        self.jobs = jobs
        self.retention = retention
        self.snapshotTop = snapshotTop
    }

    /// The settings of job `name`, if it is scheduled.
    public func job(named name: String) -> JobSettings? {
        jobs.first { $0.name == name }
    }
}

/// A job entry of the rules file's `scheduler.jobs`: overrides the built-in job of the same name.
public struct JobDocument: Sendable, Codable {
    /// Built-in job name.
    public var name: String
    /// 5-field cron expression.
    public var cron: String?
    /// IANA time zone the expression is read in.
    public var timeZone: String?
    /// `run-latest`, `run-all` or `skip`.
    public var misfire: MisfirePolicy?
    /// Retries after the first attempt.
    public var retryLimit: Int?
    /// Lease length in seconds.
    public var leaseSeconds: Double?
    /// First retry delay in seconds.
    public var backoffSeconds: Double?
}

/// The rules file's `scheduler` section.
public struct SchedulerDocument: Sendable, Codable {
    /// Job overrides by name.
    public var jobs: [JobDocument]?
    /// Retention.
    public var retention: RetentionSettings?
    /// Entries kept in a scheduled snapshot.
    public var snapshotTop: Int?

    /// The settings this section describes, and every problem found (unknown job, bad cron or zone, bad numbers).
    public func settings() -> (SchedulerSettings, [String]) {
        var settings = SchedulerSettings()
        var problems: [String] = []
        for document in jobs ?? [] {
            guard let index = settings.jobs.firstIndex(where: { $0.name == document.name }) else {
                problems.append("scheduler: unknown job \(document.name) (built-in jobs: \(settings.jobs.map(\.name).joined(separator: ", ")))")
                continue
            }
            var job = settings.jobs[index]
            let zone = document.timeZone.map { NameRules.isValidTimeZone($0) ? TimeZone(identifier: $0) : nil } ?? job.schedule.timeZone
            if zone == nil { problems.append("scheduler job \(document.name): unknown time zone \(document.timeZone ?? "")") }
            do {
                let expression = try document.cron.map { try CronExpression($0) } ?? job.schedule.expression
                job.schedule = CronSchedule(expression: expression, timeZone: zone ?? .gmt)
            } catch {
                problems.append("scheduler job \(document.name): \(error)")
            }
            job.misfire = document.misfire ?? job.misfire
            job.retryLimit = document.retryLimit ?? job.retryLimit
            job.lease = document.leaseSeconds ?? job.lease
            job.backoff = document.backoffSeconds ?? job.backoff
            if job.retryLimit < 0 || job.lease < 1 || job.backoff < 0 {
                problems.append("scheduler job \(document.name): retry_limit must be ≥ 0, lease_seconds ≥ 1, backoff_seconds ≥ 0")
            }
            settings.jobs[index] = job
        }
        if let retention {
            settings.retention = retention
            if [retention.runHistoryDays, retention.snapshotDays, retention.eventDays, retention.closedRankingDays].contains(where: { $0 <= 0 }) {
                problems.append("scheduler retention: every value must be more than 0 days")
            }
        }
        if let snapshotTop {
            settings.snapshotTop = snapshotTop
            if !(1...10_000).contains(snapshotTop) { problems.append("scheduler snapshot_top must be 1 to 10000") }
        }
        return (settings, problems)
    }
}

extension CronSchedule {
    /// A schedule in UTC from an expression known to be valid (the built-in defaults).
    static func utc(_ text: String) -> CronSchedule {
        // The defaults are literals checked by tests; a typo there is a programming error.
        CronSchedule(expression: try! CronExpression(text), timeZone: TimeZone(identifier: "UTC") ?? .gmt)
    }
}
