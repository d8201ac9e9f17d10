import Foundation
import Logging
import PodiumStore
import ServiceLifecycle

/// Runs the scheduler's ticks until graceful shutdown; claimed runs work in parallel with later ticks.
///
/// A tick comes when it can find work: at the next slot of a job, when a stored run comes due or a lease expires
/// (`Scheduler.nextTick(after:)`), when a run of this replica ends, and when any replica pauses or resumes a job, asks
/// for a run or claims one (`ChangeTopic.jobs`); otherwise every `ChangeNotices.safetyNet`, or every `interval` while
/// notifications do not arrive. Never more than one tick per `interval`.
///
/// On SIGTERM no new run is claimed and the runs in progress finish (their lease keeps them
/// safe if the process is killed instead: another replica takes over once it expires).
public struct SchedulerService: Service {
    let scheduler: Scheduler
    let changes: ChangeNotices
    let interval: Duration

    /// Creates the service; the first tick runs at start-up, so missed slots are caught up immediately.
    public init(scheduler: Scheduler, changes: ChangeNotices, interval: Duration) {
        self.scheduler = scheduler
        self.changes = changes
        self.interval = interval
    }

    /// Ticks until graceful shutdown.
    public func run() async throws {
        // Discarding: a group that lives as long as the process must not keep every finished run;
        // it still waits for the runs in progress before returning.
        await withDiscardingTaskGroup { group in
            await changes.signal(.jobs).loop {
                let started = ContinuousClock.now
                for claim in await scheduler.claimDueRuns() {
                    group.addTask {
                        _ = await scheduler.execute(claim)
                        // The job may have another run waiting, or a retry to wait for: tick again.
                        changes.noteLocally(.jobs)
                    }
                }
                // At most one tick per interval, even when changes come faster.
                let deadline = max(started + interval, ContinuousClock.now + pause(after: scheduler.now()))
                return .onChange(upTo: deadline - .now, notBefore: started + interval)
            }
        }
    }

    /// How long from `now` the next tick comes without a change: until the next instant with work, at most the pause
    /// `changes` allows.
    func pause(after now: Date) -> Duration {
        let longest = changes.pause(fallback: interval)
        guard let next = scheduler.nextTick(after: now) else { return longest }
        return min(longest, .milliseconds(Int64((next.timeIntervalSince(now) * 1000).rounded(.up))))
    }
}
