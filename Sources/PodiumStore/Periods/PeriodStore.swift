import Foundation
import Metrics
import PodiumCore
import PodiumWire
import Postgres

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
        try await postgres.run(DuePeriods(endedBy: now.addingTimeInterval(-rules.closeGrace), after: after, limit: limit)).map {
            DuePeriod(key: $0.key, endsAt: $0.endsAt)
        }
    }

    /// Periods not closed yet whose end plus grace is still ahead at `now`, plus the all-time period of every board.
    public func openPeriods(now: Date) async throws -> [BoardPeriodKey] {
        let timed = try await postgres.run(OpenTimedPeriods(endingAfter: now.addingTimeInterval(-rules.closeGrace))).map(\.key)
        let boards = try await postgres.run(AllScoredBoards()).compactMap { row in
            BoardScope(id: row.board).map { rules.boards.definition(for: $0) }
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

    /// Due periods closed per transaction, by close-periods and by an admin's close of a league week.
    public static let closePageSize = 500

    /// The newest `limit` periods of one board window, newest first, with their state, players and medals.
    ///
    /// Periods exist once a score lands in them (or a close was asked for); the current period is listed even before that,
    /// with no players, so the list always shows what is open now. `board` must be a configured board with this window.
    public func periods(of board: BoardDefinition, window: LeaderboardWindow, limit: Int, now: Date) async throws -> [PeriodSummary] {
        let rows = try await postgres.run(RecentPeriods(board: board.id, window: window.rawValue, limit: limit))
        let snapshots = rows.compactMap(\.finalSnapshotID)
        var medals: [Int64: [MedalAward]] = [:]
        if !snapshots.isEmpty {
            let names = Dictionary(uniqueKeysWithValues: rows.compactMap { row in row.finalSnapshotID.map { ($0, row.period) } })
            for row in try await postgres.run(SnapshotsMedals(snapshots: snapshots)) {
                let key = BoardPeriodKey(board: board.id, window: window, period: names[row.snapshotID] ?? "")
                medals[row.snapshotID, default: []].append(row.medalRow.award(on: key))
            }
        }
        var summaries = rows.compactMap { row -> PeriodSummary? in
            guard let period = board.period(of: window, named: row.period) else { return nil }
            return PeriodSummary(
                period: period, closedAt: row.closedAt, players: row.players,
                medals: (row.finalSnapshotID.flatMap { medals[$0] } ?? []).map {
                    var medal = $0
                    medal.awardedAt = row.closedAt.map(RFC3339.format)
                    return medal
                },
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
        try await postgres.run(ClosedPeriodSnapshot(key: key)).first?.finalSnapshotID
    }

    /// A slice of a closed period's final board, with medals.
    public func readFinal(snapshot: Int64, slice: LeaderboardSlice) async throws -> RankedEntries {
        let players = try await postgres.run(SnapshotPlayers(snapshot: snapshot))[0].players
        // Offsets count entries, as the live board's do; positions may have gaps where players were erased.
        let rows: [FinalEntry]
        let offset: Int
        switch slice {
        case .page(let pageOffset, let limit):
            rows = try await postgres.run(FinalEntriesPage(snapshot: snapshot, offset: pageOffset, limit: limit))
            offset = pageOffset
        case .around(let userID, let radius):
            // The entries before a position: the position less the gaps erasures left below it (few), never a count of entries.
            guard let place = try await postgres.run(FinalPlace(snapshot: snapshot, userID: userID)).first
            else { return RankedEntries(players: players, offset: 0, entries: [], live: true, found: false) }
            rows = try await postgres.run(FinalEntriesAround(snapshot: snapshot, position: place.position, radius: radius))
            offset = place.before - rows.count { $0.position < place.position }
        }
        return RankedEntries(players: players, offset: offset, entries: rows.map(\.entry), live: true, found: true)
    }

    /// The given players' final standings on a closed period (friends view).
    public func compareFinal(snapshot: Int64, userIDs: [String]) async throws -> RankedEntries {
        let players = try await postgres.run(SnapshotPlayers(snapshot: snapshot))[0].players
        let rows = try await postgres.run(FinalEntriesOf(snapshot: snapshot, userIDs: userIDs))
        return RankedEntries(players: players, offset: 0, entries: rows.map(\.entry), live: true, found: true)
    }

    /// Every medal a player has won, newest first.
    public func medals(userID: String) async throws -> [MedalAward] {
        try await postgres.run(PlayerMedals(userID: userID)).map { row in
            var medal = row.medalRow.award(on: row.key)
            medal.awardedAt = RFC3339.format(row.takenAt)
            return medal
        }
    }

    /// Closed periods whose Redis sorted set may go: closed before `cutoff` and not pruned yet.
    public func prunableRankings(closedBefore cutoff: Date, limit: Int) async throws -> [BoardPeriodKey] {
        try await postgres.run(PrunableRankings(closedBefore: cutoff, limit: limit)).map(\.key)
    }

    /// Records that the Redis sorted sets of `keys` were deleted.
    public func markRankingsPruned(_ keys: [BoardPeriodKey], now: Date) async throws {
        try await postgres.run(MarkRankingsPruned(keys: keys, prunedAt: now))
    }

    /// The medal `Medal.awarded` gives a standings place of a window that awards medals, if any.
    static func standingsMedal(_ place: StandingsPlace, key: BoardPeriodKey) -> MedalAward? {
        Medal.awarded(rank: place.rank, score: place.score).map {
            MedalAward(board: key.board, window: key.window, period: key.period, userId: place.userID, medal: $0, rank: place.rank,
                       score: place.score, awardedAt: nil)
        }
    }

    /// The report of a period closed before, from its final snapshot.
    static func alreadyClosed(_ key: BoardPeriodKey, snapshot: Int64, on connection: PostgresConnection) throws -> PeriodCloseReport {
        let players = try connection.run(SnapshotPlayers(snapshot: snapshot))[0].players
        return PeriodCloseReport(
            board: key.board, window: key.window, period: key.period, outcome: .alreadyClosed, players: players,
            medals: try connection.run(SnapshotMedals(snapshot: snapshot)).map { $0.award(on: key) })
    }
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

/// A row naming a board period by its three columns.
struct BoardPeriodRow: Decodable, Sendable {
    let board: String
    let boardWindow: String
    let period: String

    /// The period's key (an unknown window reads as `all`).
    var key: BoardPeriodKey {
        BoardPeriodKey(board: board, window: LeaderboardWindow(rawValue: boardWindow) ?? .all, period: period)
    }
}

/// A player's place on a board period's standings: what `Medal.awarded` reads.
struct StandingsPlace: Decodable, Sendable {
    let userID: String
    let score: Int64
    let rank: Int
}

/// A medal on a final snapshot's entry.
struct MedalRow: Decodable, Sendable {
    let userID: String
    let medal: Medal
    let rank: Int
    let score: Int64

    /// The award on board period `key` (its time is set by the caller).
    func award(on key: BoardPeriodKey) -> MedalAward {
        MedalAward(board: key.board, window: key.window, period: key.period, userId: userID, medal: medal, rank: rank, score: score,
                   awardedAt: nil)
    }
}

/// One entry of a final snapshot, with the player's name.
struct FinalEntry: Decodable, Sendable {
    let position: Int
    let userID: String
    let score: Int64
    let rank: Int
    let medal: String?
    let displayName: String?

    /// The entry as a leaderboard line (a medal this version does not know reads as none).
    var entry: LeaderboardEntry {
        LeaderboardEntry(rank: rank, userId: userID, displayName: displayName, score: score, medal: medal.flatMap(Medal.init(rawValue:)))
    }

    /// The entries of snapshot `snapshot` (an SQL placeholder), to be ordered and limited by the statement.
    static func select(snapshot: String) -> String {
        """
        SELECT e.position, e.user_id, e.score, e.rank, e.medal, u.display_name
        FROM snapshot_entries e LEFT JOIN users u USING (user_id) WHERE e.snapshot_id = \(snapshot)
        """
    }
}

/// Open periods whose end plus grace has passed, oldest first, a page after an earlier page's last.
private struct DuePeriods: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT board, board_window, period, ends_at FROM board_periods
        WHERE closed_at IS NULL AND ends_at <= \(\.endedBy)
          AND (\(\.afterEnd)::timestamptz IS NULL
               OR (ends_at, board, board_window, period) > (\(\.afterEnd), \(\.afterBoard), \(\.afterWindow), \(\.afterPeriod)))
        ORDER BY ends_at, board, board_window, period LIMIT \(\.limit)
        """

    /// A due period.
    struct Row: Decodable, Sendable {
        let board: String
        let boardWindow: String
        let period: String
        let endsAt: Date

        /// The period's key.
        var key: BoardPeriodKey { BoardPeriodRow(board: board, boardWindow: boardWindow, period: period).key }
    }

    let endedBy: Date
    let afterEnd: Date?
    let afterBoard: String?
    let afterWindow: String?
    let afterPeriod: String?
    let limit: Int

    /// Periods ended by `endedBy`, after `after` when given.
    init(endedBy: Date, after: DuePeriod?, limit: Int) {
        self.endedBy = endedBy
        (afterEnd, afterBoard, afterWindow, afterPeriod) = (after?.endsAt, after?.key.board, after?.key.window.rawValue, after?.key.period)
        self.limit = limit
    }
}

/// Open periods whose end plus grace is still ahead.
private struct OpenTimedPeriods: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT board, board_window, period FROM board_periods
        WHERE closed_at IS NULL AND ends_at > \(\.endingAfter) ORDER BY board, board_window, period
        """
    typealias Row = BoardPeriodRow
    let endingAfter: Date
}

/// Every board that took a score.
private struct AllScoredBoards: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT board FROM boards ORDER BY board"
    struct Row: Decodable, Sendable { let board: String }
}

/// Takes the close lock of each of `keys` (`PeriodStore.closeLockKey`s) until the transaction ends: exclusive for a
/// close, `shared` for a completion batch scoring the periods. Always in byte order, so that a batch and a close of
/// several periods cannot deadlock.
struct PeriodCloseLocks: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT count(pg_advisory_xact_lock(\(unescaped: String(PeriodStore.closeLockClass)), hashtext(k)))
        FROM (SELECT k FROM unnest(\(\.keys)::text[]) AS k ORDER BY k COLLATE "C") keys
        """
    /// The same, shared.
    static let sharedSQL: PostgresSQL<Self> = """
        SELECT count(pg_advisory_xact_lock_shared(\(unescaped: String(PeriodStore.closeLockClass)), hashtext(k)))
        FROM (SELECT k FROM unnest(\(\.keys)::text[]) AS k ORDER BY k COLLATE "C") keys
        """
    var text: PostgresSQL<Self> { shared ? Self.sharedSQL : Self.sql }
    typealias Row = NoRows
    let keys: [String]
    let shared: Bool
}

/// The newest periods of one board window, with their final snapshot and players.
private struct RecentPeriods: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT p.period, p.closed_at, p.final_snapshot_id,
               COALESCE(s.players, (SELECT count(*) FROM board_scores b
                                    WHERE b.board = p.board AND b.board_window = p.board_window AND b.period = p.period)) AS players
        FROM board_periods p LEFT JOIN snapshots s ON s.id = p.final_snapshot_id
        WHERE p.board = \(\.board) AND p.board_window = \(\.window)
        ORDER BY p.ends_at DESC LIMIT \(\.limit)
        """
    struct Row: Decodable, Sendable {
        let period: String
        let closedAt: Date?
        let finalSnapshotID: Int64?
        let players: Int
    }
    let board: String
    let window: String
    let limit: Int
}

/// The medals of several final snapshots, by snapshot then position.
private struct SnapshotsMedals: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT snapshot_id, user_id, medal, rank, score FROM snapshot_entries
        WHERE snapshot_id = ANY(\(\.snapshots)) AND medal IS NOT NULL ORDER BY snapshot_id, position
        """
    struct Row: Decodable, Sendable {
        let snapshotID: Int64
        let userID: String
        let medal: Medal
        let rank: Int
        let score: Int64

        /// The medal's row without its snapshot.
        var medalRow: MedalRow { MedalRow(userID: userID, medal: medal, rank: rank, score: score) }
    }
    let snapshots: [Int64]
}

/// The medals of one final snapshot, in listing order.
private struct SnapshotMedals: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT user_id, medal, rank, score FROM snapshot_entries WHERE snapshot_id = \(\.snapshot) AND medal IS NOT NULL ORDER BY position
        """
    typealias Row = MedalRow
    let snapshot: Int64
}

