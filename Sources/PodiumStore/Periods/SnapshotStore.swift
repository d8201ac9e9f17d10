import Foundation
import PodiumCore
import PodiumWire
import Postgres

/// Scheduled snapshots of open periods and the history read from every snapshot.
public struct SnapshotStore: Sendable {
    let postgres: PostgresPool
    /// Where snapshots and rank history are read (a standby's may be slightly behind).
    let replica: ReadReplica

    /// Creates the store; snapshots and rank history come from `replica`'s pool when given.
    public init(postgres: PostgresPool, replica: ReadReplica? = nil) {
        self.postgres = postgres
        self.replica = replica ?? .primaryOnly(postgres)
    }

    /// Stores a scheduled snapshot taken for slot `takenAt`; false when this slot's snapshot of the period already exists.
    @discardableResult
    public func record(_ key: BoardPeriodKey, takenAt: Date, players: Int, entries: [LeaderboardEntry]) async throws -> Bool {
        try await postgres.withTransaction { connection in
            let inserted = try connection.run(AddScheduledSnapshot(key: key, takenAt: takenAt, players: players))
            guard let id = inserted.first?.id else { return false }
            try connection.run(AddSnapshotEntries(snapshotID: id, entries: entries))
            return true
        }
    }

    /// Snapshots of one period, newest first, each with its top `top` entries.
    public func snapshots(_ key: BoardPeriodKey, limit: Int, top: Int) async throws -> [LeaderboardSnapshot] {
        let headers = try await replica.run(PeriodSnapshots(key: key, limit: limit))
        let entryRows = try await replica.run(SnapshotTops(ids: headers.map(\.id), top: top))
        var entries: [Int64: [LeaderboardEntry]] = [:]
        for row in entryRows {
            entries[row.snapshotID, default: []].append(row.entry)
        }
        return headers.map { row in
            LeaderboardSnapshot(
                kind: row.kind, takenAt: RFC3339.format(row.takenAt), players: row.players, entries: entries[row.id] ?? [])
        }
    }

    /// A player's ranks in snapshots, newest first, optionally on one board and window.
    public func rankHistory(userID: String, board: String?, window: LeaderboardWindow?, limit: Int) async throws -> [RankPoint] {
        try await replica.run(PlayerRanks(userID: userID, board: board, window: window?.rawValue, limit: limit)).map { row in
            RankPoint(
                board: row.board, window: LeaderboardWindow(rawValue: row.boardWindow) ?? .all, period: row.period, kind: row.kind,
                takenAt: RFC3339.format(row.takenAt), rank: row.rank, score: row.score, players: row.players)
        }
    }

    /// Deletes scheduled snapshots taken before `cutoff` (final snapshots hold the medals and stay); returns how many.
    public func prune(before cutoff: Date) async throws -> Int {
        try await postgres.runCounting(PruneScheduledSnapshots(cutoff: cutoff))
    }
}

extension LeaderboardEntry {
    /// The columns of a snapshot entry that `SnapshotStore.record` writes (the display name is read from the player).
    static let columns = PostgresColumns<LeaderboardEntry>(
        .column("user_id", "text", { $0.userId }), .column("score", "bigint", { $0.score }), .column("rank", "int", { $0.rank }))
}

/// Stores a scheduled snapshot's header, unless this slot's snapshot of the period exists; answers its id when stored.
private struct AddScheduledSnapshot: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO snapshots (board, board_window, period, kind, taken_at, players)
        VALUES (\(\.key.board), \(\.key.window.rawValue), \(\.key.period), 'scheduled', \(\.takenAt), \(\.players))
        ON CONFLICT DO NOTHING RETURNING id
        """
    struct Row: Decodable, Sendable { let id: Int64 }
    /// The board period.
    let key: BoardPeriodKey
    let takenAt: Date
    let players: Int
}

/// Stores a snapshot's entries, in their order (position from 0).
struct AddSnapshotEntries: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO snapshot_entries (snapshot_id, position, user_id, score, rank)
        SELECT \(\.snapshotID), x.i - 1, x.user_id, x.score, x.rank
        FROM \(unnest: \.entries, LeaderboardEntry.columns, as: "x", ordinality: "i")
        """
    typealias Row = NoRows
    let snapshotID: Int64
    /// Best first.
    let entries: [LeaderboardEntry]
}

/// One period's snapshot headers, newest first.
private struct PeriodSnapshots: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT id, kind, taken_at, players FROM snapshots
        WHERE board = \(\.key.board) AND board_window = \(\.key.window.rawValue) AND period = \(\.key.period)
        ORDER BY taken_at DESC, kind LIMIT \(\.limit)
        """
    struct Row: Decodable, Sendable {
        let id: Int64
        let kind: String
        let takenAt: Date
        let players: Int
    }
    /// The board period.
    let key: BoardPeriodKey
    let limit: Int
}

/// The top `top` entries of each snapshot of `ids`, with the players' display names now, by snapshot and position.
private struct SnapshotTops: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT e.snapshot_id, e.user_id, e.score, e.rank, e.medal, u.display_name
        FROM unnest(\(\.ids)::bigint[]) AS s(id)
        CROSS JOIN LATERAL (SELECT * FROM snapshot_entries x WHERE x.snapshot_id = s.id ORDER BY position LIMIT \(\.top)) e
        LEFT JOIN users u ON u.user_id = e.user_id
        ORDER BY e.snapshot_id, e.position
        """
    struct Row: Decodable, Sendable {
        let snapshotID: Int64
        let userID: String
        let score: Int64
        let rank: Int
        /// The medal's name (one this version does not know reads as none).
        let medal: String?
        let displayName: String?

        /// The entry as the API shows it.
        var entry: LeaderboardEntry {
            LeaderboardEntry(
                rank: rank, userId: userID, displayName: displayName, score: score, medal: medal.flatMap(Medal.init(rawValue:)))
        }
    }
    let ids: [Int64]
    let top: Int
}

/// A player's ranks in snapshots, newest first, on one board and one window when given.
private struct PlayerRanks: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT s.board, s.board_window, s.period, s.kind, s.taken_at, s.players, e.rank, e.score
        FROM snapshot_entries e JOIN snapshots s ON s.id = e.snapshot_id
        WHERE e.user_id = \(\.userID) AND (\(\.board)::text IS NULL OR s.board = \(\.board))
          AND (\(\.window)::text IS NULL OR s.board_window = \(\.window))
        ORDER BY s.taken_at DESC, s.board, s.board_window, s.period LIMIT \(\.limit)
        """
    struct Row: Decodable, Sendable {
        let board: String
        /// The window's name (one this version does not know reads as `all`).
        let boardWindow: String
        let period: String
        let kind: String
        let takenAt: Date
        let players: Int
        let rank: Int
        let score: Int64
    }
    let userID: String
    let board: String?
    let window: String?
    let limit: Int
}

/// Deletes the scheduled snapshots taken before `cutoff` (their entries go with them).
private struct PruneScheduledSnapshots: PostgresStatement {
    static let sql: PostgresSQL<Self> = "DELETE FROM snapshots WHERE kind = 'scheduled' AND taken_at < \(\.cutoff)"
    typealias Row = NoRows
    let cutoff: Date
}
