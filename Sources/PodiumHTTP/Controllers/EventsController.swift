import Foundation
import Hummingbird
import PodiumCore
import PodiumStore
import PodiumWire

/// `GET /v1/events`: the outbox feed, read with a cursor.
struct EventsController {
    let events: EventStore

    /// Event types the outbox can hold (the `type` filter accepts only these).
    static let types = Set(EventType.allCases.map(\.rawValue))

    /// Registers this controller's routes on `router`.
    func addRoutes(to router: some RouterMethods<PodiumRequestContext>) {
        router.get("/v1/events", use: feed)
    }

    /// Handles `GET /v1/events?after=&limit=&type=`: events after the cursor, in outbox order, with no gaps or repeats.
    @Sendable func feed(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.requireUnscopedRead()
        var errors: [FieldError] = []
        let limit = HTTPSupport.integer("limit", in: request.uri.queryParameters, range: 1...1000, fallback: 100, errors: &errors)
        var cursor: EventCursor?
        if let text = request.uri.queryParameters.get("after") {
            cursor = EventCursor(text: String(text))
            if cursor == nil { errors.append(FieldError(field: "after", message: "is not a cursor this API gave out")) }
        }
        let type = request.uri.queryParameters.get("type").map { String($0) }
        if let type, !Self.types.contains(type) {
            errors.append(FieldError(field: "type", message: "must be one of \(Self.types.sorted().joined(separator: ", "))"))
        }
        guard errors.isEmpty else { throw APIError.validation(errors) }
        return try HTTPSupport.json(try await events.feed(after: cursor, limit: limit, type: type))
    }
}
