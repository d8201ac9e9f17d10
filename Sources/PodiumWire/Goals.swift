import Foundation

/// Whose a goal is: each player's own, or each group's together.
public enum GoalKind: String, Sendable, Codable, CaseIterable {
    /// Each player in scope has their own progress ("3 quizzes this week").
    case personal
    /// Each group in scope has one progress its players add to ("our class answers 500 questions right this week").
    case `class`
}

/// What a goal counts.
public enum GoalMeasure: String, Sendable, Codable, CaseIterable {
    /// Completions.
    case completions
    /// Points earned.
    case points
    /// Correct answers.
    case correct
    /// Perfect completions (every answer correct).
    case perfect
}

/// The windows a goal may reset in.
public enum GoalWindow: String, Sendable, Codable, CaseIterable {
    /// A day in the goal's zone.
    case day
    /// An ISO week (Monday to Monday) in the goal's zone.
    case week
}

/// The body of `POST /v1/admin/goals`: every field optional here, so validation can name each missing or wrong one at once.
public struct GoalRequest: Codable, Sendable {
    /// The id (a scope name).
    public var id: String?
    /// The title players see: 1...80 characters.
    public var title: String?
    /// `personal` (the default) or `class`.
    public var kind: GoalKind?
    /// Board ids: `["global"]`, `["topic:<name>"]` or `["group:<a>", ...]`; a class goal names groups.
    public var scope: [String]?
    /// What it counts.
    public var measure: GoalMeasure?
    /// How much completes it: 1...1,000,000,000.
    public var target: Int64?
    /// `day` or `week`.
    public var window: GoalWindow?
    /// The IANA zone its days and weeks are cut in; UTC when left out.
    public var timeZone: String?

    /// The longest title.
    public static let maximumTitleLength = 80
    /// The targets allowed.
    public static let targets: ClosedRange<Int64> = 1...1_000_000_000

    /// Creates a request (tests and tools; the API decodes it).
    public init(
        id: String? = nil, title: String? = nil, kind: GoalKind? = nil, scope: [String]? = nil, measure: GoalMeasure? = nil,
        target: Int64? = nil, window: GoalWindow? = nil, timeZone: String? = nil
    ) {
        self.id = id
        self.title = title
        self.kind = kind
        self.scope = scope
        self.measure = measure
        self.target = target
        self.window = window
        self.timeZone = timeZone
    }
}

/// A goal as the API shows it: the request's fields, its state and its period under way.
public struct GoalView: Codable, Sendable, Equatable {
    /// The id.
    public var id: String
    /// The title players see.
    public var title: String
    /// `personal` or `class`.
    public var kind: GoalKind
    /// Its scope as board ids.
    public var scope: [String]
    /// What it counts.
    public var measure: GoalMeasure
    /// How much completes it.
    public var target: Int64
    /// `day` or `week`.
    public var window: GoalWindow
    /// The zone its periods are cut in.
    public var timeZone: String
    /// `active`, `paused` or `ended`.
    public var status: String
    /// When it was created.
    public var createdAt: String
    /// When it was paused (while it is).
    public var pausedAt: String?
    /// When it ended.
    public var endedAt: String?
    /// The period under way (`2026-12-06`, `2026-W49`).
    public var period: String
    /// The first instant after the period under way.
    public var endsAt: String

    /// Creates a value from its fields.
    public init(
        id: String, title: String, kind: GoalKind, scope: [String], measure: GoalMeasure, target: Int64, window: GoalWindow,
        timeZone: String, status: String, createdAt: String, pausedAt: String? = nil, endedAt: String? = nil, period: String,
        endsAt: String
    ) {
        self.id = id
        self.title = title
        self.kind = kind
        self.scope = scope
        self.measure = measure
        self.target = target
        self.window = window
        self.timeZone = timeZone
        self.status = status
        self.createdAt = createdAt
        self.pausedAt = pausedAt
        self.endedAt = endedAt
        self.period = period
        self.endsAt = endsAt
    }
}

/// The answer to `GET /v1/goals`.
public struct GoalList: Codable, Sendable {
    /// The goals, by id.
    public var goals: [GoalView]

