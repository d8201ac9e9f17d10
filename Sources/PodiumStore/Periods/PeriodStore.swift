import Foundation
import Metrics
import PodiumCore
import Postgres

/// What closing one period did (or, in a dry run, would do).
public struct PeriodCloseReport: Sendable, Codable, Equatable {
    /// Board id.
    public var board: String
    /// Window.
    public var window: LeaderboardWindow
    /// Period name.
    public var period: String
    /// What the call did.
    public var outcome: PeriodCloseOutcome
    /// Players on the final board.
    public var players: Int
    /// Medals awarded (or that would be), best first.
    public var medals: [MedalAward]
}

/// What a call to close a period did.
public enum PeriodCloseOutcome: String, Sendable, Codable {
    /// This call closed it.
    case closed
    /// It was closed before: nothing changed.
    case alreadyClosed = "already-closed"
    /// A dry run: nothing was written.
    case dryRun = "dry-run"
}

/// Board periods: which are due to close, closing them with a final snapshot and medals, and reading closed boards.
///
/// A closed board is read from its final snapshot, never from the live scores: a completion that
/// arrives after the close (a replica with a slow clock, a write racing the close) can still touch
/// `board_scores`, but it can no longer change the closed board or its medals.
public struct PeriodStore: Sendable {
    let postgres: PostgresPool
    let rules: GameRules

    /// Creates the store.
    public init(postgres: PostgresPool, rules: GameRules) {
        self.postgres = postgres
        self.rules = rules
    }

    /// Periods whose end plus grace has passed at `now` and that are not closed yet, oldest first.
    ///
    /// With `after` (the last period of an earlier page), the page starts after it, so a caller can
    /// page past periods it could not close instead of being handed them again.
    public func duePeriods(now: Date, after: DuePeriod? = nil, limit: Int) async throws -> [DuePeriod] {
        try await postgres.query("""
            SELECT board, board_window, period, ends_at FROM board_periods
            WHERE closed_at IS NULL AND ends_at <= $1
              AND ($3::timestamptz IS NULL OR (ends_at, board, board_window, period) > ($3, $4, $5, $6))
            ORDER BY ends_at, board, board_window, period LIMIT $2
            """, [now.addingTimeInterval(-rules.closeGrace), limit, after?.endsAt, after?.key.board, after?.key.window.rawValue,
                  after?.key.period]).rows.map { row in DuePeriod(key: try Self.key(row), endsAt: try row.date("ends_at")) }
    }

    /// Periods not closed yet whose end plus grace is still ahead at `now`, plus the all-time period of every board.
    public func openPeriods(now: Date) async throws -> [BoardPeriodKey] {
        let timed = try await postgres.query("""
            SELECT board, board_window, period FROM board_periods
            WHERE closed_at IS NULL AND ends_at > $1 ORDER BY board, board_window, period
            """, [now.addingTimeInterval(-rules.closeGrace)]).rows.map(Self.key)
        let boards = try await postgres.query("SELECT board FROM boards ORDER BY board").rows.compactMap { row in
            BoardScope(id: try row.string("board")).map { rules.boards.definition(for: $0) }
        }
        let allTime = boards.filter { $0.windows.contains(.all) }.map { BoardPeriodKey(board: $0.id, window: .all, period: Period.all.key) }
        return allTime + timed
    }

    /// The class of the advisory locks that close board periods (the second key is the period's `closeLockKey` hashed).
    static let closeLockClass: Int32 = 16

    /// A board period's name in the close lock: `board|window|period`.
    static func closeLockKey(_ key: BoardPeriodKey) -> String {
        "\(key.board)|\(key.window.rawValue)|\(key.period)"
    }

    /// Takes the close lock of each of `keys` (`closeLockKey`s) until the transaction ends: exclusive for a close,
    /// `shared` for a completion batch scoring the periods. Always in byte order, so that a batch and a close of
    /// several periods cannot deadlock.
    static func closeLocks(_ keys: [String], shared: Bool) -> PostgresQuery {
        let take = shared ? "pg_advisory_xact_lock_shared" : "pg_advisory_xact_lock"
        return """
            SELECT count(\(unescaped: take)(\(unescaped: String(closeLockClass)), hashtext(k)))
            FROM (SELECT k FROM unnest(\(bind: keys)::text[]) AS k ORDER BY k COLLATE "C") keys
            """
    }

