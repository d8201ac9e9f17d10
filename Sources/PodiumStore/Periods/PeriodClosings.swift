import Foundation
import PodiumCore
import PodiumWire
import Postgres

/// When board periods were closed: by the clock's close, or early by ops (a contest run closed while under way).
enum PeriodClosings {
    /// When each of `periods` was closed; closed ones only, in one statement, and none when there are none.
    static func of(_ periods: [BoardPeriod], on connection: PostgresConnection) throws -> [BoardPeriodKey: Date] {
        guard !periods.isEmpty else { return [:] }
        var closings: [BoardPeriodKey: Date] = [:]
        for row in try connection.run(ClosedPeriods(keys: periods.map(BoardPeriodKey.init))) {
            guard let window = LeaderboardWindow(rawValue: row.boardWindow) else { continue }
            closings[BoardPeriodKey(board: row.board, window: window, period: row.period)] = row.closedAt
        }
        return closings
    }
}

extension BoardPeriodKey {
    /// The key's columns, for joining a list of board periods.
    static let columns = PostgresColumns<BoardPeriodKey>(
        .column("board", "text", { $0.board }), .column("board_window", "text", { $0.window.rawValue }),
        .column("period", "text", { $0.period }))
}

/// Those of a list of board periods that are closed, with when.
private struct ClosedPeriods: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT c.board, c.board_window, c.period, c.closed_at FROM board_periods c
        JOIN \(unnest: \.keys, BoardPeriodKey.columns, as: "x") USING (board, board_window, period)
        WHERE c.closed_at IS NOT NULL
        """
    struct Row: Decodable, Sendable {
        let board: String
        let boardWindow: String
        let period: String
        let closedAt: Date
    }
    let keys: [BoardPeriodKey]
}
