import Foundation
import Hummingbird
import PodiumCore
import PodiumStore
import PodiumWire

/// Goals: created, paused, resumed and ended by admins; listed and read by apps; a group's class goals for its display.
/// A player's goals are in their profile (`GoalStandings`).
struct GoalsController {
    let goals: GoalStore
    let standings: GoalStandings
    let rules: GameRules
    let now: @Sendable () -> Date

    /// Registers this controller's routes on `router`.
    func addRoutes(to router: some RouterMethods<PodiumRequestContext>) {
        router.post("/v1/admin/goals", use: create)
        router.post("/v1/admin/goals/:id/pause", use: pause)
        router.post("/v1/admin/goals/:id/resume", use: resume)
        router.post("/v1/admin/goals/:id/end", use: end)
        router.get("/v1/goals", use: list)
        router.get("/v1/goals/:id", use: show)
        router.get("/v1/groups/:group/goals", use: group)
    }

    /// Handles `POST /v1/admin/goals`: 201 with the goal, 409 when the id is taken.
    @Sendable func create(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let body = try await HTTPSupport.decode(GoalRequest.self, from: request, context: context)
        let at = now()
        let goal: Goal
        switch body.validated(now: at) {
        case .success(let valid): goal = valid
        case .failure(let failure): throw APIError.validation(failure.errors)
        }
        guard try await goals.create(goal) else { throw APIError.conflict("a goal \(goal.id) exists already") }
        return try HTTPSupport.json(goal.view(now: at), status: .created)
    }

    /// Handles `GET /v1/goals`: the goals the caller may read (those whose scope it may read), by id.
    @Sendable func list(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        let visible = try context.requireBoardList()
        let at = now()
        let shown = rules.boards.contests.goals.filter { goal in visible.map { sees in goal.scope.boards.contains(where: sees) } ?? true }
        return try HTTPSupport.json(GoalList(goals: shown.map { $0.view(now: at) }))
    }

    /// Handles `GET /v1/goals/:id`.
    @Sendable func show(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requireBoardReader(.ranking)
        let goal = try goal(context)
        try context.requireBoardRead(goal.scope.boards[0], .ranking, sharedWith: goal.scope.boards)
        return try HTTPSupport.json(goal.view(now: now()))
    }

    /// Handles `GET /v1/groups/:group/goals`: the group's class goals in their periods under way, for whoever may read a
    /// page of `group:<group>` (its display among them).
    @Sendable func group(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requireBoardReader(.page)
        let name = HTTPSupport.pathParameter("group", in: context)
        guard let board = BoardScope(id: "group:\(name)"), case .group = board else {
            throw APIError.validation([FieldError(field: "group", message: "must be a group name: 1-\(NameRules.maximumScopeNameLength) of a-z 0-9 . _ -")])
        }
        try context.requireBoardRead(board, .page)
        return try HTTPSupport.json(GroupGoals(group: name, goals: try await standings.of(group: name)))
    }

    /// Handles `POST /v1/admin/goals/:id/pause`: no completion counts until it is resumed.
    @Sendable func pause(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try await change(context) { try await goals.pause(id: $0.id, now: now()) }
    }

    /// Handles `POST /v1/admin/goals/:id/resume`: completions count again; 409 for an ended goal.
    @Sendable func resume(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try await change(context) { goal in
            if goal.endedAt != nil { throw APIError.conflict("goal \(goal.id) has ended") }
            return try await goals.resume(id: goal.id)
        }
    }

    /// Handles `POST /v1/admin/goals/:id/end`: nothing played from now on counts.
    @Sendable func end(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try await change(context) { try await goals.end(id: $0.id, now: now()) }
    }

    /// A pause, resume or end of the path's goal by `change`, answered with the goal as it is after it.
    private func change(_ context: PodiumRequestContext, _ change: (Goal) async throws -> DefinitionChange) async throws -> Response {
        try context.require(.admin)
        let goal = try goal(context)
        if try await change(goal) == .missing { throw APIError.notFound("no goal \(goal.id)") }
        return try HTTPSupport.json((rules.boards.contests.goal(goal.id) ?? goal).view(now: now()))
    }

    /// The path's goal; 404 when there is none.
    private func goal(_ context: PodiumRequestContext) throws -> Goal {
        let id = try HTTPSupport.definitionID("goal", in: context)
        guard let goal = rules.boards.contests.goal(id) else { throw APIError.notFound("no goal \(id)") }
        return goal
    }
}

/// One goal's progress row to show: the goal, its period under way, and the stored row's key.
private typealias GoalRow = (goal: Goal, period: Period, subject: GoalSubject)

/// `goal`'s rows for `subjects` (players or groups) in its period under way at `at`, the period worked out once.
private func goalRows(of goal: Goal, subjects: [String], at: Date) -> [GoalRow] {
    let period = goal.period(containing: at)
    return subjects.map { (goal, period, GoalSubject(goal: goal.id, period: period.key, subject: $0)) }
}

/// Goals' progress in their periods under way: a player's (the profile) and a group's (its display).
struct GoalStandings {
    let goals: GoalStore
    let rules: GameRules
    let now: @Sendable () -> Date

    /// `userID`'s goals that `context` may see (it may show a board of the goal's scope), by goal then group: every
    /// goal not ended that is global, or of a topic the player played, or of groups the player plays for (`GoalStore.scopes`):
    /// personal goals with their own progress, class goals with their groups'.
    func of(_ userID: String, shownTo context: PodiumRequestContext) async throws -> [GoalProgress] {
        let shown = rules.boards.contests.goals.filter { goal in
            goal.endedAt == nil && goal.scope.boards.contains { context.mayShowBoard($0.id) }
        }
        guard !shown.isEmpty else { return [] }
        let (groups, topics) = try await goals.scopes(of: userID)
        let at = now()
        let rows = shown.flatMap { goal -> [GoalRow] in
            let subjects: [String]
            switch (goal.kind, goal.scope) {
            case (.personal, .global): subjects = [userID]
            case (.personal, .topic(let topic)): subjects = topics.contains(topic) ? [userID] : []
            case (.personal, .groups(let names)): subjects = names.contains(where: groups.contains) ? [userID] : []
            case (.class, _): subjects = goal.subjects(userID: userID, groups: groups.sorted())
            }
            return goalRows(of: goal, subjects: subjects, at: at)
        }
        return try await progress(of: rows, at: at)
    }

    /// Group `group`'s class goals not ended, by goal.
    func of(group: String) async throws -> [GoalProgress] {
        let at = now()
        let rows = rules.boards.contests.goals.filter { goal in
            guard goal.kind == .class, goal.endedAt == nil, case .groups(let names) = goal.scope else { return false }
            return names.contains(group)
        }.flatMap { goalRows(of: $0, subjects: [group], at: at) }
        return try await progress(of: rows, at: at)
    }

    /// Each row's progress as stored (0 where nobody added yet), as shown at `at`.
    private func progress(of rows: [GoalRow], at: Date) async throws -> [GoalProgress] {
        let stored = try await goals.progress(of: rows.map(\.subject))
        return rows.map { goal, period, row in
            let end = period.end ?? at
            let found = stored[row]
            return GoalProgress(
                goal: goal.id, title: goal.title, kind: goal.kind, group: goal.kind == .class ? row.subject : nil, measure: goal.measure,
                window: goal.window, period: row.period, progress: found?.progress ?? 0, target: goal.target,
                completedAt: found?.completedAt.map(RFC3339.format), endsAt: RFC3339.format(end),
                secondsLeft: max(0, Int(end.timeIntervalSince(at).rounded(.up))))
        }
    }
}