    /// Due periods closed per transaction, by close-periods and by an admin's close of a league week.
    public static let closePageSize = 500

    /// The newest `limit` periods of one board window, newest first, with their state, players and medals.
    ///
    /// Periods exist once a score lands in them (or a close was asked for); the current period is listed even before that,
    /// with no players, so the list always shows what is open now. `board` must be a configured board with this window.
    public func periods(of board: BoardDefinition, window: LeaderboardWindow, limit: Int, now: Date) async throws -> [PeriodSummary] {
        let rows = try await postgres.query("""
            SELECT p.period, p.closed_at, p.final_snapshot_id,
                   COALESCE(s.players, (SELECT count(*) FROM board_scores b
                                        WHERE b.board = p.board AND b.board_window = p.board_window AND b.period = p.period)) AS players
            FROM board_periods p LEFT JOIN snapshots s ON s.id = p.final_snapshot_id
            WHERE p.board = \(bind: board.id) AND p.board_window = \(bind: window.rawValue)
            ORDER BY p.ends_at DESC LIMIT \(bind: limit)
            """).rows
        let snapshots = rows.compactMap { $0["final_snapshot_id"].flatMap(Int64.init) }
        var medals: [Int64: [MedalAward]] = [:]
        if !snapshots.isEmpty {
            let names = Dictionary(uniqueKeysWithValues: try rows.compactMap { row in
                try row["final_snapshot_id"].flatMap(Int64.init).map { ($0, try row.string("period")) }
            })
            for row in try await postgres.query("""
                SELECT snapshot_id, user_id, medal, rank, score FROM snapshot_entries
                WHERE snapshot_id = ANY(\(bind: snapshots)) AND medal IS NOT NULL ORDER BY snapshot_id, position
                """).rows {
                let snapshot = try row.int64("snapshot_id")
                let key = BoardPeriodKey(board: board.id, window: window, period: names[snapshot] ?? "")
                medals[snapshot, default: []].append(try Self.medal(row, key: key))
            }
        }
        var summaries = try rows.compactMap { row -> PeriodSummary? in
            guard let period = board.period(of: window, named: try row.string("period")) else { return nil }
            let closedAt = try row.optionalDate("closed_at")
            let snapshot = row["final_snapshot_id"].flatMap(Int64.init)
            return PeriodSummary(
                period: period, closedAt: closedAt, players: try row.int("players"),
                medals: (snapshot.flatMap { medals[$0] } ?? []).map { var medal = $0; medal.awardedAt = closedAt.map(RFC3339.format); return medal },
                grace: rules.closeGrace, now: now)
        }
        // In its place among the others, newest first (a completion a little ahead of the clock can open the next one).
        if let current = board.currentPeriod(of: window, at: now), !summaries.contains(where: { $0.period == current.key }) {
            let index = summaries.firstIndex { $0.period < current.key } ?? summaries.endIndex
            if index < limit {
                summaries.insert(PeriodSummary(period: current, closedAt: nil, players: 0, medals: [], grace: rules.closeGrace, now: now), at: index)
                if summaries.count > limit { summaries.removeLast() }
            }
        }
        return summaries
    }

    /// The final snapshot of a closed period, or nil while it is not closed.
    public func finalSnapshot(_ key: BoardPeriodKey) async throws -> Int64? {
        try await postgres.query("""
            SELECT final_snapshot_id FROM board_periods WHERE board = $1 AND board_window = $2 AND period = $3 AND closed_at IS NOT NULL
            """, [key.board, key.window.rawValue, key.period]).rows.first.flatMap { $0["final_snapshot_id"].flatMap(Int64.init) }
    }

