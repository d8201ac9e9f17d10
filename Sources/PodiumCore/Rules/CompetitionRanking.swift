import Foundation

/// Competition ranking ("1-2-2-4"): a player's rank is 1 + the number of players with a strictly
/// higher score, so tied players share a rank and the next rank skips past them.
public enum CompetitionRanking {
    /// Ranks for a page of places (scores, or `RankingPlace`s on tie-break boards) sorted best-first.
    ///
    /// `pageOffset` is the absolute position (0-based) of `scores[0]` in the full ordering and
    /// `firstRank` its competition rank (1 + players strictly above it, computed by the store,
    /// since the page may start inside a run of ties). Each later entry takes the previous
    /// entry's rank when it ties it, otherwise `pageOffset + index + 1`.
    public static func ranks<Place: Equatable>(scores: [Place], pageOffset: Int, firstRank: Int) -> [Int] {
        var ranks: [Int] = []
        ranks.reserveCapacity(scores.count)
        for index in scores.indices {
            if index == 0 {
                ranks.append(firstRank)
            } else if scores[index] == scores[index - 1] {
                ranks.append(ranks[index - 1])
            } else {
                ranks.append(pageOffset + index + 1)
            }
        }
        return ranks
    }

    /// Reference ranks over a full, unsorted list: each score's rank = 1 + count of strictly greater scores.
    ///
    /// Used by tests and for small in-memory lists; O(n log n).
    public static func ranks(ofAll scores: [Int64]) -> [Int] {
        let order = scores.indices.sorted { scores[$0] > scores[$1] }
        var ranks = Array(repeating: 0, count: scores.count)
        for (position, index) in order.enumerated() {
            if position > 0, scores[index] == scores[order[position - 1]] {
                ranks[index] = ranks[order[position - 1]]
            } else {
                ranks[index] = position + 1
            }
        }
        return ranks
    }
}
