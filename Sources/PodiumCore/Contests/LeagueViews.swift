import Foundation
import PodiumWire

extension LeagueResult {
    /// Creates a result; `medals` tells whether the league awards them (`Medal.awarded` by rank and score).
    public init(
        userId: String, period: String, board: String, tier: String, rank: Int, score: Int64, move: LeagueMove, nextTier: String,
        medals: Bool
    ) {
        self.init(
            userId: userId, period: period, board: board, tier: tier, rank: rank, score: score, move: move, nextTier: nextTier,
            medal: medals ? Medal.awarded(rank: rank, score: score) : nil)
    }
}

extension PlayerLeague {
    /// Where a player stands in `league` in `week` at `now`: in tier `tier` (its index), and once placed, their cohort's
    /// `board`, `rank`, its `players` and their `score`.
    public init(
        league: League, week: Period, now: Date, tier: Int, board: String?, rank: Int?, players: Int?, score: Int64?
    ) {
        self.init(
            league: league.id, name: league.name, week: LeagueWeek(week),
            secondsLeft: max(0, Int((week.end ?? now).timeIntervalSince(now).rounded(.down))),
            tier: league.tiers[tier].name, tierTitle: league.tiers[tier].title, board: board, rank: rank, players: players,
            score: score, zone: rank.flatMap { rank in players.map { league.zone(rank: rank, players: $0, tier: tier) } })
    }
}

extension LeagueWeek {
    /// The view of `week`.
    public init(_ week: Period) {
        self.init(period: week.key, startsAt: week.start.map(RFC3339.format) ?? "", endsAt: week.end.map(RFC3339.format) ?? "")
    }
}

extension LeagueView {
    /// The view of `league` at `now`.
    public init(_ league: League, now: Date) {
        self.init(
            id: league.id, name: league.name, scope: league.scope.boards.map(\.id), timeZone: league.timeZone.configuredName,
            tiers: league.tiers, cohortSize: league.cohortSize, metric: league.metric, tieBreak: league.tieBreak,
            medals: league.medals, status: league.state, createdAt: RFC3339.format(league.createdAt),
            pausedAt: league.pausedAt.map(RFC3339.format), endedAt: league.endedAt.map(RFC3339.format),
            week: LeagueWeek(league.week(containing: now)))
    }
}