/// The final snapshot of a board period, when it is closed.
private struct ClosedPeriodSnapshot: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT final_snapshot_id FROM board_periods
        WHERE board = \(\.key.board) AND board_window = \(\.key.window.rawValue) AND period = \(\.key.period) AND closed_at IS NOT NULL
        """
    struct Row: Decodable, Sendable { let finalSnapshotID: Int64? }
    let key: BoardPeriodKey
}

/// How many players a snapshot holds.
struct SnapshotPlayers: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT players FROM snapshots WHERE id = \(\.snapshot)"
    struct Row: Decodable, Sendable { let players: Int }
    let snapshot: Int64
}

/// A page of a final snapshot's entries.
private struct FinalEntriesPage: PostgresStatement {
    static let sql: PostgresSQL<Self> = "\(\.snapshot, in: FinalEntry.select) ORDER BY e.position OFFSET \(\.offset) LIMIT \(\.limit)"
    typealias Row = FinalEntry
    let snapshot: Int64
    let offset: Int
    let limit: Int
}

/// A player's position on a final snapshot, and how many entries come before it (positions less erasures' gaps).
private struct FinalPlace: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT e.position,
               e.position - (SELECT count(*) FROM snapshot_gaps g WHERE g.snapshot_id = e.snapshot_id AND g.position < e.position) AS before
        FROM snapshot_entries e WHERE e.user_id = \(\.userID) AND e.snapshot_id = \(\.snapshot)
        """
    struct Row: Decodable, Sendable {
        let position: Int
        let before: Int
    }
    let snapshot: Int64
    let userID: String
}

