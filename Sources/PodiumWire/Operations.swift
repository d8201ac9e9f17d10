import Foundation

/// The answer to `GET /v1/admin/calendar/closed-days`.
public struct ClosedDayList: Codable, Sendable {
    /// Closed days, oldest first.
    public var closedDays: [ClosedDay]

    /// Creates a value from its fields.
    public init(closedDays: [ClosedDay]) {
        self.closedDays = closedDays
    }
}

/// The body of `PUT /v1/admin/calendar/closed-days/{day}`.
public struct ClosedDayRequest: Codable, Sendable {
    /// Why the day is closed.
    public var note: String?

    /// Creates a value from its fields.
    public init(note: String? = nil) {
        self.note = note
    }
}

/// The answer to `POST /v1/admin/rankings/rebuild`.
public struct RebuildAnswer: Codable, Sendable {
    /// Board periods written.
    public var boards: Int
    /// Player entries written.
    public var entries: Int

    /// Creates a value from its fields.
    public init(boards: Int, entries: Int) {
        self.boards = boards
        self.entries = entries
    }
}

/// The answer of the health probes.
public struct HealthStatus: Codable, Sendable {
    /// `ok`, `ready` or `not ready`.
    public var status: String
    /// PostgreSQL check result (readiness only).
    public var postgres: String?
    /// Redis check result (readiness only).
    public var redis: String?

    /// Creates a value from its fields.
    public init(status: String, postgres: String? = nil, redis: String? = nil) {
        self.status = status
        self.postgres = postgres
        self.redis = redis
    }
}

/// The answer to `GET /v1/admin/jobs`.
public struct JobList: Codable, Sendable {
    /// The replica that answered (its name appears in run history).
    public var replica: String
    /// Every scheduled job.
    public var jobs: [JobSummary]

    /// Creates a value from its fields.
    public init(replica: String, jobs: [JobSummary]) {
        self.replica = replica
        self.jobs = jobs
    }
}

/// The answer to `GET /v1/admin/jobs/{name}/runs`.
public struct JobRunList: Codable, Sendable {
    /// Job name.
    public var job: String
    /// Runs, newest slot first.
    public var runs: [JobRun]

    /// Creates a value from its fields.
    public init(job: String, runs: [JobRun]) {
        self.job = job
        self.runs = runs
    }
}

/// The answer to `GET /v1/admin/periods/{board}/{window}`.
public struct PeriodList: Codable, Sendable {
    /// Board id.
    public var board: String
    /// Window.
    public var window: LeaderboardWindow
    /// The zone the board's periods are cut in.
    public var timeZone: String
    /// Its newest periods, newest first.
    public var periods: [PeriodSummary]

    /// Creates a value from its fields.
    public init(board: String, window: LeaderboardWindow, timeZone: String, periods: [PeriodSummary]) {
        self.board = board
        self.window = window
        self.timeZone = timeZone
        self.periods = periods
    }
}

/// The body of `POST /v1/admin/jobs/{name}/run`.
public struct RunJobRequest: Codable, Sendable {
    /// `now` (the default) or an RFC 3339 slot.
    public var slot: String?

    /// Creates a value from its fields.
    public init(slot: String? = nil) {
        self.slot = slot
    }
}

/// The answer to pause and resume.
public struct JobPauseState: Codable, Sendable {
    /// Job name.
    public var job: String
    /// Whether it is paused now.
    public var paused: Bool

    /// Creates a value from its fields.
    public init(job: String, paused: Bool) {
        self.job = job
        self.paused = paused
    }
}

/// One attempt of a run, as ops see it.
public struct JobAttempt: Sendable, Codable, Equatable {
    /// Attempt number.
    public var attempt: Int
    /// Replica that ran it.
    public var replica: String
    /// RFC 3339 start.
    public var startedAt: String
    /// RFC 3339 end, nil while running.
    public var finishedAt: String?
    /// How it ended; nil while running.
    public var outcome: AttemptOutcome?
    /// Error text of a failed attempt.
    public var error: String?

    /// Creates a value from its fields.
    public init(
        attempt: Int, replica: String, startedAt: String, finishedAt: String? = nil, outcome: AttemptOutcome? = nil,
        error: String? = nil
    ) {
        self.attempt = attempt
        self.replica = replica
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.outcome = outcome
        self.error = error
    }
}

/// Where a (job, slot) run stands.
public enum JobRunStatus: String, Sendable, Codable {
    /// Waiting for its time or its next attempt.
    case pending
    /// A replica holds its lease and runs it.
    case running
    /// Done.
    case succeeded
    /// Out of attempts.
    case failed
    /// Its slot passed while nothing ran and the misfire policy skipped it.
    case missed
}

/// One (job, slot) run with its attempts.
public struct JobRun: Sendable, Codable, Equatable {
    /// Job name.
    public var job: String
    /// RFC 3339 slot.
    public var slot: String
    /// `schedule`, `catch-up` or `manual`.
    public var trigger: String
    /// Where the run stands.
    public var status: JobRunStatus
    /// Attempts made so far.
    public var attempt: Int
    /// Replica of the latest attempt.
    public var replica: String?
    /// RFC 3339 first start.
    public var startedAt: String?
    /// RFC 3339 end.
    public var finishedAt: String?
    /// RFC 3339 time of the next attempt of a pending run.
    public var nextAttemptAt: String?
    /// Last error.
    public var error: String?
    /// What the run did (counts), when it succeeded.
    public var result: [String: Int]?
    /// Every attempt, first to last.
    public var attempts: [JobAttempt]

