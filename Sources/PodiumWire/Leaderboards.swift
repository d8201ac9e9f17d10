import Foundation

/// Which value of a completion a board ranks players by.
public enum BoardMetric: String, Sendable, Codable, CaseIterable {
    /// Points awarded (the default).
    case points
    /// Completions: each counts 1 (on `sum` boards only).
    case completions
    /// Correct answers.
    case correct
    /// Accuracy, correct ÷ total, in basis points (0–10,000; on `best` and `latest` boards only).
    case accuracy
    /// The playing time of a perfect run (every answer correct, `duration_ms` given), lower first (on `best` boards
    /// only): the fastest perfect run.
    case duration
}

/// How a teams board scores each of its teams (groups) from the group's own board in the same period.
public enum TeamScore: String, Sendable, Codable, CaseIterable {
    /// The sum of the players' scores (the default).
    case sum
    /// The sum divided by the players who scored in the period, rounded to the nearest whole number (halves away from
    /// zero): a class of 18 can beat a class of 31.
    case average
}

/// How a player's completions in a period become their score on a board.
public enum BoardAggregate: String, Sendable, Codable, CaseIterable {
    /// The sum of the metric over the period's completions (the default).
    case sum
    /// The best single completion of the period: higher first (lower for `duration`); of equal values, the faster run,
    /// then the one reached first.
    case best
    /// The most recent completion of the period (by `completed_at`).
    case latest
}

/// A medal, won by a top player of a closed period.
public enum Medal: String, Sendable, Codable, CaseIterable {
    /// Rank 1.
    case gold
    /// Rank 2.
    case silver
    /// Rank 3.
    case bronze
}

/// A medal won on a closed period.
public struct MedalAward: Sendable, Codable, Equatable {
    /// Board id.
    public var board: String
    /// Window.
    public var window: LeaderboardWindow
    /// Period name.
    public var period: String
    /// Player.
    public var userId: String
    /// The medal.
    public var medal: Medal
    /// Final competition rank.
    public var rank: Int
    /// Final score.
    public var score: Int64
    /// RFC 3339 time the period was closed (nil in a dry run).
    public var awardedAt: String?
    /// The player's display name, in an admin's close report (dry run or close) where ops read medals by name; absent
    /// elsewhere.
    public var displayName: String?

    /// Creates a medal.
    public init(
        board: String, window: LeaderboardWindow, period: String, userId: String, medal: Medal, rank: Int, score: Int64, awardedAt: String?
    ) {
        self.board = board
        self.window = window
        self.period = period
        self.userId = userId
        self.medal = medal
        self.rank = rank
        self.score = score
        self.awardedAt = awardedAt
    }
}

/// The time windows a leaderboard can rank over.
///
/// `all` never ends; `day`, `week` and `month` are cut in the board's IANA time zone: `day` from local midnight,
/// `week` from Monday 00:00 local (ISO 8601 weeks), `month` from the 1st 00:00 local. `contest` is the window of a
/// contest board, whose periods (runs) come from the contest's schedule, not the calendar.
public enum LeaderboardWindow: String, Sendable, Codable, CaseIterable {
    /// All time: one period, `all`, that never closes.
    case all
    /// One local calendar day, named like `2026-11-21`.
    case day
    /// One ISO 8601 week from Monday, named like `2026-W47`.
    case week
    /// One local calendar month, named like `2026-11`.
    case month
    /// One run of a contest, named by its start in UTC like `20261127T1400Z`.
    case contest

    /// The windows a configured board can keep: every window but `contest`.
    public static let calendar: [LeaderboardWindow] = [.all, .day, .week, .month]
}

/// The answer to `GET /v1/comparisons`: one player's or one group's standing on two board periods side by side
/// (two terms, two weeks, two contests).
public struct PeriodComparison: Codable, Sendable, Equatable {
    /// The player compared, when the subject is a player.
    public var userId: String?
    /// The group compared, when the subject is a group.
    public var group: String?
    /// The first board period (`a`).
    public var a: ComparedPeriod
    /// The second board period (`b`).
    public var b: ComparedPeriod
    /// `b`'s score less `a`'s.
    public var scoreChange: Int64
    /// Places climbed from `a` to `b` (`a`'s rank less `b`'s; negative when it fell); null unless ranked on both.
    public var rankChange: Int?

