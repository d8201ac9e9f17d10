import Foundation
import PodiumCore
import PodiumWire
import Testing

@Suite("Tie-break keys and places", .timeLimit(.minutes(5)))
struct RankingPlaceTests {
    @Test("a place survives its stored value, and stored values sort as places do")
    func storedValuesRoundTripAndSort() {
        var generator = SystemRandomNumberGenerator()
        let places = (0..<2_000).map { _ in
            RankingPlace(score: Int64.random(in: 0..<2_097_152, using: &generator), key: Int64.random(in: 0...TieBreak.largestKey, using: &generator))
        } + [RankingPlace(score: 0), RankingPlace(score: 0, key: TieBreak.largestKey), RankingPlace(score: 2_097_151, key: 1)]
        for place in places {
            #expect(RankingPlace(storedValue: place.storedValue) == place, "\(place)")
            // Redis may answer in its double notation.
            #expect(RankingPlace(storedValue: String(Double(place.storedValue)!)) == place, "\(place)")
        }
        let byValue = places.sorted { Double($0.storedValue)! < Double($1.storedValue)! }
        #expect(byValue == places.sorted(), "ascending values are best first")
    }

    @Test("run places keep 39 key bits: a run's value below 2^14 survives its stored value, and stored values sort as places do")
    func runPlacesRoundTripAndSort() {
        var generator = SystemRandomNumberGenerator()
        let largestRunKey = TieBreak.slowestRunDeciseconds << TieBreak.runReachBits | ((1 << TieBreak.runReachBits) - 1)
        let places = (0..<2_000).map { _ in
            RankingPlace(score: Int64.random(in: 0..<16_384, using: &generator), key: Int64.random(in: 0...largestRunKey, using: &generator), keyBits: 39)
        } + [RankingPlace(score: 0, keyBits: 39), RankingPlace(score: 16_383, key: largestRunKey, keyBits: 39)]
        for place in places {
            #expect(RankingPlace(storedValue: place.storedValue, keyBits: 39) == place, "\(place)")
            #expect(RankingPlace(storedValue: String(Double(place.storedValue)!), keyBits: 39) == place, "\(place)")
        }
        #expect(places.sorted { Double($0.storedValue)! < Double($1.storedValue)! } == places.sorted())
    }

    @Test("run keys: deciseconds above minutes since 2020, untimed and very slow runs the slowest")
    func runKeys() {
        let reached = Date(timeIntervalSince1970: 1_795_000_000.9)
        let minutes = Int64((1_795_000_000 - 1_577_836_800) / 60)
        #expect(TieBreak.run.key(reachedAt: reached, durationMs: 61_299, untimedCompletions: 0) == 612 << 23 | minutes)
        #expect(TieBreak.run.key(reachedAt: reached, durationMs: 5, untimedCompletions: 1) == TieBreak.slowestRunDeciseconds << 23 | minutes)
        #expect(TieBreak.run.key(reachedAt: reached, durationMs: 1 << 40, untimedCompletions: 0) == TieBreak.slowestRunDeciseconds << 23 | minutes)
        #expect(TieBreak.run.key(reachedAt: nil, durationMs: 100, untimedCompletions: 0) == 1 << 23)
        #expect(TieBreak.run.keyBits == 39 && TieBreak.earliest.keyBits == 32)
    }

    @Test("duration values: perfect timed runs only, stored as the slowest less the centiseconds, shown back in milliseconds")
    func durationValues() {
        let metric = BoardMetric.duration
        #expect(metric.value(points: 9, correct: 9, total: 10, durationMs: 1_000) == nil)
        #expect(metric.value(points: 9, correct: 10, total: 10, durationMs: nil) == nil)
        #expect(metric.value(points: 9, correct: 10, total: 10, durationMs: 21_000_000) == nil, "slower than 5 h 49 min")
        let stored = metric.value(points: 9, correct: 10, total: 10, durationMs: 65_437)
        #expect(stored == BoardMetric.slowestRunCentiseconds - 6_543)
        #expect(stored.map(metric.shownValue) == 65_430)
        #expect(BoardMetric.accuracy.value(points: 0, correct: 7, total: 8, durationMs: nil) == 8_750)
        #expect(BoardMetric.correct.value(points: 0, correct: 7, total: 8, durationMs: nil) == 7)
    }

