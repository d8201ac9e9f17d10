import Foundation

/// An achievement a player has unlocked.
public struct UnlockedAchievement: Sendable, Codable, Equatable {
    /// Rule id.
    public var id: String
    /// Name shown to players.
    public var name: String
    /// RFC 3339 time it was unlocked.
    public var unlockedAt: String

    /// Creates an unlocked achievement.
    public init(id: String, name: String, unlockedAt: String) {
        self.id = id
        self.name = name
        self.unlockedAt = unlockedAt
    }
}

/// The answer to `GET /v1/users/{id}/following`.
public struct FollowingList: Sendable, Codable, Equatable {
    /// The player.
    public var userId: String
    /// The players they follow, by user id, sorted.
    public var following: [String]
    /// The most they may follow.
    public var maximum: Int

    /// Creates the list.
    public init(userId: String, following: [String], maximum: Int) {
        self.userId = userId
        self.following = following
        self.maximum = maximum
    }
}

/// A followed player's latest progress, as the profile shows it.
public struct FriendProgress: Sendable, Codable, Equatable {
    /// The followed player.
    public var userId: String
    /// Their display name, if set.
    public var displayName: String?
    /// Their level.
    public var level: Int
    /// Their points in all.
    public var points: Int64
    /// Their score on the global board's current week (0 when they have not played this week).
    public var pointsThisWeek: Int64
    /// RFC 3339 time of their last completion or preference change; nil for a player who has not played yet.
    public var lastActiveAt: String?

    /// Creates the progress line.
    public init(
        userId: String, displayName: String?, level: Int, points: Int64, pointsThisWeek: Int64, lastActiveAt: String?
    ) {
        self.userId = userId
        self.displayName = displayName
        self.level = level
        self.points = points
        self.pointsThisWeek = pointsThisWeek
        self.lastActiveAt = lastActiveAt
    }
}

/// Where a points total sits on the level curve.
///
/// Every answer that shows a level also shows where it started, where the next one starts and
/// how many points are still needed, so clients never recompute the curve.
public struct LevelProgress: Sendable, Equatable, Codable {
    /// The current level, starting at 1.
    public let level: Int
    /// The points total at which the current level starts.
    public let levelStartsAt: Int
    /// The points total at which the next level starts; nil at the last level.
    public let nextLevelAt: Int?
    /// `nextLevelAt - points`; nil at the last level.
    public let pointsToNextLevel: Int?

    /// Creates a progress value from its parts (the curve computes these; see `LevelCurve.progress`).
    public init(level: Int, levelStartsAt: Int, nextLevelAt: Int?, pointsToNextLevel: Int?) {
        self.level = level
        self.levelStartsAt = levelStartsAt
        self.nextLevelAt = nextLevelAt
        self.pointsToNextLevel = pointsToNextLevel
    }
}

/// A player's reminder choices, as `PUT /v1/users/{id}/preferences` takes them under `reminders`.
///
/// On each chosen weekday, once the local `time` has passed in `time_zone` (the player's zone
/// when left out), Podium emits one `reminder.due` event unless the player already completed a
/// quiz that local day or ops marked the day closed. Local times follow the scheduler's DST
/// policy: a time skipped by a spring-forward change fires at the end of the gap, a time that
/// occurs twice fires at its first occurrence.
public struct ReminderPreferences: Sendable, Codable, Equatable {
    /// Whether reminders are on.
    public var enabled: Bool
    /// Local time of day, `HH:MM` (24-hour).
    public var time: String
    /// Weekdays, `mon` … `sun`.
    public var days: [String]
    /// IANA zone the time is read in; the player's time zone when nil.
    public var timeZone: String?

    /// Weekday names in ISO order, Monday first.
    public static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// Creates preferences.
    public init(enabled: Bool, time: String, days: [String], timeZone: String? = nil) {
        self.enabled = enabled
        self.time = time
        self.days = days
        self.timeZone = timeZone
    }
}

/// Consecutive local days with at least one completion, as a profile and a completion's answer show them (how they
/// are counted is PodiumCore's `Streaks.swift`).
public struct Streak: Sendable, Codable, Equatable {
    /// Days in the run that is still alive (0 once a whole local day passed without a completion).
    public var current: Int
    /// The longest run ever.
    public var longest: Int

    /// Creates a streak.
    public init(current: Int, longest: Int) {
        self.current = current
        self.longest = longest
    }
}

/// The answer to `GET /v1/users/{id}`.
public struct UserProfile: Sendable, Codable, Equatable {
    /// Player id.
    public var userId: String
    /// Display name, if set.
    public var displayName: String?
    /// IANA time zone (streaks and reminders).
    public var timeZone: String
    /// Totals and accuracy.
    public var totals: PlayerTotals
    /// Level with progress.
    public var level: LevelProgress
    /// Ranks on the current period of every board the player is on.
    public var ranks: [BoardRank]
    /// False when ranks came from PostgreSQL because Redis failed.
    public var rankingsLive: Bool
    /// RFC 3339 time of the first completion or preference.
    public var createdAt: String
    /// Medals won on closed periods, newest first.
    public var medals: [MedalAward]
    /// Current and longest streak, in the player's time zone.
    public var streak: Streak
    /// Achievements unlocked, oldest first.
    public var achievements: [UnlockedAchievement]
    /// The players this one follows, with their latest progress, most points this week first.
    public var friends: [FriendProgress]
    /// Where the player stands in the leagues they play (`PlayerLeague`), by league id; the HTTP layer fills it in.
    public var leagues: [PlayerLeague] = []
    /// The player's goals and their groups' class goals in their periods under way, by goal then group; the HTTP layer
    /// fills it in.
    public var goals: [GoalProgress] = []

