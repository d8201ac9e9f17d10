import Foundation

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

    /// Every problem, each naming its field (`display_name`, `time_zone`, `reminders.…`).
    public func validationErrors() -> [FieldError] {
        var errors: [FieldError] = []
        if let displayName, let problem = NameRules.displayNameProblem(displayName) {
            errors.append(FieldError(field: "display_name", message: problem))
        }
        if let error = NameRules.timeZoneError(timeZone ?? "UTC", field: "time_zone") { errors.append(error) }
        return errors + (reminders?.validationErrors() ?? [])
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
    public init(userId: String, displayName: String?, timeZone: String, reminders: ReminderPreferences? = nil, nextReminderAt: String? = nil) {
        self.userId = userId
        self.displayName = displayName
        self.timeZone = timeZone
        self.reminders = reminders
        self.nextReminderAt = nextReminderAt
    }
}
