import Foundation
import PodiumCore
import PodiumWire
import Testing

/// Points per completion: defaults, extras, the accuracy floor, robustness and configuration decoding.
@Suite("PointsRules", .timeLimit(.minutes(5)))
struct PointsTests {
    @Test("default base points per difficulty, whatever the score", arguments: [
        (Difficulty.easy, 0, 10, 2), (.easy, 10, 10, 2), (.medium, 3, 7, 3), (.medium, 7, 7, 3),
        (.hard, 1, 20, 5), (.hard, 20, 20, 5),
    ])
    func defaults(difficulty: Difficulty, correct: Int, total: Int, expected: Int) {
        #expect(PointsRules.default.points(difficulty: difficulty, correct: correct, total: total) == expected)
    }

    @Test("per-correct points and perfect bonus", arguments: [
        (Difficulty.easy, 7, 10, 9),     // 2 + 7
        (.medium, 0, 5, 3),              // 3 + 0
        (.hard, 9, 10, 14),              // 5 + 9
        (.hard, 10, 10, 25),             // 5 + 10 + 10 bonus
        (.easy, 1, 1, 13),               // 2 + 1 + 10 bonus
    ])
    func extras(difficulty: Difficulty, correct: Int, total: Int, expected: Int) {
        let rules = PointsRules(perCorrectAnswer: 1, perfectScoreBonus: 10)
        #expect(rules.points(difficulty: difficulty, correct: correct, total: total) == expected)
    }

    @Test("minimum accuracy: exactly at the threshold earns, just below earns nothing", arguments: [
        (0.7, 7, 10, 5), (0.7, 6, 10, 0), (0.7, 70, 100, 5), (0.7, 69, 100, 0),
        (0.5, 1, 2, 5), (0.5, 0, 2, 0), (1.0, 10, 10, 5), (1.0, 9, 10, 0),
        (2.0 / 3.0, 2, 3, 5), (2.0 / 3.0, 4, 6, 5), (2.0 / 3.0, 3, 5, 0),
        (0.0, 0, 10, 5),
    ])
    func minimumAccuracy(threshold: Double, correct: Int, total: Int, expected: Int) {
        let rules = PointsRules(minimumAccuracy: threshold)
        #expect(rules.points(difficulty: .hard, correct: correct, total: total) == expected)
    }

    @Test("bonus and per-correct are withheld below the minimum accuracy")
    func minimumAccuracyWithholdsEverything() {
        let rules = PointsRules(perCorrectAnswer: 2, perfectScoreBonus: 50, minimumAccuracy: 0.8)
        #expect(rules.points(difficulty: .medium, correct: 7, total: 10) == 0)
        #expect(rules.points(difficulty: .medium, correct: 8, total: 10) == 3 + 16)
        #expect(rules.points(difficulty: .medium, correct: 10, total: 10) == 3 + 20 + 50)
    }

    @Test("inputs validation should have rejected never trap", arguments: [
        (0, 0, 0), (5, 0, 0), (-1, 10, 2), (11, 10, 2 + 10 + 7), (Int.max, 3, 2 + 3 + 7), (Int.min, 3, 2),
    ])
    func robustness(correct: Int, total: Int, expected: Int) {
        let rules = PointsRules(perCorrectAnswer: 1, perfectScoreBonus: 7)
        #expect(rules.points(difficulty: .easy, correct: correct, total: total) == expected)
    }

    @Test("sums saturate instead of overflowing")
    func saturation() {
        let rules = PointsRules(perCorrectAnswer: .max, perfectScoreBonus: .max)
        #expect(rules.points(difficulty: .hard, correct: 3, total: 3) == .max)
    }

    @Test("basePoints reads the configured values")
    func basePoints() {
        let rules = PointsRules(easy: 1, medium: 4, hard: 9)
        #expect(Difficulty.allCases.map(rules.basePoints(for:)) == [1, 4, 9])
    }

    @Test("decoding keeps defaults for missing keys", arguments: [
        (#"{}"#, PointsRules()),
        (#"{"hard": 8}"#, PointsRules(hard: 8)),
        (#"{"per_correct_answer": 1, "perfect_score_bonus": 4, "minimum_accuracy": 0.5}"#,
         PointsRules(perCorrectAnswer: 1, perfectScoreBonus: 4, minimumAccuracy: 0.5)),
        (#"{"easy": 1, "medium": 2, "hard": 3}"#, PointsRules(easy: 1, medium: 2, hard: 3)),
    ])
    func decoding(json: String, expected: PointsRules) throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode(PointsRules.self, from: Data(json.utf8)) == expected)
    }

    @Test("encoding round-trips")
    func roundTrip() throws {
        let rules = PointsRules(easy: 1, medium: 2, hard: 3, perCorrectAnswer: 4, perfectScoreBonus: 5, minimumAccuracy: 0.25)
        let data = try JSONEncoder().encode(rules)
        #expect(try JSONDecoder().decode(PointsRules.self, from: data) == rules)
    }

    @Test("valid rules pass validation", arguments: [
        PointsRules.default, PointsRules(easy: 0, medium: 0, hard: 0), PointsRules(minimumAccuracy: 1),
        PointsRules(perCorrectAnswer: PointsRules.maximumSetting),
    ])
    func validRules(rules: PointsRules) {
        #expect(rules.validationError() == nil)
    }

    @Test("invalid rules name the bad setting", arguments: [
        (PointsRules(easy: -1), "easy"),
        (PointsRules(hard: 1_000_001), "hard"),
        (PointsRules(perCorrectAnswer: -2), "per_correct_answer"),
        (PointsRules(perfectScoreBonus: .max), "perfect_score_bonus"),
        (PointsRules(minimumAccuracy: 1.5), "minimum_accuracy"),
        (PointsRules(minimumAccuracy: -0.1), "minimum_accuracy"),
        (PointsRules(minimumAccuracy: .nan), "minimum_accuracy"),
    ])
    func invalidRules(rules: PointsRules, field: String) throws {
        let message = try #require(rules.validationError())
        #expect(message.hasPrefix(field + " "))
    }
}

@Suite("Player totals", .timeLimit(.minutes(5)))
struct PlayerTotalsTests {
    @Test("correct and incorrect percentages have one decimal and add up to 100", arguments: [
        (1, 16, 6.3, 93.7), (15, 16, 93.8, 6.2), (1, 3, 33.3, 66.7), (2, 3, 66.7, 33.3), (0, 7, 0.0, 100.0), (7, 7, 100.0, 0.0),
    ])
    func percentages(correct: Int64, total: Int64, correctPercent: Double, incorrectPercent: Double) {
        let totals = PlayerTotals(points: 0, completions: 1, correctAnswers: correct, totalAnswers: total)
        #expect(totals.correctPercent == correctPercent)
        #expect(totals.incorrectPercent == incorrectPercent)
    }

    @Test("a player with no answers shows 0 and 0")
    func noAnswers() {
        let totals = PlayerTotals(points: 0, completions: 0, correctAnswers: 0, totalAnswers: 0)
        #expect(totals.correctPercent == 0)
        #expect(totals.incorrectPercent == 0)
    }
}