/// The entries of a final snapshot up to `radius` before and after a position.
private struct FinalEntriesAround: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        (\(\.snapshot, in: FinalEntry.select) AND e.position < \(\.position) ORDER BY e.position DESC LIMIT \(\.radius))
        UNION ALL (\(\.snapshot, in: FinalEntry.select) AND e.position >= \(\.position) ORDER BY e.position LIMIT \(\.radius) + 1)
        ORDER BY position
        """
    typealias Row = FinalEntry
    let snapshot: Int64
    let position: Int
    let radius: Int
}

/// The given players' entries on a final snapshot.
private struct FinalEntriesOf: PostgresStatement {
    static let sql: PostgresSQL<Self> = "\(\.snapshot, in: FinalEntry.select) AND e.user_id = ANY(\(\.userIDs)) ORDER BY e.position"
    typealias Row = FinalEntry
    let snapshot: Int64
    let userIDs: [String]
}

/// Every medal of one player, newest first.
private struct PlayerMedals: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT s.board, s.board_window, s.period, e.user_id, e.medal, e.rank, e.score, s.taken_at
        FROM snapshot_entries e JOIN snapshots s ON s.id = e.snapshot_id
        WHERE e.user_id = \(\.userID) AND e.medal IS NOT NULL
        ORDER BY s.taken_at DESC, s.board, s.board_window, s.period
        """
    struct Row: Decodable, Sendable {
        let board: String
        let boardWindow: String
        let period: String
        let userID: String
        let medal: Medal
        let rank: Int
        let score: Int64
        let takenAt: Date

        /// The board period.
        var key: BoardPeriodKey { BoardPeriodRow(board: board, boardWindow: boardWindow, period: period).key }
        /// The medal.
        var medalRow: MedalRow { MedalRow(userID: userID, medal: medal, rank: rank, score: score) }
    }
    let userID: String
}

