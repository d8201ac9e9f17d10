import Foundation
import Metrics
import PodiumCore
import PodiumWire
import Postgres

/// Closing board periods: the use case that spans the stores' folders. A close takes each period's final snapshot and
/// medals (`Periods`), settles a league cohort's moves (`Leagues`) and appends the events (`Outbox`), in one transaction.
///
/// Called by the close-periods job, by an admin's close of a period or a league week, and by `podium jobs`.
public struct PeriodClosing: Sendable {
    let postgres: PostgresPool
    let rules: GameRules

    /// Creates the use case.
    public init(postgres: PostgresPool, rules: GameRules) {
        self.postgres = postgres
        self.rules = rules
    }

    /// Closes one period: final snapshot of the whole board, medals, the period marked closed, and the events, in one transaction;
    /// for a league cohort also its players' moves (`LeagueSettling`).
    ///
    /// Idempotent: a period already closed is left as it is and reported `already-closed` with the
    /// medals it awarded. With `dryRun`, nothing is written and the report shows who would get which medal.
    ///
    /// A contest run may be closed `early`, while it is still under way: completions played after that miss it.
    public func close(_ key: BoardPeriodKey, now: Date, dryRun: Bool, early: Bool = false) async throws -> PeriodCloseReport {
        let period = try closing(key, now: now, early: early)
        if dryRun { return try await previewClose(key, awardsMedals: period.awardsMedals) }
        guard let report = try await closeNow([period], now: now).first else { throw PeriodCloseError.unknownPeriod(key) }
        Self.count(report)
        return report
    }

    /// Closes every one of `keys` that can close at `now`, in one transaction (`closeNow`): what the close-periods job
    /// does with each page of due periods. Returns the reports of those it closed or found closed, and why each of the
    /// others cannot close.
    public func close(_ keys: [BoardPeriodKey], now: Date) async throws -> (reports: [PeriodCloseReport], refused: [PeriodCloseError]) {
        var periods: [ClosingPeriod] = []
        var refused: [PeriodCloseError] = []
        for key in keys {
            do {
                periods.append(try closing(key, now: now, early: false))
            } catch let error as PeriodCloseError {
                refused.append(error)
            }
        }
        guard !periods.isEmpty else { return ([], refused) }
        let reports = try await closeNow(periods, now: now)
        reports.forEach(Self.count)
        return (reports, refused)
    }

    /// `key` checked for a close at `now`: its board keeps the window, the period exists and has ended (or, `early`, is a
    /// contest run under way).
    private func closing(_ key: BoardPeriodKey, now: Date, early: Bool) throws -> ClosingPeriod {
        guard let scope = BoardScope(id: key.board) else { throw PeriodCloseError.unknownPeriod(key) }
        let board = rules.boards.definition(for: scope)
        guard board.windows.contains(key.window), let end = board.period(of: key.window, named: key.period)?.end else {
            throw PeriodCloseError.unknownPeriod(key)
        }
        guard end <= now || (early && key.window == .contest) else { throw PeriodCloseError.notEnded(key, endsAt: end) }
        return ClosingPeriod(
            key: key, end: end, tieBreak: board.tieBreak, metric: board.metric, awardsMedals: board.medalWindows.contains(key.window),
            teams: board.teams)
    }

    /// Counts the medals of a close that closed its period.
    private static func count(_ report: PeriodCloseReport) {
        guard report.outcome == .closed else { return }
        for medal in report.medals {
            Counter(label: "podium_medals_awarded_total", dimensions: [("window", report.window.rawValue), ("medal", medal.medal.rawValue)])
                .increment()
        }
    }

