import Foundation
import Hummingbird
import PodiumCore
import PodiumStore
import PodiumWire

/// `/v1/admin/webhooks…`: register, list, enable, disable and delete webhooks; see and resend deliveries.
struct WebhooksController {
    let webhooks: WebhookStore
    let attempts: Int
    /// Sends test events; nil where no sender runs (a router built without one), and the route answers 503.
    let tester: (any WebhookTesting)?
    let now: @Sendable () -> Date

    /// Event types a webhook can subscribe to.
    static let eventTypes: Set<String> = EventsController.types

    /// Registers this controller's routes on `router`.
    func addRoutes(to router: some RouterMethods<PodiumRequestContext>) {
        router.get("/v1/admin/webhooks", use: list)
        router.post("/v1/admin/webhooks", use: create)
        router.delete("/v1/admin/webhooks/:id", use: delete)
        router.post("/v1/admin/webhooks/:id/disable", use: disable)
        router.post("/v1/admin/webhooks/:id/enable", use: enable)
        router.post("/v1/admin/webhooks/:id/test", use: test)
        router.get("/v1/admin/webhooks/:id/deliveries", use: deliveries)
        router.post("/v1/admin/webhooks/deliveries/:delivery/resend", use: resend)
    }

    /// Handles `GET /v1/admin/webhooks`.
    @Sendable func list(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        return try HTTPSupport.json(WebhookList(webhooks: try await webhooks.list()))
    }

    /// What a receiver's URL must match: http or https, a host of letters, digits and hyphens in dot-separated labels,
    /// an optional port (1 to 65535), and an optional path of printable ASCII (as openapi.json says; `\z`, not `$`,
    /// which would also match before a final line break).
    static let urlPattern = #"^[Hh][Tt][Tt][Pp][Ss]?://[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?(/[!-~]*)?\z"#

    /// Handles `POST /v1/admin/webhooks` with `{url, event_types, secret}` (201; the secret is never shown again).
    @Sendable func create(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let body = try await HTTPSupport.decode(CreateWebhookRequest.self, from: request, context: context)
        var errors: [FieldError] = []
        let url = body.url ?? ""
        // The document's pattern (CreateWebhookRequest.url): Foundation's URL alone takes hosts such as `x*`, and may escape
        // control characters and spaces itself (a NUL would cut the stored text).
        if url.utf8.count > 2000 || url.range(of: Self.urlPattern, options: .regularExpression) == nil || URL(string: url)?.host == nil {
            errors.append(FieldError(field: "url", message: "must be an http or https URL with a host, at most 2000 printable ASCII characters"))
        }
        let types = body.eventTypes ?? []
        if types.isEmpty || Set(types).count != types.count || !types.allSatisfy(Self.eventTypes.contains) {
            errors.append(FieldError(field: "event_types", message: "must list distinct event types among \(Self.eventTypes.sorted().joined(separator: ", "))"))
        }
        let secret = body.secret ?? ""
        if secret.unicodeScalars.count < 16 || !NameRules.isFreeText(secret, maxLength: 200) {
            errors.append(FieldError(field: "secret", message: "must be 16-200 characters without control characters"))
        }
        guard errors.isEmpty else { throw APIError.validation(errors) }
        return try HTTPSupport.json(try await webhooks.create(url: url, eventTypes: types, secret: secret, now: now()), status: .created)
    }

    /// Handles `DELETE /v1/admin/webhooks/:id` (its deliveries go with it).
    @Sendable func delete(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let id = try HTTPSupport.identifier("id", in: context)
        guard try await webhooks.delete(id: id) else { throw APIError.notFound("no webhook \(id)") }
        return Response(status: .noContent)
    }

    /// Handles `POST /v1/admin/webhooks/:id/disable`: no new deliveries; pending ones are still sent.
    @Sendable func disable(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try await setEnabled(false, context: context)
    }

    /// Handles `POST /v1/admin/webhooks/:id/enable`.
    @Sendable func enable(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try await setEnabled(true, context: context)
    }

    /// Handles `GET /v1/admin/webhooks/:id/deliveries?limit=`: newest first, each with its attempts.
    @Sendable func deliveries(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let id = try HTTPSupport.identifier("id", in: context)
        var errors: [FieldError] = []
        let limit = HTTPSupport.integer("limit", in: request.uri.queryParameters, range: 1...500, fallback: 50, errors: &errors)
        guard errors.isEmpty else { throw APIError.validation(errors) }
        guard let list = try await webhooks.deliveries(webhookID: id, limit: limit) else { throw APIError.notFound("no webhook \(id)") }
        return try HTTPSupport.json(WebhookDeliveryList(deliveries: list))
    }

    /// Handles `POST /v1/admin/webhooks/deliveries/:delivery/resend`: a dead delivery gets a fresh set of attempts (202).
    @Sendable func resend(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let text = HTTPSupport.pathParameter("delivery", in: context)
        guard let id = Int64(text), id > 0 else {
            throw APIError.validation([FieldError(field: "delivery", message: "must be a delivery id")])
        }
        guard try await webhooks.resend(deliveryID: id, attemptLimit: attempts, now: now()) else {
            throw APIError.conflict("delivery \(id) does not exist or is not dead")
        }
        return Response(status: .accepted)
    }

    /// Handles `POST /v1/admin/webhooks/:id/test`: sends the webhook a signed `webhook.test` event now, once, and answers
    /// how it went (200 whether or not the receiver took it; nothing is stored or retried).
    @Sendable func test(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let id = try HTTPSupport.identifier("id", in: context)
        guard let tester else { throw APIError.unavailable("this server sends no webhooks") }
        guard let result = try await tester.test(webhookID: id) else { throw APIError.notFound("no webhook \(id)") }
        return try HTTPSupport.json(result)
    }

    private func setEnabled(_ enabled: Bool, context: PodiumRequestContext) async throws -> Response {
        try context.require(.admin)
        let id = try HTTPSupport.identifier("id", in: context)
        guard let webhook = try await webhooks.setEnabled(id: id, enabled: enabled) else { throw APIError.notFound("no webhook \(id)") }
        return try HTTPSupport.json(webhook)
    }
}
