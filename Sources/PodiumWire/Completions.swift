import Foundation

/// How hard a quiz was, as reported with a completion.
///
/// The raw values are the wire and configuration spellings (`easy`, `medium`, `hard`).
public enum Difficulty: String, Sendable, Codable, CaseIterable {
    /// An easy quiz (default 2 points).
    case easy
    /// A medium quiz (default 3 points).
    case medium
    /// A hard quiz (default 5 points).
    case hard
}

/// The body of `POST /v1/completions`, as sent: every field optional so validation can name each one that is missing.
public struct CompletionRequest: Sendable, Codable, Equatable {
    /// The client's idempotency key.
    public var id: String?
    /// Opaque player id.
    public var userId: String?
    /// The quiz played.
    public var quizId: String?
    /// The quiz's topic (a board scope name).
    public var topic: String?
    /// `easy`, `medium` or `hard`.
    public var difficulty: String?
    /// Correct answers.
    public var correct: Int?
    /// Questions asked.
    public var total: Int?
    /// Time taken, in milliseconds.
    public var durationMs: Int?
    /// RFC 3339 time the quiz was finished; now when absent.
    public var completedAt: String?
    /// Classes, schools, teams the player ranks in.
    public var groups: [String]?
    /// Name shown on boards; kept until changed.
    public var displayName: String?

    /// Creates a request (tests and the load generator).
    public init(
        id: String? = nil, userId: String? = nil, quizId: String? = nil, topic: String? = nil, difficulty: String? = nil,
        correct: Int? = nil, total: Int? = nil, durationMs: Int? = nil, completedAt: String? = nil, groups: [String]? = nil,
        displayName: String? = nil
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
        self.displayName = displayName
    }
}

/// One page of a player's history.
public struct CompletionHistory: Sendable, Codable, Equatable {
    /// Completions, newest first.
    public var items: [CompletionRecord]
    /// Cursor for the next page; nil on the last page.
    public var nextCursor: String?

    /// Creates a page.
    public init(items: [CompletionRecord], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

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
    /// The goals it counted toward, with their progress after it and whether it reached them, by goal then group.
    public var goals: [GoalAdvance] = []

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
        case completion, pointsAwarded, totals, level, levelReached, ranks, rankingsLive, missedPeriods, streak, achievementsUnlocked, goals
    }

    /// Decodes an answer; answers stored before streaks, achievements and goals existed replay with none.
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
        goals = try container.decodeIfPresent([GoalAdvance].self, forKey: .goals) ?? []
    }
}

/// The body of `POST /v1/completions/batch`.
public struct BatchRequest: Codable, Sendable {
    /// Up to 500 completions.
    public var completions: [CompletionRequest]?

    /// Creates a value from its fields.
    public init(completions: [CompletionRequest]? = nil) {
        self.completions = completions
    }
}

/// One completion's result in a batch answer.
public struct BatchItemResult: Codable, Sendable {
    /// The completion id, as sent (empty when an invalid item had none).
    public var id: String
    /// 201 created, 200 replay, 409 conflict; with `mode=partial` also 400, 403 or 422 for a refused item.
    public var status: Int
    /// The answer, as `POST /v1/completions` would give it.
    public var result: CompletionResponse?
    /// The problem, for a conflict.
    public var problem: Problem?

    /// Creates a value from its fields.
    public init(id: String, status: Int, result: CompletionResponse? = nil, problem: Problem? = nil) {
        self.id = id
        self.status = status
        self.result = result
        self.problem = problem
    }
}

/// The answer to `POST /v1/completions/batch`.
public struct BatchResponse: Codable, Sendable {
    /// One result per completion, in the order sent.
    public var results: [BatchItemResult]
    /// How many were new.
    public var created: Int
    /// How many were replays.
    public var replayed: Int
    /// How many conflicted.
    public var conflicts: Int
    /// How many were refused as invalid, each with its own problem (only with `mode=partial`; 0 otherwise).
    public var invalid: Int

    /// Creates a value from its fields.
    public init(results: [BatchItemResult], created: Int, replayed: Int, conflicts: Int, invalid: Int) {
        self.results = results
        self.created = created
        self.replayed = replayed
        self.conflicts = conflicts
        self.invalid = invalid
    }
}