    /// What closing would do; for a period already closed, what closing did (as a real close would answer).
    private func previewClose(_ key: BoardPeriodKey, awardsMedals: Bool) async throws -> PeriodCloseReport {
        let policy = rules.tieBreak(ofBoard: key.board)
        let metric = rules.metric(ofBoard: key.board)
        return try await postgres.withConnection { connection in
            if let closed = try connection.run(PeriodSnapshot(key: key)).first?.finalSnapshotID {
                return try PeriodStore.alreadyClosed(key, snapshot: closed, on: connection)
            }
            if let teams = BoardScope(id: key.board).flatMap({ rules.boards.definition(for: $0).teams }) {
                let entries = try TeamStandings.all(teams: teams, window: key.window, period: key.period, on: connection)
                let medals = awardsMedals ? entries.compactMap {
                    PeriodStore.standingsMedal(StandingsPlace(userID: $0.userId, score: $0.score, rank: $0.rank), key: key)
                } : []
                return PeriodCloseReport(
                    board: key.board, window: key.window, period: key.period, outcome: .dryRun, players: entries.count, medals: medals)
            }
            let players = try connection.run(PeriodPlayers(key: key))[0].n
            let medals = awardsMedals
                ? try connection.run(MedalCandidates(
                    key: key, lastRank: Medal.lastMedalRank, policy: policy.rawValue, metric: metric.rawValue)).compactMap {
                    PeriodStore.standingsMedal($0, key: key)
                }
                : []
            return PeriodCloseReport(board: key.board, window: key.window, period: key.period, outcome: .dryRun, players: players, medals: medals)
        }
    }

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
            try connection.run(PeriodCloseLocks(keys: periods.map { PeriodStore.closeLockKey($0.key) }, shared: false))
            try connection.run(AddClosingPeriods(periods: periods))
            var closedBefore: [BoardPeriodKey: Int64] = [:]
            for row in try connection.run(LockClosingPeriods(periods: periods)) {
                if let snapshot = row.finalSnapshotID { closedBefore[row.key] = snapshot }
            }
            var reports: [BoardPeriodKey: PeriodCloseReport] = [:]
            for (key, snapshot) in closedBefore { reports[key] = try PeriodStore.alreadyClosed(key, snapshot: snapshot, on: connection) }
            let fresh = periods.filter { closedBefore[$0.key] == nil }
            guard !fresh.isEmpty else { return reports }
            let snapshots = try Self.takeFinalSnapshots(of: fresh, now: now, on: connection)
            let medals = try Self.awardMedals(in: snapshots.filter(\.period.awardsMedals), on: connection)
            try connection.run(try EventStore.append(snapshots.map { snapshot in
                PeriodClosedEvent(
                    board: snapshot.period.key.board, window: snapshot.period.key.window, period: snapshot.period.key.period,
                    players: snapshot.players, medals: medals[snapshot.id]?.count ?? 0, closedAt: RFC3339.format(now))
            }, occurredAt: now))
            let awarded = snapshots.flatMap { medals[$0.id] ?? [] }
            if !awarded.isEmpty { try connection.run(try EventStore.append(awarded.map(MedalAwardedEvent.init), occurredAt: now)) }
            try LeagueSettling.settle(snapshots, now: now, registry: registry, on: connection)
            // The webhook senders of every replica are told when the close commits.
            try connection.run(NotifyChange(.outbox))
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
        var snapshots = try connection.run(AddFinalSnapshots(periods: periods, takenAt: now)).compactMap { row -> TakenSnapshot? in
            guard let period = byKey[row.key] else { return nil }
            return TakenSnapshot(id: row.id, period: period, players: row.players)
        }
        // Pages ranked by Redis use the same order, so the medals agree with what the boards showed.
        try connection.run(FillFinalSnapshots(snapshots: snapshots))
        // A teams board's final standings are its teams', from its groups' boards, as its pages show them.
        for (index, snapshot) in snapshots.enumerated() {
            guard let teams = snapshot.period.teams else { continue }
            let key = snapshot.period.key
            let entries = try TeamStandings.all(teams: teams, window: key.window, period: key.period, on: connection)
            try connection.run(AddSnapshotEntries(snapshotID: snapshot.id, entries: entries))
            try connection.run(SetSnapshotPlayers(id: snapshot.id, players: entries.count))
            snapshots[index] = TakenSnapshot(id: snapshot.id, period: snapshot.period, players: entries.count)
        }
        try connection.run(MarkPeriodsClosed(snapshots: snapshots, closedAt: now))
        return snapshots
    }

    /// Gives each of `snapshots`' top players their medals by `Medal.awarded`; returns them by snapshot, in listing order.
    private static func awardMedals(in snapshots: [TakenSnapshot], on connection: PostgresConnection) throws -> [Int64: [MedalAward]] {
        guard !snapshots.isEmpty else { return [:] }
        let byID = Dictionary(uniqueKeysWithValues: snapshots.map { ($0.id, $0.period.key) })
        let candidates = FinalMedalCandidates(snapshots: snapshots.map(\.id), lastRank: Medal.lastMedalRank)
        let awarded = try connection.run(candidates).compactMap { row -> AwardedMedal? in
            guard let key = byID[row.snapshotID], let award = PeriodStore.standingsMedal(row.place, key: key) else { return nil }
            return AwardedMedal(snapshot: row.snapshotID, position: row.position, award: award)
        }
        guard !awarded.isEmpty else { return [:] }
        try connection.run(SetMedals(medals: awarded))
        return Dictionary(grouping: awarded, by: \.snapshot).mapValues { $0.map(\.award) }
    }
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

