import Foundation
import Logging
import ServiceLifecycle

/// Keeps this replica's contests in step with PostgreSQL: reads them again whenever the revision there moved, checked
/// when any replica tells of a contest change (`ChangeTopic.contests`), at least every `ChangeNotices.safetyNet`, and
/// every `interval` while notifications do not arrive. Completion batches check the revision themselves; this brings
/// reads and the scheduler along.
public struct ContestRefreshService: Service {
    let store: ContestStore
    let changes: ChangeNotices
    let interval: Duration
    let failures: ThrottledLog

    /// A service that refreshes `store`'s registry when `changes` tells of a change, or every `interval` without them.
    public init(store: ContestStore, changes: ChangeNotices, interval: Duration = .seconds(1), logger: Logger) {
        self.store = store
        self.changes = changes
        self.interval = interval
        failures = ThrottledLog(logger)
    }

    /// Refreshes until graceful shutdown.
    public func run() async throws {
        let signal = changes.signal(.contests)
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            // Read before the refresh: a change committed while it runs moves the signal past this, so it is read next.
            let seen = signal.generation
            do {
                try await store.refresh()
            } catch {
                failures.log("could not read the contests; retrying", metadata: ["error": "\(error)"])
            }
            let pause = changes.pause(fallback: interval)
            try? await cancelWhenGracefulShutdown { await signal.wait(after: seen, upTo: pause) }
        }
    }
}
