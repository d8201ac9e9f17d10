import Foundation
import PodiumCore
import Testing

/// Competition ranks ("1-2-2-4") for whole lists and for pages that start inside ties.
@Suite("CompetitionRanking", .timeLimit(.minutes(5)))
struct CompetitionRankingTests {
    @Test("reference ranks", arguments: [
        ([100, 90, 90, 80] as [Int64], [1, 2, 2, 4]),
        ([], []),
        ([7], [1]),
        ([5, 5, 5], [1, 1, 1]),
        ([80, 100, 90, 90], [4, 1, 2, 2]),
        ([3, 1, 2, 3, 1], [1, 4, 3, 1, 4]),
        ([-1, 0, Int64.max, Int64.min], [3, 2, 1, 4]),
    ])
    func reference(scores: [Int64], expected: [Int]) {
        #expect(CompetitionRanking.ranks(ofAll: scores) == expected)
    }

    @Test("page ranks", arguments: [
        ([100, 90, 90, 80] as [Int64], 0, 1, [1, 2, 2, 4]),
        ([90, 80], 2, 2, [2, 4]),           // page starting inside a tie
        ([90, 90, 90], 10, 8, [8, 8, 8]),   // whole page is one tie that began earlier
        ([50, 40, 40, 30], 5, 6, [6, 7, 7, 9]),
        ([], 3, 4, []),
    ])
    func page(scores: [Int64], offset: Int, firstRank: Int, expected: [Int]) {
        #expect(CompetitionRanking.ranks(scores: scores, pageOffset: offset, firstRank: firstRank) == expected)
    }

    @Test("reference equals 1 + count of strictly greater scores", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func referenceDefinition(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<200 {
            let scores = (0..<Int.random(in: 0...40, using: &generator)).map { _ in Int64.random(in: 0...6, using: &generator) }
            let expected = scores.map { score in 1 + scores.filter { $0 > score }.count }
            #expect(CompetitionRanking.ranks(ofAll: scores) == expected)
        }
    }

    @Test("every page of a sorted list matches the reference", arguments: [11, 12, 13, 14, 15] as [UInt64])
    func pagesMatchReference(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<60 {
            let spread = Int64.random(in: 0...(Bool.random(using: &generator) ? 4 : 1_000), using: &generator)
            let sorted = (0..<Int.random(in: 0...50, using: &generator))
                .map { _ in Int64.random(in: 0...spread, using: &generator) }
                .sorted(by: >)
            let reference = CompetitionRanking.ranks(ofAll: sorted)
            for offset in sorted.indices {
                for limit in 1...12 {
                    let end = min(offset + limit, sorted.count)
                    let ranks = CompetitionRanking.ranks(
                        scores: Array(sorted[offset..<end]), pageOffset: offset, firstRank: reference[offset]
                    )
                    #expect(ranks == Array(reference[offset..<end]), "offset \(offset) limit \(limit) of \(sorted)")
                }
            }
        }
    }
}
