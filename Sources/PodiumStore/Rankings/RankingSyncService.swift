import Foundation
import Logging
import Metrics
import ServiceLifecycle

/// Keeps Redis in step with PostgreSQL in the background: rebuilds after Redis lost its data,
/// catches up completions recorded while it was down, publishes the pending count.
///
/// Every `interval` it asks Redis whether the rankings are complete (no PostgreSQL work). A pass, which reads
/// PostgreSQL, runs when Redis lost them or cannot be asked, while the last pass left work waiting (unranked
/// completions, erasures to repeat, names Redis missed), after a replica erased a player or queued a name, or this
/// replica recorded a batch Redis missed (`ChangeTopic.rankings`), and otherwise every `ChangeNotices.safetyNet`, for what another replica left behind:
/// that one reads only the backlog, and goes on only when something waits. When a Redis Cluster's slot map changed
/// (`RedisClient.primariesReplaced`: a failover), it writes the recent scores again (`RankingSync.rewriteRecent`).
public struct RankingSyncService: Service {
    let sync: RankingSync
    let changes: ChangeNotices
    let interval: Duration
    let logger: Logger
    private let pending = Gauge(label: "podium_rankings_pending")

    /// A service that checks every `interval` whether `sync` has work, and then does it.
    public init(sync: RankingSync, changes: ChangeNotices, interval: Duration, logger: Logger) {
        self.sync = sync
        self.changes = changes
        self.interval = interval
        self.logger = logger
    }

    /// Runs until graceful shutdown.
    public func run() async throws {
        let signal = changes.signal(.rankings)
        var seen = signal.generation
        var waiting = true  // The first pass runs at start.
        var lastPass: ContinuousClock.Instant?
        var replaced = sync.redis.primariesReplaced
        // When this replica first saw a primary replaced that it has not written the recent scores again for.
        var replacedSeenAt: Date?
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let replacedNow = sync.redis.primariesReplaced
            if replacedNow != replaced {
                let seenAt = replacedSeenAt ?? sync.now()
                replacedSeenAt = seenAt
                if await rewriteAfterFailover(seenAt: seenAt) {
                    (replaced, replacedSeenAt) = (replacedNow, nil)
                }
            }
            let generation = signal.generation
            let safetyNetDue = lastPass.map { ContinuousClock.now - $0 >= ChangeNotices.safetyNet } ?? true
            var passDue = waiting || generation != seen
            if !passDue { passDue = await !sync.rankingsReady() }
            if passDue {
                seen = generation
                lastPass = .now
                waiting = await pass()
            } else if safetyNetDue {
                lastPass = .now
                waiting = await checkBacklog()
            }
            // A sleep, not a wait on the signal: while Redis is down every batch moves it, and one pass per interval is enough.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }

    /// Writes again the scores and players changed in the minute before `seenAt` (when this replica saw a primary
    /// replaced) and since; returns whether that worked. Until it does, every pass tries again from the same instant.
    private func rewriteAfterFailover(seenAt: Date) async -> Bool {
        logger.notice("a Redis cluster primary was replaced (a failover, or a reshard that emptied it): writing the last minute's scores again")
        do {
            try await sync.rewriteRecent(before: seenAt)
            return true
        } catch {
            logger.warning("could not write the recent scores again; retrying", metadata: ["error": "\(error)"])
            return false
        }
    }

    /// Reads the backlog alone, and makes a pass only if something waits; returns whether work is left waiting.
    private func checkBacklog() async -> Bool {
        do {
            let backlog = try await sync.backlog()
            pending.record(backlog.unranked)
            return backlog.isEmpty ? false : await pass()
        } catch {
            logger.warning("could not count pending ranking updates", metadata: ["error": "\(error)"])
            return true
        }
    }

    /// One pass; returns whether work is left waiting (or the pass could not tell).
    private func pass() async -> Bool {
        var failed = false
        do {
            try await sync.synchronize(now: sync.now())
        } catch {
            failed = true
            logger.warning("ranking sync pass failed; retrying", metadata: ["error": "\(error)"])
        }
        // Counted whether or not the pass worked: while Redis is down, the pass fails and this is the backlog.
        do {
            let backlog = try await sync.backlog()
            pending.record(backlog.unranked)
            return failed || !backlog.isEmpty
        } catch {
            logger.warning("could not count pending ranking updates", metadata: ["error": "\(error)"])
            return true
        }
    }
}
