import Foundation
import PodiumCore
import PodiumWire
import Postgres

/// What a league cohort's close does beyond any board's: each player's move by final rank (`League.move`), their
/// tier for the next week, the `league_results` row, and the `league.promoted`, `league.relegated` or `league.stayed`
/// event. It runs inside the cohorts' close transaction (`PeriodClosing.closeNow`), so it happens exactly once with it.
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
        let ids = cohorts.keys.sorted()
        var standings: [Int64: [LeagueStanding]] = [:]
        for row in try connection.run(FinalStandings(snapshotIDs: ids, leagueIDs: ids.map { cohorts[$0]?.league.id ?? "" })) {
            standings[row.cohort.id, default: []].append(row.standing)
        }
        // Oldest week first: when one close settles two weeks of a player (after an outage), the later week's move
        // applies to the tier the earlier one gave them, as if they had closed in turn.
        var held: [PlayerKey: (tier: Int, period: String)] = [:]
        var rows: [SettledRow] = []
        for (snapshot, stored) in standings.sorted(by: { (cohorts[$0.key]?.period ?? "", $0.key) < (cohorts[$1.key]?.period ?? "", $1.key) }) {
            guard let cohort = cohorts[snapshot] else { continue }
            let entries = stored.map { entry in
                var entry = entry
                if let earlier = held[PlayerKey(league: cohort.league.id, userID: entry.userID)], earlier.period < cohort.period,
                   entry.earnedIn.map({ $0 < earlier.period }) ?? true {
                    (entry.earned, entry.earnedIn) = (earlier.tier, earlier.period)
                }
                return entry
            }
            let settled = results(of: entries, league: cohort.league, tier: cohort.tier, board: cohort.board, period: cohort.period)
            for (result, entry) in zip(settled, entries) {
                let next = cohort.league.tierIndex(named: result.nextTier) ?? cohort.tier
                let newest = entry.earnedIn.map { $0 < cohort.period } ?? true
                rows.append(SettledRow(league: cohort.league.id, cohort: cohort.cohort, result: result, tier: cohort.tier, nextTier: next, newest: newest))
                if newest { held[PlayerKey(league: cohort.league.id, userID: entry.userID)] = (next, cohort.period) }
            }
        }
        guard !rows.isEmpty else { return }
        try connection.run(AddLeagueResults(rows: rows, closedAt: now))
        // The tiers: each player's newest week of this close only, and none of a player whose newer week closed first
        // (the close of an older week, late).
        let tiers = rows.filter { row in row.newest && held[PlayerKey(league: row.league, userID: row.result.userId)]?.period == row.result.period }
        if !tiers.isEmpty {
            try connection.run(SetHeldTiers(rows: tiers))
        }
        try append(rows.filter { $0.result.move == .promoted }, kind: LeaguePromotion.self, at: now, on: connection)
        try append(rows.filter { $0.result.move == .relegated }, kind: LeagueRelegation.self, at: now, on: connection)
        try append(rows.filter { $0.result.move == .stayed }, kind: LeagueStay.self, at: now, on: connection)
    }

    /// The results of a cohort of `league`'s tier `tier` whose final standings are `standings` (in listing order): what
    /// its close does, or, from the live standings, what it would do. Each player's move applies to the tier they hold
    /// (`LeagueStanding.base`).
    static func results(of standings: [LeagueStanding], league: League, tier: Int, board: String, period: String) -> [LeagueResult] {
        standings.map { standing in
            let move = league.move(rank: standing.rank, players: standings.count, tier: tier)
            let base = standing.base(playedIn: tier, week: period, league: league)
            return LeagueResult(
                userId: standing.userID, period: period, board: board, tier: league.tiers[tier].name, rank: standing.rank,
                score: standing.score, move: move, nextTier: league.tiers[league.tier(after: move, from: base)].name, medals: league.medals)
        }
    }

    /// The events of `rows` (all of one move, `Kind`).
    private static func append<Kind: LeagueMoveKind>(_ rows: [SettledRow], kind: Kind.Type, at now: Date, on connection: PostgresConnection) throws {
        guard !rows.isEmpty else { return }
        try connection.run(try EventStore.append(rows.map { row in
            LeagueMoveEvent<Kind>(
                userId: row.result.userId, league: row.league, period: row.result.period, board: row.result.board, tier: row.result.tier,
                nextTier: row.result.nextTier, rank: row.result.rank, score: row.result.score)
        }, occurredAt: now))
    }
}

