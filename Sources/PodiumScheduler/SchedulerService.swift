import Foundation
import Logging
import ServiceLifecycle

/// Runs the scheduler's ticks until graceful shutdown; claimed runs work in parallel with later ticks.
///
/// On SIGTERM no new run is claimed and the runs in progress finish (their lease keeps them
/// safe if the process is killed instead: another replica takes over once it expires).
public struct SchedulerService: Service {
    let scheduler: Scheduler
    let interval: Duration

    /// Creates the service; the first tick runs at start-up, so missed slots are caught up immediately.
    public init(scheduler: Scheduler, interval: Duration) {
        self.scheduler = scheduler
        self.interval = interval
    }

    /// Ticks every `interval`.
    public func run() async throws {
        // Discarding: a group that lives as long as the process must not keep every finished run;
        // it still waits for the runs in progress before returning.
        await withDiscardingTaskGroup { group in
            while !Task.isShuttingDownGracefully && !Task.isCancelled {
                for claim in await scheduler.claimDueRuns() {
                    group.addTask { _ = await scheduler.execute(claim) }
                }
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            }
        }
    }
}
