import Foundation
import PodiumCore
import PodiumStore

/// `close-periods`: closes every period whose end plus grace has passed, a page of periods per transaction.
public struct ClosePeriodsJob: ScheduledJob {
    /// The job's name.
    public let name = "close-periods"
    let periods: PeriodStore
    let closing: PeriodClosing
    /// Due periods closed per transaction.
    let pageSize: Int
    /// Pages closed at once: two keep both of this machine's cores busy (PostgreSQL writes one page while Podium
    /// prepares the next).
    private static let concurrentPages = 2
    /// Run after each page: nothing, but for the multi-process drills (`serve --test-close-pages`), which kill a
    /// replica between two pages of one run.
    let afterPage: (@Sendable () async throws -> Void)?

    /// Creates the job; each transaction closes up to `pageSize` periods, `concurrentPages` of them at once. `afterPage`,
    /// if given, runs after each page has committed (the drills' gate).
    public init(
        periods: PeriodStore, closing: PeriodClosing, pageSize: Int = PeriodStore.closePageSize,
        afterPage: (@Sendable () async throws -> Void)? = nil
    ) {
        self.periods = periods
        self.closing = closing
        self.pageSize = pageSize
        self.afterPage = afterPage
    }

    /// Closes due periods, a page at a time (a league's week ends thousands of cohorts at once), `concurrentPages`
    /// pages at once: pages hold distinct periods, and each takes its periods' close locks in order.
    ///
    /// A page is one transaction: a replica killed in the middle of one leaves it undone, and the next run (on any
    /// replica) closes it, while the pages before stay closed. A period whose board no longer keeps that window (the
    /// configuration changed) cannot be closed; it is counted as `skipped` once per run and logged instead of failing
    /// every run, and the paging moves past it, so however many there are they never hold up the others.
    public func run(_ context: JobContext) async throws -> [String: Int] {
        try await withThrowingTaskGroup(of: [String: Int].self) { group in
            var counts = ["closed": 0, "medals": 0, "skipped": 0]
            var inFlight = 0
            // The end shared by every period of the pages in flight, when they all end at one instant.
            var sharedEnd: Date?
            var after: DuePeriod?
            repeat {
                let page = try await periods.duePeriods(now: context.now(), after: after, limit: pageSize)
                after = page.count == pageSize ? page.last : nil
                guard let first = page.first, let last = page.last else { break }
                // Pages close at once only when all of them end at one instant (a Monday's thousands of cohorts):
                // a league's weeks then close in turn, the later one once the earlier one's moves are in (after an
                // outage, several may be due; one page holding both settles them in order, LeagueSettling).
                let end = first.endsAt == last.endsAt ? first.endsAt : nil
                let overlaps = end != nil && end == sharedEnd
                let waitFor = overlaps ? max(0, inFlight - Self.concurrentPages + 1) : inFlight
                for _ in 0..<waitFor {
                    if let done = try await group.next() { counts.merge(done, uniquingKeysWith: +) }
                    inFlight -= 1
                }
                group.addTask { try await close(page.map(\.key), context: context) }
                inFlight += 1
                sharedEnd = end
            } while after != nil
            for try await done in group { counts.merge(done, uniquingKeysWith: +) }
            return counts
        }
    }

    /// Closes one page of due periods; returns what it closed and skipped.
    private func close(_ keys: [BoardPeriodKey], context: JobContext) async throws -> [String: Int] {
        let closing = try await self.closing.close(keys, now: context.now())
        var counts = ["closed": 0, "medals": 0, "skipped": closing.refused.count]
        for report in closing.reports where report.outcome == .closed {
            counts["closed", default: 0] += 1
            counts["medals", default: 0] += report.medals.count
        }
        for error in closing.refused { context.logger.warning("period cannot be closed", metadata: ["error": "\(error)"]) }
        try await afterPage?()
        return counts
    }
}

/// `snapshot-leaderboards`: stores the top N of every open period with players, stamped with the slot.
public struct SnapshotLeaderboardsJob: ScheduledJob {
    /// The job's name.
    public let name = "snapshot-leaderboards"
    let periods: PeriodStore
    let leaderboards: LeaderboardStore
    let snapshots: SnapshotStore
    let top: Int

    /// Creates the job; `top` entries are kept per snapshot.
    public init(periods: PeriodStore, leaderboards: LeaderboardStore, snapshots: SnapshotStore, top: Int) {
        self.periods = periods
        self.leaderboards = leaderboards
        self.snapshots = snapshots
        self.top = top
    }

    /// Snapshots each open period once per slot (a retry skips the ones already taken).
    public func run(_ context: JobContext) async throws -> [String: Int] {
        var taken = 0
        for key in try await periods.openPeriods(now: context.now()) {
            let page = try await leaderboards.read(board: key.board, window: key.window, period: key.period, slice: .page(offset: 0, limit: top))
            guard page.players > 0 else { continue }
            if try await snapshots.record(key, takenAt: context.slot, players: page.players, entries: page.entries) { taken += 1 }
        }
        return ["snapshots": taken]
    }
}