    /// Creates a profile.
    public init(
        userId: String, displayName: String?, timeZone: String, totals: PlayerTotals, level: LevelProgress, ranks: [BoardRank],
        rankingsLive: Bool, createdAt: String, medals: [MedalAward] = [], streak: Streak = Streak(current: 0, longest: 0),
        achievements: [UnlockedAchievement] = [], friends: [FriendProgress] = []
    ) {
        self.userId = userId
        self.displayName = displayName
        self.timeZone = timeZone
        self.totals = totals
        self.level = level
        self.ranks = ranks
        self.rankingsLive = rankingsLive
        self.createdAt = createdAt
        self.medals = medals
        self.streak = streak
        self.achievements = achievements
        self.friends = friends
    }
}

/// A player's statistics in one topic.
public struct TopicStatistics: Sendable, Codable, Equatable {
    /// Topic.
    public var topic: String
    /// Completions in it.
    public var completions: Int64
    /// Correct answers in it.
    public var correctAnswers: Int64
    /// Questions answered in it.
    public var totalAnswers: Int64
    /// Mean of each completion's accuracy, percent, one decimal.
    public var averageAccuracyPercent: Double
    /// Best single accuracy, percent, one decimal.
    public var bestAccuracyPercent: Double
    /// Most points from one completion.
    public var bestPoints: Int
    /// RFC 3339 time of the latest completion.
    public var lastPlayedAt: String

    /// Creates statistics.
    public init(
        topic: String, completions: Int64, correctAnswers: Int64, totalAnswers: Int64, averageAccuracyPercent: Double,
        bestAccuracyPercent: Double, bestPoints: Int, lastPlayedAt: String
    ) {
        self.topic = topic
        self.completions = completions
        self.correctAnswers = correctAnswers
        self.totalAnswers = totalAnswers
        self.averageAccuracyPercent = averageAccuracyPercent
        self.bestAccuracyPercent = bestAccuracyPercent
        self.bestPoints = bestPoints
        self.lastPlayedAt = lastPlayedAt
    }
}

/// The body of `PUT /v1/users/{id}/preferences`: it replaces the stored preferences (absent display name clears it, absent time zone is UTC).
public struct PreferencesRequest: Sendable, Codable, Equatable {
    /// Name shown on boards.
    public var displayName: String?
    /// IANA time zone.
    public var timeZone: String?
    /// Reminder choices; absent means no reminders.
    public var reminders: ReminderPreferences?

    /// Creates a request.
    public init(displayName: String? = nil, timeZone: String? = nil, reminders: ReminderPreferences? = nil) {
        self.displayName = displayName
        self.timeZone = timeZone
        self.reminders = reminders
    }
}

/// The stored preferences, as answered by `PUT /v1/users/{id}/preferences`.
public struct PreferencesResponse: Sendable, Codable, Equatable {
    /// Player id.
    public var userId: String
    /// Name shown on boards.
    public var displayName: String?
    /// IANA time zone.
    public var timeZone: String
    /// Reminder choices, when set.
    public var reminders: ReminderPreferences?
    /// RFC 3339 time of the next reminder check, when reminders are on.
    public var nextReminderAt: String?

    /// Creates a response.
    public init(
        userId: String, displayName: String?, timeZone: String, reminders: ReminderPreferences? = nil,
        nextReminderAt: String? = nil
    ) {
        self.userId = userId
        self.displayName = displayName
        self.timeZone = timeZone
        self.reminders = reminders
        self.nextReminderAt = nextReminderAt
    }
}

/// The answer to `GET /v1/admin/players`.
public struct PlayerMatches: Codable, Sendable {
    /// Players found: by id prefix first, then by name.
    public var players: [PlayerMatch]

    /// Creates a value from its fields.
    public init(players: [PlayerMatch]) {
        self.players = players
    }
}

/// The answer to `GET /v1/users/{id}/topics`.
public struct TopicList: Codable, Sendable {
    /// Per-topic statistics, most played first.
    public var topics: [TopicStatistics]

    /// Creates a value from its fields.
    public init(topics: [TopicStatistics]) {
        self.topics = topics
    }
}

/// A player an admin's search found.
public struct PlayerMatch: Sendable, Codable, Equatable {
    /// The player's id.
    public var userId: String
    /// The display name, if set.
    public var displayName: String?
    /// Points in all.
    public var points: Int64
    /// RFC 3339 time Podium first heard of the player.
    public var createdAt: String

    /// Creates a value from its fields.
    public init(userId: String, displayName: String? = nil, points: Int64, createdAt: String) {
        self.userId = userId
        self.displayName = displayName
        self.points = points
        self.createdAt = createdAt
    }
}
