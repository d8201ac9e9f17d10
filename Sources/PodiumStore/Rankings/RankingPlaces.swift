import Foundation
import PodiumCore
import PodiumWire
import Postgres

/// Reading players' places (`RankingPlace`: score, then tie-break key) from `board_scores` rows.
enum RankingPlaces {
    /// The columns `RankingPlaceColumns` (or `PostgresRow.place(tieBreak:)`) reads, of the `board_scores` row aliased `alias`.
    static func columns(_ alias: String) -> String {
        "\(alias).score, \(alias).reached_at, \(alias).updated_at, \(alias).duration_ms, \(alias).untimed_completions"
    }
}

extension GameRules {
    /// The tie-break of board `id` (`shared` for an id no rule reads).
    func tieBreak(ofBoard id: String) -> TieBreak {
        BoardScope(id: id).map { boards.tieBreak(of: $0) } ?? .shared
    }

    /// The metric of board `id` (`points` for an id no rule reads).
    func metric(ofBoard id: String) -> BoardMetric {
        BoardScope(id: id).map { boards.metric(of: $0) } ?? .points
    }

    /// Whether board `id` keeps each player's latest run, whose places in Redis are replaced rather than only improved
    /// (`ScoreUpdate.replaces`).
    func replacesPlaces(ofBoard id: String) -> Bool {
        BoardScope(id: id).map { boards.aggregate(of: $0) == .latest } ?? false
    }
}

/// The columns `RankingPlaces.columns` names, as a statement reads them: what a player's place is read from.
struct RankingPlaceColumns: Decodable, Sendable {
    /// The score.
    let score: Int64
    /// When the score was reached; NULL before any completion added to it.
    let reachedAt: Date?
    /// When the row was last written, which stands in for `reachedAt` while that is NULL.
    let updatedAt: Date?
    /// The playing time of the completions that added to the score.
    let durationMs: Int64
    /// How many of them came without a duration.
    let untimedCompletions: Int64

    /// The place, keyed by `tieBreak` the way `TieBreakSQL.key` keys it in SQL.
    func place(tieBreak: TieBreak) -> RankingPlace {
        RankingPlace(
            score: score,
            key: tieBreak.key(reachedAt: reachedAt ?? updatedAt, durationMs: durationMs, untimedCompletions: untimedCompletions),
            keyBits: tieBreak.keyBits)
    }
}

/// A statement's row of `Columns` beside the place columns (`RankingPlaces.columns`), both read from the one row; the
/// row's own columns read as its members (`row.handle`).
@dynamicMemberLookup
struct PlacedRow<Columns: Decodable & Sendable>: Decodable, Sendable {
    /// The row's other columns.
    let columns: Columns
    /// The place columns.
    let placeColumns: RankingPlaceColumns

    /// Reads both from the row.
    init(from decoder: any Decoder) throws {
        columns = try Columns(from: decoder)
        placeColumns = try RankingPlaceColumns(from: decoder)
    }

    /// One of the row's other columns.
    subscript<Value>(dynamicMember column: KeyPath<Columns, Value>) -> Value {
        columns[keyPath: column]
    }

    /// The place, keyed by `tieBreak`.
    func place(tieBreak: TieBreak) -> RankingPlace {
        placeColumns.place(tieBreak: tieBreak)
    }
}

/// A statement's row naming one (board period, player): the key of a `board_scores` row.
struct BoardScoreKey: Decodable, Sendable {
    let board: String
    let boardWindow: String
    let period: String
    let userID: String
}
