import Foundation
import Hummingbird
import PodiumCore
import PodiumStore
import PodiumWire

/// Leagues: created, paused, resumed, ended and closed by admins; listed and read by apps; a player's own standing.
/// Their cohorts' boards are read through the leaderboard routes (`league:<id>:<tier>:<n>`, window `week`).
struct LeaguesController {
    let leagues: LeagueStore
    let closing: PeriodClosing
    /// Names the players of week reports.
    let users: UserStore
    let standings: LeagueStandings
    let rules: GameRules
    let cache: LeaderboardCache
    let now: @Sendable () -> Date

    /// Registers this controller's routes on `router`.
    func addRoutes(to router: some RouterMethods<PodiumRequestContext>) {
        router.post("/v1/admin/leagues", use: create)
        router.post("/v1/admin/leagues/:id/pause", use: pause)
        router.post("/v1/admin/leagues/:id/resume", use: resume)
        router.post("/v1/admin/leagues/:id/end", use: end)
        router.post("/v1/admin/leagues/:id/close", use: close)
        router.get("/v1/leagues", use: list)
        router.get("/v1/leagues/:id", use: show)
        router.get("/v1/users/:id/leagues", use: player)
    }

    /// Handles `POST /v1/admin/leagues`: 201 with the league, 409 when the id is taken.
    @Sendable func create(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let body = try await HTTPSupport.decode(LeagueRequest.self, from: request, context: context)
        let at = now()
        let league: League
        switch body.validated(now: at) {
        case .success(let valid): league = valid
        case .failure(let failure): throw APIError.validation(failure.errors)
        }
        guard try await leagues.create(league) else { throw APIError.conflict("a league \(league.id) exists already") }
        return try HTTPSupport.json(LeagueView(league, now: at), status: .created)
    }

    /// Handles `GET /v1/leagues`: the leagues the caller may read (those whose scope it may read), by id.
    @Sendable func list(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        let visible = try context.requireBoardList()
        let at = now()
        let shown = rules.boards.contests.leagues.filter { league in visible.map { sees in league.scope.boards.contains(where: sees) } ?? true }
        return try HTTPSupport.json(LeagueList(leagues: shown.map { LeagueView($0, now: at) }))
    }

    /// Handles `GET /v1/leagues/:id`.
    @Sendable func show(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requireBoardReader(.ranking)
        let league = try league(context)
        try context.requireBoardRead(league.scope.boards[0], .ranking, sharedWith: league.scope.boards)
        return try HTTPSupport.json(LeagueView(league, now: now()))
    }

    /// Handles `POST /v1/admin/leagues/:id/pause`: no completion counts until it is resumed (its weeks still close).
    @Sendable func pause(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try await change(context) { try await leagues.pause(id: $0.id, now: now()) }
    }

    /// Handles `POST /v1/admin/leagues/:id/resume`: completions count again; 409 for an ended league.
    @Sendable func resume(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try await change(context) { league in
            if league.endedAt != nil { throw APIError.conflict("league \(league.id) has ended") }
            return try await leagues.resume(id: league.id)
        }
    }

    /// Handles `POST /v1/admin/leagues/:id/end`: nothing played from now on counts; the week under way closes at its end.
    @Sendable func end(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try await change(context) { try await leagues.end(id: $0.id, now: now()) }
    }

    /// Handles `POST /v1/admin/leagues/:id/close?period=&dry_run=&tier=&limit=`: closes every cohort of the week
    /// `period` (the week under way when left out) still open, with their medals and moves, and answers the week's report;
    /// with `dry_run=true` nothing is written and the report shows what the close would do (from the live standings).
    /// 409 before the week's end plus the close grace (so always for the week under way, the default, unless a dry run),
    /// and while an older week has a cohort open (weeks close in turn). A dry run may look at any week. `tier` and `limit` (1-1000 cohorts, default 100)
    /// choose the cohorts whose players the report lists; its sums by tier always cover every cohort.
    @Sendable func close(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let query = request.uri.queryParameters
        var errors: [FieldError] = []
        let dryRun = HTTPSupport.boolean("dry_run", in: request, fallback: false, errors: &errors)
        let limit = HTTPSupport.integer("limit", in: query, range: 1...1000, fallback: 100, errors: &errors)
        let league = try league(context)
        let at = now()
        let period = query.get("period").map { String($0) }
        if let period, !Period.isWeekShaped(period) {
            errors.append(FieldError(field: "period", message: "must be a week name such as 2026-W48"))
        }
        let tierName = query.get("tier").map { String($0) }
        if let tierName, !NameRules.isValidScopeName(tierName) {
            errors.append(FieldError(field: "tier", message: "must be a tier name: 1-\(NameRules.maximumScopeNameLength) of a-z 0-9 . _ -"))
        }
        guard errors.isEmpty else { throw APIError.validation(errors) }
        // Of the right shape but naming nothing (week 60, a tier the league has not): 404, as on the boards.
        let week = try period.map { name in
            guard let week = Period.named(name, window: .week, timeZone: league.timeZone) else { throw APIError.notFound("no week \(name)") }
            return week
        } ?? league.week(containing: at)
        let tier = try tierName.map { name in
            guard let index = league.tierIndex(named: name) else { throw APIError.notFound("league \(league.id) has no tier \(name)") }
            return index
        }
        let closesAt = week.closesAt(grace: rules.closeGrace)
        if !dryRun {
            // After the grace, as the scheduler: completions played in the week still count until then.
            guard let closesAt, closesAt <= at else {
                let when = closesAt.map(RFC3339.format) ?? "?"
                throw APIError.conflict("week \(week.key) of league \(league.id) takes completions until \(when): it cannot close before")
            }
            // Weeks close in turn: a week's moves apply to the tiers the week before gave.
            if let older = try await leagues.oldestOpenWeek(of: league, before: week.key) {
                throw APIError.conflict("week \(older) of league \(league.id) is not closed yet: close it first")
            }
            let open = try await leagues.cohorts(of: league, period: week.key).filter { !$0.closed }
                .map { BoardPeriodKey(board: $0.board, window: .week, period: week.key) }
            // In pages, each one transaction, as close-periods closes them.
            let size = PeriodStore.closePageSize
            for first in stride(from: 0, to: open.count, by: size) {
                let page = Array(open[first..<min(first + size, open.count)])
                _ = try await closing.close(page, now: at)
                cache.invalidate(keys: page)
            }
        }
        let report = try await leagues.weekReport(
            league, week: week, closesAt: closesAt ?? at, tier: tier, limit: limit, outcome: dryRun ? .dryRun : .closed)
        return try HTTPSupport.json(await HTTPSupport.named(report, users: users))
    }

