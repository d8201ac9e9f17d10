import Foundation
import Logging
import PodiumStore
import ServiceLifecycle

/// Runs the webhook sender on this replica until graceful shutdown.
///
/// A pass that fanned out or sent something is followed at once by the next. A pass that found nothing waits for a
/// change (`ChangeTopic.outbox`: this replica recorded completions, or any replica closed a period, emitted reminders
/// or sent a dead delivery again) or for the earliest retry or lease expiry stored, at most `ChangeNotices.safetyNet`,
/// and only `interval` while notifications do not arrive. For `busyWindow` after this replica recorded completions it
/// looks every `interval`: the feed shows an event only once every older transaction has ended, so a pass right after
/// the commit can miss it.
public struct WebhookService: Service {
    /// How long after this replica recorded completions the sender keeps looking every `interval`.
    public static let busyWindow = Duration.seconds(5)

    let sender: WebhookSender
    let changes: ChangeNotices
    let interval: Duration

    /// Creates the service; `interval` is the pause between passes that found nothing while looking often.
    public init(sender: WebhookSender, changes: ChangeNotices, interval: Duration) {
        self.sender = sender
        self.changes = changes
        self.interval = interval
    }

    /// Passes until shutdown.
    public func run() async throws {
        await changes.signal(.outbox).loop {
            let work: Int
            do {
                work = try await sender.runOnce()
            } catch {
                sender.logger.warning("webhook pass failed; retrying", metadata: ["error": "\(error)"])
                work = -1
            }
            if work > 0 { return .now }
            let busy = changes.lastLocalNote(.outbox).map { ContinuousClock.now - $0 < Self.busyWindow } ?? false
            // Every batch recorded here moves the signal: a busy sender looks at its own pace, as it always did.
            return work < 0 || busy ? .after(interval) : .onChange(upTo: await idlePause())
        }
    }

    /// The wait of a sender with nothing to do: until the next stored retry or lease expiry (at least `interval`), at
    /// most the pause `changes` allows (`interval` while notifications do not arrive, so no read is spent on it then).
    private func idlePause() async -> Duration {
        guard changes.isListening else { return interval }
        let longest = changes.pause(fallback: interval)
        guard let next = try? await sender.store.nextDue() else { return longest }
        let untilNext = Duration.milliseconds(Int64((next.timeIntervalSince(sender.now()) * 1000).rounded(.up)))
        return max(interval, min(longest, untilNext))
    }
}
