import Foundation
import PodiumWire

/// Sends a webhook a signed `webhook.test` event now, as deliveries are sent (`PodiumWebhooks.WebhookSender`).
public protocol WebhookTesting: Sendable {
    /// The attempt's result; nil when there is no webhook `webhookID`.
    func test(webhookID: String) async throws -> WebhookTestResult?
}
