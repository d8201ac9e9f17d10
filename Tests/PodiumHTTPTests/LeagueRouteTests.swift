import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import PodiumCore
import PodiumHTTP
@testable import PodiumStore
import Testing

/// Leagues over HTTP on real PostgreSQL and Redis: each test's league counts a topic of its own, so the shared test
/// database's other completions never enter it. A second harness, a week later on the same stores, closes the week.
@Suite("Leagues over HTTP: defined, played, read by players, dry run and close", .serialized, .timeLimit(.minutes(5)))
struct LeagueRouteTests {
    static let secret = "league-routes-secret-of-at-least-32-bytes"
    static let tokens = PlayerTokenSettings(hmacSecrets: ["k1": secret], maxLifetime: 3600)

    /// A player token of `user` at `now`.
    static func token(_ user: String, now: Date) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256, kid: JWKIdentifier(string: "k1"))
        return try await signPlayerToken(keys, kid: "k1", subject: user, now: now, issuedAt: now)
    }

    /// A league `id` of `topic`'s completions: tiers bronze and silver, cohorts of 5, one up and one down.
    static func twoTierLeague(id: String, topic: String) -> [String: any Sendable] {
        [
            "id": id, "name": "League \(topic)", "scope": ["topic:\(topic)"], "cohort_size": 5, "up": 1, "down": 1,
            "tiers": [["name": "bronze"], ["name": "silver"]] as [[String: any Sendable]],
        ]
    }

    @Test("a replay places no one over HTTP: a completion dated ahead, posted before its league was created or while it was paused, then posted again")
    func replaysPlaceNoOne() async throws {
        let harness = try await HTTPHarness(now: instant("2026-11-25T12:00:00Z").addingTimeInterval(0.4567))
        let topic = "lgr-\(UUID().uuidString.prefix(8).lowercased())"
        let id = "league-\(topic)"
        let definition = Self.twoTierLeague(id: id, topic: topic)
        let ahead = RFC3339.format(harness.now.addingTimeInterval(120.321))
        let early = completionBody(id: "\(topic)-early", user: "\(topic)-a", topic: topic, completedAt: ahead)
        let paused = completionBody(id: "\(topic)-paused", user: "\(topic)-b", topic: topic, completedAt: ahead)
        try await harness.run { client in
            let first = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: early)
            #expect(first.status == .created)
            #expect(try await client.send(.post, "/v1/admin/leagues", key: HTTPHarness.adminKey, json: definition).status == .created)
            let again = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: early)
            #expect(again.status == .ok && again.body == first.body)
            #expect(try await client.send(.post, "/v1/admin/leagues/\(id)/pause", key: HTTPHarness.adminKey).status == .ok)
            #expect(try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: paused).status == .created)
            #expect(try await client.send(.post, "/v1/admin/leagues/\(id)/resume", key: HTTPHarness.adminKey).status == .ok)
            #expect(try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: paused).status == .ok)
            for user in ["\(topic)-a", "\(topic)-b"] {
                let leagues = try await client.send(.get, "/v1/users/\(user)/leagues", key: harness.readKey)
                #expect((leagues.json["leagues"] as? [[String: Any]])?.isEmpty == true, "\(user) holds no place")
            }
            let dry = try await client.send(.post, "/v1/admin/leagues/\(id)/close?dry_run=true", key: HTTPHarness.adminKey)
            #expect(dry.json["cohorts"] as? Int == 0)
        }
    }

    @Test("a league's created_at is one instant, to the millisecond, in every answer, and a completion played at it counts; an unknown or erased player's leagues are 404")
    func createdAtIsOneInstant() async throws {
        // A clock between two milliseconds, nearer the later one: the instant is stored, shown and compared as .919.
        let harness = try await HTTPHarness(now: instant("2026-11-25T12:00:00Z").addingTimeInterval(0.9187))
        let topic = "lgt-\(UUID().uuidString.prefix(8).lowercased())"
        let id = "league-\(topic)"
        let definition = Self.twoTierLeague(id: id, topic: topic)
        try await harness.run { client in
            let created = try await client.send(.post, "/v1/admin/leagues", key: HTTPHarness.adminKey, json: definition)
            #expect(created.status == .created)
            let createdAt = try #require(created.json["created_at"] as? String)
            #expect(createdAt == "2026-11-25T12:00:00.919Z")
            let shown = try await client.send(.get, "/v1/leagues/\(id)", key: HTTPHarness.adminKey)
            #expect(shown.json["created_at"] as? String == createdAt)
            let listed = try await client.send(.get, "/v1/leagues", key: HTTPHarness.adminKey)
            let entry = (listed.json["leagues"] as? [[String: Any]])?.first { $0["id"] as? String == id }
            #expect(entry?["created_at"] as? String == createdAt)
            let stored = try await harness.storage.postgres.query("""
                SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS t FROM leagues WHERE id = $1
                """, [id]).rows.first?.string("t")
            #expect(stored == createdAt, "PostgreSQL holds the instant the answers show")

            // Played the millisecond before: counts nowhere; played at the reported instant: counts.
            let before = completionBody(id: "\(topic)-before", user: "\(topic)-a", topic: topic, completedAt: "2026-11-25T12:00:00.918Z")
            let at = completionBody(id: "\(topic)-at", user: "\(topic)-b", topic: topic, completedAt: createdAt)
            func leagueBoards(_ answer: TestResponse) -> [String] {
                (answer.json["ranks"] as? [[String: Any]] ?? []).compactMap { $0["board"] as? String }.filter { $0.hasPrefix("league:") }
            }
            let early = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: before)
            #expect(early.status == .created && leagueBoards(early).isEmpty)
            let onTime = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: at)
            #expect(onTime.status == .created && leagueBoards(onTime) == ["league:\(id):bronze:1"])

            // As every /v1/users/{id}/… read: a player Podium never saw, or erased, is 404 (not an empty list).
            #expect(try await client.send(.get, "/v1/users/\(topic)-nobody/leagues", key: harness.readKey).status == .notFound)
            #expect(try await client.send(.get, "/v1/users/\(topic)-b/leagues", key: harness.readKey).status == .ok)
            #expect(try await client.send(.delete, "/v1/users/\(topic)-b", key: HTTPHarness.adminKey).status == .noContent)
            #expect(try await client.send(.get, "/v1/users/\(topic)-b/leagues", key: harness.readKey).status == .notFound)
        }
    }

    @Test("an admin defines a league; players enter, read their tier, rank and zone; the cohort is a board; the dry run and the close move them")
    func lifecycle() async throws {
        let harness = try await HTTPHarness(playerTokens: Self.tokens)
        let topic = "lg-\(UUID().uuidString.prefix(8).lowercased())"
        let id = "league-\(topic)"
        let admin = HTTPHarness.adminKey
        let definition: [String: any Sendable] = [
            "id": id, "name": "Spelling league", "scope": ["topic:\(topic)"], "time_zone": "UTC", "cohort_size": 3, "up": 1, "down": 1,
            "tiers": [["name": "bronze", "title": "Bronze"], ["name": "silver", "title": "Silver"]] as [[String: any Sendable]],
        ]
        let board = "/v1/leaderboards/league:\(id):bronze:1/week"
        let (ann, ben, cal, dee) = ("\(topic)-ann", "\(topic)-ben", "\(topic)-cal", "\(topic)-dee")
        try await harness.run { client in
            let created = try await client.send(.post, "/v1/admin/leagues", key: admin, json: definition)
            #expect(created.status == .created)
            #expect(created.json["status"] as? String == "active" && created.json["cohort_size"] as? Int == 3)
            #expect((created.json["week"] as? [String: Any])?["period"] as? String == "2026-W48")
            #expect((created.json["tiers"] as? [[String: Any]])?.map { "\($0["name"] ?? "") \($0["up"] ?? "") \($0["down"] ?? "")" }
                == ["bronze 1 0", "silver 0 1"])
            #expect(try await client.send(.post, "/v1/admin/leagues", key: admin, json: definition).status == .conflict)
            #expect(try await client.send(.post, "/v1/admin/leagues", key: harness.readKey, json: definition).status == .forbidden)
            let bad = try await client.send(.post, "/v1/admin/leagues", key: admin, json: [
                "id": "x", "name": "X", "scope": ["global"], "cohort_size": 1,
                "tiers": [["name": "low", "down": 2], ["name": "top", "up": 1]] as [[String: any Sendable]],
            ] as [String: any Sendable])
            #expect(bad.status == .badRequest && bad.errorFields == ["cohort_size", "tiers[0].down", "tiers[1].up"])

            // Four players: ann plays three times, ben twice, cal once (cohort 1 full); dee opens cohort 2.
            var answers: [String: TestResponse] = [:]
            for (index, user) in [ann, ann, ann, ben, ben, cal, dee].enumerated() {
                let body = completionBody(id: "\(topic)-\(index)", user: user, topic: topic, displayName: user.capitalized)
                answers[user] = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body)
                #expect(answers[user]?.status == .created)
            }
            let dees = (answers[dee]?.json["ranks"] as? [[String: Any]] ?? []).compactMap { $0["board"] as? String }
            #expect(dees.contains("league:\(id):bronze:2"))

            // The cohort is a board: title and zones, ETag, CSV, around-me, the display page.
            let page = try await client.send(.get, board, key: harness.readKey)
            #expect(page.status == .ok)
            #expect(page.json["title"] as? String == "Spelling league · Bronze · Cohort 1")
            let zones = page.json["league"] as? [String: Any]
            #expect(zones?["promotion"] as? Int == 1 && zones?["relegation"] as? Int == 0 && zones?["tier_title"] as? String == "Bronze")
            #expect((page.json["entries"] as? [[String: Any]])?.compactMap { $0["user_id"] as? String } == [ann, ben, cal])
            let etag = try #require(page.headers[.eTag])
            #expect(try await client.send(.get, board, key: harness.readKey, headers: [.ifNoneMatch: etag]).status == .notModified)
            let csv = String(buffer: try await client.send(.get, board + "?format=csv", key: harness.readKey).body)
            #expect(csv.split(whereSeparator: \.isNewline).count == 4, "a header and three players")
            let around = try await client.send(.get, board + "?around=\(cal)&radius=1", key: harness.readKey)
            #expect((around.json["entries"] as? [[String: Any]])?.compactMap { $0["rank"] as? Int } == [2, 3])
            #expect(try await client.send(.get, "/v1/leaderboards/league:\(id):ruby:1/week", key: harness.readKey).status == .notFound)
            #expect(try await client.send(.get, "/display/league:\(id):bronze:1/week", key: nil).status == .ok)
            let friends = try await client.send(.get, board + "/friends?user=\(ann)", key: harness.readKey)
            #expect(friends.status == .ok)
            let live = try await client.execute(uri: board + "/live", method: .get, headers: [.authorization: "Bearer \(harness.readKey)"])
            #expect(live.status == .ok && String(buffer: live.body).contains("event: page"), "a live stream of the cohort")
            // A snapshot of the cohort, as the snapshot job stores every open period's (the job itself would snapshot
            // every board of the shared test database); rank history reads it back.
            let key = BoardPeriodKey(board: "league:\(id):bronze:1", window: .week, period: "2026-W48")
            let top = try await harness.storage.leaderboards.read(board: key.board, window: .week, period: key.period, slice: .page(offset: 0, limit: 10))
            #expect(try await harness.storage.snapshots.record(key, takenAt: harness.now, players: top.players, entries: top.entries))
            let snapshots = try await client.send(.get, board + "/snapshots", key: harness.readKey)
            #expect((snapshots.json["snapshots"] as? [[String: Any]])?.map { $0["players"] as? Int } == [3])
            let history = try await client.send(.get, "/v1/users/\(cal)/rank-history?board=league:\(id):bronze:1&window=week", key: harness.readKey)
            #expect((history.json["points"] as? [[String: Any]])?.map { "\($0["period"] ?? "") \($0["rank"] ?? "")" } == ["2026-W48 3"])
            // A player reads their own league (tier, cohort, rank, zone, time left), also in the profile; not another's.
            let annToken = try await Self.token(ann, now: harness.now)
            let mine = try await client.send(.get, "/v1/users/\(ann)/leagues", key: annToken)
            #expect(mine.status == .ok)
            let standing = try #require((mine.json["leagues"] as? [[String: Any]])?.first)
            #expect(standing["league"] as? String == id && standing["tier"] as? String == "bronze" && standing["rank"] as? Int == 1)
            #expect(standing["board"] as? String == "league:\(id):bronze:1" && standing["players"] as? Int == 3)
            #expect(standing["zone"] as? String == "promotion")
            #expect(standing["seconds_left"] as? Int == 4 * 86_400 + 12 * 3600, "Wednesday noon to Monday 00:00")
            let calls = try await client.send(.get, "/v1/users/\(cal)/leagues", key: harness.readKey)
            #expect((calls.json["leagues"] as? [[String: Any]])?.first?["zone"] as? String == "safe", "no relegation from the bottom tier")
            #expect(try await client.send(.get, "/v1/users/\(ben)/leagues", key: annToken).status == .forbidden)
            #expect(try await client.send(.get, board, key: annToken).status == .ok, "a player reads the cohorts of a league it may read")
            let profile = try await client.send(.get, "/v1/users/\(ann)", key: annToken)
            #expect((profile.json["leagues"] as? [[String: Any]])?.first?["tier_title"] as? String == "Bronze")

            // The dry run shows the moves; the week cannot close before its end.
            let dry = try await client.send(.post, "/v1/admin/leagues/\(id)/close?dry_run=true", key: admin)
            #expect(dry.status == .ok && dry.json["outcome"] as? String == "dry-run" && dry.json["cohorts"] as? Int == 2)
            let bronze = (dry.json["tiers"] as? [[String: Any]])?.first
            #expect(bronze?["promoted"] as? Int == 2 && bronze?["stayed"] as? Int == 2 && bronze?["players"] as? Int == 4)
            let first = (dry.json["cohort_results"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]
            #expect(first?.map { "\($0["user_id"] ?? "") \($0["move"] ?? "") \($0["next_tier"] ?? "") \($0["display_name"] ?? "")" }
                == ["\(ann) promoted silver \(ann.capitalized)", "\(ben) stayed bronze \(ben.capitalized)", "\(cal) stayed bronze \(cal.capitalized)"])
            #expect(try await client.send(.post, "/v1/admin/leagues/\(id)/close", key: admin).status == .conflict)
            #expect(try await client.send(.post, "/v1/admin/leagues/\(id)/close?period=2026-X48", key: admin).status == .badRequest)
            #expect(try await client.send(.post, "/v1/admin/leagues/\(id)/close?dry_run=true&tier=ruby", key: admin).status == .notFound)
            #expect(try await client.send(.post, "/v1/admin/leagues/\(id)/close?dry_run=true&period=2026-W60", key: admin).status == .notFound)
            #expect(try await client.send(.post, "/v1/admin/leagues/no-such/close", key: admin).status == .notFound)
            // Webhooks subscribe to the league events like any other.
            let hook = try await client.send(.post, "/v1/admin/webhooks", key: admin, json: [
                "url": "https://example.com/\(topic)", "event_types": ["league.promoted", "league.relegated", "league.stayed"],
                "secret": "a-secret-of-sixteen-characters",
            ] as [String: any Sendable])
            #expect(hook.status == .created)
            let hookID = try #require(hook.json["id"] as? String)
            #expect(try await client.send(.delete, "/v1/admin/webhooks/\(hookID)", key: admin).status == .noContent)
        }

        // Two weeks later, on the same stores: weeks close in turn; the close moves ann up; she reads silver, not placed
        // in this week.
        let later = try await HTTPHarness(now: instant("2026-12-08T12:00:00Z"), playerTokens: Self.tokens)
        try await later.storage.contests.refresh()  // what a replica's ContestRefreshService does at start
        try await later.run { client in
            let early = try await client.send(.post, "/v1/admin/leagues/\(id)/close?period=2026-W49", key: admin)
            #expect(early.status == .conflict && early.json["detail"] as? String == "week 2026-W48 of league \(id) is not closed yet: close it first")
            let closed = try await client.send(.post, "/v1/admin/leagues/\(id)/close?period=2026-W48", key: admin)
            #expect(closed.status == .ok && closed.json["outcome"] as? String == "closed" && closed.json["closed_cohorts"] as? Int == 2)
            let again = try await client.send(.post, "/v1/admin/leagues/\(id)/close?period=2026-W48", key: admin)
            #expect(again.status == .ok && again.json["closed_cohorts"] as? Int == 2, "closing again changes nothing")
            let mine = try await client.send(.get, "/v1/users/\(ann)/leagues", key: try await Self.token(ann, now: later.now))
            let standing = try #require((mine.json["leagues"] as? [[String: Any]])?.first)
            #expect(standing["tier"] as? String == "silver" && standing["board"] == nil && standing["rank"] == nil)
            let final = try await client.send(.get, board + "?period=2026-W48", key: later.readKey)
            #expect(final.json["status"] as? String == "closed")
            #expect((final.json["entries"] as? [[String: Any]])?.compactMap { $0["medal"] as? String } == ["gold", "silver", "bronze"])
            // The close's events, in the outbox that the feed and webhooks read (other tests' events share it).
            let promoted = try await later.storage.postgres.query("""
                SELECT payload->>'user_id' AS u, payload->>'tier' AS t, payload->>'next_tier' AS n FROM events
                WHERE type = 'league.promoted' AND payload->>'league' = $1 ORDER BY u
                """, [id]).rows.map { "\($0["u"] ?? "") \($0["t"] ?? "") \($0["n"] ?? "")" }
            #expect(promoted == ["\(ann) bronze silver", "\(dee) bronze silver"])

            // Pause, resume, end; an ended league cannot resume.
            for (action, status) in [("pause", "paused"), ("resume", "active"), ("end", "ended")] {
                let changed = try await client.send(.post, "/v1/admin/leagues/\(id)/\(action)", key: admin)
                #expect(changed.status == .ok && changed.json["status"] as? String == status, "\(action)")
            }
            #expect(try await client.send(.post, "/v1/admin/leagues/\(id)/resume", key: admin).status == .conflict)
            let listed = try await client.send(.get, "/v1/leagues", key: later.readKey)
            #expect((listed.json["leagues"] as? [[String: Any]])?.contains { $0["id"] as? String == id && $0["status"] as? String == "ended" } == true)
        }
    }
}
