import Foundation
import Hummingbird
import PodiumCore
import PodiumStore
import PodiumWire

/// Player routes: profile, history, topics, medals, rank history, preferences, following, erasure.
struct UsersController {
    let users: UserStore
    let erasure: PlayerErasure
    let follows: FollowStore
    let periods: PeriodStore
    let snapshots: SnapshotStore
    /// The player's leagues, for the profile.
    let leagues: LeagueStandings
    /// The player's goals and their groups' class goals, for the profile.
    let goals: GoalStandings
    let cache: LeaderboardCache
    let now: @Sendable () -> Date

    /// Registers this controller's routes on `router`.
    func addRoutes(to router: some RouterMethods<PodiumRequestContext>) {
        router.get("/v1/users/:id", use: profile)
        router.get("/v1/users/:id/completions", use: history)
        router.get("/v1/users/:id/topics", use: topics)
        router.get("/v1/users/:id/medals", use: medals)
        router.get("/v1/users/:id/rank-history", use: rankHistory)
        router.put("/v1/users/:id/preferences", use: setPreferences)
        router.get("/v1/users/:id/following", use: following)
        router.put("/v1/users/:id/following/:other", use: follow)
        router.delete("/v1/users/:id/following/:other", use: unfollow)
        router.delete("/v1/users/:id", use: erase)
    }

    /// Throws unless the caller may read player `id` (a scoped key: only players on its boards, else 404).
    private func requireRead(of id: String, context: PodiumRequestContext) async throws {
        try await context.requirePlayerRead(id) { patterns in try await users.appears(userID: id, onAny: patterns) }
    }

    /// Handles `GET /v1/users/:id`.
    @Sendable func profile(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requirePlayerReader()
        let id = try HTTPSupport.identifier("id", in: context)
        try await requireRead(of: id, context: context)
        guard var profile = try await users.profile(userID: id, now: now()) else { throw APIError.notFound("no user \(id)") }
        profile.ranks = profile.ranks.filter { context.mayShowBoard($0.board) }
        profile.medals = profile.medals.filter { context.mayShowBoard($0.board) }
        profile.leagues = try await leagues.of(id, shownTo: context)
        profile.goals = try await goals.of(id, shownTo: context)
        if let scopes = context.keyGrant?.scopes, !scopes.isEmpty {
            // A scoped key sees the friends it could read on their own: those on its boards.
            let visible = try await users.appearing(among: profile.friends.map(\.userId), onAny: scopes)
            profile.friends = profile.friends.filter { visible.contains($0.userId) }
        }
        return try HTTPSupport.json(profile)
    }

    /// Handles `GET /v1/users/:id/completions`.
    @Sendable func history(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requirePlayerReader()
        let id = try HTTPSupport.identifier("id", in: context)
        try await requireRead(of: id, context: context)
        var errors: [FieldError] = []
        let limit = HTTPSupport.integer("limit", in: request.uri.queryParameters, range: 1...100, fallback: 20, errors: &errors)
        let topic = request.uri.queryParameters.get("topic")
        if let topic, !NameRules.isValidScopeName(topic) { errors.append(FieldError(field: "topic", message: "is not a topic name")) }
        var cursor: HistoryCursor?
        if let text = request.uri.queryParameters.get("cursor") {
            cursor = HistoryCursor(encoded: text)
            if cursor == nil { errors.append(FieldError(field: "cursor", message: "is not a cursor this API gave out")) }
        }
        guard errors.isEmpty else { throw APIError.validation(errors) }
        guard try await users.exists(userID: id) else { throw APIError.notFound("no user \(id)") }
        return try HTTPSupport.json(try await users.history(userID: id, topic: topic, limit: limit, cursor: cursor))
    }

    /// Handles `GET /v1/users/:id/topics`.
    @Sendable func topics(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requirePlayerReader()
        let id = try HTTPSupport.identifier("id", in: context)
        try await requireRead(of: id, context: context)
        guard try await users.exists(userID: id) else { throw APIError.notFound("no user \(id)") }
        return try HTTPSupport.json(TopicList(topics: try await users.topics(userID: id)))
    }

    /// Handles `GET /v1/users/:id/medals`.
    @Sendable func medals(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requirePlayerReader()
        let id = try HTTPSupport.identifier("id", in: context)
        try await requireRead(of: id, context: context)
        guard try await users.exists(userID: id) else { throw APIError.notFound("no user \(id)") }
        return try HTTPSupport.json(MedalList(medals: try await periods.medals(userID: id).filter { context.mayShowBoard($0.board) }))
    }

