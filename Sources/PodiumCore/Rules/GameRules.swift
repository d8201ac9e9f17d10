import Foundation

/// Every rule that turns completions into points, levels and board scores.
///
/// Loaded once from the optional rules file; the defaults are the spec's (BrainMe).
public struct GameRules: Sendable {
    /// Points per completion.
    public var points: PointsRules
    /// Level thresholds.
    public var levels: LevelCurve
    /// Board configuration.
    public var boards: BoardCatalog
    /// How long after its end a period still accepts completions before it closes.
    public var closeGrace: TimeInterval
    /// How far in the future `completed_at` may be (clock skew between devices).
    public var futureSkew: TimeInterval
    /// How old `completed_at` may be (offline apps sync late, but not forever).
    public var maximumAge: TimeInterval
    /// Job schedules, retention and snapshot size.
    public var scheduler: SchedulerSettings
    /// Achievements players can unlock.
    public var achievements: [AchievementRule]

    /// How long after its first recording a completion's id is found whatever `completed_at` comes with it again
    /// (docs/RULES.md, "Retries and replays"); a retry with the same `completed_at` is found as long as it is kept.
    public static let idsRememberedFor: TimeInterval = 30 * 86_400

    /// The shortest completion retention (`completion_days`) these rules allow: no completion a batch must find by its
    /// id is dropped (the age limit, the time ids are remembered, and two days for clocks).
    public var minimumCompletionRetention: TimeInterval { maximumAge + Self.idsRememberedFor + 2 * 86_400 }

    /// Creates rules; every argument defaults to the spec's value.
    public init(
        points: PointsRules = .default, levels: LevelCurve = .default, boards: BoardCatalog = BoardCatalog(),
        closeGrace: TimeInterval = 15 * 60, futureSkew: TimeInterval = 5 * 60, maximumAge: TimeInterval = 30 * 86_400,
        scheduler: SchedulerSettings = SchedulerSettings(), achievements: [AchievementRule] = AchievementRule.defaults
    ) {
        self.points = points
        self.levels = levels
        self.boards = boards
        self.closeGrace = closeGrace
        self.futureSkew = futureSkew
        self.maximumAge = maximumAge
        self.scheduler = scheduler
        self.achievements = achievements
    }

    /// The boards a completion counts on: global, its topic, each of its groups, and its quiz's board when a rule turns
    /// that on.
    public func scopes(quizID: String, topic: String, groups: [String]) -> [BoardScope] {
        let calendar: [BoardScope] = [.global, .topic(topic)] + groups.map { .group($0) }
        return boards.countsQuiz(quizID) ? calendar + [.quiz(quizID)] : calendar
    }

    /// The periods of the teams boards that rank any of `groups`, open at `now`, containing `completedAt`: a completion
    /// scored on its groups' boards changes these teams' scores (each teams board once, however many of its teams).
    public func teamPeriods(groups: [String], completedAt: Date, now: Date) -> [BoardPeriod] {
        var boards: [String: BoardDefinition] = [:]
        for group in groups {
            for board in self.boards.teamBoards(ofGroup: group) { boards[board.id] = board }
        }
        return boards.values.sorted { $0.id < $1.id }.flatMap { board in
            board.windows.map { BoardPeriod(board: board, period: Period.containing(completedAt, window: $0, timeZone: board.timeZone)) }
                .filter { !$0.period.isClosed(at: now, grace: closeGrace) }
        }
    }

    /// Every board period a completion at `completedAt` falls in, each marked closed or open at `now`: the calendar
    /// periods of its boards, then the run of each standing contest in scope that was under way then.
    ///
    /// A `join` contest's run is listed for every player; the store leaves it out for players who did not join.
    public func boardPeriods(
        quizID: String, topic: String, groups: [String], completedAt: Date, now: Date
    ) -> (open: [BoardPeriod], closed: [BoardPeriod]) {
        var open: [BoardPeriod] = []
        var closed: [BoardPeriod] = []
        func add(_ entry: BoardPeriod) {
            if entry.period.isClosed(at: now, grace: closeGrace) { closed.append(entry) } else { open.append(entry) }
        }
        for scope in scopes(quizID: quizID, topic: topic, groups: groups) {
            let board = boards.definition(for: scope)
            for window in board.windows {
                add(BoardPeriod(board: board, period: Period.containing(completedAt, window: window, timeZone: board.timeZone)))
            }
        }
        for board in boards.contests.boardsCounting(topic: topic, groups: groups) {
            if let run = board.contest?.run(containing: completedAt) { add(BoardPeriod(board: board, period: run)) }
        }
        return (open, closed)
    }
}