    @Test("a rule's metric, aggregate and tie-break must go together; contests and leagues refuse single-run metrics and run")
    func rankingCombinations() {
        func errors(_ metric: BoardMetric, _ aggregate: BoardAggregate, _ tieBreak: TieBreak = .shared) -> Int {
            BoardCatalog(rules: [BoardRule(scope: "quiz:*", metric: metric, aggregate: aggregate, tieBreak: tieBreak)]).validationErrors().count
        }
        #expect(errors(.points, .best) == 0 && errors(.correct, .latest) == 0 && errors(.accuracy, .best) == 0 && errors(.duration, .best) == 0)
        #expect(errors(.completions, .best) == 1 && errors(.accuracy, .sum) == 1 && errors(.duration, .latest) == 1)
        #expect(errors(.points, .best, .fastest) == 1 && errors(.points, .sum, .run) == 1)
        let catalog = BoardCatalog(rules: [
            BoardRule(scope: "quiz:*", metric: .correct, aggregate: .best), BoardRule(scope: "quiz:speed", metric: .duration, aggregate: .best),
        ])
        #expect(catalog.definition(for: .quiz("any")).tieBreak == .run)
        #expect(catalog.definition(for: .quiz("speed")).tieBreak == .earliest)
        #expect(catalog.definition(for: .quiz("any")).medalWindows.isEmpty, "a rule made in code sets its medals")
        #expect(BoardCatalog().definition(for: .quiz("any")).windows.isEmpty, "no rule, no quiz board")
        #expect(!BoardCatalog().countsQuiz("any") && catalog.countsQuiz("any"))
        let contest = ContestRequest(
            id: "c", title: "C", scope: ["global"], startsAt: "2026-12-07T10:00:00Z", endsAt: "2026-12-07T11:00:00Z", metric: .duration, tieBreak: .run)
        guard case .failure(let failure) = contest.validated(now: Date(timeIntervalSince1970: 1_796_000_000)) else {
            Issue.record("a duration contest was accepted")
            return
        }
        #expect(failure.errors.map(\.field) == ["metric", "tie_break"])
    }

    @Test("beyond the exact range the score still orders")
    func largeScoresStillOrder() {
        let large = [RankingPlace(score: 3_000_000_000, key: 5), RankingPlace(score: 3_000_000_001, key: 9)]
        #expect(large.map { RankingPlace(storedValue: $0.storedValue)?.score } == [3_000_000_000, 3_000_000_001])
        #expect(Double(large[1].storedValue)! < Double(large[0].storedValue)!)
    }

    @Test("keys: 0 when shared, seconds since 2020 when earliest, summed milliseconds when fastest, held within 32 bits")
    func keys() {
        let reached = Date(timeIntervalSince1970: 1_795_000_000.9)
        #expect(TieBreak.shared.key(reachedAt: reached, durationMs: 5, untimedCompletions: 0) == 0)
        #expect(TieBreak.earliest.key(reachedAt: reached, durationMs: 5, untimedCompletions: 0) == 1_795_000_000 - 1_577_836_800)
        #expect(TieBreak.earliest.key(reachedAt: Date(timeIntervalSince1970: 0), durationMs: 5, untimedCompletions: 0) == 0)
        #expect(TieBreak.earliest.key(reachedAt: nil, durationMs: 5, untimedCompletions: 0) == 0)
        #expect(TieBreak.fastest.key(reachedAt: reached, durationMs: 61_250, untimedCompletions: 0) == 61_250)
        #expect(TieBreak.fastest.key(reachedAt: nil, durationMs: 1 << 40, untimedCompletions: 0) == TieBreak.firstUntimedKey - 1)
    }

    @Test("fastest: an untimed completion ranks after every timed total; then fewer untimed, then less timed time")
    func untimedCompletionsRankLast() {
        let key = { (durationMs: Int64, untimed: Int64) in TieBreak.fastest.key(reachedAt: nil, durationMs: durationMs, untimedCompletions: untimed) }
        // Before, an untimed completion added no time: 0 ms untimed beat 50 s timed.
        #expect(key(0, 1) > key(50_000, 0))
        #expect(key(0, 1) > key(1 << 40, 0), "even a timed total held at its largest key")
        #expect(key(0, 1) == TieBreak.firstUntimedKey)
        #expect(key(90_999, 1) == TieBreak.firstUntimedKey + 90, "timed play counts to the second")
        #expect(key(90_000, 1) < key(91_000, 1))
        #expect(key(1 << 40, 1) < key(0, 2), "one untimed completion more outweighs any timed time")
        #expect(key(0, 1_024) == key(0, 5_000), "beyond 1,024 untimed completions, counts tie")
        #expect(key(1 << 40, 1 << 40) == TieBreak.largestKey)
        #expect(TieBreak.earliest.key(reachedAt: nil, durationMs: 0, untimedCompletions: 3) == 0, "only fastest reads it")
        #expect(TieBreak.shared.key(reachedAt: nil, durationMs: 0, untimedCompletions: 3) == 0)
        // Every key still fits below a score.
        for untimed: Int64 in [0, 1, 2, 1_023, 1_024, 1 << 40] {
            for duration: Int64 in [0, 999, 1_000, (1 << 31) - 1, 1 << 31, 1 << 40] {
                #expect((0...TieBreak.largestKey).contains(key(duration, untimed)), "\(duration) ms, \(untimed) untimed")
            }
        }
    }
}
