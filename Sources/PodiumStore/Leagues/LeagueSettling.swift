import Foundation
import PodiumCore
import Postgres

/// What a league cohort's close does beyond any board's: each player's move by final rank (`League.move`), their
/// tier for the next week, the `league_results` row, and the `league.promoted`, `league.relegated` or `league.stayed`
/// event. It runs inside the cohorts' close transaction (`PeriodStore.closeNow`), so it happens exactly once with it.
enum LeagueSettling {
    /// Settles the league cohorts whose final snapshots `snapshots` the close just took at `now`: the results, the
    /// players' tiers and the events, a statement each for all of them (a cohort of a league `registry` does not hold is
    /// left as it is).
    static func settle(_ snapshots: [TakenSnapshot], now: Date, registry: ContestRegistry, on connection: PostgresConnection) throws {
        var cohorts: [Int64: (league: League, tier: Int, cohort: Int, board: String, period: String)] = [:]
        for snapshot in snapshots {
            guard case .league(let id, let tierName, let cohort) = BoardScope(id: snapshot.period.key.board),
                  let league = registry.league(id), let tier = league.tierIndex(named: tierName) else { continue }
            cohorts[snapshot.id] = (league, tier, cohort, snapshot.period.key.board, snapshot.period.key.period)
        }
        guard !cohorts.isEmpty else { return }
        var standings: [Int64: [(userID: String, rank: Int, score: Int64)]] = [:]
        for row in try connection.query("""
            SELECT snapshot_id, user_id, rank, score FROM snapshot_entries WHERE snapshot_id = ANY(\(bind: cohorts.keys.sorted()))
            ORDER BY snapshot_id, position
            """).rows {
            standings[try row.int64("snapshot_id"), default: []].append((try row.string("user_id"), try row.int("rank"), try row.int64("score")))
        }
        var rows: [SettledRow] = []
        for (snapshot, entries) in standings.sorted(by: { $0.key < $1.key }) {
            guard let cohort = cohorts[snapshot] else { continue }
            for result in results(of: entries, league: cohort.league, tier: cohort.tier, board: cohort.board, period: cohort.period) {
                rows.append(SettledRow(
                    league: cohort.league.id, cohort: cohort.cohort, result: result, tier: cohort.tier,
                    nextTier: cohort.league.tier(after: result.move, from: cohort.tier)))
            }
        }
        guard !rows.isEmpty else { return }
        try connection.query("""
            INSERT INTO league_results (league_id, period, user_id, tier, cohort, rank, score, outcome, next_tier, closed_at)
            SELECT x.league_id, x.period, x.user_id, x.tier, x.cohort, x.rank, x.score, x.outcome, x.next_tier, \(bind: now)
            FROM \(unnest: rows, SettledRow.columns, as: "x") ON CONFLICT DO NOTHING
            """)
        try connection.query("""
            INSERT INTO league_players (league_id, user_id, tier)
            SELECT x.league_id, x.user_id, x.next_tier FROM \(unnest: rows, SettledRow.columns, as: "x") ORDER BY x.league_id, x.user_id
            ON CONFLICT (league_id, user_id) DO UPDATE SET tier = EXCLUDED.tier WHERE league_players.tier <> EXCLUDED.tier
            """)
        try append(rows.filter { $0.result.move == .promoted }, kind: LeaguePromotion.self, at: now, on: connection)
        try append(rows.filter { $0.result.move == .relegated }, kind: LeagueRelegation.self, at: now, on: connection)
        try append(rows.filter { $0.result.move == .stayed }, kind: LeagueStay.self, at: now, on: connection)
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

    /// The events of `rows` (all of one move, `Kind`).
    private static func append<Kind: LeagueMoveKind>(_ rows: [SettledRow], kind: Kind.Type, at now: Date, on connection: PostgresConnection) throws {
        guard !rows.isEmpty else { return }
        try connection.query(try EventStore.append(rows.map { row in
            LeagueMoveEvent<Kind>(
                userId: row.result.userId, league: row.league, period: row.result.period, board: row.result.board, tier: row.result.tier,
                nextTier: row.result.nextTier, rank: row.result.rank, score: row.result.score)
        }, occurredAt: now))
    }
}

/// A settled player as `league_results` and `league_players` take it.
private struct SettledRow {
    let league: String
    let cohort: Int
    let result: LeagueResult
    let tier: Int
    let nextTier: Int

    static let columns = PostgresColumns<SettledRow>(
        .column("league_id", "text", { $0.league }), .column("period", "text", { $0.result.period }),
        .column("cohort", "int", { $0.cohort }), .column("user_id", "text", { $0.result.userId }), .column("tier", "int", { $0.tier }), .column("rank", "int", { $0.result.rank }),
        .column("score", "bigint", { $0.result.score }), .column("outcome", "text", { $0.result.move.rawValue }),
        .column("next_tier", "int", { $0.nextTier }))
}
