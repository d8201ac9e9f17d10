import Foundation
import Logging
import Metrics
import ServiceLifecycle

/// Keeps Redis in step with PostgreSQL in the background: rebuilds after Redis lost its data,
/// catches up completions recorded while it was down, publishes the pending count.
public struct RankingSyncService: Service {
    let sync: RankingSync
    let interval: Duration
    let logger: Logger
    private let pending = Gauge(label: "podium_rankings_pending")

    /// A service that runs a pass of `sync` every `interval`.
    public init(sync: RankingSync, interval: Duration, logger: Logger) {
        self.sync = sync
        self.interval = interval
        self.logger = logger
    }

    /// Runs passes until graceful shutdown.
    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await sync.synchronize(now: sync.now())
            } catch {
                logger.warning("ranking sync pass failed; retrying", metadata: ["error": "\(error)"])
            }
            // Counted whether or not the pass worked: while Redis is down, the pass fails and this is the backlog.
            do {
                pending.record(try await sync.pendingCount())
            } catch {
                logger.warning("could not count pending ranking updates", metadata: ["error": "\(error)"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }
}
