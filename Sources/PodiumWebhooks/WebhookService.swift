import Foundation
import Logging
import ServiceLifecycle

/// Runs the webhook sender on this replica until graceful shutdown.
public struct WebhookService: Service {
    let sender: WebhookSender
    let interval: Duration

    /// Creates the service; `interval` is the pause between passes that found nothing to send.
    public init(sender: WebhookSender, interval: Duration) {
        self.sender = sender
        self.interval = interval
    }

    /// Passes until shutdown; a pass that fanned out or sent something is followed at once by the next.
    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            var work = 0
            do {
                work = try await sender.runOnce()
            } catch {
                sender.logger.warning("webhook pass failed; retrying", metadata: ["error": "\(error)"])
            }
            if work == 0 { try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) } }
        }
    }
}
