import Foundation

/// What an achievement rule measures.
public enum AchievementKind: String, Sendable, Codable, CaseIterable {
    /// Completions in all reach `threshold`.
    case completions
    /// A completion with every answer correct, on a quiz of at least `threshold` questions.
    case perfectScore = "perfect_score"
    /// The longest streak reaches `threshold` days.
    case streak
    /// The level reaches `threshold`.
    case level
    /// Points in all reach `threshold`.
    case points
    /// Completions in one topic reach `threshold`.
    case topicCompletions = "topic_completions"
}

/// A configured achievement: unlocked once per player, the first time its condition holds when a completion is recorded.
public struct AchievementRule: Sendable, Codable, Equatable {
    /// Stable id, e.g. `first-quiz` (lowercase letters, digits, `-`).
    public var id: String
    /// Name shown to players.
    public var name: String
    /// What it measures.
    public var kind: AchievementKind
    /// The value to reach.
    public var threshold: Int

    /// Creates a rule.
    public init(id: String, name: String, kind: AchievementKind, threshold: Int) {
        self.id = id
        self.name = name
        self.kind = kind
        self.threshold = threshold
    }

    /// The defaults: first quiz, 10 quizzes, perfect score, 3- and 7-day streaks, level 5, 10 quizzes in one topic.
    public static let defaults: [AchievementRule] = [
        AchievementRule(id: "first-quiz", name: "First quiz", kind: .completions, threshold: 1),
        AchievementRule(id: "ten-quizzes", name: "10 quizzes", kind: .completions, threshold: 10),
        AchievementRule(id: "perfect-score", name: "Perfect score", kind: .perfectScore, threshold: 1),
        AchievementRule(id: "streak-3", name: "3-day streak", kind: .streak, threshold: 3),
        AchievementRule(id: "streak-7", name: "7-day streak", kind: .streak, threshold: 7),
        AchievementRule(id: "level-5", name: "Level 5", kind: .level, threshold: 5),
        AchievementRule(id: "topic-10", name: "10 quizzes in one topic", kind: .topicCompletions, threshold: 10),
    ]

    /// Whether `facts` meet this rule.
    public func isMet(by facts: AchievementFacts) -> Bool {
        switch kind {
        case .completions: facts.completions >= Int64(threshold)
        case .perfectScore: facts.perfectQuestions.map { $0 >= threshold } ?? false
        case .streak: facts.longestStreak >= threshold
        case .level: facts.level >= threshold
        case .points: facts.points >= Int64(threshold)
        case .topicCompletions: facts.topicCompletions >= Int64(threshold)
        }
    }

    /// Problems with a list of rules (duplicate or malformed ids, empty names, thresholds below 1), empty when valid.
    public static func validationErrors(_ rules: [AchievementRule]) -> [String] {
        var problems: [String] = []
        var seen = Set<String>()
        for rule in rules {
            if !seen.insert(rule.id).inserted { problems.append("achievement \(rule.id): id used twice") }
            let allowed = rule.id.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }
            if rule.id.isEmpty || rule.id.count > 64 || !allowed {
                problems.append("achievement \(rule.id): id must be 1-64 characters of a-z 0-9 -")
            }
            if rule.name.isEmpty || rule.name.count > 100 { problems.append("achievement \(rule.id): name must be 1-100 characters") }
            if rule.threshold < 1 { problems.append("achievement \(rule.id): threshold must be at least 1") }
        }
        return problems
    }
}

/// A player's situation right after a completion, which achievement rules are checked against.
public struct AchievementFacts: Sendable, Equatable {
    /// Completions in all.
    public var completions: Int64
    /// The number of questions when this completion had every answer right, else nil.
    public var perfectQuestions: Int?
    /// Longest streak in days.
    public var longestStreak: Int
    /// Level.
    public var level: Int
    /// Points in all.
    public var points: Int64
    /// Completions in this completion's topic.
    public var topicCompletions: Int64

    /// Creates facts.
    public init(completions: Int64, perfectQuestions: Int?, longestStreak: Int, level: Int, points: Int64, topicCompletions: Int64) {
        self.completions = completions
        self.perfectQuestions = perfectQuestions
        self.longestStreak = longestStreak
        self.level = level
        self.points = points
        self.topicCompletions = topicCompletions
    }
}
