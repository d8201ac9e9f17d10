import Foundation
import HTTPTypes
import PodiumCore
import PodiumWire
import Testing

/// Teams boards over HTTP: a page of teams, its CSV and ETag, and the player views it has none of.
@Suite("Teams boards over HTTP", .timeLimit(.minutes(5)))
struct TeamBoardRoutesTests {
    @Test("a teams board's page lists the classes by their average per player; player views of it are 404")
    func teamsBoardPage() async throws {
        let school = unique("school")
        let rules = GameRules(boards: BoardCatalog(rules: BoardRule.defaults + [
            BoardRule(scope: "team:\(school)", windows: [.week], teams: ["\(school)-*"], teamScore: .average),
        ]))
        let harness = try await HTTPHarness(rules: rules)
        try await harness.run { client in
            let (big, small) = ("\(school)-5a", "\(school)-5b")
            // 5a: three players of 3 points (average 3); 5b: one player of 5 (average 5).
            var items = (0..<3).map { completionBody(id: "\(big)-\($0)", user: "\(big)-p\($0)", topic: "maths", difficulty: "medium", groups: [big]) }
            items.append(completionBody(id: "\(small)-0", user: "\(small)-p0", topic: "maths", difficulty: "hard", groups: [small]))
            let batch = try await client.send(.post, "/v1/completions/batch", key: harness.ingestKey, json: ["completions": items])
            #expect(batch.json["created"] as? Int == 4)

            let base = "/v1/leaderboards/team:\(school)/week"
            let page = try await client.send(.get, base, key: harness.readKey)
            #expect(page.status == .ok)
            #expect(page.json["players"] as? Int == 2)
            let entries = page.json["entries"] as? [[String: Any]] ?? []
            let listed = entries.map { "\($0["user_id"] as? String ?? ""):\($0["display_name"] as? String ?? ""):\($0["rank"] as? Int ?? 0):\($0["score"] as? Int ?? 0)" }
            #expect(listed == ["group:\(small):\(small):1:5", "group:\(big):\(big):2:3"])
            let etag = try #require(page.headers[.eTag])
            #expect(try await client.send(.get, base, key: harness.readKey, headers: [.ifNoneMatch: etag]).status == .notModified)
            let csv = try await client.send(.get, "\(base)?format=csv", key: harness.readKey)
            #expect(String(buffer: csv.body).hasPrefix("rank,user_id,display_name,score,medal\r\n1,\"group:\(small)\",\"\(small)\",5,\r\n"))

            #expect(try await client.send(.get, "\(base)?around=\(big)-p0", key: harness.readKey).status == .notFound)
            let compared = try await client.send(.post, "\(base)/compare", key: harness.readKey, json: ["user_ids": ["\(big)-p0"]])
            #expect(compared.status == .notFound)
            #expect(try await client.send(.get, "\(base)/members?group=\(big)", key: harness.readKey).status == .notFound)
            let list = try await client.send(.get, "/v1/leaderboards?kind=team", key: harness.readKey)
            #expect((list.json["boards"] as? [[String: Any]] ?? []).compactMap { $0["board"] as? String }.contains("team:\(school)"))
            // A teams board no rule names does not exist.
            #expect(try await client.send(.get, "/v1/leaderboards/team:nobody-\(school)/week", key: harness.readKey).status == .notFound)
        }
    }
}
