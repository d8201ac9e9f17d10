import Foundation
import PodiumCore
import PodiumWire
import Postgres

/// A board period checked and ready to close: its key, its end, its board's tie-break and metric, and whether it awards
/// medals.
struct ClosingPeriod: Sendable {
    /// The period.
    let key: BoardPeriodKey
    /// Its exclusive end.
    let end: Date
    /// How its board ranks equal scores.
    let tieBreak: TieBreak
    /// Which value its board ranks (a `duration` board's stored scores are shown as the run's milliseconds).
    let metric: BoardMetric
    /// Whether its window awards medals on its board.
    let awardsMedals: Bool
    /// On a teams board, its teams (its standings come from its groups' boards); nil for others.
    var teams: TeamSelection? = nil

    /// The columns the close's statements read.
    static let columns = PostgresColumns<ClosingPeriod>(
        .column("board", "text", { $0.key.board }), .column("board_window", "text", { $0.key.window.rawValue }),
        .column("period", "text", { $0.key.period }), .column("ends_at", "timestamptz", { $0.end }),
        .column("policy", "text", { $0.tieBreak.rawValue }), .column("metric", "text", { $0.metric.rawValue }))
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
        .column("policy", "text", { $0.period.tieBreak.rawValue }), .column("metric", "text", { $0.period.metric.rawValue }))
}
