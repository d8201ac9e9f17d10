import Foundation
import PodiumWire

/// A completion with what it earns, worked out before anything is stored: points and the board periods it counts on.
public struct CompletionPlan: Sendable {
    /// The validated completion.
    public let item: ValidCompletion
    /// Points it earns.
    public let points: Int
    /// Board periods still open at the time it is recorded: they take its score.
    public private(set) var open: [BoardPeriod]
    /// Board periods it falls in that had already closed: it missed them.
    public private(set) var closed: [BoardPeriod]
    /// Open periods of teams boards ranking its groups: they take no score of their own (a team's comes from its
    /// group's board), but are listed, and change, with it.
    public let teamPeriods: [BoardPeriod]

    /// Plans `item`, recorded at `now`, under `rules`: the board periods it falls in, less those of boards it does not
    /// count on (a `duration` board takes perfect, timed runs only).
    public init(_ item: ValidCompletion, rules: GameRules, now: Date) {
        self.item = item
        let points = rules.points.points(difficulty: item.difficulty, correct: item.correct, total: item.total)
        self.points = points
        let (open, closed) = rules.boardPeriods(
            quizID: item.quizID, topic: item.topic, groups: item.groups, completedAt: item.completedAt, now: now)
        let counts = { (entry: BoardPeriod) in
            entry.board.metric != .duration
                || entry.board.metric.value(points: points, correct: item.correct, total: item.total, durationMs: item.durationMS) != nil
        }
        self.open = open.filter(counts)
        self.closed = closed.filter(counts)
        teamPeriods = rules.teamPeriods(groups: item.groups, completedAt: item.completedAt, now: now)
    }

    /// The same plan without the board periods `excluded` picks (contest runs of a `join` contest the player did not join).
    public func leavingOut(_ excluded: (BoardPeriod) -> Bool) -> CompletionPlan {
        var plan = self
        plan.open.removeAll(where: excluded)
        plan.closed.removeAll(where: excluded)
        return plan
    }

    /// The same plan with `entry` added: to the open periods when `open`, else to those it missed (a league cohort's
    /// week, which the store learns only once it placed the player).
    public func adding(_ entry: BoardPeriod, open isOpen: Bool) -> CompletionPlan {
        var plan = self
        if isOpen { plan.open.append(entry) } else { plan.closed.append(entry) }
        return plan
    }

    /// What the completion gives each open period, in their order: the amount a `sum` board adds, the run a `best` or
    /// `latest` board compares (`BoardMetric.value`).
    public var increments: [Int64] { open.map { value(on: $0.board) } }

    /// What the completion gives a board of `board`'s metric (0 where it does not count, which `init` leaves out).
    public func value(on board: BoardDefinition) -> Int64 {
        board.metric.value(points: points, correct: item.correct, total: item.total, durationMs: item.durationMS) ?? 0
    }
}

/// What the store knows of a player right after adding one completion: the facts the game rules look at.
public struct PlayerStanding: Sendable, Equatable {
    /// The player's totals, this completion included.
    public var totals: PlayerTotals
    /// The player's completions in this completion's topic, this one included.
    public var topicCompletions: Int64
    /// The player's active local days (day numbers), this completion's included, in any order.
    public var activeDays: [Int]
    /// Achievements the player already holds.
    public var heldAchievements: Set<String>

    /// Creates a standing.
    public init(totals: PlayerTotals, topicCompletions: Int64, activeDays: [Int], heldAchievements: Set<String>) {
        self.totals = totals
        self.topicCompletions = topicCompletions
        self.activeDays = activeDays
        self.heldAchievements = heldAchievements
    }
}

/// Everything that follows from recording one completion: the answer (level, level-up, streak, missed
/// periods, unlocked achievements) and the events it writes. A pure function of its inputs; the store
/// reads the standing, calls this, and writes the result.
public struct CompletionOutcome: Sendable, Equatable {
    /// The answer, without ranks (the store adds them once Redis has the new scores).
    public var response: CompletionResponse
    /// Achievements this completion unlocked, in the rules' order.
    public var unlocked: [AchievementRule]

    /// Works out the outcome of `plan` for a player whose standing after it is `standing`.
    ///
    /// - Parameters:
    ///   - closedEarly: open periods of the plan that ops closed early, with when they did (nil if unknown):
    ///     the completion missed them too.
    ///   - timeZone: the player's time zone, which decides the local day of the streak.
    ///   - now: the instant the completion is recorded (the streak's today); `recordedAt` is the same instant as stored.
    public init(
        plan: CompletionPlan, standing: PlayerStanding, closedEarly: [(BoardPeriod, closedAt: Date?)], timeZone: TimeZone,
        now: Date, recordedAt: Date, rules: GameRules
    ) {
        let item = plan.item
        let totals = standing.totals
        let level = rules.levels.progress(points: Int(totals.points))
        let before = rules.levels.progress(points: Int(totals.points) - plan.points)
        let missed = plan.closed.map { ($0, $0.period.closesAt(grace: rules.closeGrace)) } + closedEarly
        var response = CompletionResponse(
            completion: CompletionRecord(
                id: item.id, userId: item.userID, quizId: item.quizID, topic: item.topic, difficulty: item.difficulty,
                correct: item.correct, total: item.total, durationMs: item.durationMS, completedAt: RFC3339.format(item.completedAt),
                groups: item.groups, points: plan.points, recordedAt: RFC3339.format(recordedAt)),
            pointsAwarded: plan.points,
            totals: totals,
            level: level,
            levelReached: level.level > before.level ? level.level : nil,
            ranks: [],
            rankingsLive: false,
            missedPeriods: missed.map { period, closedAt in
                MissedPeriod(
                    board: period.board.id, window: period.period.window, period: period.period.key,
                    closedAt: closedAt.map(RFC3339.format) ?? "")
            })
        let streak = Streak.of(activeDays: standing.activeDays, today: Streak.localDay(of: now, in: timeZone))
        response.streak = streak
        let facts = AchievementFacts(
            completions: totals.completions, perfectQuestions: item.correct == item.total ? item.total : nil,
            longestStreak: streak.longest, level: level.level, points: totals.points, topicCompletions: standing.topicCompletions)
        unlocked = rules.achievements.filter { !standing.heldAchievements.contains($0.id) && $0.isMet(by: facts) }
        response.achievementsUnlocked = unlocked.map {
            UnlockedAchievement(id: $0.id, name: $0.name, unlockedAt: RFC3339.format(recordedAt))
        }
        self.response = response
    }

    /// The `completion.recorded` event.
    public var recordedEvent: CompletionRecordedEvent { CompletionRecordedEvent(response.completion) }

    /// The `level.reached` event, when the completion crossed a level threshold.
    public var levelEvent: LevelReachedEvent? {
        response.levelReached.map {
            LevelReachedEvent(userId: response.completion.userId, level: $0, points: response.totals.points, completionId: response.completion.id)
        }
    }

    /// One `achievement.unlocked` event per unlocked achievement (the store writes each only if the unlock is new).
    public var achievementEvents: [AchievementUnlockedEvent] {
        unlocked.map {
            AchievementUnlockedEvent(userId: response.completion.userId, achievement: $0.id, name: $0.name, completionId: response.completion.id)
        }
    }
}
