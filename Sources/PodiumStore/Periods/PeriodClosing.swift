import Foundation
import PodiumCore
import Postgres

/// A board period checked and ready to close: its key, its end, its board's tie-break and whether it awards medals.
struct ClosingPeriod: Sendable {
    /// The period.
    let key: BoardPeriodKey
    /// Its exclusive end.
    let end: Date
    /// How its board ranks equal scores.
    let tieBreak: TieBreak
    /// Whether its window awards medals on its board.
    let awardsMedals: Bool

    /// The columns the close's statements read.
    static let columns = PostgresColumns<ClosingPeriod>(
        .column("board", "text", { $0.key.board }), .column("board_window", "text", { $0.key.window.rawValue }),
        .column("period", "text", { $0.key.period }), .column("ends_at", "timestamptz", { $0.end }),
        .column("policy", "text", { $0.tieBreak.rawValue }))
}

/// A final snapshot the close took, with the period it belongs to.
struct TakenSnapshot: Sendable {
    /// The snapshot's id.
    let id: Int64
    /// The period it closed.
    let period: ClosingPeriod
    /// Players on it.
    let players: Int

    /// The columns the close's statements read.
    static let columns = PostgresColumns<TakenSnapshot>(
        .column("id", "bigint", { $0.id }), .column("board", "text", { $0.period.key.board }),
        .column("board_window", "text", { $0.period.key.window.rawValue }), .column("period", "text", { $0.period.key.period }),
        .column("policy", "text", { $0.period.tieBreak.rawValue }))
}

/// A medal of the close, on one entry of a final snapshot.
private struct AwardedMedal {
    let snapshot: Int64
    let position: Int
    let award: MedalAward

    static let columns = PostgresColumns<AwardedMedal>(
        .column("snapshot_id", "bigint", { $0.snapshot }), .column("position", "int", { $0.position }),
        .column("medal", "text", { $0.award.medal.rawValue }))
}

extension PeriodStore {
    /// Closes `periods` in one transaction, set-based: however many there are, a dozen statements. For each period not
    /// closed yet: the final snapshot of the whole board, the medals, the period marked closed, a league cohort's moves
    /// (`LeagueSettling`), and the events; a period closed before is reported `already-closed` with what it awarded.
    ///
    /// It first takes each period's close lock, in order: completion batches scoring a contest run hold it shared until
    /// they commit, so a run closed while it is under way does not miss a score a batch already counted; and two
    /// replicas closing the same periods take turns, the second finding them closed. A period given twice closes once.
    /// Reports follow the periods' order (board, window, period).
    func closeNow(_ periods: [ClosingPeriod], now: Date) async throws -> [PeriodCloseReport] {
        var seen = Set<BoardPeriodKey>()
        let periods = periods.filter { seen.insert($0.key).inserted }.sorted { ($0.key.board, $0.key.window.rawValue, $0.key.period) < ($1.key.board, $1.key.window.rawValue, $1.key.period) }
        let registry = rules.boards.contests
        let reports = try await postgres.withTransaction { connection -> [BoardPeriodKey: PeriodCloseReport] in
            try connection.query(Self.closeLocks(periods.map { Self.closeLockKey($0.key) }, shared: false))
            try connection.query("""
                INSERT INTO board_periods (board, board_window, period, ends_at)
                SELECT x.board, x.board_window, x.period, x.ends_at FROM \(unnest: periods, ClosingPeriod.columns, as: "x")
                ORDER BY x.board, x.board_window, x.period ON CONFLICT DO NOTHING
                """)
            var closedBefore: [BoardPeriodKey: Int64] = [:]
            for row in try connection.query("""
                SELECT p.board, p.board_window, p.period, p.final_snapshot_id FROM board_periods p
                JOIN \(unnest: periods, ClosingPeriod.columns, as: "x") USING (board, board_window, period)
                ORDER BY p.board, p.board_window, p.period FOR UPDATE OF p
                """).rows {
                if let snapshot = row["final_snapshot_id"].flatMap(Int64.init) { closedBefore[try Self.key(row)] = snapshot }
            }
            var reports: [BoardPeriodKey: PeriodCloseReport] = [:]
            for (key, snapshot) in closedBefore { reports[key] = try Self.alreadyClosed(key, snapshot: snapshot, on: connection) }
            let fresh = periods.filter { closedBefore[$0.key] == nil }
            guard !fresh.isEmpty else { return reports }
            let snapshots = try Self.takeFinalSnapshots(of: fresh, now: now, on: connection)
            let medals = try Self.awardMedals(in: snapshots.filter(\.period.awardsMedals), on: connection)
            try connection.query(try EventStore.append(snapshots.map { snapshot in
                PeriodClosedEvent(
                    board: snapshot.period.key.board, window: snapshot.period.key.window, period: snapshot.period.key.period,
                    players: snapshot.players, medals: medals[snapshot.id]?.count ?? 0, closedAt: RFC3339.format(now))
            }, occurredAt: now))
            let awarded = snapshots.flatMap { medals[$0.id] ?? [] }
            if !awarded.isEmpty { try connection.query(try EventStore.append(awarded.map(MedalAwardedEvent.init), occurredAt: now)) }
            try LeagueSettling.settle(snapshots, now: now, registry: registry, on: connection)
            // The webhook senders of every replica are told when the close commits.
            try connection.query(ChangeNotices.notify(.outbox))
            for snapshot in snapshots {
                reports[snapshot.period.key] = PeriodCloseReport(
                    board: snapshot.period.key.board, window: snapshot.period.key.window, period: snapshot.period.key.period, outcome: .closed,
                    players: snapshot.players,
                    medals: (medals[snapshot.id] ?? []).map { var medal = $0; medal.awardedAt = RFC3339.format(now); return medal })
            }
            return reports
        }
        return periods.compactMap { reports[$0.key] }
    }

