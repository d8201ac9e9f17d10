import Foundation

/// How a webhook's test event went: one attempt, sent at once, outside the outbox (nothing is stored or retried).
public struct WebhookTestResult: Sendable, Codable, Equatable {
    /// The webhook.
    public var webhookId: String
    /// The test event's id (`evt_test_…`), sent as `Podium-Event-Id`.
    public var eventId: String
    /// Whether the receiver answered 2xx.
    public var delivered: Bool
    /// The receiver's status, when it answered.
    public var statusCode: Int?
    /// Why it failed, when it did.
    public var error: String?
    /// How long the attempt took.
    public var durationMs: Int

    /// Creates a result.
    public init(webhookId: String, eventId: String, delivered: Bool, statusCode: Int?, error: String?, durationMs: Int) {
        self.webhookId = webhookId
        self.eventId = eventId
        self.delivered = delivered
        self.statusCode = statusCode
        self.error = error
        self.durationMs = durationMs
    }
}

/// Sends a webhook a signed `webhook.test` event now, as deliveries are sent (`PodiumWebhooks.WebhookSender`).
public protocol WebhookTesting: Sendable {
    /// The attempt's result; nil when there is no webhook `webhookID`.
    func test(webhookID: String) async throws -> WebhookTestResult?
}