    /// Compares `a` with `b` for a player (`userId`) or a group.
    public init(userId: String?, group: String?, a: ComparedPeriod, b: ComparedPeriod) {
        self.userId = userId
        self.group = group
        self.a = a
        self.b = b
        scoreChange = b.score - a.score
        rankChange = a.rank.flatMap { first in b.rank.map { first - $0 } }
    }
}

/// One side of a comparison: the board period and the subject's standing on it.
public struct ComparedPeriod: Codable, Sendable, Equatable {
    /// Board id.
    public var board: String
    /// The contest's title on a contest board.
    public var title: String?
    /// Window.
    public var window: LeaderboardWindow
    /// Period name.
    public var period: String
    /// RFC 3339 start (nil for `all`).
    public var startsAt: String?
    /// RFC 3339 end, exclusive (nil for `all`).
    public var endsAt: String?
    /// `open` or `closed`.
    public var status: PeriodStatus
    /// The player's score, or the group's total (0 when none).
    public var score: Int64
    /// The player's rank among the players, or the group's among the groups; null when it has no score there.
    public var rank: Int?
    /// How many players (player subject) or groups (group subject) the rank is out of.
    public var of: Int

    /// Creates a side.
    public init(
        board: String, title: String?, window: LeaderboardWindow, period: String, startsAt: String?, endsAt: String?,
        status: PeriodStatus, score: Int64, rank: Int?, of: Int
    ) {
        self.board = board
        self.title = title
        self.window = window
        self.period = period
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.status = status
        self.score = score
        self.rank = rank
        self.of = of
    }
}

/// One row of a leaderboard.
public struct LeaderboardEntry: Sendable, Codable, Equatable {
    /// Competition rank.
    public var rank: Int
    /// Player id.
    public var userId: String
    /// Display name, if the player set one.
    public var displayName: String?
    /// Score.
    public var score: Int64
    /// The medal, on closed periods that award medals.
    public var medal: Medal?

    /// Creates an entry.
    public init(rank: Int, userId: String, displayName: String?, score: Int64, medal: Medal? = nil) {
        self.rank = rank
        self.userId = userId
        self.displayName = displayName
        self.score = score
        self.medal = medal
    }
}

/// Whether a board period still takes scores.
public enum PeriodStatus: String, Sendable, Codable {
    /// It takes scores (before its end plus grace, unless ops closed it early).
    case open
    /// Its final standings and medals are fixed.
    case closed
}

/// A page of one board period.
public struct LeaderboardPage: Sendable, Codable, Equatable {
    /// Board id.
    public var board: String
    /// Window.
    public var window: LeaderboardWindow
    /// Period name.
    public var period: String
    /// RFC 3339 start (nil for `all`).
    public var startsAt: String?
    /// RFC 3339 end, exclusive (nil for `all`).
    public var endsAt: String?
    /// RFC 3339 time it closes (end plus grace; nil for `all`).
    public var closesAt: String?
    /// The IANA zone the board's periods are cut in, so a display names the period by its local dates (the bounds
    /// above are in UTC).
    public var timeZone: String
    /// Which value of a completion the board ranks, so a display formats `score` (on `duration` boards the run's
    /// milliseconds, lower first; on `accuracy` boards basis points).
    public var metric: BoardMetric
    /// How the board keeps a player's completions: their sum, or their best or latest run.
    public var aggregate: BoardAggregate
    /// Whether the period still takes scores.
    public var status: PeriodStatus
    /// Players on the board period.
    public var players: Int
    /// True when read from the live Redis rankings, false when served from PostgreSQL.
    public var live: Bool
    /// Position of the first entry (0-based).
    public var offset: Int
    /// Entries, best first; ties in the order the players first came to Podium (earliest first), except on
    /// boards closed before migration 011 numbered the players, which keep the user-id order they closed with.
    public var entries: [LeaderboardEntry]
    /// The title on a contest's board (its title) or a league cohort's (league, tier, cohort); absent on calendar boards.
    public var title: String?
    /// On a league cohort's board: its league and tier, and how many move up and down at the close.
    public var league: LeagueCohortPage?
    /// On a cancelled contest's board: when it was cancelled (its runs then take no score: `status` is `closed`).
    public var cancelledAt: String?
    /// On a contest's board: when the run after this one starts; absent when none is to come.
    public var nextStartsAt: String?

