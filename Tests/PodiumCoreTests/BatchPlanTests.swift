import Foundation
import PodiumCore
import PodiumWire
import Testing

@Suite("Planning a batch, before anything is written", .timeLimit(.minutes(5)))
struct BatchPlanTests {
    @Test("other requests under stored ids conflict, unrecorded old ones are too old, the new ones come in lock order")
    func settlesAndOrders() throws {
        let now = try instant("2026-11-25T12:00:00Z")
        let rules = GameRules()
        func item(_ id: String, _ user: String, _ at: String) throws -> ValidCompletion {
            try CompletionRequest(id: id, userId: user, quizId: "q", topic: "math", difficulty: "easy", correct: 1, total: 2,
                                  durationMs: nil, completedAt: at, groups: nil, displayName: nil).validated(now: now, rules: rules)
        }
        let items = [
            try item("c", "zoe", "2026-11-25T10:00:00Z"), try item("b", "ann", "2026-11-25T11:00:00Z"),
            try item("a", "ann", "2026-11-25T09:00:00Z"), try item("old", "ann", "2026-10-01T09:00:00Z"),
            try item("taken", "ann", "2026-11-25T09:30:00Z"), try item("d", "ann", "2026-11-25T11:00:00Z"),
        ]
        let plan = BatchPlan(items, rules: rules, now: now, recorded: ["taken": .otherRequest], joined: [])
        #expect(plan.fresh.map(\.item.id) == ["a", "b", "d", "c"], "by player, then time played, then id")
        #expect(plan.fresh.allSatisfy { $0.open.count == 8 }, "global and topic boards, four windows each, all open")
        #expect(plan.settled.count == 2)
        if case .conflict = plan.settled["taken"] {} else { Issue.record("taken: \(String(describing: plan.settled["taken"]))") }
        guard case .tooOld(let error) = plan.settled["old"] else { Issue.record("old: not too old"); return }
        #expect(error.field == "completed_at")
    }
}
