import Foundation
import Hummingbird
import HummingbirdTesting
import PodiumCore
@testable import PodiumStore
import Testing

@Suite("Friends: following, the friends view, friends' progress", .timeLimit(.minutes(5)))
struct FriendsTests {
    @Test("a player follows others; the friends view ranks them with their real ranks; the profile shows their week")
    func followAndRank() async throws {
        let harness = try await HTTPHarness()
        let topic = unique("friends")
        let (alice, bob, carol, dave) = (unique("alice"), unique("bob"), unique("carol"), unique("dave"))
        try await harness.run { client in
            // dave 4 completions, bob 3, alice 2, carol 1: 12, 9, 6 and 3 points on the topic's week (medium is 3 points).
            for (player, count) in [(dave, 4), (bob, 3), (alice, 2), (carol, 1)] {
                for index in 0..<count {
                    let body = completionBody(id: "\(player)-\(index)", user: player, topic: topic)
                    #expect(try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body).status == .created)
                }
            }
            let path = "/v1/users/\(alice)/following"
            #expect(try await client.send(.get, path, key: harness.readKey).json["following"] as? [String] == [])
            let added = try await client.send(.put, "\(path)/\(bob)", key: harness.ingestKey)
            #expect(added.status == .created)
            #expect(added.json["following"] as? [String] == [bob])
            #expect(added.json["maximum"] as? Int == FollowRules.maximumFollowing)
            #expect(try await client.send(.put, "\(path)/\(bob)", key: harness.ingestKey).status == .ok)
            #expect(try await client.send(.put, "\(path)/\(carol)", key: harness.ingestKey).status == .created)
            let yourself = try await client.send(.put, "\(path)/\(alice)", key: harness.ingestKey)
            #expect(yourself.status == .badRequest)
            #expect(yourself.errorFields == ["other"])
            #expect(try await client.send(.get, path, key: harness.readKey).json["following"] as? [String] == [bob, carol].sorted())

            let view = try await client.send(.get, "/v1/leaderboards/topic:\(topic)/week/friends?user=\(alice)", key: harness.readKey)
            #expect(view.status == .ok)
            let entries = view.json["entries"] as? [[String: Any]] ?? []
            #expect(entries.map { "\($0["rank"] as? Int ?? 0) \($0["user_id"] as? String ?? "") \($0["score"] as? Int ?? 0)" } == [
                "2 \(bob) 9", "3 \(alice) 6", "4 \(carol) 3",
            ], "dave is not followed; the others keep their ranks on the whole board")
            let etag = try #require(view.headers[.eTag])
            let again = try await client.send(
                .get, "/v1/leaderboards/topic:\(topic)/week/friends?user=\(alice)", key: harness.readKey, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(try await client.send(.get, "/v1/leaderboards/topic:\(topic)/week/friends", key: harness.readKey).errorFields == ["user"])

            let profile = try await client.send(.get, "/v1/users/\(alice)", key: harness.readKey)
            let friends = profile.json["friends"] as? [[String: Any]] ?? []
            #expect(friends.map { "\($0["user_id"] as? String ?? "") \($0["points_this_week"] as? Int ?? -1) \($0["level"] as? Int ?? 0)" } == [
                "\(bob) 9 1", "\(carol) 3 1",
            ], "most points this week first")
            #expect(friends.allSatisfy { $0["last_active_at"] as? String == "2026-11-25T12:00:00.000Z" })

            #expect(try await client.send(.delete, "\(path)/\(carol)", key: harness.ingestKey).status == .noContent)
            #expect(try await client.send(.delete, "\(path)/\(carol)", key: harness.ingestKey).status == .notFound)

            // Erasing bob takes him off alice's list.
            #expect(try await client.send(.delete, "/v1/users/\(bob)", key: HTTPHarness.adminKey).status == .noContent)
            #expect(try await client.send(.get, path, key: harness.readKey).json["following"] as? [String] == [])
        }
    }

    @Test("a list holds at most the maximum: one more is 409 and changes nothing; a player erased loses their own list")
    func listIsBounded() async throws {
        let harness = try await HTTPHarness()
        let player = unique("collector")
        try await harness.storage.postgres.query("""
            INSERT INTO follows (user_id, followed_id, created_at)
            SELECT $1, 'followed-' || n, $2 FROM generate_series(1, $3) AS n
            """, [player, harness.now, FollowRules.maximumFollowing - 1])
        try await harness.run { client in
            let path = "/v1/users/\(player)/following"
            #expect(try await client.send(.put, "\(path)/last-one", key: harness.ingestKey).status == .created)
            let full = try await client.send(.put, "\(path)/one-too-many", key: harness.ingestKey)
            #expect(full.status == .conflict)
            #expect(full.json["detail"] as? String == "\(player) already follows 200 players, the most allowed; unfollow one first")
            let list = try await client.send(.get, path, key: harness.readKey).json["following"] as? [String] ?? []
            #expect(list.count == FollowRules.maximumFollowing && !list.contains("one-too-many"))
            // A player who only follows (never played) is still erasable: their list goes.
            #expect(try await client.send(.post, "/v1/completions", key: harness.ingestKey,
                                          json: completionBody(id: "\(player)-c", user: player, topic: unique("t"))).status == .created)
            #expect(try await client.send(.delete, "/v1/users/\(player)", key: HTTPHarness.adminKey).status == .noContent)
        }
        let left = try await harness.storage.postgres.query("SELECT count(*) AS n FROM follows WHERE user_id = $1", [player]).rows[0].int("n")
        #expect(left == 0)
    }
}
