import Foundation
import PodiumCore
import Postgres

/// One snapshot of a board period.
public struct LeaderboardSnapshot: Sendable, Codable, Equatable {
    /// `scheduled` (top N of an open period) or `final` (the whole board at close).
    public var kind: String
    /// RFC 3339 time it was taken.
    public var takenAt: String
    /// Players on the board period then.
    public var players: Int
    /// The top entries, best first.
    public var entries: [LeaderboardEntry]
}

/// A player's rank in one snapshot.
public struct RankPoint: Sendable, Codable, Equatable {
    /// Board id.
    public var board: String
    /// Window.
    public var window: LeaderboardWindow
    /// Period name.
    public var period: String
    /// `scheduled` or `final`.
    public var kind: String
    /// RFC 3339 time of the snapshot.
    public var takenAt: String
    /// Competition rank then.
    public var rank: Int
    /// Score then.
    public var score: Int64
    /// Players on the board period then.
    public var players: Int
}

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
            let inserted = try connection.query("""
                INSERT INTO snapshots (board, board_window, period, kind, taken_at, players) VALUES ($1, $2, $3, 'scheduled', $4, $5)
                ON CONFLICT DO NOTHING RETURNING id
                """, [key.board, key.window.rawValue, key.period, takenAt, players]).rows
            guard let id = try inserted.first?.int64("id") else { return false }
            try connection.query("""
                INSERT INTO snapshot_entries (snapshot_id, position, user_id, score, rank)
                SELECT \(bind: id), x.i - 1, x.user_id, x.score, x.rank FROM \(unnest: entries, LeaderboardEntry.columns, as: "x", ordinality: "i")
                """)
            return true
        }
    }

    /// Snapshots of one period, newest first, each with its top `top` entries.
    public func snapshots(_ key: BoardPeriodKey, limit: Int, top: Int) async throws -> [LeaderboardSnapshot] {
        let headers = try await replica.query("""
            SELECT id, kind, taken_at, players FROM snapshots WHERE board = $1 AND board_window = $2 AND period = $3
            ORDER BY taken_at DESC, kind LIMIT $4
            """, [key.board, key.window.rawValue, key.period, limit]).rows
        let ids = try headers.map { try $0.int64("id") }
        let entryRows = try await replica.query("""
            SELECT e.snapshot_id, e.user_id, e.score, e.rank, e.medal, u.display_name
            FROM unnest($1::bigint[]) AS s(id)
            CROSS JOIN LATERAL (SELECT * FROM snapshot_entries x WHERE x.snapshot_id = s.id ORDER BY position LIMIT $2) e
            LEFT JOIN users u ON u.user_id = e.user_id
            ORDER BY e.snapshot_id, e.position
            """, [ids, top]).rows
        var entries: [Int64: [LeaderboardEntry]] = [:]
        for row in entryRows {
            entries[try row.int64("snapshot_id"), default: []].append(try PeriodStore.entry(row))
        }
        return try headers.map { row in
            LeaderboardSnapshot(
                kind: try row.string("kind"), takenAt: RFC3339.format(try row.date("taken_at")), players: try row.int("players"),
                entries: entries[try row.int64("id")] ?? [])
        }
    }

    /// A player's ranks in snapshots, newest first, optionally on one board and window.
    public func rankHistory(userID: String, board: String?, window: LeaderboardWindow?, limit: Int) async throws -> [RankPoint] {
        try await replica.query("""
            SELECT s.board, s.board_window, s.period, s.kind, s.taken_at, s.players, e.rank, e.score
            FROM snapshot_entries e JOIN snapshots s ON s.id = e.snapshot_id
            WHERE e.user_id = $1 AND ($2::text IS NULL OR s.board = $2) AND ($3::text IS NULL OR s.board_window = $3)
            ORDER BY s.taken_at DESC, s.board, s.board_window, s.period LIMIT $4
            """, [userID, board, window?.rawValue, limit]).rows.map { row in
            let key = try PeriodStore.key(row)
            return RankPoint(
                board: key.board, window: key.window, period: key.period, kind: try row.string("kind"),
                takenAt: RFC3339.format(try row.date("taken_at")), rank: try row.int("rank"), score: try row.int64("score"),
                players: try row.int("players"))
        }
    }

    /// Deletes scheduled snapshots taken before `cutoff` (final snapshots hold the medals and stay); returns how many.
    public func prune(before cutoff: Date) async throws -> Int {
        try await postgres.query("DELETE FROM snapshots WHERE kind = 'scheduled' AND taken_at < $1", [cutoff]).affectedRows
    }
}

extension LeaderboardEntry {
    /// The columns of a snapshot entry that `SnapshotStore.record` writes (the display name is read from the player).
    static let columns = PostgresColumns<LeaderboardEntry>(
        .column("user_id", "text", { $0.userId }), .column("score", "bigint", { $0.score }), .column("rank", "int", { $0.rank }))
}
