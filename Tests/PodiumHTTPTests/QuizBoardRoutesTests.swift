import Foundation
import HTTPTypes
import PodiumCore
import PodiumWire
import Testing

/// Quiz boards over HTTP: a quiz id with `:` and `@` in paths, the best run on pages, CSV, around-me, compare, ETag/304,
/// a group's view of a quiz board, and the 404 of a quiz no rule turns on.
@Suite("Quiz boards over HTTP", .timeLimit(.minutes(5)))
struct QuizBoardRoutesTests {
    /// Rules that keep the best points of one quiz (`quiz`), by week and all time.
    static func rules(quiz: String) -> GameRules {
        GameRules(boards: BoardCatalog(rules: BoardRule.defaults + [
            BoardRule(scope: "quiz:\(quiz)", windows: [.week, .all], metric: .points, aggregate: .best),
        ]))
    }

    @Test("a quiz board ranks each player's best run; every read of it agrees; a quiz no rule names is 404")
    func quizBoardPages() async throws {
        let quiz = "Fractions:3@\(unique("v"))"
        let harness = try await HTTPHarness(rules: Self.rules(quiz: quiz))
        try await harness.run { client in
            let group = unique("class")
            let (ann, bob, cy, dee) = (unique("ann"), unique("bob"), unique("cy"), unique("dee"))
            // Points for 5 of 10: easy 2, medium 3, hard 5. Ann's best 5, Bob's 3, Cy's 2; Dee is not in the class.
            var items: [[String: any Sendable]] = []
            for (user, runs) in [(ann, ["easy", "hard", "medium"]), (bob, ["medium", "easy"]), (cy, ["easy"]), (dee, ["hard"])] {
                for (index, difficulty) in runs.enumerated() {
                    items.append(completionBody(
                        id: "\(user)-\(index)", user: user, topic: "maths", difficulty: difficulty, groups: user == dee ? nil : [group],
                        quiz: quiz))
                }
            }
            let batch = try await client.send(.post, "/v1/completions/batch", key: harness.ingestKey, json: ["completions": items])
            #expect(batch.json["created"] as? Int == 7)

            let base = "/v1/leaderboards/quiz:\(quiz)/week"
            let page = try await client.send(.get, base, key: harness.readKey)
            #expect(page.status == .ok)
            #expect(page.json["board"] as? String == "quiz:\(quiz)")
            #expect(page.json["aggregate"] as? String == "best")
            #expect(page.json["metric"] as? String == "points")
            let entries = page.json["entries"] as? [[String: Any]] ?? []
            let listed = entries.map { "\($0["user_id"] as? String ?? ""):\($0["rank"] as? Int ?? 0):\($0["score"] as? Int ?? 0)" }
            #expect(listed == ["\(ann):1:5", "\(dee):1:5", "\(bob):3:3", "\(cy):4:2"])
            let etag = try #require(page.headers[.eTag])
            #expect(try await client.send(.get, base, key: harness.readKey, headers: [.ifNoneMatch: etag]).status == .notModified)
            // The same path with the id's "@" escaped reads the same board.
            let escaped = try await client.send(.get, base.replacingOccurrences(of: "@", with: "%40"), key: harness.readKey)
            #expect(escaped.json["board"] as? String == "quiz:\(quiz)")

            let csv = try await client.send(.get, "\(base)?format=csv", key: harness.readKey)
            let csvLines = String(buffer: csv.body).components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }
            let csvScores = csvLines.map { line in line.split(separator: ",", omittingEmptySubsequences: false).dropLast().last.map(String.init) ?? "" }
            #expect(csvScores == ["5", "5", "3", "2"], "rank,user_id,display_name,score,medal")
            let around = try await client.send(.get, "\(base)?around=\(bob)&radius=1", key: harness.readKey)
            #expect((around.json["entries"] as? [[String: Any]] ?? []).compactMap { $0["user_id"] as? String } == [dee, bob, cy])
            let compared = try await client.send(.post, "\(base)/compare", key: harness.readKey, json: ["user_ids": [cy, ann]])
            #expect((compared.json["entries"] as? [[String: Any]] ?? []).compactMap { $0["rank"] as? Int } == [1, 4])

            // The class's view of the quiz board: its players with their real ranks, Dee left out.
            let members = try await client.send(.get, "\(base)/members?group=\(group)", key: harness.readKey)
            #expect(members.status == .ok)
            let memberEntries = members.json["entries"] as? [[String: Any]] ?? []
            let listedMembers = memberEntries.map { "\($0["user_id"] as? String ?? ""):\($0["rank"] as? Int ?? 0)" }
            #expect(listedMembers == ["\(ann):1", "\(bob):3", "\(cy):4"])
            #expect(try await client.send(.get, "\(base)/members", key: harness.readKey).errorFields == ["group"])
            #expect(try await client.send(.get, "\(base)/members?group=Class", key: harness.readKey).errorFields == ["group"])

            // The board list names it, with its aggregate; another quiz has no board.
            let list = try await client.send(.get, "/v1/leaderboards?kind=quiz&prefix=quiz:Fractions", key: harness.readKey)
            let summary = (list.json["boards"] as? [[String: Any]] ?? []).first { $0["board"] as? String == "quiz:\(quiz)" }
            #expect(summary?["aggregate"] as? String == "best")
            #expect(try await client.send(.get, "/v1/leaderboards/quiz:other-\(quiz)/week", key: harness.readKey).status == .notFound)
            let profile = try await client.send(.get, "/v1/users/\(ann)", key: harness.readKey)
            let ranks = (profile.json["ranks"] as? [[String: Any]] ?? []).filter { $0["board"] as? String == "quiz:\(quiz)" }
            #expect(ranks.compactMap { $0["score"] as? Int } == [5, 5], "the profile's ranks: all time and the week")
        }
    }

    @Test("a scoped key reads a group's view of a quiz board only with both patterns")
    func membersViewNeedsBothBoards() async throws {
        let quiz = unique("quiz")
        let harness = try await HTTPHarness(rules: Self.rules(quiz: quiz))
        try await harness.run { client in
            let group = unique("class")
            let item = completionBody(id: unique("c"), user: unique("ann"), topic: "maths", groups: [group], quiz: quiz)
            #expect(try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: item).status == .created)
            func key(_ scopes: [String]) async throws -> String {
                let created = try await client.send(
                    .post, "/v1/admin/api-keys", key: HTTPHarness.adminKey, json: ["name": unique("k"), "role": "read", "scopes": scopes] as [String: any Sendable])
                let secret = created.json["secret"] as? String
                return try #require(secret)
            }
            let path = "/v1/leaderboards/quiz:\(quiz)/week/members?group=\(group)"
            let (quizOnly, groupOnly, both) = (try await key(["quiz:*"]), try await key(["group:\(group)"]), try await key(["quiz:*", "group:\(group)"]))
            #expect(try await client.send(.get, path, key: quizOnly).status == .forbidden)
            #expect(try await client.send(.get, path, key: groupOnly).status == .forbidden)
            #expect(try await client.send(.get, path, key: both).status == .ok)
        }
    }
}
