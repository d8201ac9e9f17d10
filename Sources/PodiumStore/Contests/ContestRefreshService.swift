import Foundation
import Logging
import ServiceLifecycle

/// Keeps this replica's contests in step with PostgreSQL: reads them again whenever the revision there moved, checked
/// every `interval`. Completion batches check the revision themselves; this brings reads and the scheduler along.
public struct ContestRefreshService: Service {
    let store: ContestStore
    let interval: Duration
    let failures: ThrottledLog

    /// A service that refreshes `store`'s registry every `interval`.
    public init(store: ContestStore, interval: Duration = .seconds(1), logger: Logger) {
        self.store = store
        self.interval = interval
        failures = ThrottledLog(logger)
    }

    /// Refreshes until graceful shutdown.
    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await store.refresh()
            } catch {
                failures.log("could not read the contests; retrying", metadata: ["error": "\(error)"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }
}