    /// A slice of a closed period's final board, with medals.
    public func readFinal(snapshot: Int64, slice: LeaderboardSlice) async throws -> RankedEntries {
        let players = try await postgres.query(Self.snapshotPlayers, [snapshot]).rows[0].int("players")
        // Offsets count entries, as the live board's do; positions may have gaps where players were erased.
        let rows: [PostgresRow]
        let offset: Int
        switch slice {
        case .page(let pageOffset, let limit):
            rows = try await postgres.query(Self.finalEntries + " ORDER BY e.position OFFSET $2 LIMIT $3", [snapshot, pageOffset, limit]).rows
            offset = pageOffset
        case .around(let userID, let radius):
            // The entries before a position: the position less the gaps erasures left below it (few), never a count of entries.
            guard let position = try await postgres.query("""
                SELECT e.position,
                       e.position - (SELECT count(*) FROM snapshot_gaps g WHERE g.snapshot_id = e.snapshot_id AND g.position < e.position) AS before
                FROM snapshot_entries e WHERE e.user_id = $1 AND e.snapshot_id = $2
                """, [userID, snapshot]).rows.first
            else { return RankedEntries(players: players, offset: 0, entries: [], live: true, found: false) }
            let at = try position.int("position")
            rows = try await postgres.query("""
                (\(Self.finalEntries) AND e.position < $2 ORDER BY e.position DESC LIMIT $3)
                UNION ALL (\(Self.finalEntries) AND e.position >= $2 ORDER BY e.position LIMIT $3 + 1) ORDER BY position
                """, [snapshot, at, radius]).rows
            offset = try position.int("before") - rows.count { try $0.int("position") < at }
        }
        return RankedEntries(players: players, offset: offset, entries: try rows.map(Self.entry), live: true, found: true)
    }

    /// The given players' final standings on a closed period (friends view).
    public func compareFinal(snapshot: Int64, userIDs: [String]) async throws -> RankedEntries {
        let players = try await postgres.query(Self.snapshotPlayers, [snapshot]).rows[0].int("players")
        let rows = try await postgres.query(
            Self.finalEntries + " AND e.user_id = ANY($2) ORDER BY e.position", [snapshot, userIDs]).rows
        return RankedEntries(players: players, offset: 0, entries: try rows.map(Self.entry), live: true, found: true)
    }

    /// Every medal a player has won, newest first.
    public func medals(userID: String) async throws -> [MedalAward] {
        try await postgres.query("""
            SELECT s.board, s.board_window, s.period, e.user_id, e.medal, e.rank, e.score, s.taken_at
            FROM snapshot_entries e JOIN snapshots s ON s.id = e.snapshot_id
            WHERE e.user_id = $1 AND e.medal IS NOT NULL
            ORDER BY s.taken_at DESC, s.board, s.board_window, s.period
            """, [userID]).rows.map { row in
            var medal = try Self.medal(row, key: try Self.key(row))
            medal.awardedAt = RFC3339.format(try row.date("taken_at"))
            return medal
        }
    }

    /// Closed periods whose Redis sorted set may go: closed before `cutoff` and not pruned yet.
    public func prunableRankings(closedBefore cutoff: Date, limit: Int) async throws -> [BoardPeriodKey] {
        try await postgres.query("""
            SELECT board, board_window, period FROM board_periods
            WHERE closed_at IS NOT NULL AND redis_pruned_at IS NULL AND closed_at < $1 ORDER BY closed_at LIMIT $2
            """, [cutoff, limit]).rows.map(Self.key)
    }

    /// Records that the Redis sorted sets of `keys` were deleted.
    public func markRankingsPruned(_ keys: [BoardPeriodKey], now: Date) async throws {
        try await postgres.query("""
            UPDATE board_periods SET redis_pruned_at = \(bind: now)
            FROM \(unnest: keys, BoardPeriodKey.columns, as: "x")
            WHERE board_periods.board = x.board AND board_periods.board_window = x.board_window AND board_periods.period = x.period
            """)
    }

    /// The medal `Medal.awarded` gives a standings row (`user_id`, `score`, `rank`) of a window that awards medals.
    static func standingsMedal(of row: PostgresRow, key: BoardPeriodKey) throws -> MedalAward? {
        let (rank, score) = (try row.int("rank"), try row.int64("score"))
        return try Medal.awarded(rank: rank, score: score).map {
            MedalAward(board: key.board, window: key.window, period: key.period, userId: try row.string("user_id"), medal: $0,
                       rank: rank, score: score, awardedAt: nil)
        }
    }

    /// The report of a period closed before, from its final snapshot.
    static func alreadyClosed(_ key: BoardPeriodKey, snapshot: Int64, on connection: PostgresConnection) throws -> PeriodCloseReport {
        let players = try connection.query(snapshotPlayers, [snapshot]).rows[0].int("players")
        return PeriodCloseReport(
            board: key.board, window: key.window, period: key.period, outcome: .alreadyClosed, players: players,
            medals: try medals(of: snapshot, key: key, on: connection))
    }

