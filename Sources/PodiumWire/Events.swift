import Foundation

/// Every kind of event Podium writes to its outbox; the raw value is the `type` the feed and webhooks show.
///
/// Adding a kind: a case here, a payload type conforming to `EventPayload` below, and the store
/// appends it where the change happens. The feed and webhook subscriptions list `allCases`.
public enum EventType: String, Sendable, Codable, CaseIterable {
    /// A completion was recorded (`CompletionRecordedEvent`).
    case completionRecorded = "completion.recorded"
    /// A completion took its player over a level threshold (`LevelReachedEvent`).
    case levelReached = "level.reached"
    /// A player unlocked an achievement (`AchievementUnlockedEvent`).
    case achievementUnlocked = "achievement.unlocked"
    /// A board period closed (`PeriodClosedEvent`).
    case periodClosed = "period.closed"
    /// A player won a medal on a closed period (`MedalAwardedEvent`).
    case medalAwarded = "medal.awarded"
    /// A player's daily reminder is due (`ReminderDueEvent`).
    case reminderDue = "reminder.due"
    /// A league week closed and moved a player up a tier (`LeagueMoveEvent`).
    case leaguePromoted = "league.promoted"
    /// A league week closed and moved a player down a tier (`LeagueMoveEvent`).
    case leagueRelegated = "league.relegated"
    /// A league week closed and kept a player in their tier (`LeagueMoveEvent`).
    case leagueStayed = "league.stayed"
    /// A player, or a group, reached a goal's target in one period (`GoalCompletedEvent`).
    case goalCompleted = "goal.completed"
}

/// The data of one kind of event, encoded with `PodiumJSON` (snake_case keys) into the event's `data`.
public protocol EventPayload: Sendable, Codable, Equatable {
    /// The event type this payload belongs to.
    static var type: EventType { get }
    /// The player the event concerns, if any (the outbox indexes events by player for erasure).
    var subject: String? { get }
    /// The payload as JSON text, as `PodiumJSON.encoder()` writes it.
    func jsonString() throws -> String
}

extension EventPayload {
    /// The payload through `PodiumJSON.encoder()`.
    public func jsonString() throws -> String {
        try PodiumJSON.string(self)
    }
}

/// The data of a `completion.recorded` event.
public struct CompletionRecordedEvent: EventPayload {
    /// `completion.recorded`.
    public static let type = EventType.completionRecorded
    /// The completion's id.
    public var completionId: String
    /// The player.
    public var userId: String
    /// The quiz.
    public var quizId: String
    /// The quiz's topic.
    public var topic: String
    /// The quiz's difficulty.
    public var difficulty: Difficulty
    /// Correct answers.
    public var correct: Int
    /// Questions.
    public var total: Int
    /// Points awarded.
    public var points: Int
    /// RFC 3339 time the quiz was finished.
    public var completedAt: String

    /// The event of a completion as its answer records it.
    public init(_ completion: CompletionRecord) {
        completionId = completion.id
        userId = completion.userId
        quizId = completion.quizId
        topic = completion.topic
        difficulty = completion.difficulty
        correct = completion.correct
        total = completion.total
        points = completion.points
        completedAt = completion.completedAt
    }

    /// The player.
    public var subject: String? { userId }
}

/// The data of a `level.reached` event.
public struct LevelReachedEvent: EventPayload {
    /// `level.reached`.
    public static let type = EventType.levelReached
    /// The player.
    public var userId: String
    /// The level reached.
    public var level: Int
    /// The player's points after the completion.
    public var points: Int64
    /// The completion that crossed the threshold.
    public var completionId: String

    /// Creates the event.
    public init(userId: String, level: Int, points: Int64, completionId: String) {
        self.userId = userId
        self.level = level
        self.points = points
        self.completionId = completionId
    }

    /// The player.
    public var subject: String? { userId }
}

/// The data of an `achievement.unlocked` event.
public struct AchievementUnlockedEvent: EventPayload {
    /// `achievement.unlocked`.
    public static let type = EventType.achievementUnlocked
    /// The player.
    public var userId: String
    /// The achievement's id.
    public var achievement: String
    /// The achievement's name.
    public var name: String
    /// The completion that unlocked it.
    public var completionId: String

    /// Creates the event.
    public init(userId: String, achievement: String, name: String, completionId: String) {
        self.userId = userId
        self.achievement = achievement
        self.name = name
        self.completionId = completionId
    }

