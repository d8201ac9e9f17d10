import Foundation
import PodiumCore
@testable import PodiumStore
import PodiumTestSupport
import PodiumWire
import Testing

/// Goals on real PostgreSQL and Redis: progress, the reach written once, class goals, resets, late completions, pause and
/// end, erasure. Each test's goal counts a topic or groups of its own, so the other suites' completions never enter it.
@Suite("Goals: progress, reached once, class goals, resets, late completions, erasure", .serialized, .timeLimit(.minutes(5)))
struct GoalStoreTests {
    /// Wednesday of week 2026-W48 (UTC).
    let now = instant("2026-11-25T12:00:00Z")

    /// A goal over `scope`, created a day before `now`.
    func goal(
        _ id: String, kind: GoalKind = .personal, scope: [String], measure: GoalMeasure, target: Int64, window: GoalWindow = .week,
        zone: String? = nil
    ) throws -> Goal {
        try GoalRequest(
            id: id, title: "Goal \(id)", kind: kind, scope: scope, measure: measure, target: target, window: window, timeZone: zone
        ).validated(now: now.addingTimeInterval(-86_400)).get()
    }

    /// Records `items` as one batch (one transaction) at `at` and returns their answers.
    func record(_ storage: PodiumStorage, _ items: [ValidCompletion], at: Date? = nil) async throws -> [CompletionResponse] {
        try await storage.completions.record(items, now: at ?? now).map { outcome in
            guard case .created(let response) = outcome else { throw TestFailure("not created: \(outcome)") }
            return response
        }
    }

    /// One completion of `user` in `topic`: `correct` of 10 (5 by default), played at `at` (now by default).
    func item(
        _ user: String, _ topic: String, correct: Int = 5, groups: [String]? = nil, at: String? = nil, recordedAt: Date? = nil
    ) throws -> ValidCompletion {
        try completion(
            id: "\(user)-\(UUID().uuidString.prefix(8))", user: user, topic: topic, correct: correct, completedAt: at, groups: groups,
            now: recordedAt ?? now)
    }

    /// The `goal.completed` events of goal `id`, as (player or group, period, progress), in the order written.
    func reached(_ storage: PodiumStorage, goal id: String) async throws -> [String] {
        try await storage.postgres.query("""
            SELECT COALESCE(payload->>'user_id', payload->>'group') AS who, payload->>'period' AS period, payload->>'progress' AS progress
            FROM events WHERE type = 'goal.completed' AND payload->>'goal' = $1 ORDER BY id
            """, [id]).rows.map { "\(try $0.string("who")) \(try $0.string("period")) \(try $0.string("progress"))" }
    }

    /// The stored progress of goal `id` for `subject` in `period`.
    func progress(_ storage: PodiumStorage, goal id: String, period: String, _ subject: String) async throws -> Int64? {
        try await storage.goals.progress(of: [GoalSubject(goal: id, period: period, subject: subject)]).values.first?.progress
    }

    @Test("a personal goal counts each completion, the one reaching the target says so once, and a replay changes nothing")
    func personalGoalReachedOnce() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("goal-three")
        let goal = try goal(topic, scope: ["topic:\(topic)"], measure: .completions, target: 3)
        #expect(try await storage.goals.create(goal))
        #expect(try await !storage.goals.create(goal))
        let player = "\(topic)-p"
        var answers: [GoalAdvance] = []
        var third: ValidCompletion?
        for index in 1...4 {
            let completion = try item(player, topic)
            if index == 3 { third = completion }
            answers += try await record(storage, [completion]).flatMap(\.goals)
        }
        #expect(answers.map(\.progress) == [1, 2, 3, 4])
        #expect(answers.map(\.completed) == [false, false, true, false])
        #expect(answers.allSatisfy { $0.goal == topic && $0.period == "2026-W48" && $0.target == 3 && $0.group == nil })
        #expect(try await reached(storage, goal: topic) == ["\(player) 2026-W48 3"])
        // The third again: answered from what is stored, nothing added.
        let replay = try await storage.completions.record([try #require(third)], now: now)
        guard case .replayed(let answer) = replay.first else { throw TestFailure("not a replay: \(replay)") }
        #expect(answer.goals.map(\.completed) == [true])
        #expect(try await progress(storage, goal: topic, period: "2026-W48", player) == 4)
        #expect(try await reached(storage, goal: topic).count == 1)
        // Another topic counts nowhere here.
        #expect(try await record(storage, [try item(player, "\(topic)-other")]).flatMap(\.goals).isEmpty)
    }

    @Test("in one batch, the completion that reaches the target is the one the answers and the event name, in the order played")
    func batchNamesTheCompletionThatReached() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("goal-points")
        // A medium quiz earns 3 points (the default rules): the third reaches 9.
        #expect(try await storage.goals.create(try goal(topic, scope: ["topic:\(topic)"], measure: .points, target: 9)))
        let player = "\(topic)-p"
        let items = [
            try item(player, topic, at: "2026-11-25T09:00:00Z"), try item(player, topic, at: "2026-11-25T09:10:00Z"),
            try item(player, topic, at: "2026-11-25T09:20:00Z"), try item(player, topic, at: "2026-11-25T09:30:00Z"),
        ]
        // Sent out of order: the batch plays them in the order played.
        let answers = try await record(storage, [items[3], items[1], items[2], items[0]])
        let byID = Dictionary(uniqueKeysWithValues: zip([items[3], items[1], items[2], items[0]].map(\.id), answers))
        #expect(items.compactMap { byID[$0.id]?.goals.first?.progress } == [3, 6, 9, 12])
        #expect(items.compactMap { byID[$0.id]?.goals.first?.completed } == [false, false, true, false])
        let event = try await storage.postgres.query(
            "SELECT payload->>'completion_id' AS id FROM events WHERE type = 'goal.completed' AND payload->>'goal' = $1", [topic]).rows
        #expect(try event.map { try $0.string("id") } == [items[2].id])
    }