    private static let snapshotPlayers = "SELECT players FROM snapshots WHERE id = $1"

    private static let finalEntries = """
        SELECT e.position, e.user_id, e.score, e.rank, e.medal, u.display_name
        FROM snapshot_entries e LEFT JOIN users u USING (user_id) WHERE e.snapshot_id = $1
        """

    private static func medals(of snapshot: Int64, key: BoardPeriodKey, on connection: PostgresConnection) throws -> [MedalAward] {
        try connection.query("""
            SELECT user_id, medal, rank, score FROM snapshot_entries WHERE snapshot_id = $1 AND medal IS NOT NULL ORDER BY position
            """, [snapshot]).rows.map { try medal($0, key: key) }
    }

    private static func medal(_ row: PostgresRow, key: BoardPeriodKey) throws -> MedalAward {
        MedalAward(board: key.board, window: key.window, period: key.period, userId: try row.string("user_id"), medal: try row.value("medal"),
                   rank: try row.int("rank"), score: try row.int64("score"), awardedAt: nil)
    }

    /// A snapshot entry row (`rank`, `user_id`, `display_name`, `score`, `medal`) as a leaderboard line.
    static func entry(_ row: PostgresRow) throws -> LeaderboardEntry {
        LeaderboardEntry(rank: try row.int("rank"), userId: try row.string("user_id"), displayName: row["display_name"],
                         score: try row.int64("score"), medal: row["medal"].flatMap(Medal.init(rawValue:)))
    }

    /// The board period of a row with `board`, `board_window` and `period`.
    static func key(_ row: PostgresRow) throws -> BoardPeriodKey {
        BoardPeriodKey(board: try row.string("board"), window: LeaderboardWindow(rawValue: try row.string("board_window")) ?? .all,
                       period: try row.string("period"))
    }
}

/// One period of a board window as the console lists it.
public struct PeriodSummary: Sendable, Codable, Equatable {
    /// Period name.
    public var period: String
    /// Its first instant.
    public var startsAt: String
    /// Its end, exclusive.
    public var endsAt: String
    /// When it closes: its end plus the grace for late completions.
    public var closesAt: String
    /// Where it stands.
    public var status: PeriodState
    /// When it was closed; absent until then.
    public var closedAt: String?
    /// Players on it (on its final board once closed).
    public var players: Int
    /// Medals it awarded, best first; empty until it is closed.
    public var medals: [MedalAward]

    /// The summary of `period`, closed at `closedAt` (nil while not), as it stands at `now`.
    init(period: Period, closedAt: Date?, players: Int, medals: [MedalAward], grace: TimeInterval, now: Date) {
        self.period = period.key
        startsAt = period.start.map(RFC3339.format) ?? ""
        endsAt = period.end.map(RFC3339.format) ?? ""
        let closes = period.closesAt(grace: grace) ?? now
        closesAt = RFC3339.format(closes)
        status = closedAt != nil ? .closed : now >= closes ? .due : .open
        self.closedAt = closedAt.map(RFC3339.format)
        self.players = players
        self.medals = medals
    }
}

/// Where a period stands.
public enum PeriodState: String, Sendable, Codable {
    /// It has not reached its close time yet.
    case open
    /// Its close time has passed and it is not closed yet: the next `close-periods` run (or an admin) closes it.
    case due
    /// It is closed: its final board and medals are fixed.
    case closed
}

/// A period due to close, with its end (the paging position of `PeriodStore.duePeriods`).
public struct DuePeriod: Sendable, Equatable {
    /// The period.
    public let key: BoardPeriodKey
    /// Its exclusive end, as stored.
    public let endsAt: Date
}

/// Why a period cannot be closed.
public enum PeriodCloseError: Error, Equatable, CustomStringConvertible {
    /// The board, window or period name does not exist (or is the all-time window, which never closes).
    case unknownPeriod(BoardPeriodKey)
    /// The period has not ended yet: closing it would shut out completions it should still count.
    case notEnded(BoardPeriodKey, endsAt: Date)

    /// A sentence for logs and problem details.
    public var description: String {
        switch self {
        case .unknownPeriod(let key): "\(key.board) \(key.window.rawValue) \(key.period) is not a period that can close"
        case .notEnded(let key, let end):
            "\(key.board) \(key.window.rawValue) \(key.period) has not ended yet (it ends at \(RFC3339.format(end)))"
        }
    }
}
