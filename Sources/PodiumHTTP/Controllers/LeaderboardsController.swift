import Foundation
import Hummingbird
import PodiumCore
import PodiumStore
import PodiumWire

/// Leaderboard reads: the list of boards, pages, around-me, friends compare.
struct LeaderboardsController {
    let snapshots: SnapshotStore
    let boards: BoardStore
    let users: UserStore
    let follows: FollowStore
    let liveRankings: LiveRankings
    /// Renders and caches pages; one shared object, so a live stream's reads hold a reference, not a copy of this controller.
    let pages: LeaderboardPages
    /// Contests' group totals, for group comparisons.
    let contests: ContestStore
    /// How long one live stream stays open.
    let liveStreamLifetime: Duration
    /// Ends live streams whose key is revoked or expires, or whose player token expires.
    let credentials: CredentialWatch
    let rules: GameRules
    let now: @Sendable () -> Date

    /// Registers this controller's routes on `router`.
    func addRoutes(to router: some RouterMethods<PodiumRequestContext>) {
        router.get("/v1/leaderboards", use: list)
        router.get("/v1/leaderboards/:board/:window", use: page)
        router.post("/v1/leaderboards/:board/:window/compare", use: compare)
        router.get("/v1/leaderboards/:board/:window/friends", use: friends)
        router.get("/v1/leaderboards/:board/:window/members", use: members)
        router.get("/v1/leaderboards/:board/:window/live", use: live)
        router.get("/v1/leaderboards/:board/:window/snapshots", use: listSnapshots)
        router.get("/v1/leaderboards/:board/:window/groups", use: groupTotals)
        router.get("/v1/comparisons", use: comparePeriods)
    }

    /// Registers the routes that need no credential (on a router without the auth middleware).
    func addPublicRoutes(to router: some RouterMethods<PodiumRequestContext>) {
        router.get("/display/:board/:window", use: display)
    }

    /// A board period addressed by a request.
    struct Target {
        let board: BoardDefinition
        let period: Period
        var periodKey: BoardPeriodKey { BoardPeriodKey(board: board.id, window: period.window, period: period.key) }
        var boardPeriod: BoardPeriod { BoardPeriod(board: board, period: period) }
    }

