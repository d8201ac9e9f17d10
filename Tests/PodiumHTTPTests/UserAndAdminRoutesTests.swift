import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import Logging
import PodiumCore
@testable import PodiumHTTP
import PodiumScheduler
@testable import PodiumStore
import PodiumWire
import Postgres
import Redis
import Testing

@Suite("User, admin and service routes", .timeLimit(.minutes(5)))
struct UserAndAdminRoutesTests {
    @Test func profileHistoryTopicsPreferencesAndErasure() async throws {
        let harness = try await HTTPHarness()
        let user = unique("u")
        try await harness.run { client in
            let times = ["2026-11-25T09:00:00Z", "2026-11-25T10:00:00Z", "2026-11-25T11:00:00Z"]
            for (index, time) in times.enumerated() {
                let body = completionBody(id: "\(user)-\(index)", user: user, topic: index == 1 ? "art" : "math", difficulty: "hard",
                                          correct: 10 - index, completedAt: time)
                #expect(try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body).status == .created)
            }
            let profile = try await client.send(.get, "/v1/users/\(user)", key: harness.readKey)
            #expect(profile.status == .ok)
            let totals = profile.json["totals"] as? [String: Any] ?? [:]
            #expect(totals["points"] as? Int == 15)
            #expect(totals["completions"] as? Int == 3)
            #expect(totals["correct_percent"] as? Double == 90)
            #expect(totals["incorrect_percent"] as? Double == 10)
            let level = profile.json["level"] as? [String: Any] ?? [:]
            #expect(level["level"] as? Int == 2)
            #expect(level["level_starts_at"] as? Int == 10)
            #expect(level["next_level_at"] as? Int == 20)
            #expect(level["points_to_next_level"] as? Int == 5)
            let ranks = profile.json["ranks"] as? [[String: Any]] ?? []
            #expect(ranks.contains { $0["board"] as? String == "topic:art" && $0["window"] as? String == "all" && $0["rank"] as? Int == 1 })

            let page1 = try await client.send(.get, "/v1/users/\(user)/completions?limit=2", key: harness.readKey)
            let items1 = page1.json["items"] as? [[String: Any]] ?? []
            #expect(items1.map { $0["id"] as? String } == ["\(user)-2", "\(user)-1"])
            let cursor = try #require(page1.json["next_cursor"] as? String)
            // 2026-11-25T10:00:00Z in milliseconds, then the id of the last item shown.
            #expect(cursor == "1795600800000.\(user)-1")
            let page2 = try await client.send(.get, "/v1/users/\(user)/completions?limit=2&cursor=\(cursor)", key: harness.readKey)
            #expect((page2.json["items"] as? [[String: Any]] ?? []).map { $0["id"] as? String } == ["\(user)-0"])
            #expect(page2.json["next_cursor"] == nil)
            // A cursor of the earlier, base64url form still pages (a client paging across an upgrade).
            let old = Data("2026-11-25T10:00:00.000Z|\(user)-1".utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            let oldPage = try await client.send(.get, "/v1/users/\(user)/completions?limit=2&cursor=\(old)", key: harness.readKey)
            #expect((oldPage.json["items"] as? [[String: Any]] ?? []).map { $0["id"] as? String } == ["\(user)-0"])
            // Any position of the cursor's shape is one to page after, made up or not.
            let madeUp = try await client.send(.get, "/v1/users/\(user)/completions?cursor=1795597200001.zzz", key: harness.readKey)
            #expect((madeUp.json["items"] as? [[String: Any]] ?? []).map { $0["id"] as? String } == ["\(user)-0"])
            let math = try await client.send(.get, "/v1/users/\(user)/completions?topic=math", key: harness.readKey)
            #expect((math.json["items"] as? [[String: Any]] ?? []).map { $0["id"] as? String } == ["\(user)-2", "\(user)-0"])
            let badCursor = try await client.send(.get, "/v1/users/\(user)/completions?cursor=nonsense", key: harness.readKey)
            #expect(badCursor.errorFields == ["cursor"])
            let badFilters = try await client.send(.get, "/v1/users/\(user)/completions?topic=Bad%20Topic&limit=0", key: harness.readKey)
            #expect(Set(badFilters.errorFields) == ["topic", "limit"])
            let badHistory = try await client.send(.get, "/v1/users/\(user)/rank-history?limit=0&board=planet:x&window=year", key: harness.readKey)
            #expect(badHistory.errorFields == ["limit", "board", "window"])

            let topics = try await client.send(.get, "/v1/users/\(user)/topics", key: harness.readKey)
            let list = topics.json["topics"] as? [[String: Any]] ?? []
            #expect(list.map { $0["topic"] as? String } == ["math", "art"])
            #expect(list.first?["average_accuracy_percent"] as? Double == 90)
            #expect(list.first?["best_accuracy_percent"] as? Double == 100)

            let prefs = try await client.send(.put, "/v1/users/\(user)/preferences", key: harness.ingestKey,
                                              json: ["display_name": "Zoë", "time_zone": "Europe/Paris"])
            #expect(prefs.status == .ok)
            #expect(prefs.json["time_zone"] as? String == "Europe/Paris")
            let badPrefs = try await client.send(.put, "/v1/users/\(user)/preferences", key: harness.ingestKey,
                                                 json: ["time_zone": "Mars/Olympus"])
            #expect(badPrefs.errorFields == ["time_zone"])
            let longName = try await client.send(.put, "/v1/users/\(user)/preferences", key: harness.ingestKey,
                                                 json: ["display_name": String(repeating: "n", count: 65)])
            #expect(longName.errorFields == ["display_name"])
            let board = try await client.send(.get, "/v1/leaderboards/topic:art/all?around=\(user)&radius=0", key: harness.readKey)
            #expect((board.json["entries"] as? [[String: Any]])?.first?["display_name"] as? String == "Zoë")

            #expect(try await client.send(.delete, "/v1/users/\(user)", key: harness.readKey).status == .forbidden)
            #expect(try await client.send(.delete, "/v1/users/\(user)", key: HTTPHarness.adminKey).status == .noContent)
            #expect(try await client.send(.get, "/v1/users/\(user)", key: harness.readKey).status == .notFound)
            // Erasing again searches again: a snapshot job of a test running in parallel may have copied the player
            // while the first erasure ran (204, removed); after that there is nothing left (404).
            var again = try await client.send(.delete, "/v1/users/\(user)", key: HTTPHarness.adminKey)
            if again.status == .noContent { again = try await client.send(.delete, "/v1/users/\(user)", key: HTTPHarness.adminKey) }
            #expect(again.status == .notFound)
            let invalid = try await client.send(.get, "/v1/users/bad%20id", key: harness.readKey)
            #expect(invalid.status == .badRequest)
        }
    }

    @Test("a player's time zone may be any zone of the tz database, old names too, but not an offset such as GMT+5")
    func preferencesTakeEveryZone() async throws {
        let harness = try await HTTPHarness()
        let user = unique("zone")
        try await harness.run { client in
            for zone in ["Asia/Kolkata", "Asia/Calcutta", "America/Argentina/Buenos_Aires"] {
                let answer = try await client.send(.put, "/v1/users/\(user)/preferences", key: harness.ingestKey, json: ["time_zone": zone])
                #expect(answer.status == .ok && answer.json["time_zone"] as? String == zone, "\(zone)")
            }
            let offset = try await client.send(.put, "/v1/users/\(user)/preferences", key: harness.ingestKey, json: ["time_zone": "GMT+5"])
            #expect(offset.status == .badRequest && offset.errorFields == ["time_zone"])
            #expect(try await client.send(.delete, "/v1/users/\(user)", key: HTTPHarness.adminKey).status == .noContent)
        }
    }

    /// Everything of `user` still stored: rows in any table with a `user_id` or `followed_id` column that name the player,
    /// and Redis keys, hash fields, hash values and string values that name it, or sorted sets holding its `member`.
    static func leftovers(of user: String, member: String?, in storage: PodiumStorage) async throws -> [String] {
        var found: [String] = []
        let columns = try await storage.postgres.query("""
            SELECT table_name, column_name FROM information_schema.columns
            WHERE table_schema = 'public' AND column_name IN ('user_id', 'followed_id') ORDER BY table_name, column_name
            """).rows
        for column in columns {
            let (table, name) = (try column.string("table_name"), try column.string("column_name"))
            let rows = try await storage.postgres.query("SELECT count(*) AS n FROM \(table) WHERE \(name) = $1", [user]).rows[0].int("n")
            if rows > 0 { found.append("\(table).\(name): \(rows) rows") }
        }
        var cursor = "0"
        repeat {
            let page = try await storage.redis.command(["SCAN", cursor, "COUNT", "1000"]).array ?? []
            cursor = page.first?.string ?? "0"
            for key in (page.last?.array ?? []).compactMap(\.string) {
                if key.contains(user) { found.append("Redis key \(key)") }
                switch try await storage.redis.command(["TYPE", key]).string {
                case "hash":
                    let texts = (try await storage.redis.command(["HGETALL", key]).array ?? []).compactMap(\.string)
                    if texts.contains(where: { $0.contains(user) }) { found.append("Redis hash \(key) names the player") }
                    if let member, texts.contains(member) { found.append("Redis hash \(key) holds its member") }
                case "zset":
                    if let member, try await storage.redis.command(["ZSCORE", key, member]).string != nil { found.append("Redis board \(key)") }
                case "string":
                    if try await storage.redis.command(["GET", key]).string?.contains(user) == true { found.append("Redis value \(key)") }
                default:
                    break
                }
            }
        } while cursor != "0"
        return found
    }

    /// Each kind of personal data alone (nothing else of the player stored), erased: the first erasure answers 204 and
    /// leaves nothing in PostgreSQL or Redis, the second 404. Requests made with a player token leave one thing: the
    /// token's rate limit bucket in Redis (`podium:rate:player:<id>`, which names the player), so erasing such a player
    /// removes it and answers 204.
    @Test("erasing a player who left only follows, a follower, a contest entry, preferences, reminders or token requests answers 204 and leaves nothing; again, 404")
    func erasureOfEachKindAlone() async throws {
        let secret = "erasure-secret-of-at-least-32-bytes!!"
        try await HTTPHarness.withOwnStores(redisDatabase: .erasure, playerTokens: PlayerTokenSettings(hmacSecrets: ["p1": secret])) { harness in
            let keys = JWTKeyCollection()
            await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256, kid: JWKIdentifier(string: "p1"))
            let admin = HTTPHarness.adminKey
            let contest: [String: any Sendable] = [
                "id": "erasure", "title": "Erasure", "scope": ["global"], "starts_at": "2026-11-25T11:00:00Z",
                "ends_at": "2026-11-25T14:00:00Z", "entry": "join",
            ]
            let kinds = ["follows", "followed", "contest entry", "preferences", "reminders", "player token requests"]
            try await harness.run { client in
                #expect(try await client.send(.post, "/v1/admin/contests", key: admin, json: contest).status == .created)
                for kind in kinds {
                    let user = unique("erased")
                    switch kind {
                    case "follows":
                        #expect(try await client.send(.put, "/v1/users/\(user)/following/someone", key: harness.ingestKey).status == .created)
                    case "followed":
                        #expect(try await client.send(.put, "/v1/users/someone/following/\(user)", key: harness.ingestKey).status == .created)
                    case "contest entry":
                        #expect(try await client.send(.put, "/v1/contests/erasure/entries/\(user)", key: harness.ingestKey).status == .created)
                    case "preferences":
                        let body = ["display_name": "Erin", "time_zone": "Asia/Kolkata"]
                        #expect(try await client.send(.put, "/v1/users/\(user)/preferences", key: harness.ingestKey, json: body).status == .ok)
                    case "reminders":
                        let body = ["reminders": ["enabled": true, "time": "18:00", "days": ["mon"]] as [String: any Sendable]]
                        #expect(try await client.send(.put, "/v1/users/\(user)/preferences", key: harness.ingestKey, json: body).status == .ok)
                    default:
                        let token = try await signPlayerToken(keys, kid: "p1", subject: user, now: harness.now, issuedAt: harness.now)
                        #expect(try await client.send(.get, "/v1/users/\(user)/following", key: token).status == .ok)
                    }
                    let handle = try await harness.storage.postgres.query("SELECT handle FROM users WHERE user_id = $1", [user]).rows.first
                    let member = try handle.flatMap { RankingMember.encode(try $0.int64("handle")) }
                    #expect(try await Self.leftovers(of: user, member: member, in: harness.storage) != [], "\(kind): stored")
                    let first = try await client.send(.delete, "/v1/users/\(user)", key: admin)
                    #expect(first.status == .noContent, "\(kind): \(first.json)")
                    // The erasure's Redis part is repeated for a minute (pending_ranking_erasures), then forgotten.
                    try await harness.storage.rankingSync.applyPendingErasures(now: harness.now.addingTimeInterval(61))
                    #expect(try await Self.leftovers(of: user, member: member, in: harness.storage) == [], "\(kind): left")
                    let second = try await client.send(.delete, "/v1/users/\(user)", key: admin)
                    #expect(second.status == .notFound && second.json["detail"] as? String == "no user \(user)", "\(kind)")
                }
            }
        }
    }