    /// Creates a page.
    public init(
        board: String, window: LeaderboardWindow, period: String, startsAt: String?, endsAt: String?, closesAt: String?,
        timeZone: String, metric: BoardMetric = .points, aggregate: BoardAggregate = .sum, status: PeriodStatus, players: Int,
        live: Bool, offset: Int, entries: [LeaderboardEntry], title: String? = nil, league: LeagueCohortPage? = nil,
        cancelledAt: String? = nil, nextStartsAt: String? = nil
    ) {
        self.metric = metric
        self.aggregate = aggregate
        self.title = title
        self.league = league
        self.cancelledAt = cancelledAt
        self.nextStartsAt = nextStartsAt
        self.board = board
        self.window = window
        self.period = period
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.closesAt = closesAt
        self.timeZone = timeZone
        self.status = status
        self.players = players
        self.live = live
        self.offset = offset
        self.entries = entries
    }
}

/// The answer to `GET /v1/leaderboards/{board}/{window}/snapshots`.
public struct SnapshotList: Codable, Sendable {
    /// Board id.
    public var board: String
    /// Window.
    public var window: LeaderboardWindow
    /// Period name.
    public var period: String
    /// Snapshots, newest first.
    public var snapshots: [LeaderboardSnapshot]

    /// Creates a value from its fields.
    public init(board: String, window: LeaderboardWindow, period: String, snapshots: [LeaderboardSnapshot]) {
        self.board = board
        self.window = window
        self.period = period
        self.snapshots = snapshots
    }
}

/// The answer to `GET /v1/leaderboards/{board}/contest/groups`.
public struct GroupTotalList: Codable, Sendable {
    /// Board id.
    public var board: String
    /// Window (always `contest`).
    public var window: LeaderboardWindow
    /// The run's period name.
    public var period: String
    /// The groups' totals, best first (ties by name).
    public var groups: [GroupTotal]

    /// Creates a value from its fields.
    public init(board: String, window: LeaderboardWindow, period: String, groups: [GroupTotal]) {
        self.board = board
        self.window = window
        self.period = period
        self.groups = groups
    }
}

/// The body of `POST …/compare`.
public struct CompareRequest: Codable, Sendable {
    /// Players to rank (1 to 100).
    public var userIds: [String]?

    /// Creates a value from its fields.
    public init(userIds: [String]? = nil) {
        self.userIds = userIds
    }
}

/// The answer to `GET /v1/leaderboards`.
public struct BoardList: Codable, Sendable {
    /// Known boards: configured ones and every board that has had a score, in id order (one page).
    public var boards: [BoardSummary]
    /// Pass as `cursor` for the next page; nil on the last.
    public var nextCursor: String?

    /// Creates a value from its fields.
    public init(boards: [BoardSummary], nextCursor: String? = nil) {
        self.boards = boards
        self.nextCursor = nextCursor
    }
}

/// One board and its current periods.
public struct BoardSummary: Codable, Sendable {
    /// Board id.
    public var board: String
    /// What it ranks by.
    public var metric: String
    /// How it keeps a player's completions: their sum, or their best or latest run.
    public var aggregate: BoardAggregate
    /// Zone its periods are cut in.
    public var timeZone: String
    /// How equal scores rank.
    public var tieBreak: TieBreak
    /// Its windows with their current periods.
    public var windows: [WindowSummary]

    /// Creates a value from its fields.
    public init(
        board: String, metric: String, aggregate: BoardAggregate = .sum, timeZone: String, tieBreak: TieBreak, windows: [WindowSummary]
    ) {
        self.board = board
        self.metric = metric
        self.aggregate = aggregate
        self.timeZone = timeZone
        self.tieBreak = tieBreak
        self.windows = windows
    }
}

