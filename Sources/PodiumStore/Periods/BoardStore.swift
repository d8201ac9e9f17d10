import Foundation
import Postgres

/// The list of boards that ever took a score (rows of `boards`, written with the first score).
public struct BoardStore: Sendable {
    let postgres: PostgresPool

    /// Creates the store.
    public init(postgres: PostgresPool) {
        self.postgres = postgres
    }

    /// Every board id that took a score, sorted.
    public func scoredBoards() async throws -> [String] {
        try await postgres.query("SELECT board FROM boards ORDER BY board").rows.map { try $0.string("board") }
    }
}