    @Test("admin requests with bad fields name each of them and change nothing")
    func adminFieldErrors() async throws {
        let harness = try await HTTPHarness()
        try await harness.run { client in
            let admin = HTTPHarness.adminKey
            let close = try await client.send(.post, "/v1/admin/periods/planet:x/all/2026-W47/close?dry_run=maybe", key: admin)
            #expect(close.errorFields == ["board", "window", "dry_run"])
            #expect(try await client.send(.get, "/v1/admin/jobs/prune/runs?limit=0", key: admin).errorFields == ["limit"])
            #expect(try await client.send(.get, "/v1/admin/webhooks/1/deliveries?limit=501", key: admin).errorFields == ["limit"])
            #expect(try await client.send(.post, "/v1/admin/webhooks/deliveries/abc/resend", key: admin).errorFields == ["delivery"])
            #expect(try await client.send(.post, "/v1/completions/batch", key: harness.ingestKey, json: [String: String]()).errorFields
                == ["completions"])
            #expect(try await client.send(.post, "/v1/completions/batch", key: harness.ingestKey, json: ["completions": [String]()])
                .errorFields == ["completions"])
        }
    }

    @Test("rankings rebuild over HTTP answers what it wrote, and 409 while another rebuild holds the lease")
    func rebuildRoute() async throws {
        // A database and Redis of its own: a rebuild rewrites every board, and its lease would turn other tests' rebuilds away.
        try await HTTPHarness.withOwnStores(redisDatabase: .rebuildRoute) { harness in
            try await harness.run { client in
                let body = completionBody(id: "rebuild-1", user: "rebuild-u", topic: "math", difficulty: "hard")
                #expect(try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body).status == .created)
                let rebuilt = try await client.send(.post, "/v1/admin/rankings/rebuild", key: HTTPHarness.adminKey)
                #expect(rebuilt.status == .ok)
                #expect(rebuilt.json["boards"] as? Int == 8, "global and topic:math, four windows each")
                #expect(rebuilt.json["entries"] as? Int == 8)
                let key = RankingKeys.board("topic:math", .all, "all")
                #expect(try await harness.storage.redis.command(["ZCARD", key]) == .integer(1))

                try await harness.storage.postgres.query("""
                    INSERT INTO maintenance_leases (name, holder, expires_at) VALUES ('rankings-rebuild', 'other-replica', $1)
                    """, [harness.now.addingTimeInterval(60)])
                let busy = try await client.send(.post, "/v1/admin/rankings/rebuild", key: HTTPHarness.adminKey)
                #expect(busy.status == .conflict)
            }
        }
    }

    @Test func adminManagesKeys() async throws {
        let harness = try await HTTPHarness()
        try await harness.run { client in
            let created = try await client.send(.post, "/v1/admin/api-keys", key: HTTPHarness.adminKey, json: ["name": "widget", "role": "read"])
            #expect(created.status == .created)
            let secret = try #require(created.json["secret"] as? String)
            let id = try #require((created.json["key"] as? [String: Any])?["id"] as? String)
            #expect(try await client.send(.get, "/v1/leaderboards/global/all", key: secret).status == .ok)
            let list = try await client.send(.get, "/v1/admin/api-keys", key: HTTPHarness.adminKey)
            #expect((list.json["keys"] as? [[String: Any]] ?? []).contains { $0["id"] as? String == id && $0["secret"] == nil })
            let bad = try await client.send(.post, "/v1/admin/api-keys", key: HTTPHarness.adminKey, json: ["name": "", "role": "root"])
            #expect(Set(bad.errorFields) == ["name", "role"])
            let lateControl = String(repeating: "k", count: 70) + "\u{1b}"
            let badName = try await client.send(.post, "/v1/admin/api-keys", key: HTTPHarness.adminKey, json: ["name": lateControl, "role": "read"])
            #expect(badName.status == .badRequest)
            #expect(badName.errorFields == ["name"])
            #expect(try await client.send(.delete, "/v1/admin/api-keys/\(id)", key: HTTPHarness.adminKey).status == .noContent)
            #expect(try await client.send(.get, "/v1/leaderboards/global/all", key: secret).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/admin/api-keys", key: harness.readKey).status == .forbidden)
            #expect(created.json["display_url"] == nil, "only display keys get a display link")

            // A display key's answer carries the link a teacher opens on the classroom screen, and the link's key reads the board.
            let display = try await client.send(.post, "/v1/admin/api-keys", key: HTTPHarness.adminKey,
                                                json: ["name": "Room 12 TV", "role": "display", "scopes": ["group:*", "group:5c", "global"]] as [String: any Sendable])
            let displaySecret = try #require(display.json["secret"] as? String)
            let link = try #require(display.json["display_url"] as? String)
            #expect(link.hasPrefix("http://") && link.hasSuffix("/display/group:5c/week#key=\(displaySecret)"), "\(link)")
            let path = try #require(link.split(separator: "#").first.flatMap { URL(string: String($0))?.path })
            #expect(try await client.send(.get, path, key: nil, headers: [.accept: "text/html"]).status == .ok)
            #expect(try await client.send(.get, "/v1/leaderboards/group:5c/week", key: displaySecret).status == .ok)
        }
    }

    /// A display link names the first single board of the key's scopes: a contest's runs, another board's week.
    @Test func displayLinksNameTheFirstSingleBoard() throws {
        let base = "https://podium.example.org"
        let link = { (scopes: [String]) in
            DisplayLink.url(base: base, scopes: scopes.compactMap(BoardPattern.init), secret: "pdm_s") { board in
                board.id == "group:daily" ? [.day, .all] : LeaderboardWindow.allCases
            }
        }
        #expect(link(["group:daily"]) == "https://podium.example.org/display/group:daily/day#key=pdm_s", "a board without a week: its first window")
        #expect(link(["contest:friday-quiz", "group:5c"]) == "https://podium.example.org/display/contest:friday-quiz/contest#key=pdm_s")
        #expect(link(["group:*", "topic:math"]) == "https://podium.example.org/display/topic:math/week#key=pdm_s")
        #expect(link(["group:*", "topic:*"]) == nil)
    }

    @Test func healthReadinessMetricsAndUnknownRoutes() async throws {
        let harness = try await HTTPHarness()
        try await harness.run { client in
            #expect(try await client.send(.get, "/healthz", key: nil).json["status"] as? String == "ok")
            let ready = try await client.send(.get, "/readyz", key: nil)
            #expect(ready.status == .ok)
            #expect(ready.json["postgres"] as? String == "ok")
            #expect(ready.json["redis"] as? String == "ok")
            let openapi = try await client.send(.get, "/openapi.json", key: nil)
            #expect(openapi.json["openapi"] as? String == "3.1.0")
            let body = completionBody(id: unique("c"), user: unique("u"), topic: "metrics")
            #expect(try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body).status == .created)
            let metrics = try await client.send(.get, "/metrics", key: nil)
            let text = String(buffer: metrics.body)
            #expect(text.contains("podium_completions_recorded_total{outcome=\"created\"}"))
            #expect(text.contains("podium_http_request_duration_seconds_bucket"))
            let missing = try await client.execute(uri: "/v2/nothing", method: .get)
            #expect(missing.status == .notFound)
            #expect(missing.headers[.contentType] == "application/problem+json")
            // Error answers are counted too, under their status and as errors of their class, by route template.
            #expect(try await client.send(.get, "/v1/users/u-1", key: nil).status == .unauthorized)
            let after = String(buffer: try await client.send(.get, "/metrics", key: nil).body)
            func value(_ name: String, _ labels: [String]) -> Double {
                let line = after.split(separator: "\n").first { line in line.hasPrefix(name + "{") && labels.allSatisfy { line.contains($0) } }
                return (line?.split(separator: " ").last).flatMap { Double($0) } ?? 0
            }
            let route = "route=\"/v1/users/{id}\""
            #expect(value("podium_http_requests_total", [route, "method=\"GET\"", "status=\"401\""]) >= 1)
            #expect(value("podium_http_request_errors_total", [route, "status_class=\"4xx\""]) >= 1)
            #expect(value("podium_http_request_duration_seconds_count", [route]) >= 1)
            #expect(value("podium_http_requests_total", ["route=\"unmatched\"", "status=\"404\""]) >= 1, "no raw path as a label")
            #expect(!after.contains("/v2/nothing"))
        }
    }

    @Test("a request id is taken from X-Request-Id or made, and answered in the header and in problem bodies")
    func requestIDsAreAnswered() async throws {
        let harness = try await HTTPHarness()
        try await harness.run { client in
            var headers = HTTPFields()
            headers[RequestID.header] = "trace-abc.123"
            let sent = try await client.execute(uri: "/v1/users/u-1", method: .get, headers: headers)
            #expect(sent.status == .unauthorized)
            #expect(sent.headers[RequestID.header] == "trace-abc.123")
            #expect(sent.json["request_id"] as? String == "trace-abc.123")
            let made = try await client.execute(uri: "/healthz", method: .get)
            let id = made.headers[RequestID.header] ?? ""
            #expect(id.count == 16 && id.allSatisfy(\.isHexDigit), "\(id)")
            let other = try await client.execute(uri: "/healthz", method: .get).headers[RequestID.header]
            #expect(other != id, "each request gets its own")
            for unusable in [String(repeating: "x", count: 129), "two words"] {
                headers[RequestID.header] = unusable
                let answer = try await client.execute(uri: "/v2/nothing", method: .get, headers: headers)
                let replaced = answer.headers[RequestID.header] ?? ""
                #expect(replaced.count == 16 && replaced != unusable)
                #expect(answer.json["request_id"] as? String == replaced)
            }
        }
    }

    @Test func unreachableDatabaseAnswers503AndReadinessSaysSo() async throws {
        let deadPostgres = PostgresPool(
            configuration: PostgresConfiguration(connectionString: "host=127.0.0.1 port=1 user=postgres dbname=none", poolSize: 2),
            logger: Self.logger)
        let redis = RedisClient(configuration: try RedisConfiguration(url: HTTPHarness.redisURL), logger: Self.logger)
        try await withReplica(postgres: deadPostgres, redis: redis) { client in
            let body = completionBody(id: unique("c"), user: unique("u"), topic: "outage")
            let posted = try await client.send(.post, "/v1/completions", key: HTTPHarness.adminKey, json: body)
            #expect(posted.status == .serviceUnavailable)
            #expect(posted.json["code"] as? String == "unavailable")
            let ready = try await client.send(.get, "/readyz", key: nil)
            #expect(ready.status == .serviceUnavailable)
            #expect(ready.json["status"] as? String == "not ready")
            #expect(ready.json["redis"] as? String == "ok")
            #expect(ready.json["postgres"] as? String == "unavailable", "the cause (hosts, users) is logged, not answered")
        }
    }

    @Test("with Redis unreachable a replica stays ready, degraded, and still records completions")
    func unreachableRedisLeavesTheReplicaReadyButDegraded() async throws {
        let postgres = PostgresPool(
            configuration: PostgresConfiguration(connectionString: HTTPHarness.databaseURL, poolSize: 2), logger: Self.logger)
        let deadRedis = RedisClient(configuration: RedisConfiguration(port: 1, connectTimeout: .milliseconds(200)), logger: Self.logger)
        try await withReplica(postgres: postgres, redis: deadRedis) { client in
            let ready = try await client.send(.get, "/readyz", key: nil)
            #expect(ready.status == .ok)
            #expect(ready.json["status"] as? String == "degraded")
            #expect(ready.json["postgres"] as? String == "ok")
            #expect(ready.json["redis"] as? String == "unavailable")
            let body = completionBody(id: unique("c"), user: unique("u"), topic: "no-redis")
            let posted = try await client.send(.post, "/v1/completions", key: HTTPHarness.adminKey, json: body)
            #expect(posted.status == .created)
            #expect(posted.json["rankings_live"] as? Bool == false)
        }
    }

    static let logger = Logger(label: "podium-http-tests")

    /// Runs `body` against a replica on the given pools (one of them pointing at a server that does not answer), then closes them.
    func withReplica(postgres: PostgresPool, redis: RedisClient, _ body: @Sendable (APIClient) async throws -> Void) async throws {
        let now = instant("2026-11-25T12:00:00Z")
        // The suite's first test may run on a fresh database another test is still migrating: migrate (or wait) first.
        // A pool that cannot reach its database leaves the migration to the test that expects the failure.
        _ = try? await Migrator(pool: postgres, logger: Self.logger).migrate(try Migration.bundled())
        let storage = PodiumStorage(postgres: postgres, redis: redis, rules: GameRules(), logger: Self.logger, now: { now })
        let runs = JobRunStore(postgres: postgres)
        let scheduler = Scheduler(
            store: runs, settings: SchedulerSettings(), jobs: BuiltInJobs.all(storage: storage, runs: runs), replica: "degraded",
            now: { now }, logger: Self.logger)
        let router = try await PodiumApplication.router(
            storage: storage, scheduler: scheduler, runs: runs, settings: HTTPSettings(bootstrapAdminKey: HTTPHarness.adminKey, rateLimits: HTTPHarness.unlimited),
            registry: HTTPHarness.registry, logger: Self.logger, now: { now })
        let contract = try OpenAPIContract(document: try OpenAPIDocument.data())
        do {
            try await Application(router: router).test(.router) { try await body(APIClient(client: $0, contract: contract)) }
        } catch {
            await postgres.close()
            await redis.close()
            throw error
        }
        await postgres.close()
        await redis.close()
    }

    @Test("the docs page's access link serves docs/ACCESS.md as it is in the repository")
    func accessDocumentIsServedAsInTheRepository() async throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let source = try String(contentsOf: repository.appendingPathComponent("docs/ACCESS.md"), encoding: .utf8)
        let page = try String(contentsOf: repository.appendingPathComponent("Sources/PodiumHTTP/Resources/docs/index.html"), encoding: .utf8)
        #expect(page.contains(#"<a href="/docs/ACCESS.txt">"#))
        let harness = try await HTTPHarness()
        try await harness.run { client in
            let served = try await client.execute(uri: "/docs/ACCESS.txt", method: .get)
            #expect(served.status == .ok)
            #expect(served.headers[.contentType] == "text/plain; charset=utf-8")
            #expect(String(buffer: served.body) == source, "copy docs/ACCESS.md to Sources/PodiumHTTP/Resources/docs/ACCESS.txt")
        }
    }

    @Test func everyRouteIsInTheOpenAPIDocument() async throws {
        let harness = try await HTTPHarness()
        let routes = Set(harness.router.routes.map { route in
            "\(route.method.rawValue) " + route.path.description.split(separator: "/", omittingEmptySubsequences: false).map { part in
                part.hasPrefix(":") ? "{\(part.dropFirst())}" : String(part)
            }.joined(separator: "/")
        })
        #expect(routes.count >= 16)
        // The console and the docs are HTML apps over the API, not part of it.
        #expect(routes.subtracting(["GET /console", "GET /console/{file}", "GET /docs", "GET /docs/{file}"]) == harness.contract.operations)
    }
}