/// A window's current period.
public struct WindowSummary: Codable, Sendable {
    /// Window.
    public var window: LeaderboardWindow
    /// Current period name.
    public var period: String
    /// RFC 3339 start.
    public var startsAt: String?
    /// RFC 3339 end.
    public var endsAt: String?
    /// RFC 3339 time it closes.
    public var closesAt: String?
    /// Whether closing awards medals.
    public var medals: Bool

    /// Creates a value from its fields.
    public init(
        window: LeaderboardWindow, period: String, startsAt: String? = nil, endsAt: String? = nil,
        closesAt: String? = nil, medals: Bool
    ) {
        self.window = window
        self.period = period
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.closesAt = closesAt
        self.medals = medals
    }
}

/// The answer to `GET /v1/users/{id}/medals`.
public struct MedalList: Codable, Sendable {
    /// Medals, newest first.
    public var medals: [MedalAward]

    /// Creates a value from its fields.
    public init(medals: [MedalAward]) {
        self.medals = medals
    }
}

/// The answer to `GET /v1/users/{id}/rank-history`.
public struct RankHistory: Codable, Sendable {
    /// Player id.
    public var userId: String
    /// The player's rank in each snapshot that lists the player, newest first.
    public var points: [RankPoint]

    /// Creates a value from its fields.
    public init(userId: String, points: [RankPoint]) {
        self.userId = userId
        self.points = points
    }
}

/// One group's total in a contest run, and its rank among the run's groups.
public struct GroupTotal: Sendable, Codable, Equatable {
    /// The group's name.
    public var group: String
    /// Its total: the sum of what its completions scored in the run.
    public var total: Int64
    /// Its rank among the run's groups, competition style (1-2-2-4).
    public var rank: Int

    /// Creates a value from its fields.
    public init(group: String, total: Int64, rank: Int) {
        self.group = group
        self.total = total
        self.rank = rank
    }
}

/// One snapshot of a board period.
public struct LeaderboardSnapshot: Sendable, Codable, Equatable {
    /// `scheduled` (top N of an open period) or `final` (the whole board at close).
    public var kind: String
    /// RFC 3339 time it was taken.
    public var takenAt: String
    /// Players on the board period then.
    public var players: Int
    /// The top entries, best first.
    public var entries: [LeaderboardEntry]

    /// Creates a value from its fields.
    public init(kind: String, takenAt: String, players: Int, entries: [LeaderboardEntry]) {
        self.kind = kind
        self.takenAt = takenAt
        self.players = players
        self.entries = entries
    }
}

/// A player's rank in one snapshot.
public struct RankPoint: Sendable, Codable, Equatable {
    /// Board id.
    public var board: String
    /// Window.
    public var window: LeaderboardWindow
    /// Period name.
    public var period: String
    /// `scheduled` or `final`.
    public var kind: String
    /// RFC 3339 time of the snapshot.
    public var takenAt: String
    /// Competition rank then.
    public var rank: Int
    /// Score then.
    public var score: Int64
    /// Players on the board period then.
    public var players: Int

    /// Creates a value from its fields.
    public init(
        board: String, window: LeaderboardWindow, period: String, kind: String, takenAt: String, rank: Int,
        score: Int64, players: Int
    ) {
        self.board = board
        self.window = window
        self.period = period
        self.kind = kind
        self.takenAt = takenAt
        self.rank = rank
        self.score = score
        self.players = players
    }
}

/// How a board ranks players whose scores are equal (the keys each policy ranks by are PodiumCore's `TieBreak.swift`).
public enum TieBreak: String, Sendable, Codable, CaseIterable {
    /// Equal scores share a rank (competition ranking, 1-2-2-4): the default.
    case shared
    /// Of equal scores, the one reached first ranks higher (by the `completed_at` of the completion that reached it).
    case earliest
    /// Of equal scores, the one that took less summed playing time (`duration_ms`) ranks higher; a completion without
    /// `duration_ms` counts as the slowest possible, so any player with one ranks after every player timed throughout.
    case fastest
    /// Of equal single runs (`best` and `latest` boards, which always break ties so), the faster run ranks higher, then
    /// the one reached first, to the minute; a run without `duration_ms` counts as the slowest.
    case run
}
