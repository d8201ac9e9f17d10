import Foundation
import PodiumCore
import PodiumWire
import Testing

@Suite("Plausibility of player-posted completions", .timeLimit(.minutes(5)))
struct PlausibilityTests {
    let rules = PlausibilityRules(minimumSecondsPerQuestion: 2, maximumPerMinute: 3, repeatQuizWindow: 120)
    let base = Date(timeIntervalSince1970: 1_800_000_000)

    func item(_ id: String, quiz: String, at seconds: TimeInterval, duration: Int? = 60_000, total: Int = 10, prefix: String = "")
        -> (entry: PlausibilityRules.Entry, durationMS: Int?, total: Int, fieldPrefix: String) {
        (PlausibilityRules.Entry(id: id, quizID: quiz, completedAt: base.addingTimeInterval(seconds)), duration, total, prefix)
    }

    @Test func fastestAllowedPassesAndFasterOrUntimedIsRefused() {
        #expect(rules.violations([item("a", quiz: "q1", at: 0, duration: 20_000)], stored: []).isEmpty)
        #expect(rules.violations([item("a", quiz: "q1", at: 0, duration: 19_999)], stored: []).map(\.error) == [
            FieldError(field: "duration_ms", message: "is faster than 2 s per question (at least 20000)"),
        ])
        #expect(rules.violations([item("a", quiz: "q1", at: 0, duration: nil)], stored: []).map(\.rule) == ["minimum-seconds-per-question"])
    }

    @Test func atMostThreeWithinAnyMinuteCountingStoredOnesWhateverTheOrder() {
        let stored = [PlausibilityRules.Entry(id: "s1", quizID: "a", completedAt: base), .init(id: "s2", quizID: "b", completedAt: base.addingTimeInterval(30))]
        // Two new ones in the minute of the stored two: four in [0, 60), so both new ones are refused; one a minute later is fine.
        let items = [item("x", quiz: "c", at: 50, prefix: "completions[0]."), item("y", quiz: "d", at: 59, prefix: "completions[1]."),
                     item("z", quiz: "e", at: 120, prefix: "completions[2].")]
        #expect(rules.violations(items, stored: stored).map(\.error.field) == ["completions[0].completed_at", "completions[1].completed_at"])
        // One new one makes three: allowed.
        #expect(rules.violations([item("x", quiz: "c", at: 50)], stored: stored).isEmpty)
        // A completion before stored ones counts against the minute after it too.
        let later = (1...3).map { PlausibilityRules.Entry(id: "l\($0)", quizID: "l\($0)", completedAt: base.addingTimeInterval(Double(10 * $0))) }
        #expect(rules.violations([item("early", quiz: "q", at: 5)], stored: later).map(\.rule) == ["maximum-per-minute"])
        // Newest first or oldest first: the same four are refused.
        let burst = (0..<4).map { item("b\($0)", quiz: "q\($0)", at: Double(300 + 10 * $0)) }
        #expect(rules.violations(burst, stored: []).count == 4)
        #expect(rules.violations(Array(burst.reversed()), stored: []).count == 4)
    }

    @Test func theSameQuizWithinTheWindowIsRefusedOnlyOnTheLaterItem() {
        let stored = [PlausibilityRules.Entry(id: "s1", quizID: "q1", completedAt: base)]
        #expect(rules.violations([item("a", quiz: "q1", at: 119)], stored: stored).map(\.rule) == ["repeat-quiz-window"])
        #expect(rules.violations([item("a", quiz: "q1", at: 120)], stored: stored).isEmpty)
        // An offline sync of an older completion is refused too when a stored one is close after it.
        #expect(rules.violations([item("a", quiz: "q1", at: -60)], stored: stored).map(\.rule) == ["repeat-quiz-window"])
        let pair = [item("a", quiz: "q9", at: 500, prefix: "completions[0]."), item("b", quiz: "q9", at: 510, prefix: "completions[1].")]
        #expect(rules.violations(pair, stored: []).map(\.error.field) == ["completions[1].quiz_id"])
        // A replay (its own id is stored) is not its own repeat.
        #expect(rules.violations([item("s1", quiz: "q1", at: 0)], stored: stored).isEmpty)
    }

    @Test func zeroTurnsEachRuleOff() {
        let off = PlausibilityRules(minimumSecondsPerQuestion: 0, maximumPerMinute: 0, repeatQuizWindow: 0)
        let items = (0..<10).map { item("i\($0)", quiz: "same", at: Double($0), duration: nil, prefix: "completions[\($0)].") }
        #expect(off.violations(items, stored: []).isEmpty)
    }
}