/// `reconcile-rankings`: compares Redis with PostgreSQL for every open period and repairs differences.
public struct ReconcileRankingsJob: ScheduledJob {
    /// The job's name.
    public let name = "reconcile-rankings"
    let periods: PeriodStore
    let reconciler: RankingReconciler

    /// Creates the job.
    public init(periods: PeriodStore, reconciler: RankingReconciler) {
        self.periods = periods
        self.reconciler = reconciler
    }

    /// Reconciles; the counts (added, corrected, removed) land in the run history and `podium_job_items_total`.
    public func run(_ context: JobContext) async throws -> [String: Int] {
        try await reconciler.reconcile(try await periods.openPeriods(now: context.now())).counts
    }
}

/// `prune`: deletes what retention allows and nothing else.
///
/// Finished run history, scheduled snapshots and events older than their retention (events a month at a time), and
/// the Redis sorted sets of periods closed longer ago than `closed_ranking_days` (their final snapshot stays, with the
/// medals); when `completion_days` is set, completions a month at a time too. It also makes the events' and the
/// completions' partitions of this month and the next two.
public struct PruneJob: ScheduledJob {
    /// The job's name.
    public let name = "prune"
    let runs: JobRunStore
    let snapshots: SnapshotStore
    let events: EventStore
    /// Where completions' months are made and, with `completion_days`, dropped.
    let completions: CompletionStore
    let periods: PeriodStore
    let reconciler: RankingReconciler
    let retention: RetentionSettings

    /// Creates the job.
    public init(
        runs: JobRunStore, snapshots: SnapshotStore, events: EventStore, completions: CompletionStore, periods: PeriodStore,
        reconciler: RankingReconciler, retention: RetentionSettings
    ) {
        self.runs = runs
        self.snapshots = snapshots
        self.events = events
        self.completions = completions
        self.periods = periods
        self.reconciler = reconciler
        self.retention = retention
    }

    /// Prunes each kind of data by its own cutoff.
    public func run(_ context: JobContext) async throws -> [String: Int] {
        let now = context.now()
        func cutoff(_ days: Double) -> Date { now.addingTimeInterval(-days * 86_400) }
        var counts: [String: Int] = [:]
        counts["runs"] = try await runs.prune(before: cutoff(retention.runHistoryDays))
        counts["snapshots"] = try await snapshots.prune(before: cutoff(retention.snapshotDays))
        counts["events"] = try await events.prune(before: cutoff(retention.eventDays))
        counts["event_months_made"] = try await events.prepareMonths(now: now)
        if let days = retention.completionDays {
            counts["completions"] = try await completions.prune(before: cutoff(days))
        }
        counts["completion_months_made"] = try await completions.prepareMonths(now: now)
        var dropped = 0
        while true {
            let keys = try await periods.prunableRankings(closedBefore: cutoff(retention.closedRankingDays), limit: 500)
            if keys.isEmpty { break }
            try await reconciler.dropRankings(keys)
            try await periods.markRankingsPruned(keys, now: now)
            dropped += keys.count
        }
        counts["redis_rankings"] = dropped
        return counts
    }
}

/// `emit-reminders`: one `reminder.due` event per player and local day once the reminder time has passed,
/// unless the player already played that day or the day is closed.
public struct EmitRemindersJob: ScheduledJob {
    /// The job's name.
    public let name = "emit-reminders"
    let reminders: ReminderStore

    /// Creates the job.
    public init(reminders: ReminderStore) {
        self.reminders = reminders
    }

    /// Handles every check due now.
    public func run(_ context: JobContext) async throws -> [String: Int] {
        let report = try await reminders.emitDue(now: context.now())
        return ["emitted": report.emitted, "skipped": report.skipped]
    }
}

/// The built-in jobs over one storage bundle.
public enum BuiltInJobs {
    /// Every built-in job.
    public static func all(storage: PodiumStorage, runs: JobRunStore) -> [any ScheduledJob] {
        [
            ClosePeriodsJob(periods: storage.periods, closing: storage.closing),
            SnapshotLeaderboardsJob(
                periods: storage.periods, leaderboards: storage.leaderboards, snapshots: storage.snapshots,
                top: storage.rules.scheduler.snapshotTop),
            ReconcileRankingsJob(periods: storage.periods, reconciler: storage.reconciler),
            PruneJob(
                runs: runs, snapshots: storage.snapshots, events: storage.events, completions: storage.completions, periods: storage.periods,
                reconciler: storage.reconciler, retention: storage.rules.scheduler.retention),
            EmitRemindersJob(reminders: storage.reminders),
        ]
    }
}
