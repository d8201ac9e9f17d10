import Foundation
import Hummingbird
import PodiumCore
import PodiumStore
import PodiumWire

/// `/v1/admin/…`: API keys, ranking rebuilds and the calendar of closed days.
struct AdminController {
    let apiKeys: ApiKeyStore
    let audit: AuditStore
    let users: UserStore
    let reminders: ReminderStore
    let rankingSync: RankingSync
    let rules: GameRules
    /// Told when a key is created or revoked, so this replica sees it at once.
    let keyDirectory: KeyDirectory
    let cache: LeaderboardCache
    /// `PODIUM_PUBLIC_URL`: where display links point; nil: the address of the request that made the key.
    let publicURL: String?
    let now: @Sendable () -> Date

    /// Registers this controller's routes on `router`.
    func addRoutes(to router: some RouterMethods<PodiumRequestContext>) {
        router.get("/v1/admin/api-keys", use: listKeys)
        router.post("/v1/admin/api-keys", use: createKey)
        router.delete("/v1/admin/api-keys/:id", use: revokeKey)
        router.post("/v1/admin/rankings/rebuild", use: rebuild)
        router.get("/v1/admin/audit", use: auditTrail)
        router.get("/v1/admin/players", use: findPlayers)
        router.get("/v1/admin/calendar/closed-days", use: listClosedDays)
        router.put("/v1/admin/calendar/closed-days/:day", use: closeDay)
        router.delete("/v1/admin/calendar/closed-days/:day", use: openDay)
    }

    /// Handles `GET /v1/admin/calendar/closed-days`.
    @Sendable func listClosedDays(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        return try HTTPSupport.json(ClosedDayList(closedDays: try await reminders.closedDays()))
    }

    /// Handles `PUT /v1/admin/calendar/closed-days/:day` with `{"note": "…"}`: no reminders on that local date.
    @Sendable func closeDay(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let day = try calendarDay(context)
        let body = try await HTTPSupport.decode(ClosedDayRequest.self, from: request, context: context)
        let note = body.note ?? ""
        guard NameRules.isFreeText(note, maxLength: 100) else {
            throw APIError.validation([FieldError(field: "note", message: "must be at most 100 characters without control characters")])
        }
        try await reminders.closeDay(day, note: note, now: now())
        return try HTTPSupport.json(ClosedDay(day: day, note: note))
    }

    /// Handles `DELETE /v1/admin/calendar/closed-days/:day`.
    @Sendable func openDay(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let day = try calendarDay(context)
        guard try await reminders.openDay(day) else { throw APIError.notFound("\(day) is not a closed day") }
        return Response(status: .noContent)
    }

    /// The `:day` parameter, which must be a real date `YYYY-MM-DD`.
    private func calendarDay(_ context: PodiumRequestContext) throws -> String {
        let day = HTTPSupport.pathParameter("day", in: context)
        guard Period.named(day, window: .day, timeZone: .gmt) != nil else {
            throw APIError.validation([FieldError(field: "day", message: "must be a date YYYY-MM-DD")])
        }
        return day
    }

    /// Handles `GET /v1/admin/api-keys`.
    @Sendable func listKeys(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        return try HTTPSupport.json(KeyList(keys: try await apiKeys.list()))
    }

