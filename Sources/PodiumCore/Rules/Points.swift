import Foundation
import PodiumWire

/// The rules that turn one quiz completion into points.
///
/// Every completion earns the base points of its difficulty, plus `perCorrectAnswer` for each
/// correct answer, plus `perfectScoreBonus` when every answer is correct — unless its accuracy
/// (`correct / total`) is below `minimumAccuracy`, in which case it earns nothing. All points
/// are integers so totals never drift.
public struct PointsRules: Sendable, Codable, Equatable {
    /// Base points for an easy quiz.
    public var easy: Int = 2
    /// Base points for a medium quiz.
    public var medium: Int = 3
    /// Base points for a hard quiz.
    public var hard: Int = 5
    /// Extra points for each correct answer.
    public var perCorrectAnswer: Int = 0
    /// Extra points when every answer is correct.
    public var perfectScoreBonus: Int = 0
    /// Accuracy in `0...1` below which a completion earns 0; a completion exactly at it earns points.
    public var minimumAccuracy: Double = 0

    /// The largest value `validationError()` accepts for any points setting.
    ///
    /// Keeps configured values far from `Int` overflow and catches typos such as an extra zero run.
    public static let maximumSetting = 1_000_000

    /// The product defaults: easy 2, medium 3, hard 5, no extras, no minimum accuracy.
    public static let `default` = PointsRules()

    /// Creates rules; every argument defaults to the product default.
    public init(
        easy: Int = 2,
        medium: Int = 3,
        hard: Int = 5,
        perCorrectAnswer: Int = 0,
        perfectScoreBonus: Int = 0,
        minimumAccuracy: Double = 0
    ) {
        self.easy = easy
        self.medium = medium
        self.hard = hard
        self.perCorrectAnswer = perCorrectAnswer
        self.perfectScoreBonus = perfectScoreBonus
        self.minimumAccuracy = minimumAccuracy
    }

    /// Decodes rules from configuration; a missing key keeps its default.
    ///
    /// The config loader converts snake_case keys, so `per_correct_answer` arrives as `perCorrectAnswer`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = PointsRules()
        easy = try container.decodeIfPresent(Int.self, forKey: .easy) ?? defaults.easy
        medium = try container.decodeIfPresent(Int.self, forKey: .medium) ?? defaults.medium
        hard = try container.decodeIfPresent(Int.self, forKey: .hard) ?? defaults.hard
        perCorrectAnswer = try container.decodeIfPresent(Int.self, forKey: .perCorrectAnswer)
            ?? defaults.perCorrectAnswer
        perfectScoreBonus = try container.decodeIfPresent(Int.self, forKey: .perfectScoreBonus)
            ?? defaults.perfectScoreBonus
        minimumAccuracy = try container.decodeIfPresent(Double.self, forKey: .minimumAccuracy)
            ?? defaults.minimumAccuracy
    }

    /// The base points of one difficulty.
    public func basePoints(for difficulty: Difficulty) -> Int {
        switch difficulty {
        case .easy: easy
        case .medium: medium
        case .hard: hard
        }
    }

    /// Points for one completion.
    ///
    /// `total > 0` is guaranteed by request validation; a non-positive total earns 0 here rather
    /// than trapping. `correct` is clamped to `0...total`, and the sum saturates at `Int.max`,
    /// so no input can crash the caller.
    public func points(difficulty: Difficulty, correct: Int, total: Int) -> Int {
        guard total > 0 else { return 0 }
        let correct = min(max(correct, 0), total)
        let accuracy = Double(correct) / Double(total)
        guard accuracy >= minimumAccuracy else { return 0 }
        var earned = Self.saturatingAdd(
            basePoints(for: difficulty),
            Self.saturatingMultiply(perCorrectAnswer, correct)
        )
        if correct == total {
            earned = Self.saturatingAdd(earned, perfectScoreBonus)
        }
        return earned
    }

    /// Checks that the rules make sense; returns a message naming the first bad setting, or nil.
    ///
    /// Point values must be in `0...maximumSetting` and `minimumAccuracy` in `0...1`.
    public func validationError() -> String? {
        let settings: [(String, Int)] = [
            ("easy", easy), ("medium", medium), ("hard", hard),
            ("per_correct_answer", perCorrectAnswer), ("perfect_score_bonus", perfectScoreBonus),
        ]
        for (name, value) in settings where !(0...Self.maximumSetting).contains(value) {
            return "\(name) must be between 0 and \(Self.maximumSetting), got \(value)"
        }
        guard (0.0...1.0).contains(minimumAccuracy) else {
            return "minimum_accuracy must be between 0 and 1, got \(minimumAccuracy)"
        }
        return nil
    }

    /// `a + b`, clamped to the `Int` range instead of trapping.
    private static func saturatingAdd(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        guard overflow else { return sum }
        return b > 0 ? .max : .min
    }

    /// `a * b`, clamped to the `Int` range instead of trapping.
    private static func saturatingMultiply(_ a: Int, _ b: Int) -> Int {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        guard overflow else { return product }
        return (a < 0) == (b < 0) ? .max : .min
    }
}