/// A player of a cohort's standings (final or live), with the tier they hold (`earned`, set by the close of `earnedIn`);
/// read from a statement's columns `user_id`, `rank`, `score`, `earned` and `earned_in`.
struct LeagueStanding: Decodable, Sendable {
    /// The player.
    let userID: String
    /// Competition rank in the cohort.
    let rank: Int
    /// Score in the cohort.
    let score: Int64
    /// The tier `league_players` holds for them (or an older week of the same close gave them); nil for a player no
    /// close has settled yet.
    var earned: Int?
    /// The week whose close set `earned`.
    var earnedIn: String?

    /// The tier a move of week `week` applies to: the one earned at the close of an earlier week (a player who entered
    /// `week` before that close played in their older tier), else the one played in, `tier`.
    func base(playedIn tier: Int, week: String, league: League) -> Int {
        guard let earned, let earnedIn, earnedIn < week, league.tiers.indices.contains(earned) else { return tier }
        return earned
    }
}

/// A standings statement's row: a player's standing, and the columns `Cohort` reads, which name the cohort.
struct CohortStanding<Cohort: Decodable & Sendable>: Decodable, Sendable {
    /// Which cohort the standing is in.
    let cohort: Cohort
    let standing: LeagueStanding

    /// Reads both from the row's columns.
    init(from decoder: any Decoder) throws {
        (cohort, standing) = (try Cohort(from: decoder), try LeagueStanding(from: decoder))
    }
}

/// A player of a league.
private struct PlayerKey: Hashable {
    let league: String
    let userID: String
}

/// A settled player as `league_results` and `league_players` take it.
private struct SettledRow: Sendable {
    let league: String
    let cohort: Int
    let result: LeagueResult
    let tier: Int
    let nextTier: Int
    /// Whether no newer week than this one has settled the player yet (its tier may be written).
    let newest: Bool

    /// The row's columns as `AddLeagueResults` and `SetHeldTiers` read them.
    static let columns = PostgresColumns<SettledRow>(
        .column("league_id", "text", { $0.league }), .column("period", "text", { $0.result.period }),
        .column("cohort", "int", { $0.cohort }), .column("user_id", "text", { $0.result.userId }), .column("tier", "int", { $0.tier }), .column("rank", "int", { $0.result.rank }),
        .column("score", "bigint", { $0.result.score }), .column("outcome", "text", { $0.result.move.rawValue }),
        .column("next_tier", "int", { $0.nextTier }))
}

/// The final standings of the league cohorts whose final snapshots are `snapshotIDs` (each of the league at the same
/// index of `leagueIDs`), in listing order, each player with the tier they hold.
private struct FinalStandings: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT x.id, e.user_id, e.rank, e.score, p.tier AS earned, p.period AS earned_in
        FROM unnest(\(\.snapshotIDs)::bigint[], \(\.leagueIDs)::text[]) AS x(id, league_id)
        JOIN snapshot_entries e ON e.snapshot_id = x.id
        LEFT JOIN league_players p ON p.league_id = x.league_id AND p.user_id = e.user_id
        ORDER BY x.id, e.position
        """

    typealias Row = CohortStanding<Snapshot>

    /// The cohort's final snapshot.
    struct Snapshot: Decodable, Sendable { let id: Int64 }

    let snapshotIDs: [Int64]
    let leagueIDs: [String]
}

/// Records what the close did to each settled player (a result recorded already stays).
private struct AddLeagueResults: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO league_results (league_id, period, user_id, tier, cohort, rank, score, outcome, next_tier, closed_at)
        SELECT x.league_id, x.period, x.user_id, x.tier, x.cohort, x.rank, x.score, x.outcome, x.next_tier, \(\.closedAt)
        FROM \(unnest: \.rows, SettledRow.columns, as: "x") ON CONFLICT DO NOTHING
        """
    typealias Row = NoRows
    let rows: [SettledRow]
    let closedAt: Date
}

/// Sets each player's tier for the next week, unless a newer week's close set it already.
private struct SetHeldTiers: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO league_players (league_id, user_id, tier, period)
        SELECT x.league_id, x.user_id, x.next_tier, x.period FROM \(unnest: \.rows, SettledRow.columns, as: "x") ORDER BY x.league_id, x.user_id
        ON CONFLICT (league_id, user_id) DO UPDATE SET tier = EXCLUDED.tier, period = EXCLUDED.period
        WHERE league_players.period < EXCLUDED.period
        """
    typealias Row = NoRows
    /// The players' newest settled weeks.
    let rows: [SettledRow]
}