    @Test("perfect and correct goals add only what the completion holds: an imperfect run is no step toward a perfect goal")
    func measures() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("goal-measure")
        #expect(try await storage.goals.create(try goal("\(topic)-perfect", scope: ["topic:\(topic)"], measure: .perfect, target: 1, window: .day)))
        #expect(try await storage.goals.create(try goal("\(topic)-correct", scope: ["topic:\(topic)"], measure: .correct, target: 12)))
        let player = "\(topic)-p"
        let first = try await record(storage, [try item(player, topic, correct: 7)])[0].goals
        #expect(first.map(\.goal) == ["\(topic)-correct"])
        #expect(first.map(\.progress) == [7])
        let second = try await record(storage, [try item(player, topic, correct: 10)])[0].goals
        #expect(second.map(\.goal) == ["\(topic)-correct", "\(topic)-perfect"])
        #expect(second.map(\.progress) == [17, 1])
        #expect(second.map(\.completed) == [true, true])
        #expect(second.last?.period == "2026-11-25")
    }

    @Test("a class goal sums its group's players, each group apart; twenty concurrent players reach it once")
    func classGoalReachedOnceUnderConcurrency() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let name = StoreTestEnvironment.unique("class")
        let (red, blue) = ("\(name)-red", "\(name)-blue")
        let goal = try goal(name, kind: .class, scope: ["group:\(red)", "group:\(blue)"], measure: .correct, target: 50)
        #expect(try await storage.goals.create(goal))
        // Twenty players of red at once, 5 correct each: 100 in all, the target at 50.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let answer = try await storage.writer.record(try item("\(name)-r\(index)", "\(name)-topic", groups: [red]))
                    guard case .created = answer else { throw TestFailure("not created") }
                }
            }
            try await group.waitForAll()
        }
        // A player of both groups adds to each.
        let both = try await record(storage, [try item("\(name)-both", "\(name)-topic", correct: 9, groups: [blue, red, "\(name)-other"])])
        #expect(both[0].goals.map(\.group) == [blue, red])
        #expect(both[0].goals.map(\.progress) == [9, 109])
        #expect(try await progress(storage, goal: name, period: "2026-W48", red) == 109)
        #expect(try await progress(storage, goal: name, period: "2026-W48", blue) == 9)
        #expect(try await reached(storage, goal: name).map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == ["\(red) 2026-W48"])
        // The class event names no player.
        let players = try await storage.postgres.query(
            "SELECT count(*) AS n FROM events WHERE type = 'goal.completed' AND payload->>'goal' = $1 AND user_id IS NOT NULL", [name])
        #expect(try players.rows[0].int("n") == 0)
        // Erasing a player takes their share out; a reached target stays reached.
        #expect(try await storage.erasure.erase(userID: "\(name)-both", now: now))
        #expect(try await progress(storage, goal: name, period: "2026-W48", red) == 100)
        #expect(try await progress(storage, goal: name, period: "2026-W48", blue) == 0)
        let shares = try await storage.postgres.query("SELECT count(*) AS n FROM goal_shares WHERE user_id = $1", ["\(name)-both"])
        #expect(try shares.rows[0].int("n") == 0)
    }

    @Test("a class goal reached stays reached: after an erasure takes it below the target, reaching it again writes no second event")
    func reachedOnceThroughAnErasure() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let name = StoreTestEnvironment.unique("again")
        let group = "\(name)-g"
        #expect(try await storage.goals.create(try goal(name, kind: .class, scope: ["group:\(group)"], measure: .correct, target: 10)))
        let first = try await record(storage, [try item("\(name)-a", "\(name)-t", correct: 6, groups: [group])])[0].goals
        let second = try await record(storage, [try item("\(name)-b", "\(name)-t", correct: 6, groups: [group])])[0].goals
        #expect((first + second).map(\.completed) == [false, true])
        #expect(try await storage.erasure.erase(userID: "\(name)-a", now: now))
        #expect(try await progress(storage, goal: name, period: "2026-W48", group) == 6)
        let again = try await record(storage, [try item("\(name)-c", "\(name)-t", correct: 5, groups: [group])])[0].goals
        #expect(again.map(\.progress) == [11])
        #expect(again.map(\.completed) == [false])
        #expect(try await reached(storage, goal: name) == ["\(group) 2026-W48 12"])
    }

    @Test("a day goal resets at midnight in its zone; a late completion counts in its own day until the close grace, then nowhere")
    func resetsAndLateCompletions() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("goal-day")
        // Auckland is UTC+13 in November: its 26 November starts at 2026-11-25T11:00Z.
        #expect(try await storage.goals.create(try goal(topic, scope: ["topic:\(topic)"], measure: .completions, target: 2, window: .day, zone: "Pacific/Auckland")))
        let player = "\(topic)-p"
        let midnight = instant("2026-11-25T11:05:00Z")
        let before = try await record(storage, [try item(player, topic, at: "2026-11-25T10:59:00Z", recordedAt: midnight)], at: midnight)[0].goals
        let after = try await record(storage, [try item(player, topic, at: "2026-11-25T11:01:00Z", recordedAt: midnight)], at: midnight)[0].goals
        // At now (12:00Z) the 25th's grace is over: a completion played on it counts nowhere.
        #expect(try await record(storage, [try item(player, topic, at: "2026-11-25T10:58:00Z")])[0].goals.isEmpty)
        #expect(before.map(\.period) == ["2026-11-25"])
        #expect(after.map(\.period) == ["2026-11-26"])
        #expect(after.map(\.progress) == [1])
        // Recorded on the 27th (Auckland) at 11:10Z: the 26th ended at 11:00Z, so within the 15 minutes' grace.
        let late = instant("2026-11-26T11:10:00Z")
        let inGrace = try await record(storage, [try item(player, topic, at: "2026-11-26T10:00:00Z", recordedAt: late)], at: late)[0].goals
        #expect(inGrace.map(\.period) == ["2026-11-26"])
        #expect(inGrace.map(\.completed) == [true])
        let tooLate = instant("2026-11-26T11:16:00Z")
        let missed = try await record(storage, [try item(player, topic, at: "2026-11-26T10:30:00Z", recordedAt: tooLate)], at: tooLate)[0].goals
        #expect(missed.isEmpty)
        #expect(try await progress(storage, goal: topic, period: "2026-11-26", player) == 2)
    }

    @Test("a paused goal counts nothing until resumed; an ended one counts nothing played from its end, on another replica too")
    func pauseResumeEndAcrossReplicas() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        // A second replica: game rules, and so a registry, of its own.
        let other = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("goal-pause")
        let goal = try goal(topic, scope: ["topic:\(topic)"], measure: .completions, target: 10)
        #expect(try await storage.goals.create(goal))
        let player = "\(topic)-p"
        // The other replica learns of the goal from its first batch, which then counts.
        #expect(try await record(other, [try item(player, topic)])[0].goals.map(\.progress) == [1])
        #expect(try await storage.goals.pause(id: goal.id, now: now) == .changed)
        #expect(try await storage.goals.pause(id: goal.id, now: now) == .unchanged)
        #expect(try await record(other, [try item(player, topic)])[0].goals.isEmpty)
        #expect(try await storage.goals.resume(id: goal.id) == .changed)
        #expect(try await record(other, [try item(player, topic)])[0].goals.map(\.progress) == [2])
        #expect(try await storage.goals.end(id: goal.id, now: now) == .changed)
        #expect(try await record(other, [try item(player, topic)])[0].goals.isEmpty)
        #expect(try await storage.goals.resume(id: goal.id) == .unchanged)
        #expect(try await storage.goals.end(id: "\(topic)-none", now: now) == .missing)
        #expect(try await progress(storage, goal: topic, period: "2026-W48", player) == 2)
    }

    @Test("erasure removes a player's own progress")
    func erasureRemovesPersonalProgress() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("goal-erase")
        #expect(try await storage.goals.create(try goal(topic, scope: ["topic:\(topic)"], measure: .completions, target: 1)))
        let player = "\(topic)-p"
        _ = try await record(storage, [try item(player, topic)])
        #expect(try await progress(storage, goal: topic, period: "2026-W48", player) == 1)
        #expect(try await storage.erasure.erase(userID: player, now: now))
        #expect(try await progress(storage, goal: topic, period: "2026-W48", player) == nil)
        #expect(try await reached(storage, goal: topic).isEmpty)
    }
}
