import Foundation

/// The body of `POST /v1/admin/contests`: every field optional here, so `validated` can name each missing or
/// wrong one at once.
public struct ContestRequest: Codable, Sendable {
    /// The id (a scope name: a-z 0-9 . _ -), which makes the board id `contest:<id>`.
    public var id: String?
    /// The title displays show: 1...80 characters.
    public var title: String?
    /// Board ids: `["global"]`, `["topic:<name>"]` or `["group:<a>", "group:<b>", ...]`.
    public var scope: [String]?
    /// Once: the run's start. Recurring: no run starts before it (optional).
    public var startsAt: String?
    /// Once: the run's end. Recurring: no run starts at or after it (optional).
    public var endsAt: String?
    /// Recurring: when runs start, a five-field cron expression read in `time_zone`.
    public var cron: String?
    /// Recurring: how long each run lasts, in minutes (a run also ends when the next starts).
    public var durationMinutes: Int?
    /// The IANA zone runs are scheduled and shown in; UTC when left out.
    public var timeZone: String?
    /// `open` (everyone in scope, the default) or `join` (only players who joined).
    public var entry: ContestEntry?
    /// `join` contests only: the most players who may join.
    public var maxPlayers: Int?
    /// What it ranks by; points when left out.
    public var metric: BoardMetric?
    /// How equal scores rank; shared when left out.
    public var tieBreak: TieBreak?
    /// Whether each run awards medals when it closes; true when left out.
    public var medals: Bool?

    /// The most players a `join` contest may take.
    public static let maximumPlayers = 100_000
    /// The longest title.
    public static let maximumTitleLength = 80

    /// Creates a request (tests and tools; the API decodes it).
    public init(
        id: String? = nil, title: String? = nil, scope: [String]? = nil, startsAt: String? = nil, endsAt: String? = nil,
        cron: String? = nil, durationMinutes: Int? = nil, timeZone: String? = nil, entry: ContestEntry? = nil,
        maxPlayers: Int? = nil, metric: BoardMetric? = nil, tieBreak: TieBreak? = nil, medals: Bool? = nil
    ) {
        self.id = id
        self.title = title
        self.scope = scope
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.cron = cron
        self.durationMinutes = durationMinutes
        self.timeZone = timeZone
        self.entry = entry
        self.maxPlayers = maxPlayers
        self.metric = metric
        self.tieBreak = tieBreak
        self.medals = medals
    }
}

/// A contest as the API shows it: the request's fields, its board, where it stands and its runs.
public struct ContestView: Codable, Sendable, Equatable {
    /// The id.
    public var id: String
    /// Its board id, `contest:<id>`, for every leaderboard route (window `contest`).
    public var board: String
    /// The title.
    public var title: String
    /// Its scope as board ids.
    public var scope: [String]
    /// `once` or `recurring`.
    public var schedule: String
    /// Once: the run's start; recurring: the earliest a run may start (null when unbounded).
    public var startsAt: String?
    /// Once: the run's end; recurring: no run starts at or after it (null when unbounded).
    public var endsAt: String?
    /// Recurring: when runs start.
    public var cron: String?
    /// Recurring: `cron` in words (`CronExpression.words`).
    public var scheduleWords: String?
    /// Recurring: how long each run lasts at most, in minutes.
    public var durationMinutes: Int?
    /// The zone runs are scheduled and shown in.
    public var timeZone: String
    /// `open` or `join`.
    public var entry: ContestEntry
    /// `join` contests: the most players who may join.
    public var maxPlayers: Int?
    /// `join` contests: how many have joined.
    public var playersJoined: Int?
    /// What it ranks by.
    public var metric: BoardMetric
    /// How equal scores rank.
    public var tieBreak: TieBreak
    /// Whether runs award medals.
    public var medals: Bool
    /// `scheduled` (no run has started), `running`, `between-runs`, `ended` (no run to come) or `cancelled`. A run
    /// closed early is over: its contest is `between-runs` or `ended` from the close, not `running` until its planned end.
    public var status: String
    /// Every value `status` takes.
    public static let statuses: Set<String> = ["scheduled", "running", "between-runs", "ended", "cancelled"]
    /// When it was cancelled.
    public var cancelledAt: String?
    /// The run its board shows now (`Contest.currentRun`).
    public var currentRun: ContestRun?
    /// Up to three runs still to start, earliest first.
    public var nextRuns: [ContestRun]

    /// Creates a value from its fields.
    public init(
        id: String, board: String, title: String, scope: [String], schedule: String, startsAt: String? = nil,
        endsAt: String? = nil, cron: String? = nil, scheduleWords: String? = nil, durationMinutes: Int? = nil,
        timeZone: String, entry: ContestEntry, maxPlayers: Int? = nil, playersJoined: Int? = nil, metric: BoardMetric,
        tieBreak: TieBreak, medals: Bool, status: String, cancelledAt: String? = nil, currentRun: ContestRun? = nil,
        nextRuns: [ContestRun]
    ) {
        self.id = id
        self.board = board
        self.title = title
        self.scope = scope
        self.schedule = schedule
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.cron = cron
        self.scheduleWords = scheduleWords
        self.durationMinutes = durationMinutes
        self.timeZone = timeZone
        self.entry = entry
        self.maxPlayers = maxPlayers
        self.playersJoined = playersJoined
        self.metric = metric
        self.tieBreak = tieBreak
        self.medals = medals
        self.status = status
        self.cancelledAt = cancelledAt
        self.currentRun = currentRun
        self.nextRuns = nextRuns
    }
}

/// One run of a contest, as the API shows it.
public struct ContestRun: Codable, Sendable, Equatable {
    /// Its period name (`20261127T1400Z`), for `?period=`.
    public var period: String
    /// When it starts.
    public var startsAt: String
    /// When it ends (exclusive).
    public var endsAt: String
    /// When it closes: its end plus the close grace.
    public var closesAt: String
    /// When it was closed, once it was (early by an admin, or by close-periods after its end).
    public var closedAt: String?

    /// Creates a value from its fields.
    public init(period: String, startsAt: String, endsAt: String, closesAt: String, closedAt: String? = nil) {
        self.period = period
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.closesAt = closesAt
        self.closedAt = closedAt
    }
}

/// The answer to `GET /v1/contests`.
public struct ContestList: Codable, Sendable {
    /// The contests of this page, most relevant first.
    public var contests: [ContestView]
    /// How many contests match the query, on every page.
    public var total: Int
    /// Send it back as `cursor` for the next page; absent on the last page.
    public var nextCursor: String?

    /// Creates a value from its fields.
    public init(contests: [ContestView], total: Int, nextCursor: String? = nil) {
        self.contests = contests
        self.total = total
        self.nextCursor = nextCursor
    }
}

/// The answer to joining a contest.
public struct ContestEntryState: Codable, Sendable {
    /// The contest's id.
    public var contest: String
    /// The player, now an entrant.
    public var userId: String

    /// Creates a value from its fields.
    public init(contest: String, userId: String) {
        self.contest = contest
        self.userId = userId
    }
}

/// Who takes part in a contest.
public enum ContestEntry: String, Sendable, Codable, CaseIterable {
    /// Every player in scope.
    case open
    /// Only players who joined (`PUT /v1/contests/{id}/entries/{user}`).
    case join
}