    /// Handles `GET /v1/leaderboards?kind=&prefix=&cursor=&limit=`: configured boards and every board that took a
    /// score, in id order, a page at a time (`next_cursor` while more follow), optionally one kind or one id prefix.
    @Sendable func list(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        let visible = try context.requireBoardList()
        var errors: [FieldError] = []
        let limit = HTTPSupport.integer("limit", in: request.uri.queryParameters, range: 1...1000, fallback: 500, errors: &errors)
        let kindName = request.uri.queryParameters.get("kind").map { String($0) }
        let kind = kindName.flatMap(BoardScope.Kind.init(rawValue:))
        if kindName != nil, kind == nil {
            errors.append(FieldError(field: "kind", message: "must be \(BoardScope.Kind.spelled)"))
        }
        let prefix = request.uri.queryParameters.get("prefix").map { String($0) } ?? ""
        if !prefix.isEmpty, prefix.count > 150 || !prefix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ":._@-".contains($0)) }) {
            errors.append(FieldError(field: "prefix", message: "must be the start of a board id: up to 150 of A-Z a-z 0-9 : . _ @ -"))
        }
        let cursor = request.uri.queryParameters.get("cursor").map { String($0) }
        if let cursor { _ = HTTPSupport.boardScope(cursor, field: "cursor", errors: &errors) }
        guard errors.isEmpty else { throw APIError.validation(errors) }
        let wanted = { (id: String) in
            id.hasPrefix(prefix) && (cursor.map { id > $0 } ?? true)
                && (kind.map { $0.holds(boardID: id) } ?? true)
        }
        let stored = try await boards.scoredBoards(after: cursor, prefix: prefix)
        let configured = rules.boards.rules.map(\.scope) + rules.boards.contests.all.map(\.board.id)
        let scopes = Array(Set(stored + configured)).filter(wanted).sorted().compactMap(BoardScope.init(id:)).filter { scope in
            visible.map { sees in sees(scope) || sharers(of: scope).contains(where: sees) } ?? true
        }
        let page = scopes.prefix(limit)
        let at = now()
        let boards = page.map { scope in
            let board = rules.boards.definition(for: scope)
            return BoardSummary(
                board: board.id, metric: board.metric.rawValue, aggregate: board.aggregate, timeZone: board.timeZone.configuredName,
                tieBreak: board.tieBreak,
                windows: board.windows.compactMap { window in
                    guard let period = board.currentPeriod(of: window, at: at) else { return nil }
                    return WindowSummary(
                        window: window, period: period.key, startsAt: period.start.map(RFC3339.format),
                        endsAt: period.end.map(RFC3339.format),
                        closesAt: period.closesAt(grace: rules.closeGrace).map(RFC3339.format),
                        medals: board.medalWindows.contains(window))
                })
        }
        return try Self.revalidatedJSON(request, BoardList(boards: boards, nextCursor: scopes.count > limit ? page.last?.id : nil))
    }

    /// A page request, parsed and checked: which board period, which slice, in which format.
    struct PageQuery {
        let target: Target
        let slice: LeaderboardSlice
        let csv: Bool

        /// The cache's name for this answer; nil for around-me answers, which are per player (caching them would
        /// only push the shared top pages out).
        var cacheKey: String? {
            switch slice {
            case .page(let offset, let limit): "\(offset)|\(limit)|\(csv)"
            case .around: nil
            }
        }
    }

    /// Parses a page request (`limit`, `offset`, `around`, `radius`, `period`, `format` when `formats` allows CSV)
    /// and checks the caller may read it.
    private func pageQuery(_ request: Request, context: PodiumRequestContext, allowCSV: Bool) throws -> PageQuery {
        let query = request.uri.queryParameters  // parsed once: every read below is of it
        let around = query.get("around")
        // Around-me picks a player out of the board: not for display keys.
        let read: PodiumRequestContext.BoardRead = around == nil ? .page : .ranking
        try context.requireBoardReader(read)
        var errors: [FieldError] = []
        let target = try target(query: query, context: context, read: read, errors: &errors)
        // `around` answers by `radius`, a page by `limit` and `offset`; each is checked whichever is used, so a bad value
        // is never silently ignored.
        let radius = HTTPSupport.integer("radius", in: query, range: 0...50, fallback: 5, errors: &errors)
        let limit = HTTPSupport.integer("limit", in: query, range: 1...100, fallback: 10, errors: &errors)
        let offset = HTTPSupport.integer("offset", in: query, range: 0...10_000_000, fallback: 0, errors: &errors)
        let slice: LeaderboardSlice
        if let around {
            if !NameRules.isValidIdentifier(around) { errors.append(FieldError(field: "around", message: "must be a user id")) }
            slice = .around(userID: String(around), radius: radius)
        } else {
            slice = .page(offset: offset, limit: limit)
        }
        let csv = allowCSV ? wantsCSV(request, query: query, errors: &errors) : false
        guard errors.isEmpty, let target else { throw APIError.validation(errors) }
        return PageQuery(target: target, slice: slice, csv: csv)
    }

    /// Handles `GET /v1/leaderboards/:board/:window`.
    @Sendable func page(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        let entry = try await pages.answer(try pageQuery(request, context: context, allowCSV: true))
        return Self.revalidated(request, body: entry.body, contentType: entry.contentType, etag: entry.etag)
    }

    /// Handles `GET /v1/leaderboards/:board/:window/live`: the page as Server-Sent Events, sent again whenever it changes.
    ///
    /// Events: `page` (the page as `GET` answers it, its ETag as the event id, so `Last-Event-ID` skips a page the
    /// client already has), `status` (`{"live": false}` while change notices do not arrive: Redis is down and the
    /// client should poll; `{"live": true}` once they do again), and a comment as heartbeat. Changes are read at most
    /// every `LiveRankings.minimumInterval`, and the page is read again every `LiveStream.refreshInterval` whatever
    /// happens (periods closing, names changing), sent only if it changed. The server ends a stream after
    /// `liveStreamLifetime`; clients reconnect (EventSource does so by itself).
    @Sendable func live(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        let query = try pageQuery(request, context: context, allowCSV: false)
        let first = try await pages.answer(query)
        let listener = liveRankings.listen(
            to: query.target.periodKey, refreshingEvery: LiveStream.refreshInterval, endingAfter: liveStreamLifetime)
        let stream = LiveStream(
            lastSent: request.headers[LiveStream.lastEventID], read: { [pages] in try await pages.join(query).value },
            ended: credentials.check(context.caller))
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        headers[LiveStream.accelBuffering] = "no"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await stream.run(first: first, listener: listener, writer: &writer)
            try await writer.finish(nil)
        })
    }

    /// Handles `GET /display/:board/:window`: an HTML page that shows the board and polls it.
    ///
    /// Served without a key: the page holds no data and nothing from the request (its script reads
    /// the board from its own address). Its API requests carry the display key given in the address's
    /// fragment (`#key=…`, never sent to a server), or none when leaderboards are public. A board that does not exist
    /// (a contest, league cohort or group board: `groupBoardExists`) is 404, so a mistyped link says so.
    ///
    /// A bad address is answered with the problem: as a short HTML page that explains it when a browser asks
    /// (`Accept` names `text/html`), else as problem+json.
    @Sendable func display(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        do {
            var errors: [FieldError] = []
            let target = try target(query: request.uri.queryParameters, context: context, read: nil, errors: &errors)
            // The page's script reads these itself; checking them here keeps a bad address from showing a broken page.
            _ = HTTPSupport.integer("limit", in: request.uri.queryParameters, range: 1...100, fallback: 10, errors: &errors)
            if let text = request.uri.queryParameters.get("refresh"), !((Double(text)).map { (1...3600).contains($0) } ?? false) {
                errors.append(FieldError(field: "refresh", message: "must be a number of seconds from 1 to 3600"))
            }
            if let text = request.uri.queryParameters.get("page_seconds"), !((Double(text)).map { (3...600).contains($0) } ?? false) {
                errors.append(FieldError(field: "page_seconds", message: "must be a number of seconds from 3 to 600"))
            }
            if let title = request.uri.queryParameters.get("title"), title.count > 100 {
                errors.append(FieldError(field: "title", message: "must be at most 100 characters"))
            }
            guard errors.isEmpty, let target else { throw APIError.validation(errors) }
            // A mistyped group would otherwise show a real-looking empty board.
            if case .group(let name) = target.board.scope, !(try await groupBoardExists(target.board.scope)) {
                throw APIError.notFound(
                    "no board group:\(name): no completion was ever recorded for group \(name), and no rule, contest or league names it")
            }
            return DisplayPage.response(status: .ok, body: try DisplayPage.body())
        } catch let problem as APIError where request.headers[.accept]?.contains("text/html") == true {
            return DisplayPage.response(status: problem.status, body: DisplayPage.explanation(of: problem))
        }
    }

    /// Handles `POST /v1/leaderboards/:board/:window/compare`.
    @Sendable func compare(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requireBoardReader(.ranking)
        var errors: [FieldError] = []
        let target = try target(query: request.uri.queryParameters, context: context, read: .ranking, errors: &errors)
        let body: CompareRequest
        do {
            body = try await HTTPSupport.decode(CompareRequest.self, from: request, context: context)
        } catch let error as APIError where error.code == "validation-failed" {
            throw APIError.validation(errors + error.errors)  // a bad board or period is reported with the body's fields
        }
        let users = body.userIds ?? []
        if body.userIds == nil { errors.append(FieldError(field: "user_ids", message: "is required")) }
        else if !(1...100).contains(users.count) { errors.append(FieldError(field: "user_ids", message: "must hold 1 to 100 user ids")) }
        for (index, user) in users.enumerated() where !NameRules.isValidIdentifier(user) {
            errors.append(FieldError(field: "user_ids[\(index)]", message: "must be a user id"))
        }
        guard errors.isEmpty, let target else { throw APIError.validation(errors) }
        // An ETag and 304 as on every leaderboard answer (SPEC): a friends view polls too. RFC 9110 would
        // answer a conditional POST with 412; compare is a read that only needs a body for its list.
        return try Self.revalidatedJSON(request, try await ranks(of: users, on: target))
    }

    /// Handles `GET /v1/leaderboards/:board/:window/friends?user=`: the player and everyone they follow, with
    /// their real ranks on the board period (those without a score there are left out).
    @Sendable func friends(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        // It reads a player's list, so it is never public, even when leaderboards are.
        try context.requirePlayerReader()
        try context.requireBoardReader(.ranking)
        var errors: [FieldError] = []
        let target = try target(query: request.uri.queryParameters, context: context, read: .ranking, errors: &errors)
        let user = Self.required("user", in: request, errors: &errors, "must be a user id", valid: NameRules.isValidIdentifier)
        guard errors.isEmpty, let target, let user else { throw APIError.validation(errors) }
        try await context.requirePlayerRead(user) { patterns in try await users.appears(userID: user, onAny: patterns) }
        return try Self.revalidatedJSON(request, try await ranks(of: [user] + follows.following(userID: user), on: target))
    }

    /// The query parameter `name`, when given and `valid`; a missing one, or one that is not valid (`message`), is added to
    /// `errors`.
    private static func required(
        _ name: String, in request: Request, errors: inout [FieldError], _ message: String, valid: (String) -> Bool
    ) -> String? {
        guard let value = request.uri.queryParameters.get(name).map({ String($0) }) else {
            errors.append(FieldError(field: name, message: "is required"))
            return nil
        }
        guard valid(value) else {
            errors.append(FieldError(field: name, message: message))
            return nil
        }
        return value
    }

    /// The most players a group's view lists (`members`); a larger group is read on its own board.
    static let groupViewLimit = 1_000

    /// Handles `GET /v1/leaderboards/:board/:window/members?group=`: the players of one group (those on the group's own
    /// board) with their real ranks on the board period, as the friends view lists a player's friends: a class's best
    /// on a quiz. The caller must read the group's board as well as this one.
    @Sendable func members(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requireBoardReader(.ranking)
        var errors: [FieldError] = []
        let target = try target(query: request.uri.queryParameters, context: context, read: .ranking, errors: &errors)
        let group = Self.required("group", in: request, errors: &errors, "must be a group name", valid: NameRules.isValidScopeName)
        guard errors.isEmpty, let target, let group else { throw APIError.validation(errors) }
        try context.requireBoardRead(.group(group), .ranking)
        let members = try await boards.members(ofGroup: group, limit: Self.groupViewLimit + 1)
        guard members.count <= Self.groupViewLimit else {
            throw APIError.validation([FieldError(
                field: "group", message: "has more than \(Self.groupViewLimit) players: read its own board, group:\(group)")])
        }
        return try Self.revalidatedJSON(request, try await ranks(of: members, on: target))
    }

    /// The page of `users`' ranks on `target`: from its final snapshot once closed, else from the live rankings.
    private func ranks(of users: [String], on target: Target) async throws -> LeaderboardPage {
        guard target.board.teams == nil else {
            throw APIError.notFound("board \(target.board.id) ranks teams, not players: read its page")
        }
        let read = try await pages.reads.compare(target.boardPeriod, userIDs: users, now: now())
        return pages.makePage(target, read.entries, closed: read.isFinal)
    }

    /// Handles `GET /v1/comparisons?a=&b=&user_id=` (or `&group=`): a player's or a group's standing on two board
    /// periods side by side. Each side is `board/window` (the current period) or `board/window/period`.
    ///
    /// A player's side is its score and rank on the board period (from the final snapshot once closed). A group's side
    /// is its total and rank among the groups: kept per contest run, or, on a calendar window, the sum of its own
    /// board `group:<group>` (so a calendar side must name that board).
    @Sendable func comparePeriods(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requireBoardReader(.ranking)
        var errors: [FieldError] = []
        let user = request.uri.queryParameters.get("user_id").map { String($0) }
        let group = request.uri.queryParameters.get("group").map { String($0) }
        switch (user, group) {
        case (nil, nil), (.some, .some):
            errors.append(FieldError(field: "user_id", message: "give exactly one of user_id and group"))
        case (let user?, nil) where !NameRules.isValidIdentifier(user):
            errors.append(FieldError(field: "user_id", message: "must be a user id"))
        case (nil, let group?) where !NameRules.isValidScopeName(group):
            errors.append(FieldError(field: "group", message: "must be a group name: 1-\(NameRules.maximumScopeNameLength) of a-z 0-9 . _ -"))
        default:
            break
        }
        var targets: [Target] = []
        for field in ["a", "b"] {
            let parts = (request.uri.queryParameters.get(field).map { String($0) } ?? "").split(separator: "/", omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count) else {
                errors.append(FieldError(field: field, message: "must be board/window or board/window/period, e.g. group:5c/month/2026-10"))
                continue
            }
            let target = try target(
                board: String(parts[0]), window: String(parts[1]), period: parts.count == 3 ? String(parts[2]) : nil, field: field,
                context: context, read: .ranking, errors: &errors)
            guard let target else { continue }
            if let group, target.period.window != .contest, target.board.id != BoardScope.group(group).id {
                errors.append(FieldError(field: field, message: "must be a contest or the group's own board group:\(group) when comparing a group"))
            }
            targets.append(target)
        }
        guard errors.isEmpty, targets.count == 2 else { throw APIError.validation(errors) }
        var sides: [ComparedPeriod] = []
        for target in targets {
            let period = target.period
            var side = ComparedPeriod(
                board: target.board.id, title: target.board.title, window: period.window, period: period.key,
                startsAt: period.start.map(RFC3339.format), endsAt: period.end.map(RFC3339.format), status: .open,
                score: 0, rank: nil, of: 0)
            let isFinal: Bool
            if let user {
                let read = try await pages.reads.compare(target.boardPeriod, userIDs: [user], now: now())
                (side.score, side.rank, side.of) = (read.entries.entries.first?.score ?? 0, read.entries.entries.first?.rank, read.entries.players)
                isFinal = read.isFinal
            } else {
                isFinal = try await pages.reads.isFinal(target.boardPeriod, now: now())
            }
            side.status = isFinal || period.isClosed(at: now(), grace: rules.closeGrace) ? .closed : .open
            if user == nil, let group {
                let standing = try await contests.groupStanding(board: target.board.id, window: period.window, period: period.key, group: group)
                (side.score, side.rank, side.of) = (standing.total, standing.rank, standing.groups)
            }
            sides.append(side)
        }
        return try Self.revalidatedJSON(request, PeriodComparison(userId: user, group: group, a: sides[0], b: sides[1]))
    }

    /// Handles `GET /v1/leaderboards/:board/:window/snapshots`: snapshots of a period (current by default), newest first.
    @Sendable func listSnapshots(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requireBoardReader(.ranking)
        var errors: [FieldError] = []
        let target = try target(query: request.uri.queryParameters, context: context, read: .ranking, errors: &errors)
        let limit = HTTPSupport.integer("limit", in: request.uri.queryParameters, range: 1...200, fallback: 24, errors: &errors)
        let top = HTTPSupport.integer("top", in: request.uri.queryParameters, range: 1...1000, fallback: 10, errors: &errors)
        guard errors.isEmpty, let target else { throw APIError.validation(errors) }
        let list = try await snapshots.snapshots(target.periodKey, limit: limit, top: top)
        return try Self.revalidatedJSON(request, SnapshotList(
            board: target.board.id, window: target.period.window, period: target.period.key, snapshots: list))
    }

    /// Handles `GET /v1/leaderboards/:board/contest/groups`: the group totals of a contest run (the current one by default),
    /// best first. They hold no player, so a display key reads them as it reads the run's page.
    @Sendable func groupTotals(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requireBoardReader(.page)
        var errors: [FieldError] = []
        let target = try target(query: request.uri.queryParameters, context: context, read: .page, errors: &errors)
        let limit = HTTPSupport.integer("limit", in: request.uri.queryParameters, range: 1...500, fallback: 50, errors: &errors)
        guard errors.isEmpty, let target else { throw APIError.validation(errors) }
        guard target.period.window == .contest else {
            throw APIError.notFound("board \(target.board.id) keeps no group totals on its \(target.period.window.rawValue) window: they are kept for contest runs")
        }
        let totals = try await contests.groupTotals(board: target.board.id, period: target.period.key, limit: limit)
        return try Self.revalidatedJSON(request, GroupTotalList(
            board: target.board.id, window: target.period.window, period: target.period.key, groups: totals))
    }

    /// An answer with a strong ETag, or 304 without a body when the request's `If-None-Match` names it.
    private static func revalidated(_ request: Request, body: ByteBuffer, contentType: String, etag: String) -> Response {
        var headers = HTTPFields()
        headers[.eTag] = etag
        headers[.cacheControl] = "no-cache"
        headers[.vary] = "Accept"
        if matches(request.headers[values: .ifNoneMatch], etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }

    /// `value` as a JSON answer with an ETag of its bytes (see `revalidated`).
    private static func revalidatedJSON(_ request: Request, _ value: some Encodable) throws -> Response {
        let body = ByteBuffer(bytes: try PodiumJSON.encoder().encode(value))
        return revalidated(request, body: body, contentType: "application/json; charset=utf-8", etag: LeaderboardCache.etag(for: body))
    }

    /// Whether an `If-None-Match` list names `etag` (weak comparison: a proxy may have added `W/`).
    static func matches(_ values: [String], etag: String) -> Bool {
        values.contains { value in
            // The usual case, a display sending back the one tag it was given, costs one comparison.
            value == etag || value.split(separator: ",").contains { candidate in
                let tag = candidate.trimmingCharacters(in: .whitespaces)
                return tag == "*" || tag == etag || tag == "W/" + etag
            }
        }
    }

    /// The board period a request addresses: 404 for a window the board does not keep, 400 for malformed parts,
    /// 403 when the caller may not `read` the board (nil: the public display page, which holds no data).
    private func target(
        query: Parameters, context: PodiumRequestContext, read: PodiumRequestContext.BoardRead?,
        errors: inout [FieldError]
    ) throws -> Target? {
        try target(
            board: HTTPSupport.pathParameter("board", in: context), window: HTTPSupport.pathParameter("window", in: context),
            period: query.get("period").map { String($0) }, field: nil, context: context, read: read, errors: &errors)
    }

    /// The board period named by its parts; problems are reported on `field`, or on `board`, `window` and `period` when nil.
    private func target(
        board boardID: String, window windowName: String, period periodName: String?, field: String?, context: PodiumRequestContext,
        read: PodiumRequestContext.BoardRead?, errors: inout [FieldError]
    ) throws -> Target? {
        let scope = HTTPSupport.boardScope(boardID, field: field ?? "board", errors: &errors)
        if let scope, let read { try context.requireBoardRead(scope, read, sharedWith: sharers(of: scope)) }
        let window = LeaderboardWindow(rawValue: windowName)
        if window == nil { errors.append(FieldError(
            field: field ?? "window", message: "\(field == nil ? "" : "window ")must be one of all, day, week, month, contest")) }
        guard let scope, let window else { return nil }
        let board = rules.boards.definition(for: scope)
        if case .contest(let id) = scope, board.contest == nil { throw APIError.notFound("no contest \(id)") }
        if case .league(let id, let tier, let cohort) = scope, board.cohort == nil {
            throw APIError.notFound(Self.missingCohort(league: rules.boards.contests.league(id), id: id, tier: tier, cohort: cohort))
        }
        guard board.windows.contains(window) else { throw APIError.notFound("board \(boardID) has no \(windowName) window") }
        if let name = periodName {
            guard Period.isPeriodShaped(name) else {
                errors.append(FieldError(
                    field: field ?? "period", message: "\(name) is not a \(windowName) period name (e.g. \(Self.example(window)))"))
                return nil
            }
            guard let period = board.period(of: window, named: name) else {
                throw APIError.notFound("board \(boardID) has no \(windowName) period \(name) (e.g. \(Self.example(window)))")
            }
            return Target(board: board, period: period)
        }
        guard let period = board.currentPeriod(of: window, at: now()) else { throw APIError.notFound("board \(boardID) has no run") }
        return Target(board: board, period: period)
    }

    /// Why league cohort `id:tier:cohort` does not exist: no such league, no such tier (its tiers are named), or a
    /// cohort number past the most a league may have.
    private static func missingCohort(league: League?, id: String, tier: String, cohort: Int) -> String {
        guard let league else { return "no league \(id)" }
        guard league.tierIndex(named: tier) != nil else {
            return "league \(id) has no tier \(tier): its tiers are \(league.tiers.map(\.name).joined(separator: ", "))"
        }
        return "league \(id) has no cohort \(cohort)"
    }

    /// Whether the board of `group` exists: a completion recorded for the group ever counted on it, or a board rule,
    /// a contest, a league or a valid API key's scopes name it (a display key made for a class before any pupil played;
    /// docs/RULES.md, "Which boards exist"). Boards of every other kind always exist (global, any topic) or are checked
    /// by `target` (contests, league cohorts).
    private func groupBoardExists(_ group: BoardScope) async throws -> Bool {
        let catalog = rules.boards
        let named = catalog.rules.contains { $0.scope == group.id }
            || catalog.contests.all.contains { $0.scope.boards.contains(group) }
            || catalog.contests.leagues.contains { $0.scope.boards.contains(group) }
        if named { return true }
        if try await credentials.directory.namesBoard(group.id) { return true }
        return try await boards.hasScored(group.id)
    }

    /// The boards whose readers may also read `scope`: a contest's or a league's scope (whoever may read one of its
    /// boards reads the contest, or the league's cohorts); none for other boards.
    private func sharers(of scope: BoardScope) -> [BoardScope] {
        switch scope {
        case .contest(let id): rules.boards.contests.contest(id)?.scope.boards ?? []
        case .league(let id, _, _): rules.boards.contests.league(id)?.scope.boards ?? []
        case .global, .topic, .group, .quiz, .team: []
        }
    }

    private static func example(_ window: LeaderboardWindow) -> String {
        switch window {
        case .all: "all"
        case .day: "2026-11-21"
        case .week: "2026-W47"
        case .month: "2026-11"
        case .contest: "20261127T1400Z"
        }
    }

    /// Whether the page is wanted as CSV: `format=csv`, or no `format` and an `Accept` that prefers `text/csv` to JSON;
    /// another `format` is a field error.
    private func wantsCSV(_ request: Request, query: Parameters, errors: inout [FieldError]) -> Bool {
        if let format = query.get("format") {
            if !["json", "csv"].contains(format) { errors.append(FieldError(field: "format", message: "must be json or csv")) }
            return format == "csv"
        }
        return request.headers[.accept].map(Self.prefersCSV) ?? false
    }

    /// Whether an `Accept` value ranks `text/csv` above JSON: by `q` (1 when absent), then by the order listed, so that
    /// `application/json, text/csv` (what generated clients send for an operation with both) is JSON, and `text/csv`
    /// alone, or first, is CSV. A range that covers JSON (`*/*`, `application/*`) counts as JSON.
    static func prefersCSV(_ accept: String) -> Bool {
        let ranked = accept.split(separator: ",").enumerated().compactMap { index, item -> (type: String, q: Double, index: Int)? in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first, !type.isEmpty else { return nil }
            let q = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return (type, q, index)
        }.filter { $0.q > 0 }.sorted { $0.q != $1.q ? $0.q > $1.q : $0.index < $1.index }
        let csv = ranked.firstIndex { $0.type == "text/csv" }
        let json = ranked.firstIndex { ["application/json", "application/*", "*/*"].contains($0.type) }
        guard let csv else { return false }
        return json.map { csv < $0 } ?? true
    }

    /// The page as CSV: a header row, then rank, user id, display name, score, medal.
    ///
    /// Text fields are quoted. A display name whose first character (Unicode scalar, so a combining
    /// mark cannot hide it) is `= + - @` could run as a formula in a spreadsheet, so it gets a leading
    /// `'`. User ids are left as they are, for joining back: their character set (letters, digits,
    /// `. _ : @ -`) cannot spell a formula call.
    static func csv(_ page: LeaderboardPage) -> Data {
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        func name(_ text: String) -> String {
            quoted(text.unicodeScalars.first.map { "=+-@".unicodeScalars.contains($0) } == true ? "'" + text : text)
        }
        var lines = ["rank,user_id,display_name,score,medal"]
        for entry in page.entries {
            lines.append([String(entry.rank), quoted(entry.userId), name(entry.displayName ?? ""), String(entry.score), entry.medal?.rawValue ?? ""]
                .joined(separator: ","))
        }
        return Data((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }
}