    /// The final snapshots of `periods` (none closed yet): every player in listing order with position and competition
    /// rank under the board's tie-break, and the periods marked closed at `now` with them.
    private static func takeFinalSnapshots(of periods: [ClosingPeriod], now: Date, on connection: PostgresConnection) throws -> [TakenSnapshot] {
        let byKey = Dictionary(uniqueKeysWithValues: periods.map { ($0.key, $0) })
        let snapshots = try connection.query("""
            INSERT INTO snapshots (board, board_window, period, kind, taken_at, players)
            SELECT x.board, x.board_window, x.period, 'final', \(bind: now),
                   (SELECT count(*) FROM board_scores s WHERE s.board = x.board AND s.board_window = x.board_window AND s.period = x.period)
            FROM \(unnest: periods, ClosingPeriod.columns, as: "x") ORDER BY x.board, x.board_window, x.period
            RETURNING id, board, board_window, period, players
            """).rows.compactMap { row -> TakenSnapshot? in
            guard let period = byKey[try key(row)] else { return nil }
            return TakenSnapshot(id: try row.int64("id"), period: period, players: try row.int("players"))
        }
        // Pages ranked by Redis use the same order, so the medals agree with what the boards showed.
        try connection.query("""
            INSERT INTO snapshot_entries (snapshot_id, position, user_id, score, rank)
            SELECT id, row_number() OVER listing - 1, user_id, score, rank() OVER ranking
            FROM (SELECT x.id, s.user_id, s.score, \(unescaped: TieBreak.sqlKey(policy: "x.policy", row: "s")) AS tie_key, u.handle
                  FROM \(unnest: snapshots, TakenSnapshot.columns, as: "x")
                  JOIN board_scores s ON s.board = x.board AND s.board_window = x.board_window AND s.period = x.period
                  JOIN users u ON u.user_id = s.user_id) places
            WINDOW listing AS (PARTITION BY id ORDER BY score DESC, tie_key, handle), ranking AS (PARTITION BY id ORDER BY score DESC, tie_key)
            """)
        try connection.query("""
            UPDATE board_periods p SET closed_at = \(bind: now), final_snapshot_id = x.id
            FROM \(unnest: snapshots, TakenSnapshot.columns, as: "x")
            WHERE p.board = x.board AND p.board_window = x.board_window AND p.period = x.period
            """)
        return snapshots
    }

    /// Gives each of `snapshots`' top players their medals by `Medal.awarded`; returns them by snapshot, in listing order.
    private static func awardMedals(in snapshots: [TakenSnapshot], on connection: PostgresConnection) throws -> [Int64: [MedalAward]] {
        guard !snapshots.isEmpty else { return [:] }
        let byID = Dictionary(uniqueKeysWithValues: snapshots.map { ($0.id, $0.period.key) })
        let awarded = try connection.query("""
            SELECT snapshot_id, position, user_id, score, rank FROM snapshot_entries
            WHERE snapshot_id = ANY(\(bind: snapshots.map(\.id))) AND rank <= \(bind: Medal.lastMedalRank) ORDER BY snapshot_id, position
            """).rows.compactMap { row -> AwardedMedal? in
            let snapshot = try row.int64("snapshot_id")
            guard let key = byID[snapshot], let award = try standingsMedal(of: row, key: key) else { return nil }
            return AwardedMedal(snapshot: snapshot, position: try row.int("position"), award: award)
        }
        guard !awarded.isEmpty else { return [:] }
        try connection.query("""
            UPDATE snapshot_entries e SET medal = x.medal FROM \(unnest: awarded, AwardedMedal.columns, as: "x")
            WHERE e.snapshot_id = x.snapshot_id AND e.position = x.position
            """)
        return Dictionary(grouping: awarded, by: \.snapshot).mapValues { $0.map(\.award) }
    }
}