    /// Creates a value from its fields.
    public init(
        job: String, slot: String, trigger: String, status: JobRunStatus, attempt: Int, replica: String? = nil,
        startedAt: String? = nil, finishedAt: String? = nil, nextAttemptAt: String? = nil, error: String? = nil,
        result: [String: Int]? = nil, attempts: [JobAttempt]
    ) {
        self.job = job
        self.slot = slot
        self.trigger = trigger
        self.status = status
        self.attempt = attempt
        self.replica = replica
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.nextAttemptAt = nextAttemptAt
        self.error = error
        self.result = result
        self.attempts = attempts
    }
}

/// One job as ops see it.
public struct JobSummary: Codable, Sendable {
    /// Job name.
    public var name: String
    /// Cron expression.
    public var cron: String
    /// Zone the expression is read in.
    public var timeZone: String
    /// `run-latest`, `run-all` or `skip`.
    public var misfire: String
    /// Retries after the first attempt.
    public var retryLimit: Int
    /// Lease length.
    public var leaseSeconds: Int
    /// Whether ops paused it.
    public var paused: Bool
    /// RFC 3339 next scheduled slot.
    public var nextSlot: String?
    /// The next three slots (RFC 3339), for people to check a schedule by.
    public var nextSlots: [String]
    /// The schedule in words (`CronExpression.words`).
    public var scheduleWords: String
    /// The newest run.
    public var lastRun: JobRun?

    /// Creates a value from its fields.
    public init(
        name: String, cron: String, timeZone: String, misfire: String, retryLimit: Int, leaseSeconds: Int, paused: Bool,
        nextSlot: String? = nil, nextSlots: [String], scheduleWords: String, lastRun: JobRun? = nil
    ) {
        self.name = name
        self.cron = cron
        self.timeZone = timeZone
        self.misfire = misfire
        self.retryLimit = retryLimit
        self.leaseSeconds = leaseSeconds
        self.paused = paused
        self.nextSlot = nextSlot
        self.nextSlots = nextSlots
        self.scheduleWords = scheduleWords
        self.lastRun = lastRun
    }
}

/// What closing one period did (or, in a dry run, would do).
public struct PeriodCloseReport: Sendable, Codable, Equatable {
    /// Board id.
    public var board: String
    /// Window.
    public var window: LeaderboardWindow
    /// Period name.
    public var period: String
    /// What the call did.
    public var outcome: PeriodCloseOutcome
    /// Players on the final board.
    public var players: Int
    /// Medals awarded (or that would be), best first.
    public var medals: [MedalAward]

    /// Creates a value from its fields.
    public init(
        board: String, window: LeaderboardWindow, period: String, outcome: PeriodCloseOutcome, players: Int,
        medals: [MedalAward]
    ) {
        self.board = board
        self.window = window
        self.period = period
        self.outcome = outcome
        self.players = players
        self.medals = medals
    }
}

/// What a call to close a period did.
public enum PeriodCloseOutcome: String, Sendable, Codable {
    /// This call closed it.
    case closed
    /// It was closed before: nothing changed.
    case alreadyClosed = "already-closed"
    /// A dry run: nothing was written.
    case dryRun = "dry-run"
}

/// One period of a board window as the console lists it.
public struct PeriodSummary: Sendable, Codable, Equatable {
    /// Period name.
    public var period: String
    /// Its first instant.
    public var startsAt: String
    /// Its end, exclusive.
    public var endsAt: String
    /// When it closes: its end plus the grace for late completions.
    public var closesAt: String
    /// Where it stands.
    public var status: PeriodState
    /// When it was closed; absent until then.
    public var closedAt: String?
    /// Players on it (on its final board once closed).
    public var players: Int
    /// Medals it awarded, best first; empty until it is closed.
    public var medals: [MedalAward]

    /// Creates a value from its fields.
    public init(
        period: String, startsAt: String, endsAt: String, closesAt: String, status: PeriodState,
        closedAt: String? = nil, players: Int, medals: [MedalAward]
    ) {
        self.period = period
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.closesAt = closesAt
        self.status = status
        self.closedAt = closedAt
        self.players = players
        self.medals = medals
    }
}

/// A day ops closed: no reminders on it.
public struct ClosedDay: Sendable, Codable, Equatable {
    /// The date, `YYYY-MM-DD`, in the zone of each player's reminders (the player's own unless set apart).
    public var day: String
    /// Why it is closed (a holiday's name).
    public var note: String

    /// Creates a closed day.
    public init(day: String, note: String) {
        self.day = day
        self.note = note
    }
}

/// How one attempt of a run ended.
public enum AttemptOutcome: String, Sendable, Codable {
    /// The job finished and its result is recorded.
    case succeeded
    /// The job threw (or could not run); the run is retried or fails.
    case failed
    /// The replica lost its lease while the job ran: another replica owns the run now.
    case leaseLost = "lease-lost"
}

/// Where a period stands.
public enum PeriodState: String, Sendable, Codable {
    /// It has not reached its close time yet.
    case open
    /// Its close time has passed and it is not closed yet: the next `close-periods` run (or an admin) closes it.
    case due
    /// It is closed: its final board and medals are fixed.
    case closed
}
