import Foundation
import PodiumCore
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
        try await !postgres.run(BoardScored(board: id)).isEmpty
    }

    /// The players of group `group`, those with a score on its own board `group:<group>` in any period, by user id: at
    /// most `limit`. The group's board is its membership (a completion names its player's groups).
    public func members(ofGroup group: String, limit: Int) async throws -> [String] {
        try await postgres.run(GroupMembers(board: BoardScope.group(group).id, limit: limit)).map(\.userID)
    }

    /// The board ids that took a score, sorted: those after `after` (all when nil) that start with `prefix`.
    public func scoredBoards(after: String? = nil, prefix: String = "") async throws -> [String] {
        try await postgres.run(ScoredBoards(after: after, prefix: prefix)).map(\.board)
    }
}

/// The players on one board's current rows (every player who ever scored on it has one), by user id.
private struct GroupMembers: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT user_id FROM board_current_scores WHERE board = \(\.board) ORDER BY user_id LIMIT \(\.limit)
        """
    struct Row: Decodable, Sendable {
        let userID: String
    }
    let board: String
    let limit: Int
}

/// A row when one board ever took a score, none otherwise.
private struct BoardScored: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT 1 FROM boards WHERE board = \(\.board)"
    typealias Row = NoRows
    let board: String
}

/// The boards that took a score, sorted: after `after` (all when nil), starting with `prefix`.
private struct ScoredBoards: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT board FROM boards
        WHERE (\(\.after)::text IS NULL OR board > \(\.after)) AND left(board, \(\.prefixLength)) = \(\.prefix)
        ORDER BY board
        """
    struct Row: Decodable, Sendable { let board: String }
    let after: String?
    let prefix: String
    /// The prefix's length in characters, as `left` counts them.
    var prefixLength: Int { prefix.count }
}
