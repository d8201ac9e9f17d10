import Foundation
import Hummingbird
import PodiumCore
import PodiumStore
import PodiumWire

/// Contests: created, closed early and cancelled by admins; listed and joined by players and apps. Their boards are
/// read through the leaderboard routes (`contest:<id>`, window `contest`).
struct ContestsController {
    let contests: ContestStore
    let closing: PeriodClosing
    /// Names the medallists of close reports.
    let users: UserStore
    let rules: GameRules
    let cache: LeaderboardCache
    let now: @Sendable () -> Date

    /// Registers this controller's routes on `router`.
    func addRoutes(to router: some RouterMethods<PodiumRequestContext>) {
        router.post("/v1/admin/contests", use: create)
        router.post("/v1/admin/contests/:id/close", use: close)
        router.post("/v1/admin/contests/:id/cancel", use: cancel)
        router.get("/v1/contests", use: list)
        router.get("/v1/contests/:id", use: show)
        router.put("/v1/contests/:id/entries/:user", use: join)
        router.delete("/v1/contests/:id/entries/:user", use: leave)
    }

    /// Handles `POST /v1/admin/contests`: 201 with the contest, 409 when the id is taken.
    @Sendable func create(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let body = try await HTTPSupport.decode(ContestRequest.self, from: request, context: context)
        let at = now()
        let contest: Contest
        switch body.validated(now: at) {
        case .success(let valid): contest = valid
        case .failure(let failure): throw APIError.validation(failure.errors)
        }
        guard try await contests.create(contest, now: at) else { throw APIError.conflict("a contest \(contest.id) exists already") }
        // Just made: nobody joined, no run closed.
        let view = ContestView(contest, joined: contest.entry == .join ? 0 : nil, grace: rules.closeGrace, now: at)
        return try HTTPSupport.json(view, status: .created)
    }

    /// Handles `GET /v1/contests`: the contests the caller may read, by id.
    ///
    /// Query: `status` (comma-separated statuses to keep; all by default), `q` (part of the id or title, any case),
    /// `limit` (1-500, default 100) and `cursor` (the `next_cursor` of the page before: an offset, so a contest whose
    /// status changes between two pages may move from one to the other). Most relevant first: running
    /// (ending soonest first), between runs and scheduled (starting soonest first), ended, cancelled (latest first).
    @Sendable func list(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        let visible = try context.requireBoardList()
        let query = request.uri.queryParameters
        var errors: [FieldError] = []
        let limit = HTTPSupport.integer("limit", in: query, range: 1...500, fallback: 100, errors: &errors)
        let offset = HTTPSupport.integer("cursor", in: query, range: 0...9_999_999, fallback: 0, errors: &errors)
        let statuses = query.get("status").map { Set($0.split(separator: ",").map(String.init)) }
        if let statuses, statuses.isEmpty || !statuses.isSubset(of: ContestView.statuses) {
            errors.append(FieldError(field: "status", message: "must be one or more of \(ContestView.statuses.sorted().joined(separator: ", "))"))
        }
        let search = query.get("q").map { $0.lowercased() }.flatMap { $0.isEmpty ? nil : $0 }
        if let search, search.count > 100 { errors.append(FieldError(field: "q", message: "must be at most 100 characters")) }
        guard errors.isEmpty else { throw APIError.validation(errors) }
        let at = now()
        let found = rules.boards.contests.all.filter { contest in
            (visible.map { sees in sees(contest.board.scope) || contest.scope.boards.contains(where: sees) } ?? true)
                && (search.map { contest.id.lowercased().contains($0) || contest.title.lowercased().contains($0) } ?? true)
        }
        // Read before the status filter: a run closed early is over (`ContestView.status`).
        let closings = try await contests.currentRunClosings(found, now: at)
        let matching = found.map { ($0, ContestView($0, joined: nil, runClosedAt: closings[$0.id], grace: rules.closeGrace, now: at)) }
            .filter { statuses?.contains($0.1.status) ?? true }
            .sorted { Self.moreRelevant($0.1, than: $1.1) }
        let page = matching.dropFirst(offset).prefix(limit).map(\.0)
        let counts = try await contests.entrantCounts(page.filter { $0.entry == .join }.map(\.id))
        let next = offset + page.count < matching.count ? String(offset + page.count) : nil
        return try HTTPSupport.json(ContestList(contests: page.map {
            ContestView($0, joined: counts[$0.id], runClosedAt: closings[$0.id], grace: rules.closeGrace, now: at)
        }, total: matching.count, nextCursor: next))
    }

    /// The list's order: by status (running, between runs, scheduled, ended, cancelled), then the run that matters
    /// soonest (running: its end; between runs and scheduled: the next start), or latest (ended, cancelled), then id.
    static func moreRelevant(_ a: ContestView, than b: ContestView) -> Bool {
        let order = ["running", "between-runs", "scheduled", "ended", "cancelled"]
        let (rankA, rankB) = (order.firstIndex(of: a.status) ?? order.count, order.firstIndex(of: b.status) ?? order.count)
        if rankA != rankB { return rankA < rankB }
        func moment(_ view: ContestView) -> String {
            switch view.status {
            case "running": view.currentRun?.endsAt ?? ""
            case "between-runs", "scheduled": view.nextRuns.first?.startsAt ?? view.currentRun?.startsAt ?? ""
            default: view.currentRun?.endsAt ?? view.endsAt ?? ""
            }
        }
        let (momentA, momentB) = (moment(a), moment(b))
        if momentA != momentB { return rankA <= 2 ? momentA < momentB : momentA > momentB }
        return a.id < b.id
    }

