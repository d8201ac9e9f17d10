import Foundation
import PodiumWire

/// A goal an admin set: a target a player (personal) or a group (class) reaches by playing, within a day or a week that
/// resets in the goal's zone.
///
/// Nothing closes a goal's period: a completion counts in the period it was played in while that period is open (its
/// end plus the close grace, as for boards), and the completion that reaches the target marks it reached, in its own
/// transaction (docs/RULES.md, "Goals").
public struct Goal: Sendable, Hashable {
    /// The id, a scope name (`three-a-week`).
    public let id: String
    /// The title players see.
    public let title: String
    /// Personal or class.
    public let kind: GoalKind
    /// Which completions count; a class goal's lists its groups.
    public let scope: ContestScope
    /// What it counts.
    public let measure: GoalMeasure
    /// How much reaches it.
    public let target: Int64
    /// The period it resets with.
    public let window: GoalWindow
    /// The zone its periods are cut in.
    public let timeZone: TimeZone
    /// When it was created, to the millisecond: completions played from then on count.
    public let createdAt: Date
    /// When it was paused: while set, no completion counts.
    public let pausedAt: Date?
    /// When it ended: completions played from then on count nowhere.
    public let endedAt: Date?

    /// Creates a goal.
    public init(
        id: String, title: String, kind: GoalKind, scope: ContestScope, measure: GoalMeasure, target: Int64, window: GoalWindow,
        timeZone: TimeZone, createdAt: Date, pausedAt: Date? = nil, endedAt: Date? = nil
    ) {
        self.id = id
        self.title = title
        self.kind = kind
        self.scope = scope
        self.measure = measure
        self.target = target
        self.window = window
        self.timeZone = timeZone
        // At the millisecond the API shows and PostgreSQL stores, as a league's (`League.init`).
        self.createdAt = RFC3339.wholeMilliseconds(createdAt)
        self.pausedAt = pausedAt.map(RFC3339.wholeMilliseconds)
        self.endedAt = endedAt.map(RFC3339.wholeMilliseconds)
    }

    /// The goal's state: `active`, `paused` or `ended`.
    public var state: String { endedAt != nil ? "ended" : pausedAt != nil ? "paused" : "active" }

    /// The period containing `date`.
    public func period(containing date: Date) -> Period {
        Period.containing(date, window: window == .day ? .day : .week, timeZone: timeZone)
    }

    /// Whether a completion played at `completedAt` and recorded while the goal is as it is now counts: played from the
    /// goal's creation on, before its end, and the goal not paused.
    public func counts(completedAt: Date) -> Bool {
        pausedAt == nil && completedAt >= createdAt && endedAt.map { completedAt < $0 } ?? true
    }

    /// What a completion of `points`, `correct` answers of `total` adds: 0 when it adds nothing (an imperfect run to a
    /// `perfect` goal).
    public func amount(points: Int, correct: Int, total: Int) -> Int64 {
        switch measure {
        case .completions: 1
        case .points: Int64(points)
        case .correct: Int64(correct)
        case .perfect: correct == total ? 1 : 0
        }
    }

    /// Whose progress a completion for `groups` adds to: its player's (personal), or each of its groups the goal lists
    /// (class), sorted. Empty when the scope does not count it (`ContestScope.counts` is checked by the caller).
    public func subjects(userID: String, groups: [String]) -> [String] {
        switch kind {
        case .personal: [userID]
        case .class: Set(scope.totalledGroups(of: groups)).sorted()
        }
    }

    /// The goal as the API shows it at `now`.
    public func view(now: Date) -> GoalView {
        let period = period(containing: now)
        return GoalView(
            id: id, title: title, kind: kind, scope: scope.boards.map(\.id), measure: measure, target: target, window: window,
            timeZone: timeZone.configuredName, status: state, createdAt: RFC3339.format(createdAt), pausedAt: pausedAt.map(RFC3339.format),
            endedAt: endedAt.map(RFC3339.format), period: period.key, endsAt: period.end.map(RFC3339.format) ?? "")
    }
}

extension GoalRequest {
    /// The goal this asks for, created at `now`, or every problem with the request.
    public func validated(now: Date) -> Result<Goal, ValidationFailure> {
        var errors: [FieldError] = []
        let id = DefinitionFields.id(id, errors: &errors)
        let title = DefinitionFields.shownName(title, field: "title", maxLength: Self.maximumTitleLength, errors: &errors)
        let scope = DefinitionFields.scope(scope, errors: &errors)
        let zone = DefinitionFields.zone(timeZone, errors: &errors)
        let kind = kind ?? .personal
        if kind == .class, let scope {
            switch scope {
            case .groups: break
            case .global, .topic:
                errors.append(FieldError(field: "scope", message: "must list groups ([\"group:<name>\", ...]) for a class goal: each group has its progress"))
            }
        }
        if measure == nil {
            errors.append(FieldError(field: "measure", message: "must be completions, points, correct or perfect"))
        }
        if window == nil {
            errors.append(FieldError(field: "window", message: "must be day or week"))
        }
        if !(target.map(Self.targets.contains) ?? false) {
            errors.append(FieldError(field: "target", message: "must be \(Self.targets.lowerBound)-\(Self.targets.upperBound)"))
        }
        guard errors.isEmpty, let scope, let zone, let measure, let window, let target else {
            return .failure(ValidationFailure(errors: errors))
        }
        return .success(Goal(
            id: id, title: title, kind: kind, scope: scope, measure: measure, target: target, window: window, timeZone: zone, createdAt: now))
    }
}

/// One goal a completion counts toward, for one subject (a player, or a group), in one period.
public struct GoalStep: Sendable, Hashable {
    /// The goal.
    public let goal: Goal
    /// The period the completion counts in.
    public let period: Period
    /// The player (personal) or group (class).
    public let subject: String
    /// What the completion adds (more than 0).
    public let amount: Int64
}

extension ContestRegistry {
    /// The goals a completion counts toward, with what it adds to each subject, by goal then subject: every goal not
    /// paused or ended at `completedAt` whose scope counts its `topic` and `groups`, whose period is still open at `now`
    /// (`grace` after its end), and to which it adds more than 0.
    public func goalSteps(
        userID: String, topic: String, groups: [String], points: Int, correct: Int, total: Int, completedAt: Date, now: Date,
        grace: TimeInterval
    ) -> [GoalStep] {
        goals.flatMap { goal -> [GoalStep] in
            guard goal.counts(completedAt: completedAt), goal.scope.counts(topic: topic, groups: groups) else { return [] }
            let amount = goal.amount(points: points, correct: correct, total: total)
            let period = goal.period(containing: completedAt)
            guard amount > 0, !period.isClosed(at: now, grace: grace) else { return [] }
            return goal.subjects(userID: userID, groups: groups).map { GoalStep(goal: goal, period: period, subject: $0, amount: amount) }
        }
    }
}