/// A board period's final snapshot, closed or not (the dry run's check).
private struct PeriodSnapshot: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT final_snapshot_id FROM board_periods
        WHERE board = \(\.key.board) AND board_window = \(\.key.window.rawValue) AND period = \(\.key.period)
        """
    struct Row: Decodable, Sendable { let finalSnapshotID: Int64? }
    let key: BoardPeriodKey
}

/// How many players a board period has.
private struct PeriodPlayers: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT count(*) AS n FROM board_scores WHERE board = \(\.key.board) AND board_window = \(\.key.window.rawValue) AND period = \(\.key.period)
        """
    struct Row: Decodable, Sendable { let n: Int }
    let key: BoardPeriodKey
}

/// The dry run's medal candidates: the players of a board period ranked up to `lastRank`, in listing order with
/// competition rank under the board's tie-break, in the order the close's final snapshot takes. Pages ranked by Redis
/// use the same order, so the medals agree with what the board showed.
private struct MedalCandidates: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT user_id, \(\.metric, in: { BoardScoreTables.shownScore(metric: $0, score: "score") }) AS score, rank FROM (
            SELECT row_number() OVER listing - 1 AS position, user_id, score, rank() OVER ranking AS rank
            FROM (SELECT s.user_id, s.score, \(\.policy, in: { TieBreakSQL.key(policy: $0, row: "s") }) AS tie_key, u.handle
                  FROM board_scores s JOIN users u USING (user_id)
                  WHERE s.board = \(\.key.board) AND s.board_window = \(\.key.window.rawValue) AND s.period = \(\.key.period)) places
            WINDOW listing AS (ORDER BY score DESC, tie_key, handle), ranking AS (ORDER BY score DESC, tie_key)
        ) standings WHERE rank <= \(\.lastRank) ORDER BY position
        """
    typealias Row = StandingsPlace
    let key: BoardPeriodKey
    let lastRank: Int
    let policy: String
    /// The board's metric, which decides the score shown.
    let metric: String
}

/// Lists the closing periods in `board_periods` (a period no score reached yet has no row).
private struct AddClosingPeriods: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO board_periods (board, board_window, period, ends_at)
        SELECT x.board, x.board_window, x.period, x.ends_at FROM \(unnest: \.periods, ClosingPeriod.columns, as: "x")
        ORDER BY x.board, x.board_window, x.period ON CONFLICT DO NOTHING
        """
    typealias Row = NoRows
    let periods: [ClosingPeriod]
}