    /// Handles `GET /v1/contests/:id`.
    @Sendable func show(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requireBoardReader(.ranking)
        let contest = try readableContest(context)
        return try HTTPSupport.json(try await view(contest))
    }

    /// Handles `POST /v1/admin/contests/:id/close?dry_run=true&period=`: closes the run under way now, before its end
    /// (or the latest run, once it has ended), with its medals; `period` names the run (so a confirmation closes the
    /// run its dry run showed, even if another has started since). 409 for a run that has not started.
    @Sendable func close(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        var errors: [FieldError] = []
        let dryRun = HTTPSupport.boolean("dry_run", in: request, fallback: false, errors: &errors)
        let named = request.uri.queryParameters.get("period").map { String($0) }
        // A name of the right shape that names no run (a date that does not exist included) is 404, as on the boards.
        if let named, !Period.isContestRunShaped(named) {
            errors.append(FieldError(field: "period", message: "must be a run name such as 20261127T1400Z"))
        }
        guard errors.isEmpty else { throw APIError.validation(errors) }
        let contest = try contest(context)
        let at = now()
        let chosen = try named.map { name in
            guard let run = contest.run(named: name) else { throw APIError.notFound("contest \(contest.id) has no run \(name)") }
            return run
        } ?? contest.currentRun(at: at)
        guard let run = chosen, let start = run.start, start <= at else {
            throw APIError.conflict("contest \(contest.id) has no run under way or ended to close")
        }
        let key = BoardPeriodKey(board: BoardScope.contest(contest.id).id, window: .contest, period: run.key)
        let report = try await HTTPSupport.close(key, with: closing, cache: cache, now: at, dryRun: dryRun, early: true)
        return try HTTPSupport.json(await HTTPSupport.named(report, users: users))
    }

    /// Handles `POST /v1/admin/contests/:id/cancel`: nothing counts from now on, and the run under way is closed without
    /// medals (as every later close of it is). Idempotent: cancelling again closes that run if an earlier try could not.
    @Sendable func cancel(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let contest = try contest(context)
        let at = now()
        _ = try await contests.cancel(id: contest.id, now: at)
        // The run its board shows says so at once (`cancelled_at`), on this replica; others within the cache's lifetime.
        if let shown = contest.currentRun(at: at) {
            cache.invalidate(keys: [BoardPeriodKey(board: BoardScope.contest(contest.id).id, window: .contest, period: shown.key)])
        }
        if let run = contest.run(containing: at) {
            let key = BoardPeriodKey(board: BoardScope.contest(contest.id).id, window: .contest, period: run.key)
            _ = try await HTTPSupport.close(key, with: closing, cache: cache, now: at, dryRun: false, early: true)
        }
        return try HTTPSupport.json(try await view(rules.boards.contests.contest(contest.id) ?? contest))
    }

    /// Handles `PUT /v1/contests/:id/entries/:user`: 201 when joined now, 200 when already; 409 when full, open to
    /// all, or cancelled. A player token joins only itself, and only contests it may read.
    @Sendable func join(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requireWriter()
        let (contest, user) = try entry(context)
        let status: HTTPResponse.Status
        switch try await contests.join(contestID: contest.id, userID: user, now: now()) {
        case .joined: status = .created
        case .alreadyJoined: status = .ok
        case .full: throw APIError.conflict("contest \(contest.id) has \(contest.maxPlayers ?? 0) players, the most it takes")
        case .open: throw APIError.conflict("contest \(contest.id) is open to every player in scope: there is nothing to join")
        case .cancelled: throw APIError.conflict("contest \(contest.id) was cancelled")
        case .missing: throw APIError.notFound("no contest \(contest.id)")
        }
        return try HTTPSupport.json(ContestEntryState(contest: contest.id, userId: user), status: status)
    }

    /// Handles `DELETE /v1/contests/:id/entries/:user`: 204, or 404 when the player had not joined. Scores already
    /// earned stay on the board; later completions no longer count.
    @Sendable func leave(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requireWriter()
        let (contest, user) = try entry(context)
        guard try await contests.leave(contestID: contest.id, userID: user) else {
            throw APIError.notFound("\(user) has not joined contest \(contest.id)")
        }
        return Response(status: .noContent)
    }

    /// The contest and player of an entry route, checked: the caller writes for the player, and a player token must
    /// be able to read the contest.
    private func entry(_ context: PodiumRequestContext) throws -> (Contest, String) {
        let user = try HTTPSupport.identifier("user", in: context)
        try context.requirePlayerWrite(user)
        let contest = try contest(context)
        if context.isPlayer { try context.requireBoardRead(contest.board.scope, .page, sharedWith: contest.scope.boards) }
        return (contest, user)
    }

    /// The path's contest, if the caller may read it.
    private func readableContest(_ context: PodiumRequestContext) throws -> Contest {
        let contest = try contest(context)
        try context.requireBoardRead(contest.board.scope, .ranking, sharedWith: contest.scope.boards)
        return contest
    }

    /// The path's contest; 404 when there is none.
    private func contest(_ context: PodiumRequestContext) throws -> Contest {
        let id = try HTTPSupport.definitionID("contest", in: context)
        guard let contest = rules.boards.contests.contest(id) else { throw APIError.notFound("no contest \(id)") }
        return contest
    }

    /// The contest as the API shows it now.
    private func view(_ contest: Contest) async throws -> ContestView {
        let at = now()
        let joined = contest.entry == .join ? try await contests.entrantCounts([contest.id])[contest.id] : nil
        let closed = try await contests.currentRunClosings([contest], now: at)[contest.id]
        return ContestView(contest, joined: joined, runClosedAt: closed, grace: rules.closeGrace, now: at)
    }
}