    /// Creates a value from its fields.
    public init(goals: [GoalView]) {
        self.goals = goals
    }
}

/// One goal a completion counted toward, in the completion's answer.
public struct GoalAdvance: Codable, Sendable, Equatable {
    /// The goal's id.
    public var goal: String
    /// The goal's title.
    public var title: String
    /// The group, for a class goal (its progress is the group's).
    public var group: String?
    /// The goal's period the completion counted in.
    public var period: String
    /// The progress right after this completion (a class goal's: at least this, as the group's other players add theirs).
    public var progress: Int64
    /// The target.
    public var target: Int64
    /// Whether this completion reached the target (once per player, or group, and period).
    public var completed: Bool

    /// Creates a value from its fields.
    public init(goal: String, title: String, group: String? = nil, period: String, progress: Int64, target: Int64, completed: Bool) {
        self.goal = goal
        self.title = title
        self.group = group
        self.period = period
        self.progress = progress
        self.target = target
        self.completed = completed
    }
}

/// A goal's progress in its period under way, for one player or group (the profile, a group's goals).
public struct GoalProgress: Codable, Sendable, Equatable {
    /// The goal's id.
    public var goal: String
    /// The goal's title.
    public var title: String
    /// `personal` or `class`.
    public var kind: GoalKind
    /// The group, for a class goal.
    public var group: String?
    /// What it counts.
    public var measure: GoalMeasure
    /// `day` or `week`.
    public var window: GoalWindow
    /// The period under way.
    public var period: String
    /// How far it is.
    public var progress: Int64
    /// The target.
    public var target: Int64
    /// When the target was reached, if it was.
    public var completedAt: String?
    /// The first instant after the period.
    public var endsAt: String
    /// Seconds until the period ends.
    public var secondsLeft: Int

    /// Creates a value from its fields.
    public init(
        goal: String, title: String, kind: GoalKind, group: String? = nil, measure: GoalMeasure, window: GoalWindow, period: String,
        progress: Int64, target: Int64, completedAt: String? = nil, endsAt: String, secondsLeft: Int
    ) {
        self.goal = goal
        self.title = title
        self.kind = kind
        self.group = group
        self.measure = measure
        self.window = window
        self.period = period
        self.progress = progress
        self.target = target
        self.completedAt = completedAt
        self.endsAt = endsAt
        self.secondsLeft = secondsLeft
    }
}

/// The answer to `GET /v1/groups/{group}/goals`: the class goals of one group in their periods under way.
public struct GroupGoals: Codable, Sendable {
    /// The group.
    public var group: String
    /// Its class goals, by id.
    public var goals: [GoalProgress]

    /// Creates a value from its fields.
    public init(group: String, goals: [GoalProgress]) {
        self.group = group
        self.goals = goals
    }
}

/// The data of a `goal.completed` event: a player, or a group, reached a goal's target in one period.
public struct GoalCompletedEvent: EventPayload {
    /// `goal.completed`.
    public static let type = EventType.goalCompleted
    /// The goal's id.
    public var goal: String
    /// The goal's title.
    public var title: String
    /// `personal` or `class`.
    public var kind: GoalKind
    /// The player, for a personal goal.
    public var userId: String?
    /// The group, for a class goal.
    public var group: String?
    /// The period.
    public var period: String
    /// `day` or `week`.
    public var window: GoalWindow
    /// The target.
    public var target: Int64
    /// The progress when it was reached.
    public var progress: Int64
    /// The completion that reached it, for a personal goal.
    public var completionId: String?
    /// When it was reached (the completion's recording).
    public var completedAt: String

    /// Creates the event.
    public init(
        goal: String, title: String, kind: GoalKind, userId: String? = nil, group: String? = nil, period: String, window: GoalWindow,
        target: Int64, progress: Int64, completionId: String? = nil, completedAt: String
    ) {
        self.goal = goal
        self.title = title
        self.kind = kind
        self.userId = userId
        self.group = group
        self.period = period
        self.window = window
        self.target = target
        self.progress = progress
        self.completionId = completionId
        self.completedAt = completedAt
    }

    /// The player, for a personal goal; a class goal's event names no player.
    public var subject: String? { userId }
}
