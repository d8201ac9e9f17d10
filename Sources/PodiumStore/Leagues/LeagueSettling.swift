import Foundation
import PodiumCore
import Postgres

/// What a league cohort's close does beyond any board's: each player's move by final rank (`League.move`), their
/// tier for the next week, the `league_results` row, and the `league.promoted`, `league.relegated` or `league.stayed`
/// event. It runs inside the cohort's close transaction (`PeriodStore.close`), so it happens exactly once with it.
enum LeagueSettling {
    /// Settles cohort `scope` of week `period` from its final snapshot `snapshot`, closed at `now`; returns the results in
    /// listing order (none when `scope` is no league cohort of `registry`).
    static func settle(
        _ scope: BoardScope, period: String, snapshot: Int64, now: Date, registry: ContestRegistry, on connection: PostgresConnection
    ) throws -> [LeagueResult] {
        guard case .league(let id, let tierName, _) = scope, let league = registry.league(id), let tier = league.tierIndex(named: tierName) else {
            return []
        }
        let standings = try connection.query(
            "SELECT user_id, rank, score FROM snapshot_entries WHERE snapshot_id = \(bind: snapshot) ORDER BY position").rows
        let results = try results(of: standings.map { (try $0.string("user_id"), try $0.int("rank"), try $0.int64("score")) },
                                  league: league, tier: tier, board: scope.id, period: period)
        guard !results.isEmpty, case .league(_, _, let cohort) = scope else { return results }
        let rows = results.map { SettledRow(result: $0, tier: tier, nextTier: league.tierIndex(named: $0.nextTier) ?? tier) }
        try connection.query("""
            INSERT INTO league_results (league_id, period, user_id, tier, cohort, rank, score, outcome, next_tier, closed_at)
            SELECT \(bind: id), \(bind: period), x.user_id, x.tier, \(bind: cohort), x.rank, x.score, x.outcome, x.next_tier, \(bind: now)
            FROM \(unnest: rows, SettledRow.columns, as: "x") ON CONFLICT DO NOTHING
            """)
        try connection.query("""
            INSERT INTO league_players (league_id, user_id, tier)
            SELECT \(bind: id), x.user_id, x.next_tier FROM \(unnest: rows, SettledRow.columns, as: "x") ORDER BY x.user_id
            ON CONFLICT (league_id, user_id) DO UPDATE SET tier = EXCLUDED.tier
            """)
        try append(results.filter { $0.move == .promoted }, kind: LeaguePromotion.self, league: id, at: now, on: connection)
        try append(results.filter { $0.move == .relegated }, kind: LeagueRelegation.self, league: id, at: now, on: connection)
        try append(results.filter { $0.move == .stayed }, kind: LeagueStay.self, league: id, at: now, on: connection)
        return results
    }

    /// The results of a cohort of `league`'s tier `tier` whose final standings are `standings` (player, competition rank,
    /// score, in listing order): what its close does, or, from the live standings, what it would do.
    static func results(
        of standings: [(userID: String, rank: Int, score: Int64)], league: League, tier: Int, board: String, period: String
    ) -> [LeagueResult] {
        standings.map { userID, rank, score in
            let move = league.move(rank: rank, players: standings.count, tier: tier)
            return LeagueResult(
                userId: userID, period: period, board: board, tier: league.tiers[tier].name, rank: rank, score: score, move: move,
                nextTier: league.tiers[league.tier(after: move, from: tier)].name, medals: league.medals)
        }
    }

    /// The events of `results` (all of one move, `Kind`).
    private static func append<Kind: LeagueMoveKind>(
        _ results: [LeagueResult], kind: Kind.Type, league: String, at now: Date, on connection: PostgresConnection
    ) throws {
        guard !results.isEmpty else { return }
        try connection.query(try EventStore.append(results.map { result in
            LeagueMoveEvent<Kind>(
                userId: result.userId, league: league, period: result.period, board: result.board, tier: result.tier,
                nextTier: result.nextTier, rank: result.rank, score: result.score)
        }, occurredAt: now))
    }
}

/// A settled player as `league_results` and `league_players` take it.
private struct SettledRow {
    let result: LeagueResult
    let tier: Int
    let nextTier: Int

    static let columns = PostgresColumns<SettledRow>(
        .column("user_id", "text", { $0.result.userId }), .column("tier", "int", { $0.tier }), .column("rank", "int", { $0.result.rank }),
        .column("score", "bigint", { $0.result.score }), .column("outcome", "text", { $0.result.move.rawValue }),
        .column("next_tier", "int", { $0.nextTier }))
}
