import Foundation
import PodiumWire

extension ContestRun {
    /// The view of `run`, closing `grace` after its end; `closedAt` when it was closed.
    public init(_ run: Period, grace: TimeInterval, closedAt: Date? = nil) {
        self.init(
            period: run.key, startsAt: run.start.map(RFC3339.format) ?? "", endsAt: run.end.map(RFC3339.format) ?? "",
            closesAt: run.closesAt(grace: grace).map(RFC3339.format) ?? "", closedAt: closedAt.map(RFC3339.format))
    }
}

extension ContestView {
    /// The view of `contest` at `now`; `joined` is the number of entrants of a `join` contest, `runClosedAt` when its
    /// current run was closed (early, or at its end), if it was.
    public init(_ contest: Contest, joined: Int?, runClosedAt: Date? = nil, grace: TimeInterval, now: Date) {
        let current = contest.currentRun(at: now)
        let upcoming = contest.runs(after: now, limit: 3)
        let status: String
        if contest.cancelledAt != nil {
            status = "cancelled"
        } else if let current, current.contains(now), runClosedAt == nil {
            status = "running"
        } else if let current, let start = current.start, start > now {
            status = "scheduled"
        } else {
            status = upcoming.isEmpty ? "ended" : "between-runs"
        }
        self.init(
            id: contest.id, board: BoardScope.contest(contest.id).id, title: contest.title, scope: contest.scope.boards.map(\.id),
            schedule: "once", timeZone: contest.timeZone.configuredName, entry: contest.entry, maxPlayers: contest.maxPlayers,
            playersJoined: contest.entry == .join ? joined ?? 0 : nil, metric: contest.metric, tieBreak: contest.tieBreak,
            medals: contest.medals, status: status, cancelledAt: contest.cancelledAt.map(RFC3339.format),
            currentRun: current.map { ContestRun($0, grace: grace, closedAt: runClosedAt) },
            nextRuns: upcoming.map { ContestRun($0, grace: grace) })
        switch contest.schedule {
        case .once(let start, let end):
            startsAt = RFC3339.format(start)
            endsAt = RFC3339.format(end)
        case .recurring(let cron, let duration, let from, let until):
            schedule = "recurring"
            startsAt = from.map(RFC3339.format)
            endsAt = until.map(RFC3339.format)
            self.cron = cron.expression.description
            scheduleWords = cron.expression.words
            durationMinutes = Int(duration / 60)
        }
    }
}