    /// The player.
    public var subject: String? { userId }
}

/// The data of a `period.closed` event.
public struct PeriodClosedEvent: EventPayload {
    /// `period.closed`.
    public static let type = EventType.periodClosed
    /// Board id.
    public var board: String
    /// Window.
    public var window: LeaderboardWindow
    /// Period name.
    public var period: String
    /// Players on the final standings.
    public var players: Int
    /// Medals awarded.
    public var medals: Int
    /// RFC 3339 time it closed.
    public var closedAt: String

    /// Creates the event.
    public init(board: String, window: LeaderboardWindow, period: String, players: Int, medals: Int, closedAt: String) {
        self.board = board
        self.window = window
        self.period = period
        self.players = players
        self.medals = medals
        self.closedAt = closedAt
    }

    /// None: the event concerns a board.
    public var subject: String? { nil }
}

/// The data of a `medal.awarded` event.
public struct MedalAwardedEvent: EventPayload {
    /// `medal.awarded`.
    public static let type = EventType.medalAwarded
    /// The player.
    public var userId: String
    /// Board id.
    public var board: String
    /// Window.
    public var window: LeaderboardWindow
    /// Period name.
    public var period: String
    /// The medal.
    public var medal: Medal
    /// Final competition rank.
    public var rank: Int
    /// Final score.
    public var score: Int64

    /// The event of an awarded medal.
    public init(_ award: MedalAward) {
        userId = award.userId
        board = award.board
        window = award.window
        period = award.period
        medal = award.medal
        rank = award.rank
        score = award.score
    }

    /// The player.
    public var subject: String? { userId }
}

/// The data of a `reminder.due` event.
public struct ReminderDueEvent: EventPayload {
    /// `reminder.due`.
    public static let type = EventType.reminderDue
    /// The player.
    public var userId: String
    /// The player's local date the reminder is for (`YYYY-MM-DD`).
    public var localDate: String
    /// The player's time zone.
    public var timeZone: String
    /// Whether a streak ends unless the player completes a quiz today.
    public var streakAtRisk: Bool

    /// Creates the event.
    public init(userId: String, localDate: String, timeZone: String, streakAtRisk: Bool) {
        self.userId = userId
        self.localDate = localDate
        self.timeZone = timeZone
        self.streakAtRisk = streakAtRisk
    }

    /// The player.
    public var subject: String? { userId }
}

/// The data of a `league.promoted`, `league.relegated` or `league.stayed` event: what a league week's close did to one
/// player of one cohort. `Kind` names the move, and so the event's type.
public struct LeagueMoveEvent<Kind: LeagueMoveKind>: EventPayload {
    /// The move's event type.
    public static var type: EventType { Kind.type }
    /// The player.
    public var userId: String
    /// The league.
    public var league: String
    /// The week (`2026-W48`).
    public var period: String
    /// The cohort's board id (`league:weekly:gold:3`).
    public var board: String
    /// The tier played in (its name).
    public var tier: String
    /// The tier for the next week (its name).
    public var nextTier: String
    /// Final competition rank in the cohort.
    public var rank: Int
    /// Final score.
    public var score: Int64

    /// Creates the event.
    public init(
        userId: String, league: String, period: String, board: String, tier: String, nextTier: String, rank: Int,
        score: Int64
    ) {
        self.userId = userId
        self.league = league
        self.period = period
        self.board = board
        self.tier = tier
        self.nextTier = nextTier
        self.rank = rank
        self.score = score
    }

    /// The player.
    public var subject: String? { userId }
}

/// A league move's kind, which names its event type.
public protocol LeagueMoveKind: Sendable {
    /// The event type of this move.
    static var type: EventType { get }
}

/// Moved up a tier: `league.promoted`.
public enum LeaguePromotion: LeagueMoveKind {
    /// `league.promoted`.
    public static var type: EventType { .leaguePromoted }
}

/// Moved down a tier: `league.relegated`.
public enum LeagueRelegation: LeagueMoveKind {
    /// `league.relegated`.
    public static var type: EventType { .leagueRelegated }
}

/// Kept the tier: `league.stayed`.
public enum LeagueStay: LeagueMoveKind {
    /// `league.stayed`.
    public static var type: EventType { .leagueStayed }
}
