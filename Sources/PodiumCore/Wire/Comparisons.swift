import Foundation

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
