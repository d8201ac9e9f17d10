import Foundation

/// A recorded completion as the API shows it.
public struct CompletionRecord: Sendable, Codable, Equatable {
    /// The client's idempotency key.
    public var id: String
    /// Player id.
    public var userId: String
    /// Quiz id.
    public var quizId: String
    /// Topic.
    public var topic: String
    /// Difficulty.
    public var difficulty: Difficulty
    /// Correct answers.
    public var correct: Int
    /// Questions asked.
    public var total: Int
    /// Time taken in milliseconds.
    public var durationMs: Int?
    /// RFC 3339 time it was finished.
    public var completedAt: String
    /// Groups it counted in.
    public var groups: [String]
    /// Points it earned.
    public var points: Int
    /// RFC 3339 time Podium recorded it.
    public var recordedAt: String

    /// Creates a record.
    public init(
        id: String, userId: String, quizId: String, topic: String, difficulty: Difficulty, correct: Int, total: Int,
        durationMs: Int?, completedAt: String, groups: [String], points: Int, recordedAt: String
    ) {
        self.id = id
        self.userId = userId
        self.quizId = quizId
        self.topic = topic
        self.difficulty = difficulty
        self.correct = correct
        self.total = total
        self.durationMs = durationMs
        self.completedAt = completedAt
        self.groups = groups
        self.points = points
        self.recordedAt = recordedAt
    }
}

/// A player's running totals.
public struct PlayerTotals: Sendable, Codable, Equatable {
    /// Points earned in all.
    public var points: Int64
    /// Completions ("games played").
    public var completions: Int64
    /// Correct answers in all.
    public var correctAnswers: Int64
    /// Questions answered in all.
    public var totalAnswers: Int64
    /// Correct answers in percent, one decimal (0 when nothing answered).
    public var correctPercent: Double
    /// Incorrect answers in percent, one decimal: 100 minus `correctPercent`, so the two always add up to 100.
    public var incorrectPercent: Double

    /// Creates totals, deriving the percentages.
    public init(points: Int64, completions: Int64, correctAnswers: Int64, totalAnswers: Int64) {
        self.points = points
        self.completions = completions
        self.correctAnswers = correctAnswers
        self.totalAnswers = totalAnswers
        let correctTenths = totalAnswers > 0 ? Int64((Double(correctAnswers) * 1000 / Double(totalAnswers)).rounded()) : 0
        self.correctPercent = Double(correctTenths) / 10
        self.incorrectPercent = totalAnswers > 0 ? Double(1000 - correctTenths) / 10 : 0
    }
}

/// A player's place on one board period.
public struct BoardRank: Sendable, Codable, Equatable {
    /// Board id.
    public var board: String
    /// Window.
    public var window: LeaderboardWindow
    /// Period name.
    public var period: String
    /// Competition rank (ties share).
    public var rank: Int
    /// The player's score there.
    public var score: Int64
    /// Players on that board period.
    public var players: Int

    /// Creates a rank.
    public init(board: String, window: LeaderboardWindow, period: String, rank: Int, score: Int64, players: Int) {
        self.board = board
        self.window = window
        self.period = period
        self.rank = rank
        self.score = score
        self.players = players
    }
}

/// A closed period a late completion could no longer count in.
public struct MissedPeriod: Sendable, Codable, Equatable {
    /// Board id.
    public var board: String
    /// Window.
    public var window: LeaderboardWindow
    /// Period name.
    public var period: String
    /// RFC 3339 time the period closed (end plus grace).
    public var closedAt: String

    /// Creates a missed period.
    public init(board: String, window: LeaderboardWindow, period: String, closedAt: String) {
        self.board = board
        self.window = window
        self.period = period
        self.closedAt = closedAt
    }
}

/// The answer to `POST /v1/completions`.
public struct CompletionResponse: Sendable, Codable, Equatable {
    /// The completion as recorded.
    public var completion: CompletionRecord
    /// Points it earned.
    public var pointsAwarded: Int
    /// The player's totals after it.
    public var totals: PlayerTotals
    /// The player's level after it, with progress.
    public var level: LevelProgress
    /// The level reached by this completion, when it crossed a threshold.
    public var levelReached: Int?
    /// The player's ranks on the board periods it counted in.
    public var ranks: [BoardRank]
    /// False when Redis could not be updated: ranks are missing and will catch up.
    public var rankingsLive: Bool
    /// Closed periods it was too late for.
    public var missedPeriods: [MissedPeriod]
    /// The player's streak after it.
    public var streak: Streak
    /// Achievements it unlocked.
    public var achievementsUnlocked: [UnlockedAchievement]

    /// Creates a response.
    public init(
        completion: CompletionRecord, pointsAwarded: Int, totals: PlayerTotals, level: LevelProgress, levelReached: Int?,
        ranks: [BoardRank], rankingsLive: Bool, missedPeriods: [MissedPeriod], streak: Streak = Streak(current: 0, longest: 0),
        achievementsUnlocked: [UnlockedAchievement] = []
    ) {
        self.completion = completion
        self.pointsAwarded = pointsAwarded
        self.totals = totals
        self.level = level
        self.levelReached = levelReached
        self.ranks = ranks
        self.rankingsLive = rankingsLive
        self.missedPeriods = missedPeriods
        self.streak = streak
        self.achievementsUnlocked = achievementsUnlocked
    }

    private enum CodingKeys: String, CodingKey {
        case completion, pointsAwarded, totals, level, levelReached, ranks, rankingsLive, missedPeriods, streak, achievementsUnlocked
    }

    /// Decodes an answer; answers stored before streaks and achievements existed replay with none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        completion = try container.decode(CompletionRecord.self, forKey: .completion)
        pointsAwarded = try container.decode(Int.self, forKey: .pointsAwarded)
        totals = try container.decode(PlayerTotals.self, forKey: .totals)
        level = try container.decode(LevelProgress.self, forKey: .level)
        levelReached = try container.decodeIfPresent(Int.self, forKey: .levelReached)
        ranks = try container.decode([BoardRank].self, forKey: .ranks)
        rankingsLive = try container.decode(Bool.self, forKey: .rankingsLive)
        missedPeriods = try container.decode([MissedPeriod].self, forKey: .missedPeriods)
        streak = try container.decodeIfPresent(Streak.self, forKey: .streak) ?? Streak(current: 0, longest: 0)
        achievementsUnlocked = try container.decodeIfPresent([UnlockedAchievement].self, forKey: .achievementsUnlocked) ?? []
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
        status: PeriodStatus, players: Int, live: Bool, offset: Int, entries: [LeaderboardEntry], title: String? = nil,
        league: LeagueCohortPage? = nil, cancelledAt: String? = nil, nextStartsAt: String? = nil
    ) {
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
        self.status = status
        self.players = players
        self.live = live
        self.offset = offset
        self.entries = entries
    }
}
