import Foundation
import PodiumTestSupport
import Postgres
import Synchronization
import Testing

extension LeagueCloseDrillTests {
    /// Groups of the goal drill, each with `goalPlayers` players.
    static let goalGroups = ["a", "b", "c", "d"]
    static let goalPlayers = 10
    /// Completions each player sends, 4 correct answers each.
    static let goalCompletions = 4

    /// Goals are reached in the completions' own transactions, not by a close: the drill is three replicas taking one
    /// class's and its players' completions at once, one SIGKILLed while requests are in flight, each request it did not
    /// answer sent again to another replica (as a client's retry would).
    @Test("class and personal goals are reached exactly once across three replicas while one is SIGKILLed mid-batch")
    func goalsReachedOnceThroughAKill() async throws {
        let database = "podium_gd_\(UUID().uuidString.prefix(8).lowercased())"
        let (admin, replicas, postgres) = try await Self.replicas(on: database)
        defer { replicas.killAll() }
        let groups = Self.goalGroups.map { "\"group:drill-\($0)\"" }.joined(separator: ", ")
        #expect(try await replicas.post(0, "/v1/admin/goals", body: """
            {"id": "drill-class", "title": "100 right", "kind": "class", "scope": [\(groups)], "measure": "correct", "target": 100, "window": "week"}
            """) == 201)
        #expect(try await replicas.post(1, "/v1/admin/goals", body: """
            {"id": "drill-three", "title": "3 quizzes", "scope": ["topic:drill"], "measure": "completions", "target": 3, "window": "week"}
            """) == 201)

        // Every player's completions, interleaved so each replica takes every group's.
        var bodies: [String] = []
        for round in 0..<Self.goalCompletions {
            for (groupIndex, group) in Self.goalGroups.enumerated() {
                for player in 0..<Self.goalPlayers {
                    let user = "drill-\(group)-\(player)"
                    bodies.append("""
                        {"id": "\(user)-\(round)", "user_id": "\(user)", "quiz_id": "q\(groupIndex)", "topic": "drill", "difficulty": "easy",
                         "correct": 4, "total": 10, "groups": ["drill-\(group)"]}
                        """)
                }
            }
        }
        // Six senders; replica 0 is killed once a quarter of the completions are answered, with others in flight.
        let queue = DrillQueue()
        let killAt = bodies.count / 4
        let sent = bodies
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    while true {
                        let index: Int? = queue.state.withLock { state in
                            guard state.next < sent.count else { return nil }
                            defer { state.next += 1 }
                            return state.next
                        }
                        guard let index else { return }
                        var replica = index % 3
                        var status = 0
                        // A replica that does not answer (killed mid-request) or fails: the same completion to the next.
                        for _ in 0..<6 {
                            if replica == 0 && queue.state.withLock({ $0.killed }) { replica = 1 }
                            status = try await replicas.post(replica, "/v1/completions", body: sent[index])
                            if status == 201 || status == 200 { break }
                            replica = replica % 2 + 1
                        }
                        #expect(status == 201 || status == 200, "completion \(index) answered \(status)")
                        let kill = queue.state.withLock { state -> Bool in
                            state.answered += 1
                            guard state.answered == killAt, !state.killed else { return false }
                            state.killed = true
                            return true
                        }
                        if kill { replicas.kill(0) }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(queue.state.withLock { $0.killed }, "replica 0 was killed mid-drill")

        let players = Self.goalGroups.count * Self.goalPlayers
        let counts = try await postgres.query("""
            SELECT (SELECT count(*) FROM completions) AS completions,
                   (SELECT count(*) FROM events WHERE type = 'goal.completed' AND payload->>'kind' = 'class') AS classes,
                   (SELECT count(DISTINCT payload->>'group') FROM events WHERE type = 'goal.completed' AND payload->>'kind' = 'class') AS groups,
                   (SELECT count(*) FROM events WHERE type = 'goal.completed' AND payload->>'kind' = 'personal') AS personal,
                   (SELECT count(DISTINCT user_id) FROM events WHERE type = 'goal.completed') AS players,
                   (SELECT count(*) FROM events WHERE type = 'goal.completed' AND (payload->>'progress')::int = 100) AS exact
            """).rows[0]
        #expect(try counts.int("completions") == bodies.count, "each completion recorded once")
        #expect(try counts.int("classes") == Self.goalGroups.count, "one goal.completed per group")
        #expect(try counts.int("groups") == Self.goalGroups.count)
        #expect(try counts.int("personal") == players, "one goal.completed per player")
        #expect(try counts.int("players") == players)
        #expect(try counts.int("exact") == Self.goalGroups.count, "each group reached it with the completion that took it to 100")
        let progress = try await postgres.query("""
            SELECT goal_id, count(*) AS rows, min(progress) AS low, max(progress) AS high, count(completed_at) AS reached
            FROM goal_progress GROUP BY goal_id ORDER BY goal_id
            """).rows.map {
            "\(try $0.string("goal_id")) \(try $0.int("rows")) \(try $0.int("low"))-\(try $0.int("high")) \(try $0.int("reached"))"
        }
        // 10 players × 4 completions × 4 correct = 160 per group; 4 completions per player.
        #expect(progress == ["drill-class 4 160-160 4", "drill-three \(players) 4-4 \(players)"])

        replicas.killAll()
        await postgres.close()
        try await admin.query("DROP DATABASE \(database) WITH (FORCE)")
        await admin.close()
    }
}

/// The goal drill's senders' shared state: the next completion to send, how many were answered, whether replica 0 was
/// killed.
private final class DrillQueue: Sendable {
    let state = Mutex((next: 0, answered: 0, killed: false))
}