    /// Handles `POST /v1/admin/api-keys`.
    @Sendable func createKey(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let body = try await HTTPSupport.decode(CreateKeyRequest.self, from: request, context: context)
        var errors: [FieldError] = []
        let name = body.name ?? ""
        if !NameRules.isValidKeyName(name) {
            errors.append(FieldError(field: "name", message: "must be 1-100 characters without control characters"))
        }
        let role = body.role.flatMap(Role.init(rawValue:))
        if role == nil { errors.append(FieldError(field: "role", message: "must be one of ingest, read, admin, display")) }
        var scopes: [BoardPattern] = []
        for (index, text) in (body.scopes ?? []).enumerated() {
            if let pattern = BoardPattern(text) {
                scopes.append(pattern)
            } else {
                errors.append(FieldError(field: "scopes[\(index)]", message: "must be global, topic:<name>, topic:*, group:<name> or group:*"))
            }
        }
        if let role, errors.isEmpty, let problem = ApiKeyStore.scopeProblem(role: role, scopes: scopes) {
            errors.append(FieldError(field: "scopes", message: problem))
        }
        let at = now()
        let expiresAt = body.expiresAt.flatMap(RFC3339.parse).map(RFC3339.wholeMilliseconds)
        if body.expiresAt != nil, expiresAt.map({ $0 > at }) != true {
            errors.append(FieldError(field: "expires_at", message: "must be an RFC 3339 time in the future, e.g. 2027-03-31T23:59:59Z"))
        }
        guard errors.isEmpty, let role else { throw APIError.validation(errors) }
        let created = try await apiKeys.create(name: name, role: role, scopes: scopes, expiresAt: expiresAt, now: at)
        keyDirectory.invalidate()
        let base = publicURL ?? "http://\(request.head.authority ?? "localhost")"
        let link = role == .display
            ? DisplayLink.url(base: base, scopes: scopes, secret: created.secret) { rules.boards.definition(for: $0).windows } : nil
        var response = try HTTPSupport.json(CreatedKeyAnswer(key: created.key, secret: created.secret, displayUrl: link), status: .created)
        response.headers[AuditMiddleware.detail] = "\(role.rawValue) key \(created.key.id)" + (created.key.expiresAt.map { ", expires \($0)" } ?? "")
        return response
    }

    /// Handles `DELETE /v1/admin/api-keys/:id`.
    @Sendable func revokeKey(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let id = HTTPSupport.pathParameter("id", in: context)
        guard id.count <= 64, try await apiKeys.revoke(id: id, now: now()) else { throw APIError.notFound("no valid key \(id)") }
        keyDirectory.invalidate()
        return Response(status: .noContent)
    }

    /// Handles `GET /v1/admin/audit?actor=&q=&cursor=&limit=`: the audit trail, newest first, a page at a time.
    @Sendable func auditTrail(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let query = request.uri.queryParameters
        var errors: [FieldError] = []
        let limit = HTTPSupport.integer("limit", in: query, range: 1...500, fallback: 50, errors: &errors)
        let cursor = query.get("cursor").map { String($0) }
        let before = cursor.flatMap { Int64($0) }
        if cursor != nil, before == nil || before! < 1 {
            errors.append(FieldError(field: "cursor", message: "must be a next_cursor this route answered"))
        }
        let actor = query.get("actor").map { String($0) }
        if let actor, actor.isEmpty || actor.count > 64 { errors.append(FieldError(field: "actor", message: "must be a key id or bootstrap")) }
        let search = query.get("q").map { String($0) }
        if let search, search.count > 200 { errors.append(FieldError(field: "q", message: "must be at most 200 characters")) }
        guard errors.isEmpty else { throw APIError.validation(errors) }
        // One more than asked: a next page is promised only when there is one.
        let entries = try await audit.entries(
            before: before, actor: actor, search: search.flatMap { $0.isEmpty ? nil : $0 }, limit: limit + 1)
        let page = Array(entries.prefix(limit))
        return try HTTPSupport.json(AuditPage(entries: page, nextCursor: entries.count > limit ? page.last.map { String($0.id) } : nil))
    }

    /// Handles `GET /v1/admin/players?q=&limit=`: players whose id starts with `q`, then those whose display name
    /// contains it (any case), each in id order.
    @Sendable func findPlayers(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let query = request.uri.queryParameters
        var errors: [FieldError] = []
        let limit = HTTPSupport.integer("limit", in: query, range: 1...100, fallback: 20, errors: &errors)
        let text = query.get("q").map { String($0) } ?? ""
        if text.isEmpty || text.count > 100 { errors.append(FieldError(field: "q", message: "must be 1 to 100 characters: an id's start or part of a name")) }
        guard errors.isEmpty else { throw APIError.validation(errors) }
        return try HTTPSupport.json(PlayerMatches(players: try await users.search(text, limit: limit)))
    }

    /// Handles `POST /v1/admin/rankings/rebuild`.
    @Sendable func rebuild(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let report = try await rankingSync.rebuild()
        cache.invalidateAll()
        return try HTTPSupport.json(RebuildAnswer(boards: report.boards, entries: report.entries))
    }
}
