import Foundation
import Hummingbird
import HummingbirdTesting
import PodiumCore
import PodiumHTTP
@testable import PodiumStore
import Testing

/// Goals over HTTP on real PostgreSQL and Redis: defined and managed by admins, answered with each completion, listed in
/// the profile, a group's class goals, `goal.completed` in the events feed. Each test's goals count a topic or groups of
/// their own, so the shared test database's other completions never enter them.
@Suite("Goals over HTTP: defined, paused, answered, in the profile, a group's, in the feed", .serialized, .timeLimit(.minutes(5)))
struct GoalRouteTests {
    @Test("an admin defines goals; each completion's answer and the profile show progress; a group's class goal; one goal.completed each")
    func goalsFromDefinitionToTheFeed() async throws {
        // Wednesday noon: the week 2026-W48 has 4 days 12 hours left.
        let harness = try await HTTPHarness(now: instant("2026-11-25T12:00:00Z"))
        let name = "gr-\(UUID().uuidString.prefix(8).lowercased())"
        let group = "\(name)-5c"
        let personal: [String: any Sendable] = [
            "id": "\(name)-three", "title": "3 quizzes this week", "scope": ["topic:\(name)"], "measure": "completions", "target": 3,
            "window": "week",
        ]
        let collective: [String: any Sendable] = [
            "id": "\(name)-class", "title": "Our class: 12 right", "kind": "class", "scope": ["group:\(group)"], "measure": "correct",
            "target": 12, "window": "week",
        ]
        try await harness.run { client in
            let refused = try await client.send(.post, "/v1/admin/goals", key: HTTPHarness.adminKey, json: [
                "id": "Bad Id", "kind": "class", "scope": ["global"], "target": 0,
            ] as [String: any Sendable])
            #expect(refused.status == .badRequest)
            let fields = (refused.json["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String }
            #expect(fields == ["id", "title", "scope", "measure", "window", "target"])
            #expect(try await client.send(.post, "/v1/admin/goals", key: harness.readKey, json: personal).status == .forbidden)
            let created = try await client.send(.post, "/v1/admin/goals", key: HTTPHarness.adminKey, json: personal)
            #expect(created.status == .created)
            #expect(created.json["status"] as? String == "active")
            #expect(created.json["period"] as? String == "2026-W48")
            #expect(created.json["time_zone"] as? String == "UTC", "the zone left out is UTC, as leagues and contests show it")
            #expect(created.json["ends_at"] as? String == "2026-11-30T00:00:00.000Z")
            #expect(try await client.send(.post, "/v1/admin/goals", key: HTTPHarness.adminKey, json: personal).status == .conflict)
            #expect(try await client.send(.post, "/v1/admin/goals", key: HTTPHarness.adminKey, json: collective).status == .created)

            // Three completions of one pupil of the class, played now (from the goals' creation on): 5, 5 and 4 correct.
            var answers: [[[String: Any]]] = []
            for (index, correct) in [5, 5, 4].enumerated() {
                let body = completionBody(id: "\(name)-c\(index)", user: "\(name)-amy", topic: name, correct: correct, groups: [group])
                let answer = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body)
                #expect(answer.status == .created)
                answers.append(answer.json["goals"] as? [[String: Any]] ?? [])
            }
            #expect(answers.map { $0.compactMap { $0["progress"] as? Int } } == [[5, 1], [10, 2], [14, 3]])
            #expect(answers.map { $0.compactMap { $0["completed"] as? Bool } } == [[false, false], [false, false], [true, true]])
            #expect(answers[0].compactMap { $0["group"] as? String } == [group])

            let profile = try await client.send(.get, "/v1/users/\(name)-amy", key: harness.readKey)
            let goals = profile.json["goals"] as? [[String: Any]] ?? []
            #expect(goals.compactMap { $0["goal"] as? String } == ["\(name)-class", "\(name)-three"])
            #expect(goals.compactMap { $0["progress"] as? Int } == [14, 3])
            #expect(goals.compactMap { $0["target"] as? Int } == [12, 3])
            #expect(goals.compactMap { $0["seconds_left"] as? Int } == [388_800, 388_800])
            #expect(goals.allSatisfy { $0["completed_at"] as? String == "2026-11-25T12:00:00.000Z" })

            let groupGoals = try await client.send(.get, "/v1/groups/\(group)/goals", key: harness.readKey)
            #expect(groupGoals.status == .ok)
            let classGoals = groupGoals.json["goals"] as? [[String: Any]] ?? []
            #expect(classGoals.compactMap { $0["goal"] as? String } == ["\(name)-class"])
            #expect(classGoals.compactMap { $0["progress"] as? Int } == [14])
            #expect(try await client.send(.get, "/v1/groups/Not%20a%20group/goals", key: harness.readKey).status == .badRequest)

            // The feed shows a transaction only once every older one has ended, and other tests share the database: read
            // on at the cursor, as a consumer would, until both events show (at most 2,400 empty pages at its end).
            var reached: [[String: Any]] = []
            var cursor: String?
            var emptyPolls = 0
            while reached.count < 2, emptyPolls < 2_400 {
                let path = "/v1/events?type=goal.completed&limit=1000" + (cursor.map { "&after=\($0)" } ?? "")
                let page = try await client.send(.get, path, key: harness.readKey)
                let events = page.json["events"] as? [[String: Any]] ?? []
                reached += events.compactMap { $0["data"] as? [String: Any] }.filter { ($0["goal"] as? String)?.hasPrefix(name) == true }
                cursor = page.json["next_cursor"] as? String
                if events.isEmpty {
                    emptyPolls += 1
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            #expect(reached.compactMap { $0["goal"] as? String }.sorted() == ["\(name)-class", "\(name)-three"])
            #expect(reached.first { $0["kind"] as? String == "class" }?["group"] as? String == group)

            // Paused, the goal counts nothing, and says so; ended, it leaves the profile.
            let paused = try await client.send(.post, "/v1/admin/goals/\(name)-three/pause", key: HTTPHarness.adminKey)
            #expect(paused.json["status"] as? String == "paused")
            let whilePaused = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: completionBody(
                id: "\(name)-c9", user: "\(name)-amy", topic: name, correct: 1))
            #expect((whilePaused.json["goals"] as? [[String: Any]])?.isEmpty == true)
            let ended = try await client.send(.post, "/v1/admin/goals/\(name)-three/end", key: HTTPHarness.adminKey)
            #expect(ended.json["status"] as? String == "ended")
            #expect(try await client.send(.post, "/v1/admin/goals/\(name)-three/resume", key: HTTPHarness.adminKey).status == .conflict)
            let after = try await client.send(.get, "/v1/users/\(name)-amy", key: harness.readKey)
            #expect((after.json["goals"] as? [[String: Any]])?.compactMap { $0["goal"] as? String } == ["\(name)-class"])
            let shown = try await client.send(.get, "/v1/goals/\(name)-three", key: harness.readKey)
            #expect(shown.json["ended_at"] as? String == "2026-11-25T12:00:00.000Z")
        }
    }
}