/// Closed periods whose Redis sorted set is not pruned yet, oldest close first.
private struct PrunableRankings: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT board, board_window, period FROM board_periods
        WHERE closed_at IS NOT NULL AND redis_pruned_at IS NULL AND closed_at < \(\.closedBefore) ORDER BY closed_at LIMIT \(\.limit)
        """
    typealias Row = BoardPeriodRow
    let closedBefore: Date
    let limit: Int
}

/// Records when board periods' Redis sorted sets were deleted.
private struct MarkRankingsPruned: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        UPDATE board_periods SET redis_pruned_at = \(\.prunedAt)
        FROM \(unnest: \.keys, BoardPeriodKey.columns, as: "x")
        WHERE board_periods.board = x.board AND board_periods.board_window = x.board_window AND board_periods.period = x.period
        """
    typealias Row = NoRows
    let keys: [BoardPeriodKey]
    let prunedAt: Date
}

extension PeriodSummary {
    /// The summary of `period`, closed at `closedAt` (nil while not), as it stands at `now`.
    public init(period: Period, closedAt: Date?, players: Int, medals: [MedalAward], grace: TimeInterval, now: Date) {
        let closes = period.closesAt(grace: grace) ?? now
        self.init(
            period: period.key, startsAt: period.start.map(RFC3339.format) ?? "", endsAt: period.end.map(RFC3339.format) ?? "",
            closesAt: RFC3339.format(closes), status: closedAt != nil ? .closed : now >= closes ? .due : .open,
            closedAt: closedAt.map(RFC3339.format), players: players, medals: medals)
    }
}
