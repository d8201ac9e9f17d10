import Foundation
import PodiumCore
import PodiumWire
import Testing

/// Goals' rules without storage: what a request may ask for, and which goals a completion counts toward.
@Suite("Goals: requests and the steps a completion makes", .timeLimit(.minutes(5)))
struct GoalTests {
    let created = try! instant("2026-11-24T09:00:00Z")

    @Test("a request names every wrong field at once; a class goal lists groups")
    func validation() throws {
        let empty = GoalRequest().validated(now: created)
        guard case .failure(let failure) = empty else { Issue.record("an empty request was accepted"); return }
        #expect(failure.errors.map(\.field) == ["id", "title", "scope", "measure", "window", "target"])
        let classOfTopic = GoalRequest(
            id: "c", title: "Class", kind: .class, scope: ["topic:math"], measure: .correct, target: 500, window: .week
        ).validated(now: created)
        guard case .failure(let scope) = classOfTopic else { Issue.record("a class goal of a topic was accepted"); return }
        #expect(scope.errors.map(\.field) == ["scope"])
        for target: Int64 in [0, -1, 1_000_000_001] {
            let wrong = GoalRequest(id: "t", title: "T", scope: ["global"], measure: .points, target: target, window: .day).validated(now: created)
            guard case .failure(let failure) = wrong else { Issue.record("target \(target) was accepted"); continue }
            #expect(failure.errors.map(\.field) == ["target"])
        }
        let goal = try GoalRequest(
            id: "five-c", title: "500 right", kind: .class, scope: ["group:5c", "group:5b"], measure: .correct, target: 500, window: .week,
            timeZone: "Europe/London"
        ).validated(now: created).get()
        #expect(goal.scope == .groups(["5b", "5c"]))
        #expect(goal.state == "active")
        #expect(goal.view(now: created).period == "2026-W48")
        #expect(goal.view(now: created).endsAt == "2026-11-30T00:00:00.000Z")
    }

    @Test("a completion steps toward the goals that count it: in scope, played while active, in a period still open, adding more than 0")
    func steps() throws {
        let registry = ContestRegistry()
        let weekly = try GoalRequest(id: "three", title: "3", scope: ["topic:math"], measure: .completions, target: 3, window: .week)
            .validated(now: created).get()
        let perfect = try GoalRequest(id: "perfect", title: "P", scope: ["global"], measure: .perfect, target: 1, window: .day)
            .validated(now: created).get()
        let classes = try GoalRequest(
            id: "class", title: "C", kind: .class, scope: ["group:5b", "group:5c"], measure: .correct, target: 100, window: .week
        ).validated(now: created).get()
        let paused = Goal(
            id: "paused", title: "P", kind: .personal, scope: .global, measure: .points, target: 5, window: .day, timeZone: .gmt,
            createdAt: created, pausedAt: created)
        registry.replace(with: [], leagues: [], goals: [weekly, perfect, classes, paused], revision: 1)
        let now = try instant("2026-11-25T12:00:00Z")
        func steps(topic: String = "math", groups: [String] = [], correct: Int = 7, at: String = "2026-11-25T11:00:00Z") throws -> [String] {
            registry.goalSteps(
                userID: "alice", topic: topic, groups: groups, points: 3, correct: correct, total: 10, completedAt: try instant(at), now: now,
                grace: 900
            ).map { "\($0.goal.id) \($0.period.key) \($0.subject) +\($0.amount)" }
        }
        #expect(try steps() == ["three 2026-W48 alice +1"])
        #expect(try steps(correct: 10) == ["perfect 2026-11-25 alice +1", "three 2026-W48 alice +1"])
        #expect(try steps(topic: "art", groups: ["5c", "5b", "4a"]) == ["class 2026-W48 5b +7", "class 2026-W48 5c +7"])
        // Played before the goals were created: nothing.
        #expect(try steps(at: "2026-11-24T08:59:00Z").isEmpty)
        // Yesterday's day is past its grace at noon: the perfect run misses it; the week still counts it.
        #expect(try steps(correct: 10, at: "2026-11-24T23:00:00Z") == ["three 2026-W48 alice +1"])
    }
}
