import Foundation
import PodiumCore
import Postgres

/// Reading players' places (`RankingPlace`: score, then tie-break key) from `board_scores` rows.
enum RankingPlaces {
    /// The columns `PostgresRow.place(tieBreak:)` reads, of the `board_scores` row aliased `alias`.
    static func columns(_ alias: String) -> String {
        "\(alias).score, \(alias).reached_at, \(alias).updated_at, \(alias).duration_ms, \(alias).untimed_completions"
    }
}

extension GameRules {
    /// The tie-break of board `id` (`shared` for an id no rule reads).
    func tieBreak(ofBoard id: String) -> TieBreak {
        BoardScope(id: id).map { boards.tieBreak(of: $0) } ?? .shared
    }
}

extension PostgresRow {
    /// The place in a row read with `RankingPlaces.columns`, keyed by `tieBreak` the way `TieBreak.sqlKey` keys it in SQL.
    func place(tieBreak: TieBreak) throws -> RankingPlace {
        RankingPlace(
            score: try int64("score"),
            key: tieBreak.key(
                reachedAt: try optionalDate("reached_at") ?? optionalDate("updated_at"), durationMs: try int64("duration_ms"),
                untimedCompletions: try int64("untimed_completions")))
    }
}
