import Foundation
import Postgres

/// The list of boards that ever took a score (rows of `boards`, written with the first score).
public struct BoardStore: Sendable {
    let postgres: PostgresPool

    /// Creates the store.
    public init(postgres: PostgresPool) {
        self.postgres = postgres
    }

    /// Whether board `id` ever took a score (a completion counted on it).
    public func hasScored(_ id: String) async throws -> Bool {
        try await !postgres.query("SELECT 1 FROM boards WHERE board = \(bind: id)").rows.isEmpty
    }

    /// The board ids that took a score, sorted: those after `after` (all when nil) that start with `prefix`.
    public func scoredBoards(after: String? = nil, prefix: String = "") async throws -> [String] {
        try await postgres.query("""
            SELECT board FROM boards
            WHERE (\(bind: after)::text IS NULL OR board > \(bind: after)) AND left(board, \(bind: prefix.count)) = \(bind: prefix)
            ORDER BY board
            """).rows.map { try $0.string("board") }
    }
}