/// Locks the closing periods' rows, in order, and reads the final snapshot of those closed before.
private struct LockClosingPeriods: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT p.board, p.board_window, p.period, p.final_snapshot_id FROM board_periods p
        JOIN \(unnest: \.periods, ClosingPeriod.columns, as: "x") USING (board, board_window, period)
        ORDER BY p.board, p.board_window, p.period FOR UPDATE OF p
        """
    struct Row: Decodable, Sendable {
        let board: String
        let boardWindow: String
        let period: String
        let finalSnapshotID: Int64?

        /// The period's key.
        var key: BoardPeriodKey { BoardPeriodRow(board: board, boardWindow: boardWindow, period: period).key }
    }
    let periods: [ClosingPeriod]
}

/// Adds one final snapshot per closing period, with its players counted.
private struct AddFinalSnapshots: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO snapshots (board, board_window, period, kind, taken_at, players)
        SELECT x.board, x.board_window, x.period, 'final', \(\.takenAt),
               (SELECT count(*) FROM board_scores s WHERE s.board = x.board AND s.board_window = x.board_window AND s.period = x.period)
        FROM \(unnest: \.periods, ClosingPeriod.columns, as: "x") ORDER BY x.board, x.board_window, x.period
        RETURNING id, board, board_window, period, players
        """
    struct Row: Decodable, Sendable {
        let id: Int64
        let board: String
        let boardWindow: String
        let period: String
        let players: Int

        /// The period's key.
        var key: BoardPeriodKey { BoardPeriodRow(board: board, boardWindow: boardWindow, period: period).key }
    }
    let periods: [ClosingPeriod]
    let takenAt: Date
}

/// Fills the final snapshots with every player in listing order, with position and competition rank under the board's
/// tie-break (each snapshot's `policy`), and the score shown (`BoardScoreTables.shownScore`), as every snapshot keeps it.
private struct FillFinalSnapshots: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO snapshot_entries (snapshot_id, position, user_id, score, rank)
        SELECT id, row_number() OVER listing - 1, user_id, shown, rank() OVER ranking
        FROM (SELECT x.id, s.user_id, s.score, \(unescaped: BoardScoreTables.shownScore(metric: "x.metric", score: "s.score")) AS shown, \(unescaped: TieBreakSQL.key(policy: "x.policy", row: "s")) AS tie_key, u.handle
              FROM \(unnest: \.snapshots, TakenSnapshot.columns, as: "x")
              JOIN board_scores s ON s.board = x.board AND s.board_window = x.board_window AND s.period = x.period
              JOIN users u ON u.user_id = s.user_id) places
        WINDOW listing AS (PARTITION BY id ORDER BY score DESC, tie_key, handle), ranking AS (PARTITION BY id ORDER BY score DESC, tie_key)
        """
    typealias Row = NoRows
    let snapshots: [TakenSnapshot]
}

/// Sets how many entries (teams) a final snapshot of a teams board holds.
private struct SetSnapshotPlayers: PostgresStatement {
    static let sql: PostgresSQL<Self> = "UPDATE snapshots SET players = \(\.players) WHERE id = \(\.id)"
    typealias Row = NoRows
    let id: Int64
    let players: Int
}

/// Marks the periods of the final snapshots closed.
private struct MarkPeriodsClosed: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        UPDATE board_periods p SET closed_at = \(\.closedAt), final_snapshot_id = x.id
        FROM \(unnest: \.snapshots, TakenSnapshot.columns, as: "x")
        WHERE p.board = x.board AND p.board_window = x.board_window AND p.period = x.period
        """
    typealias Row = NoRows
    let snapshots: [TakenSnapshot]
    let closedAt: Date
}

/// The entries of final snapshots ranked up to `lastRank`, by snapshot then position.
private struct FinalMedalCandidates: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT snapshot_id, position, user_id, score, rank FROM snapshot_entries
        WHERE snapshot_id = ANY(\(\.snapshots)) AND rank <= \(\.lastRank) ORDER BY snapshot_id, position
        """
    struct Row: Decodable, Sendable {
        let snapshotID: Int64
        let position: Int
        let userID: String
        let score: Int64
        let rank: Int

        /// The entry's place on its standings.
        var place: StandingsPlace { StandingsPlace(userID: userID, score: score, rank: rank) }
    }
    let snapshots: [Int64]
    let lastRank: Int
}

/// Sets the medals on final snapshots' entries.
private struct SetMedals: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        UPDATE snapshot_entries e SET medal = x.medal FROM \(unnest: \.medals, AwardedMedal.columns, as: "x")
        WHERE e.snapshot_id = x.snapshot_id AND e.position = x.position
        """
    typealias Row = NoRows
    let medals: [AwardedMedal]
}
