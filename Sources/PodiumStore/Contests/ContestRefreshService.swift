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
        // A change committed while a refresh runs moves the signal past what the loop saw, so it is read next.
        await changes.signal(.contests).loop {
            do {
                try await store.refresh()
            } catch {
                failures.log("could not read the contests; retrying", metadata: ["error": "\(error)"])
            }
            return .onChange(upTo: changes.pause(fallback: interval))
        }
    }
}
