import Foundation
import Hummingbird
import HummingbirdTesting
@testable import PodiumStore
import PodiumCore
import Testing

@Suite("POST /v1/completions and /v1/completions/batch", .timeLimit(.minutes(5)))
struct CompletionRoutesTests {
    @Test func createdThenReplayedThenConflict() async throws {
        let harness = try await HTTPHarness()
        let topic = unique("t")
        let body = completionBody(id: unique("c"), user: unique("u"), topic: topic, difficulty: "easy", groups: ["\(topic)-g"])
        try await harness.run { client in
            let first = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body)
            #expect(first.status == .created)
            #expect(first.json["points_awarded"] as? Int == 2)
            #expect(first.json["rankings_live"] as? Bool == true)
            let replay = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body)
            #expect(replay.status == .ok)
            #expect(Data(buffer: replay.body) == Data(buffer: first.body))
            var changed = body
            changed["correct"] = 9
            let conflict = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: changed)
            #expect(conflict.status == .conflict)
            #expect(conflict.headers[.contentType] == "application/problem+json")
            #expect(conflict.json["code"] as? String == "conflict")
        }
    }

    @Test("a completion replayed after the age limit still gets its answer; a new one that old is refused")
    func replayAfterTheAgeLimit() async throws {
        let topic = unique("late")
        let user = unique("u")
        let body = completionBody(id: unique("c"), user: user, topic: topic, completedAt: "2026-11-20T10:00:00Z")
        let first = try await HTTPHarness(now: instant("2026-11-25T12:00:00Z")).run { client in
            try await client.send(.post, "/v1/completions", key: HTTPHarness.adminKey, json: body)
        }
        #expect(first.status == .created)

        // Fifty days on: the completion is older than the 30-day limit.
        let later = try await HTTPHarness(now: instant("2027-01-14T12:00:00Z"))
        try await later.run { client in
            let replay = try await client.send(.post, "/v1/completions", key: later.ingestKey, json: body)
            #expect(replay.status == .ok)
            #expect(Data(buffer: replay.body) == Data(buffer: first.body), "the first answer, unchanged")
            var changed = body
            changed["correct"] = 9
            #expect(try await client.send(.post, "/v1/completions", key: later.ingestKey, json: changed).status == .conflict)
            let unknown = completionBody(id: unique("c"), user: user, topic: topic, completedAt: "2026-11-20T10:00:00Z")
            let refused = try await client.send(.post, "/v1/completions", key: later.ingestKey, json: unknown)
            #expect(refused.status == .badRequest)
            #expect(refused.errorFields == ["completed_at"])

            let fresh = completionBody(id: unique("c"), user: user, topic: topic)
            let mixed = try await client.send(.post, "/v1/completions/batch", key: later.ingestKey,
                                              json: ["completions": [body, fresh]])
            #expect((mixed.json["results"] as? [[String: Any]] ?? []).map { $0["status"] as? Int } == [200, 201])
            let blocked = completionBody(id: unique("c"), user: user, topic: topic)
            var broken = unknown
            broken["difficulty"] = "impossible"
            let rejected = try await client.send(.post, "/v1/completions/batch", key: later.ingestKey,
                                                 json: ["completions": [body, blocked, unknown, broken]])
            #expect(rejected.status == .badRequest)
            #expect(rejected.errorFields == ["completions[2].completed_at", "completions[3].difficulty", "completions[3].completed_at"])
        }
        let count = try await later.storage.postgres.query("SELECT completions FROM users WHERE user_id = $1", [user]).rows.first?.int("completions")
        #expect(count == 2, "the first completion and the fresh one; nothing from the refused requests")
    }

    @Test func everyInvalidFieldIsListedAndNothingChanges() async throws {
        let harness = try await HTTPHarness()
        let user = unique("u")
        let bad: [String: any Sendable] = [
            "id": "has space", "user_id": user, "quiz_id": String(repeating: "q", count: 129), "topic": "Math",
            "difficulty": "extreme", "correct": 11, "total": 10, "duration_ms": -1, "completed_at": "yesterday",
            "groups": ["ok", "NOT OK"], "display_name": "bad\u{0007}name",
        ]
        try await harness.run { client in
            let response = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: bad)
            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType] == "application/problem+json")
            #expect(Set(response.errorFields) == ["id", "quiz_id", "topic", "difficulty", "correct", "duration_ms", "completed_at",
                                                  "groups[1]", "display_name"])
            let missing = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: ["id": "x"])
            #expect(Set(missing.errorFields) == ["user_id", "quiz_id", "topic", "difficulty", "correct", "total"])
            let wrongType = try await client.send(.post, "/v1/completions", key: harness.ingestKey,
                                                  json: completionBody(id: "c", user: user, topic: "t").merging(["correct": "five"]) { $1 })
            #expect(wrongType.errorFields == ["correct"])
            let malformed = try await client.send(.post, "/v1/completions", key: harness.ingestKey, raw: "{not json")
            #expect(malformed.status == .badRequest)
            #expect(malformed.json["code"] as? String == "malformed-body")
            let empty = try await client.send(.post, "/v1/completions", key: harness.ingestKey, raw: "")
            #expect(empty.status == .badRequest)
            let huge = try await client.send(.post, "/v1/completions", key: harness.ingestKey,
                                             raw: "{\"id\":\"" + String(repeating: "a", count: 2_200_000) + "\"}")
            #expect(huge.status == .contentTooLarge)
            #expect(huge.json["code"] as? String == "body-too-large")
            let future = try await client.send(.post, "/v1/completions", key: harness.ingestKey,
                                               json: completionBody(id: "c", user: user, topic: "t", completedAt: "2026-11-25T12:10:00Z"))
            #expect(future.errorFields == ["completed_at"])
            let old = try await client.send(.post, "/v1/completions", key: harness.ingestKey,
                                            json: completionBody(id: "c", user: user, topic: "t", completedAt: "2026-10-01T00:00:00Z"))
            #expect(old.errorFields == ["completed_at"])
            let profile = try await client.send(.get, "/v1/users/\(user)", key: harness.readKey)
            #expect(profile.status == .notFound)
        }
    }

    @Test func rolesAreEnforced() async throws {
        let harness = try await HTTPHarness()
        let body = completionBody(id: unique("c"), user: unique("u"), topic: "roles")
        try await harness.run { client in
            let anonymous = try await client.send(.post, "/v1/completions", key: nil, json: body)
            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.headers[.wwwAuthenticate] == "Bearer")
            let wrongKey = try await client.send(.post, "/v1/completions", key: "pdm_not_a_key", json: body)
            #expect(wrongKey.status == .unauthorized)
            let reader = try await client.send(.post, "/v1/completions", key: harness.readKey, json: body)
            #expect(reader.status == .forbidden)
            let ingestReads = try await client.send(.get, "/v1/leaderboards/global/all", key: harness.ingestKey)
            #expect(ingestReads.status == .forbidden)
            let ingestErases = try await client.send(.delete, "/v1/users/someone", key: harness.ingestKey)
            #expect(ingestErases.status == .forbidden)
            let admin = try await client.send(.get, "/v1/leaderboards/global/all", key: HTTPHarness.adminKey)
            #expect(admin.status == .ok)
        }
    }

    @Test func concurrentDuplicatePostsCreateOnce() async throws {
        let harness = try await HTTPHarness()
        let user = unique("u")
        let body = completionBody(id: unique("c"), user: user, topic: "dups")
        let statuses = try await harness.run { client in
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<20 { group.addTask { try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body).status } }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
        }
        #expect(statuses.filter { $0 == .created }.count == 1)
        #expect(statuses.filter { $0 == .ok }.count == 19)
        let points = try await harness.storage.postgres.query("SELECT points FROM users WHERE user_id = $1", [user]).rows.first?.int("points")
        #expect(points == 3)
    }

    @Test func batchRecordsEachAndRejectsWholeBatchOnBadItem() async throws {
        let harness = try await HTTPHarness()
        let topic = unique("batch")
        let user = unique("u")
        let items = (0..<3).map { completionBody(id: "\(topic)-\($0)", user: user, topic: topic) }
        try await harness.run { client in
            let ok = try await client.send(.post, "/v1/completions/batch", key: harness.ingestKey, json: ["completions": items])
            #expect(ok.status == .ok)
            #expect(ok.json["created"] as? Int == 3)
            let results = ok.json["results"] as? [[String: Any]] ?? []
            #expect(results.map { $0["status"] as? Int } == [201, 201, 201])
            #expect(results.map { $0["id"] as? String } == items.map { $0["id"] as? String })

            let again = try await client.send(.post, "/v1/completions/batch", key: harness.ingestKey,
                                              json: ["completions": [items[0], completionBody(id: "\(topic)-new", user: user, topic: topic)]])
            #expect(again.json["replayed"] as? Int == 1)
            #expect(again.json["created"] as? Int == 1)

            var broken = items.map { $0.merging(["id": "\(topic)-b\($0["id"]!)"]) { $1 } }
            broken[1]["difficulty"] = "impossible"
            let rejected = try await client.send(.post, "/v1/completions/batch", key: harness.ingestKey, json: ["completions": broken])
            #expect(rejected.status == .badRequest)
            #expect(rejected.errorFields == ["completions[1].difficulty"])

            let twice = completionBody(id: "\(topic)-twice", user: user, topic: topic)
            let other = completionBody(id: "\(topic)-twice", user: user, topic: topic, correct: 1)
            let repeated = try await client.send(.post, "/v1/completions/batch", key: harness.ingestKey,
                                                 json: ["completions": [twice, twice, other]])
            #expect((repeated.json["results"] as? [[String: Any]] ?? []).map { $0["status"] as? Int } == [201, 200, 409])
            // The first occurrence conflicts with what is stored; a later one that matches it is a replay, as alone.
            let after = try await client.send(.post, "/v1/completions/batch", key: harness.ingestKey,
                                              json: ["completions": [other, twice, other]])
            #expect((after.json["results"] as? [[String: Any]] ?? []).map { $0["status"] as? Int } == [409, 200, 409])
            #expect(after.json["replayed"] as? Int == 1)

            let tooMany = (0..<501).map { completionBody(id: "\(topic)-m\($0)", user: user, topic: topic) }
            let large = try await client.send(.post, "/v1/completions/batch", key: harness.ingestKey, json: ["completions": tooMany])
            #expect(large.status == .badRequest)
            #expect(large.errorFields == ["completions"])
        }
        let count = try await harness.storage.postgres.query("SELECT completions FROM users WHERE user_id = $1", [user]).rows.first?.int("completions")
        #expect(count == 5)
    }

    @Test("mode=partial records every valid item and answers each invalid one with its own problem; an unknown mode is 400")
    func partialBatchRecordsTheValidItems() async throws {
        let harness = try await HTTPHarness()
        let topic = unique("partial")
        let user = unique("u")
        var bad = completionBody(id: "\(topic)-bad", user: user, topic: topic)
        bad["difficulty"] = "impossible"
        var unnamed = completionBody(id: "", user: user, topic: topic)
        unnamed.removeValue(forKey: "id")
        let old = completionBody(id: "\(topic)-old", user: user, topic: topic, completedAt: "2026-10-01T12:00:00Z")
        let items = [completionBody(id: "\(topic)-1", user: user, topic: topic), bad, completionBody(id: "\(topic)-2", user: user, topic: topic),
                     unnamed, old]
        try await harness.run { client in
            let unknown = try await client.send(.post, "/v1/completions/batch?mode=some", key: harness.ingestKey, json: ["completions": items])
            #expect(unknown.status == .badRequest)
            #expect(unknown.errorFields == ["mode"])
            let whole = try await client.send(.post, "/v1/completions/batch?mode=all", key: harness.ingestKey, json: ["completions": items])
            #expect(whole.status == .badRequest)
            #expect(whole.errorFields == ["completions[1].difficulty", "completions[3].id", "completions[4].completed_at"])

            let partial = try await client.send(.post, "/v1/completions/batch?mode=partial", key: harness.ingestKey, json: ["completions": items])
            #expect(partial.status == .ok)
            let results = partial.json["results"] as? [[String: Any]] ?? []
            #expect(results.map { $0["status"] as? Int } == [201, 400, 201, 400, 400])
            #expect(results.map { $0["id"] as? String } == ["\(topic)-1", "\(topic)-bad", "\(topic)-2", "", "\(topic)-old"])
            #expect(results.map { (($0["problem"] as? [String: Any])?["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String } } == [
                nil, ["completions[1].difficulty"], nil, ["completions[3].id"], ["completions[4].completed_at"],
            ])
            #expect(results.map { $0["result"] == nil } == [false, true, false, true, true])
            #expect(partial.json["created"] as? Int == 2)
            #expect(partial.json["invalid"] as? Int == 3)
            #expect(partial.json["replayed"] as? Int == 0 && partial.json["conflicts"] as? Int == 0)

            // Sent again after the corrupt items were fixed: the recorded ones are replays, the fixed one is new.
            let fixed = [items[0], completionBody(id: "\(topic)-bad", user: user, topic: topic), items[2]]
            let again = try await client.send(.post, "/v1/completions/batch?mode=partial", key: harness.ingestKey, json: ["completions": fixed])
            #expect((again.json["results"] as? [[String: Any]] ?? []).map { $0["status"] as? Int } == [200, 201, 200])
            #expect(again.json["invalid"] as? Int == 0)
        }
        let count = try await harness.storage.postgres.query("SELECT completions FROM users WHERE user_id = $1", [user]).rows.first?.int("completions")
        #expect(count == 3)
    }

    @Test("a full batch with every field at its longest fits the body limit")
    func longestBatchFitsTheBodyLimit() async throws {
        let harness = try await HTTPHarness()
        func text(_ length: Int, _ seed: String) -> String { String((seed + String(repeating: "x", count: length)).prefix(length)) }
        let groups = (0..<20).map { "\"\(text(64, "g\($0)-"))\"" }.joined(separator: ",")
        let name = String(repeating: "\\uD83D\\uDE00", count: 64)  // 64 emoji, each escaped as a surrogate pair
        // Every item has a bad difficulty, so the batch is read whole and refused without writing anything.
        let items = (0..<500).map { index in
            """
            {"id": "\(text(128, "c\(index)-"))", "user_id": "\(text(128, "u\(index)-"))", "quiz_id": "\(text(128, "q-"))", \
            "topic": "\(text(64, "t-"))", "difficulty": "impossible", "correct": 10, "total": 10, "duration_ms": 30000, \
            "completed_at": "2026-11-25T11:59:59.999+00:00", "groups": [\(groups)], "display_name": "\(name)"}
            """
        }
        let body = "{\"completions\": [\(items.joined(separator: ", "))]}"
        #expect(body.utf8.count > 1 << 20, "beyond the earlier 1 MiB limit")
        try await harness.run { client in
            let answer = try await client.send(.post, "/v1/completions/batch", key: harness.ingestKey, raw: body,
                                               headers: [.contentType: "application/json"])
            #expect(answer.status == .badRequest)
            #expect(answer.errorFields == (0..<500).map { "completions[\($0)].difficulty" })
        }
    }

    @Test("a batch item PostgreSQL refuses on its own answers 500 in its place; the others are recorded")
    func refusedItemDoesNotSinkTheBatch() async throws {
        let harness = try await HTTPHarness()
        let postgres = harness.storage.postgres
        let topic = unique("refused")
        let user = unique("u")
        let items = (0..<3).map { completionBody(id: "\(topic)-\($0)", user: user, topic: topic) }
        // Only this test's middle completion is refused (other tests share the table), by a trigger on the partition its
        // month's completions go to: one on the partitioned table would lock every partition, which deadlocks with
        // other tests' reads. A first completion of the player's at the same time shows which partition that is.
        let probe = completionBody(id: "\(topic)-probe", user: user, topic: topic)
        try await harness.run { client in
            let recorded = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: probe)
            #expect(recorded.status == .created)
        }
        let partition = try await postgres.query(
            "SELECT tableoid::regclass::text AS partition FROM completions WHERE id = $1", ["\(topic)-probe"]).rows[0].string("partition")
        let trigger = "refuse_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        try await postgres.query("""
            CREATE FUNCTION \(trigger)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF NEW.id = '\(topic)-1' THEN RAISE EXCEPTION 'injected refusal'; END IF;
              RETURN NEW;
            END $$
            """)
        try await postgres.query("CREATE TRIGGER \(trigger) BEFORE INSERT ON \(partition) FOR EACH ROW EXECUTE FUNCTION \(trigger)()")
        do {
            try await harness.run { client in
                let answer = try await client.send(.post, "/v1/completions/batch", key: harness.ingestKey, json: ["completions": items])
                #expect(answer.status == .ok)
                let results = answer.json["results"] as? [[String: Any]] ?? []
                #expect(results.map { $0["status"] as? Int } == [201, 500, 201])
                let refused = results.count == 3 ? results[1] : [:]
                #expect((refused["problem"] as? [String: Any])?["code"] as? String == "internal-error")
                #expect(refused["result"] == nil)
                #expect(answer.json["created"] as? Int == 2)
                let alone = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: items[1])
                #expect(alone.status == .internalServerError)
            }
        } catch {
            try await postgres.query("DROP TRIGGER \(trigger) ON \(partition)")
            try await postgres.query("DROP FUNCTION \(trigger)()")
            throw error
        }
        try await postgres.query("DROP TRIGGER \(trigger) ON \(partition)")
        try await postgres.query("DROP FUNCTION \(trigger)()")
        try await harness.run { client in
            let resent = try await client.send(.post, "/v1/completions/batch", key: harness.ingestKey, json: ["completions": items])
            #expect((resent.json["results"] as? [[String: Any]] ?? []).map { $0["status"] as? Int } == [200, 201, 200])
        }
        let count = try await postgres.query("SELECT completions FROM users WHERE user_id = $1", [user]).rows.first?.int("completions")
        #expect(count == 4, "the probe and the three")
    }
}