    /// Handles `GET /v1/users/:id/leagues`: where the player stands in every league they played (tier, this week's
    /// cohort, rank and zone, time left). A player token reads its own; 404 for a player Podium does not know.
    @Sendable func player(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requirePlayerReader()
        let id = try HTTPSupport.identifier("id", in: context)
        try await context.requirePlayerRead(id) { patterns in try await users.appears(userID: id, onAny: patterns) }
        // As every `/v1/users/{id}/…` read: a player Podium does not know (never seen, or erased) is 404, not no leagues.
        guard try await users.exists(userID: id) else { throw APIError.notFound("no user \(id)") }
        return try HTTPSupport.json(PlayerLeagueList(leagues: try await standings.of(id, shownTo: context)))
    }

    /// A pause, resume or end of the path's league by `change`, answered with the league as it is after it.
    private func change(_ context: PodiumRequestContext, _ change: (League) async throws -> DefinitionChange) async throws -> Response {
        try context.require(.admin)
        let league = try league(context)
        if try await change(league) == .missing { throw APIError.notFound("no league \(league.id)") }
        return try HTTPSupport.json(LeagueView(rules.boards.contests.league(league.id) ?? league, now: now()))
    }

    /// The path's league; 404 when there is none.
    private func league(_ context: PodiumRequestContext) throws -> League {
        let id = try HTTPSupport.definitionID("league", in: context)
        guard let league = rules.boards.contests.league(id) else { throw APIError.notFound("no league \(id)") }
        return league
    }
}

/// Where a player stands in the leagues they played: what `GET /v1/users/{id}/leagues` and the profile show.
struct LeagueStandings {
    let leagues: LeagueStore
    let leaderboards: LeaderboardStore
    let rules: GameRules
    let now: @Sendable () -> Date

    /// `userID`'s standing in every league they hold a tier in or play in this week that `context` may see (it may show
    /// a board of the league's scope), by league id; an ended league only while its last week, if they play in it, runs.
    func of(_ userID: String, shownTo context: PodiumRequestContext) async throws -> [PlayerLeague] {
        let at = now()
        let all = rules.boards.contests.leagues.filter { league in league.scope.boards.contains { context.mayShowBoard($0.id) } }
        guard !all.isEmpty else { return [] }
        let weeks = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0.week(containing: at)) })
        let placements = try await leagues.placements(of: userID, weeks: weeks.mapValues(\.key))
        let tiers = try await leagues.tiers(of: userID)
        var standings: [PlayerLeague] = []
        for league in all {
            let holds = league.endedAt == nil && tiers[league.id] != nil
            guard let week = weeks[league.id], placements[league.id] != nil || holds else { continue }
            guard let placement = placements[league.id], league.tiers.indices.contains(placement.tier) else {
                let tier = min(tiers[league.id] ?? 0, league.tiers.count - 1)
                standings.append(PlayerLeague(league: league, week: week, now: at, tier: tier, board: nil, rank: nil, players: nil, score: nil))
                continue
            }
            let board = league.cohortBoard(tier: placement.tier, cohort: placement.cohort).id
            let page = try await leaderboards.read(board: board, window: .week, period: week.key, slice: .around(userID: userID, radius: 0))
            let entry = page.entries.first { $0.userId == userID }
            standings.append(PlayerLeague(
                league: league, week: week, now: at, tier: placement.tier, board: board, rank: entry?.rank, players: page.players,
                score: entry?.score))
        }
        return standings
    }
}