    /// Handles `GET /v1/users/:id/rank-history`: ranks from snapshots, newest first, optionally one board and window.
    @Sendable func rankHistory(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requirePlayerReader()
        let id = try HTTPSupport.identifier("id", in: context)
        try await requireRead(of: id, context: context)
        var errors: [FieldError] = []
        let limit = HTTPSupport.integer("limit", in: request.uri.queryParameters, range: 1...500, fallback: 100, errors: &errors)
        let board = request.uri.queryParameters.get("board").map { String($0) }
        if let board { _ = HTTPSupport.boardScope(board, errors: &errors) }
        let windowName = request.uri.queryParameters.get("window")
        let window = windowName.flatMap { LeaderboardWindow(rawValue: String($0)) }
        if windowName != nil && window == nil { errors.append(FieldError(field: "window", message: "must be one of all, day, week, month, contest")) }
        guard errors.isEmpty else { throw APIError.validation(errors) }
        guard try await users.exists(userID: id) else { throw APIError.notFound("no user \(id)") }
        let points = try await snapshots.rankHistory(userID: id, board: board, window: window, limit: limit)
            .filter { context.mayShowBoard($0.board) }
        return try HTTPSupport.json(RankHistory(userId: id, points: points))
    }

    /// Handles `PUT /v1/users/:id/preferences`.
    @Sendable func setPreferences(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requireWriter()
        let id = try HTTPSupport.identifier("id", in: context)
        try context.requirePlayerWrite(id)
        let body = try await HTTPSupport.decode(PreferencesRequest.self, from: request, context: context)
        let errors = body.validationErrors()
        guard errors.isEmpty else { throw APIError.validation(errors) }
        let zone = body.timeZone ?? "UTC"
        let stored = try await users.setPreferences(
            userID: id, displayName: body.displayName, timeZone: zone, reminders: body.reminders, now: now())
        cache.invalidateAll()
        return try HTTPSupport.json(stored)
    }

    /// Handles `GET /v1/users/:id/following`: whom the player follows (an empty list for a player not seen yet).
    @Sendable func following(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requirePlayerReader()
        let id = try HTTPSupport.identifier("id", in: context)
        try await requireRead(of: id, context: context)
        return try HTTPSupport.json(FollowingList(userId: id, following: try await follows.following(userID: id)))
    }

    /// Handles `PUT /v1/users/:id/following/:other`: 201 when now following, 200 when already; 409 when the list is full.
    @Sendable func follow(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requireWriter()
        let (id, other) = try followPair(context)
        let status: HTTPResponse.Status
        switch try await follows.follow(userID: id, other: other, now: now()) {
        case .added: status = .created
        case .alreadyFollowing: status = .ok
        case .full: throw APIError.conflict("\(id) already follows \(FollowRules.maximumFollowing) players, the most allowed; unfollow one first")
        }
        return try HTTPSupport.json(FollowingList(userId: id, following: try await follows.following(userID: id)), status: status)
    }

    /// Handles `DELETE /v1/users/:id/following/:other`: 204, or 404 when the player did not follow them.
    @Sendable func unfollow(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requireWriter()
        let (id, other) = try followPair(context)
        guard try await follows.unfollow(userID: id, other: other) else { throw APIError.notFound("\(id) does not follow \(other)") }
        return Response(status: .noContent)
    }

    /// The follower and the followed player of a following route, checked: the caller writes for the follower
    /// (a player token changes only its own list), and nobody follows themselves.
    private func followPair(_ context: PodiumRequestContext) throws -> (String, String) {
        let id = try HTTPSupport.identifier("id", in: context)
        try context.requirePlayerWrite(id)
        let other = try HTTPSupport.identifier("other", in: context)
        guard other != id else { throw APIError.validation([FieldError(field: "other", message: "must be another player")]) }
        return (id, other)
    }

    /// Handles `DELETE /v1/users/:id`.
    @Sendable func erase(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let id = try HTTPSupport.identifier("id", in: context)
        guard try await erasure.erase(userID: id, now: now()) else { throw APIError.notFound("no user \(id)") }
        cache.invalidateAll()
        return Response(status: .noContent)
    }
}
