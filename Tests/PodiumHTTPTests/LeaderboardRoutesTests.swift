import Foundation
import Hummingbird
import HummingbirdTesting
@testable import PodiumHTTP
@testable import PodiumStore
import PodiumCore
import Testing

@Suite("Leaderboard routes", .timeLimit(.minutes(5)))
struct LeaderboardRoutesTests {
    /// Posts completions so that players u0…u4 of a fresh group score 25, 20, 15, 10, 5 (hard = 5 points each).
    func seedGroup(_ client: APIClient, _ harness: HTTPHarness) async throws -> (group: String, users: [String]) {
        let group = unique("g")
        let users = (0..<5).map { "\(group)-u\($0)" }
        var items: [[String: any Sendable]] = []
        for (index, user) in users.enumerated() {
            for round in 0..<(5 - index) {
                items.append(completionBody(id: "\(user)-\(round)", user: user, topic: "lb", difficulty: "hard", groups: [group],
                                            displayName: "Player \(index)"))
            }
        }
        let response = try await client.send(.post, "/v1/completions/batch", key: harness.ingestKey, json: ["completions": items])
        #expect(response.json["created"] as? Int == 15)
        return (group, users)
    }

    @Test func pageWithETagAnd304ThenChangesAfterAWrite() async throws {
        let harness = try await HTTPHarness()
        try await harness.run { client in
            let (group, users) = try await seedGroup(client, harness)
            let path = "/v1/leaderboards/group:\(group)/week?limit=3"
            let page = try await client.send(.get, path, key: harness.readKey)
            #expect(page.status == .ok)
            #expect(page.json["period"] as? String == "2026-W48")
            #expect(page.json["status"] as? String == "open")
            #expect(page.json["players"] as? Int == 5)
            #expect(page.json["starts_at"] as? String == "2026-11-23T00:00:00.000Z")
            #expect(page.json["ends_at"] as? String == "2026-11-30T00:00:00.000Z")
            #expect(page.json["closes_at"] as? String == "2026-11-30T00:15:00.000Z")
            let entries = page.json["entries"] as? [[String: Any]] ?? []
            #expect(entries.map { $0["user_id"] as? String } == Array(users.prefix(3)))
            #expect(entries.map { $0["rank"] as? Int } == [1, 2, 3])
            #expect(entries.map { $0["score"] as? Int } == [25, 20, 15])
            #expect(entries.first?["display_name"] as? String == "Player 0")
            let etag = try #require(page.headers[.eTag])

            let notModified = try await client.send(.get, path, key: harness.readKey, headers: [.ifNoneMatch: etag])
            #expect(notModified.status == .notModified)
            #expect(notModified.body.readableBytes == 0)
            #expect(notModified.headers[.eTag] == etag)
            let weak = try await client.send(.get, path, key: harness.readKey, headers: [.ifNoneMatch: "\"other\", W/\(etag)"])
            #expect(weak.status == .notModified)

            let more = completionBody(id: unique("c"), user: users[2], topic: "lb", difficulty: "hard", groups: [group])
            #expect(try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: more).status == .created)
            let changed = try await client.send(.get, path, key: harness.readKey, headers: [.ifNoneMatch: etag])
            #expect(changed.status == .ok)
            #expect(changed.headers[.eTag] != etag)
            // u2 moved up to tie u1: both rank 2 (their listing order, by arrival, is tested in LeaderboardStoreTests).
            let moved = changed.json["entries"] as? [[String: Any]] ?? []
            #expect(moved.map { $0["rank"] as? Int } == [1, 2, 2])
            #expect(moved.map { $0["score"] as? Int } == [25, 20, 20])
        }
    }

    @Test("with Redis unreachable, pages come from PostgreSQL and are cached like live ones")
    func fallbackPagesAreCached() async throws {
        let harness = try await HTTPHarness(redisURL: "redis://127.0.0.1:1/0")
        try await harness.run { client in
            let (group, users) = try await seedGroup(client, harness)
            let path = "/v1/leaderboards/group:\(group)/week?limit=3"
            let page = try await client.send(.get, path, key: harness.readKey)
            #expect(page.status == .ok)
            #expect(page.json["live"] as? Bool == false)
            let entries = page.json["entries"] as? [[String: Any]] ?? []
            #expect(entries.map { $0["user_id"] as? String } == Array(users.prefix(3)))
            #expect(entries.map { $0["rank"] as? Int } == [1, 2, 3])
            // Another replica's write, unseen by this one's cache: the answer stands for the cache lifetime (60 s here).
            try await harness.storage.postgres.query(
                "UPDATE board_current_scores SET week_score = 100 WHERE board = $1 AND user_id = $2", ["group:\(group)", users[4]])
            let again = try await client.send(.get, path, key: harness.readKey)
            #expect(Data(buffer: again.body) == Data(buffer: page.body), "served from the cache, not from PostgreSQL again")
            let uncached = try await client.send(.get, "/v1/leaderboards/group:\(group)/week?limit=4", key: harness.readKey)
            #expect((uncached.json["entries"] as? [[String: Any]])?.first?["user_id"] as? String == users[4], "a new query reads the write")
            // A completion recorded through this replica (unranked: Redis is down) drops the cached pages at once.
            let body = completionBody(id: unique("c"), user: users[3], topic: "lb", difficulty: "hard", groups: [group])
            #expect(try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body).status == .created)
            let fresh = try await client.send(.get, path, key: harness.readKey)
            #expect((fresh.json["entries"] as? [[String: Any]] ?? []).map { $0["user_id"] as? String } == [users[4], users[0], users[1]])
        }
    }

    @Test func percentEncodedPathSegmentsAreDecoded() async throws {
        let harness = try await HTTPHarness()
        try await harness.run { client in
            let (group, users) = try await seedGroup(client, harness)
            let plain = try await client.send(.get, "/v1/leaderboards/group:\(group)/week", key: harness.readKey)
            let encoded = try await client.send(.get, "/v1/leaderboards/group%3A\(group)/week", key: harness.readKey)
            #expect(encoded.status == .ok)
            #expect(Data(buffer: encoded.body) == Data(buffer: plain.body))
            let profile = try await client.send(.get, "/v1/users/" + users[0].replacingOccurrences(of: "-", with: "%2D"), key: harness.readKey)
            #expect(profile.json["user_id"] as? String == users[0])
            let broken = try await client.send(.get, "/v1/users/u%ZZ1", key: harness.readKey)
            #expect(broken.status == .badRequest)
            let xml = try await client.send(.get, "/v1/leaderboards/group:\(group)/week?format=xml", key: harness.readKey)
            #expect(xml.errorFields == ["format"])
        }
    }

    @Test("CSV prefixes a name that starts a formula, even behind a combining mark, and keeps user ids as they are")
    func csvFormulaGuard() async throws {
        let harness = try await HTTPHarness()
        try await harness.run { client in
            let group = unique("csv")
            let posted = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: completionBody(
                id: "\(group)-1", user: "@\(group)", topic: "lb", difficulty: "hard", groups: [group], displayName: "=\u{301}SUM(1)"))
            #expect(posted.status == .created)
            let csv = try await client.send(.get, "/v1/leaderboards/group:\(group)/all?format=csv", key: harness.readKey)
            #expect(String(buffer: csv.body) == "rank,user_id,display_name,score,medal\r\n1,\"@\(group)\",\"'=\u{301}SUM(1)\",5,\r\n")
        }
    }

    @Test func aroundMeCompareCSVAndBadQueries() async throws {
        let harness = try await HTTPHarness()
        try await harness.run { client in
            let (group, users) = try await seedGroup(client, harness)
            let base = "/v1/leaderboards/group:\(group)/all"
            let top = try await client.send(.get, "\(base)?around=\(users[0])&radius=1", key: harness.readKey)
            #expect((top.json["entries"] as? [[String: Any]] ?? []).map { $0["user_id"] as? String } == [users[0], users[1]])
            #expect((top.json["entries"] as? [[String: Any]] ?? []).map { $0["rank"] as? Int } == [1, 2])
            #expect(top.json["offset"] as? Int == 0)
            let bottom = try await client.send(.get, "\(base)?around=\(users[4])&radius=2", key: harness.readKey)
            #expect((bottom.json["entries"] as? [[String: Any]] ?? []).map { $0["rank"] as? Int } == [3, 4, 5])
            #expect(bottom.json["offset"] as? Int == 2)
            let absent = try await client.send(.get, "\(base)?around=stranger", key: harness.readKey)
            #expect(absent.status == .notFound)

            let compare = try await client.send(.post, "\(base)/compare", key: harness.readKey,
                                                json: ["user_ids": [users[3], users[1], "stranger"]])
            #expect((compare.json["entries"] as? [[String: Any]] ?? []).map { $0["rank"] as? Int } == [2, 4])
            let etag = try #require(compare.headers[.eTag])
            let unchanged = try await client.send(.post, "\(base)/compare", key: harness.readKey,
                                                  json: ["user_ids": [users[3], users[1], "stranger"]], headers: [.ifNoneMatch: etag])
            #expect(unchanged.status == .notModified)
            let others = try await client.send(.post, "\(base)/compare", key: harness.readKey,
                                               json: ["user_ids": [users[3]]], headers: [.ifNoneMatch: etag])
            #expect(others.status == .ok, "another list is another answer")

            let csv = try await client.send(.get, "\(base)?limit=2&format=csv", key: harness.readKey)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(String(buffer: csv.body) == "rank,user_id,display_name,score,medal\r\n1,\"\(users[0])\",\"Player 0\",25,\r\n2,\"\(users[1])\",\"Player 1\",20,\r\n")

            // Accept chooses CSV only when it prefers text/csv to JSON: generated clients list both, JSON first.
            for (accept, csv) in [("text/csv", true), ("application/json, text/csv", false), ("text/csv, application/json", true),
                                  ("application/json;q=0.5, text/csv", true), ("text/csv;q=0.2, */*", false), ("text/csv;q=0", false)] {
                let answer = try await client.send(.get, "\(base)?limit=2", key: harness.readKey, headers: [.accept: accept])
                #expect(answer.headers[.contentType] == (csv ? "text/csv; charset=utf-8" : "application/json; charset=utf-8"), "\(accept)")
            }
            #expect(LeaderboardsController.prefersCSV("application/json, text/csv") == false)

            let bothBad = try await client.send(.get, "/v1/leaderboards/planet:x/year", key: harness.readKey)
            #expect(bothBad.errorFields == ["board", "window"])
            #expect(try await client.send(.get, "\(base)?around=\(users[0])&radius=51", key: harness.readKey).errorFields == ["radius"])
            #expect(try await client.send(.get, "\(base)?around=bad%20id", key: harness.readKey).errorFields == ["around"])
            // `limit` and `offset` do not shape an around-me answer, but a bad one is still refused, never ignored.
            let aroundBadLimit = try await client.send(.get, "\(base)?around=\(users[4])&radius=0&limit=500&offset=-1", key: harness.readKey)
            #expect(aroundBadLimit.errorFields == ["limit", "offset"])
            let aroundWithLimit = try await client.send(.get, "\(base)?around=\(users[4])&radius=0&limit=3", key: harness.readKey)
            #expect((aroundWithLimit.json["entries"] as? [[String: Any]] ?? []).map { $0["user_id"] as? String } == [users[4]])
            for (body, field) in [([String: any Sendable](), "user_ids"), (["user_ids": [String]()], "user_ids"),
                                  (["user_ids": (0...100).map { "u\($0)" }], "user_ids"), (["user_ids": ["ok", "bad id"]], "user_ids[1]")] {
                #expect(try await client.send(.post, "\(base)/compare", key: harness.readKey, json: body).errorFields == [field])
            }
            // A bad board is listed with the body's bad fields, whether the body decoded or not.
            for (body, field) in [(["user_ids": "u1"] as [String: any Sendable], "user_ids"), (["user_ids": ["bad id"]], "user_ids[0]")] {
                #expect(try await client.send(.post, "/v1/leaderboards/planet:x/all/compare", key: harness.readKey, json: body).errorFields
                    == ["board", field])
            }

            let badWindow = try await client.send(.get, "/v1/leaderboards/global/year", key: harness.readKey)
            #expect(badWindow.errorFields == ["window"])
            let badBoard = try await client.send(.get, "/v1/leaderboards/planet:x/all", key: harness.readKey)
            #expect(badBoard.errorFields == ["board"])
            // A malformed name is a bad request; a well-formed name the window does not have is a period that does not exist.
            let badPeriod = try await client.send(.get, "/v1/leaderboards/global/week?period=week-54", key: harness.readKey)
            #expect(badPeriod.errorFields == ["period"])
            let noPeriod = try await client.send(.get, "/v1/leaderboards/global/week?period=2026-W54", key: harness.readKey)
            #expect(noPeriod.status == .notFound)
            #expect(noPeriod.json["detail"] as? String == "board global has no week period 2026-W54 (e.g. 2026-W47)")
            let badLimit = try await client.send(.get, "\(base)?limit=0&offset=-1", key: harness.readKey)
            #expect(Set(badLimit.errorFields) == ["limit", "offset"])
            let pastWeek = try await client.send(.get, "/v1/leaderboards/group:\(group)/week?period=2026-W47", key: harness.readKey)
            #expect(pastWeek.json["status"] as? String == "closed")
            #expect(pastWeek.json["players"] as? Int == 0)
        }
    }

    @Test func boardListAndSnapshotListCarryETagsAnd304() async throws {
        let harness = try await HTTPHarness()
        try await harness.run { client in
            let (group, _) = try await seedGroup(client, harness)
            let path = "/v1/leaderboards/group:\(group)/week/snapshots"
            let first = try await client.send(.get, path, key: harness.readKey)
            #expect(first.status == .ok)
            let etag = try #require(first.headers[.eTag])
            let again = try await client.send(.get, path, key: harness.readKey, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            let stale = try await client.send(.get, path, key: harness.readKey, headers: [.ifNoneMatch: "\"stale\""])
            #expect(stale.status == .ok)
            #expect(stale.headers[.eTag] == etag)
            // The board list grows whenever a test running in parallel scores a new board: unchanged, it is a 304;
            // changed, a 200 with another ETag. Other tests end, so a quiet moment comes within a few tries.
            var revalidations: [HTTPResponse.Status] = []
            for _ in 0..<50 where revalidations.last != .notModified {
                let list = try await client.send(.get, "/v1/leaderboards", key: harness.readKey)
                // Contests and leagues other tests created (in the shared database) keep their own zones.
                let calendarBoards = (list.json["boards"] as? [[String: Any]] ?? []).filter {
                    !(($0["board"] as? String ?? "").hasPrefix("contest:") || ($0["board"] as? String ?? "").hasPrefix("league:"))
                }
                let zones = Set(calendarBoards.compactMap { $0["time_zone"] as? String })
                #expect(zones == ["UTC"], "boards without a zone of their own say UTC, not Foundation's GMT")
                let listTag = try #require(list.headers[.eTag])
                let revalidated = try await client.send(.get, "/v1/leaderboards", key: harness.readKey, headers: [.ifNoneMatch: listTag])
                if revalidated.status == .notModified {
                    #expect(revalidated.body.readableBytes == 0)
                } else {
                    #expect(revalidated.status == .ok)
                    #expect(revalidated.headers[.eTag] != listTag)
                    try await Task.sleep(for: .milliseconds(100))
                }
                revalidations.append(revalidated.status)
            }
            #expect(revalidations.last == .notModified, "\(revalidations)")
        }
    }

    @Test func displayPageIsServedWithoutAKeyAndChecksItsBoard() async throws {
        var rules = GameRules()
        rules.boards = BoardCatalog(rules: BoardRule.defaults.filter { $0.scope != "group:*" } + [BoardRule(scope: "group:*", windows: [.all])])
        let harness = try await HTTPHarness(rules: rules)
        try await harness.run { client in
            let page = try await client.send(.get, "/display/topic:math/week?period=2026-W47&limit=20", key: nil)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.contentSecurityPolicy]?.contains("connect-src 'self'") == true)
            #expect(page.headers[.xContentTypeOptions] == "nosniff")
            let html = String(decoding: Data(buffer: page.body), as: UTF8.self)
            #expect(html.hasPrefix("<!doctype html>"))
            #expect(html.contains("/v1/leaderboards/"))
            #expect(!html.contains("topic:math"), "nothing from the request is written into the page")
            #expect(try await client.send(.get, "/display/group:class-1/week", key: nil).status == .notFound)
            let bad = try await client.send(.get, "/display/planet:mars/decade", key: nil)
            #expect(bad.status == .badRequest)
            #expect(bad.errorFields == ["board", "window"])
            let badPeriod = try await client.send(.get, "/display/global/week?period=November", key: nil)
            #expect(badPeriod.errorFields == ["period"])
            #expect(try await client.send(.get, "/display/global/week?period=2026-11", key: nil).status == .notFound)
            #expect(try await client.send(.get, "/display/global/week?refresh=3601&limit=0", key: nil).errorFields == ["limit", "refresh"])
            let longTitle = String(repeating: "t", count: 101)
            #expect(try await client.send(.get, "/display/global/week?title=\(longTitle)", key: nil).errorFields == ["title"])

            // A browser that opens a bad link gets a page that explains it, not problem+json.
            let explained = try await client.send(.get, "/display/planet:mars/decade", key: nil, headers: [.accept: "text/html,*/*"])
            #expect(explained.status == .badRequest)
            #expect(explained.headers[.contentType] == "text/html; charset=utf-8")
            #expect(explained.headers[.contentSecurityPolicy] == DisplayPage.contentSecurityPolicy)
            let text = String(buffer: explained.body)
            #expect(text.contains("<h1>This leaderboard link does not work</h1>"))
            #expect(text.contains(
                "<li>board must be global, topic:&lt;name&gt;, group:&lt;name&gt;, contest:&lt;id&gt; or league:&lt;id&gt;:&lt;tier&gt;:&lt;cohort&gt;</li>"),
                "messages are escaped")
            #expect(text.contains("<li>window "))
            let missing = try await client.send(.get, "/display/group:class-1/week", key: nil, headers: [.accept: "text/html"])
            #expect(missing.status == .notFound && String(buffer: missing.body).contains("This leaderboard link does not work"))
        }
    }

    @Test("a display link of a group board nobody played in and no rule, contest or league names is 404, saying so")
    func displayLinkOfAMissingGroupSaysSo() async throws {
        let (played, named, typo) = (unique("played"), unique("named"), unique("typo"))
        var rules = GameRules()
        rules.boards = BoardCatalog(rules: BoardRule.defaults + [BoardRule(scope: "group:\(named)")])
        let harness = try await HTTPHarness(rules: rules)
        try await harness.run { client in
            let body = completionBody(id: "\(played)-1", user: "u-\(played)", topic: "math", groups: [played])
            #expect(try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body).status == .created)
            #expect(try await client.send(.get, "/display/group:\(played)/week", key: nil).status == .ok)
            #expect(try await client.send(.get, "/display/group:\(named)/week", key: nil).status == .ok, "a rule names it: real, if empty")
            let missing = try await client.send(.get, "/display/group:\(typo)/week", key: nil)
            #expect(missing.status == .notFound && missing.json["detail"] as? String
                == "no board group:\(typo): no completion was ever recorded for group \(typo), and no rule, contest or league names it")
            let page = try await client.send(.get, "/v1/leaderboards/group:\(typo)/week", key: harness.readKey)
            #expect(page.status == .ok && page.json["players"] as? Int == 0, "the API still reads any group's board, empty")
        }
    }

    @Test("the board list pages in id order with a cursor, and filters by kind and id prefix")
    func boardListPagesAndFilters() async throws {
        let harness = try await HTTPHarness()
        let district = unique("district")
        let user = unique("pupil")
        try await harness.run { client in
            let body = completionBody(id: "\(user)-1", user: user, topic: district, groups: ["\(district)-a", "\(district)-b", "\(district)-c"])
            #expect(try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body).status == .created)
            func ids(_ answer: TestResponse) -> [String] { (answer.json["boards"] as? [[String: Any]] ?? []).compactMap { $0["board"] as? String } }
            let first = try await client.send(.get, "/v1/leaderboards?prefix=group:\(district)-&limit=2", key: harness.readKey)
            #expect(ids(first) == ["group:\(district)-a", "group:\(district)-b"])
            #expect(first.json["next_cursor"] as? String == "group:\(district)-b")
            let second = try await client.send(
                .get, "/v1/leaderboards?prefix=group:\(district)-&limit=2&cursor=group:\(district)-b", key: harness.readKey)
            #expect(ids(second) == ["group:\(district)-c"])
            #expect(second.json["next_cursor"] == nil, "the last page has no cursor")
            #expect(ids(try await client.send(.get, "/v1/leaderboards?kind=topic&prefix=topic:\(district)", key: harness.readKey))
                == ["topic:\(district)"])
            #expect(ids(try await client.send(.get, "/v1/leaderboards?kind=global", key: harness.readKey)) == ["global"])
            #expect(ids(try await client.send(.get, "/v1/leaderboards?kind=group&prefix=topic:", key: harness.readKey)) == [])
            let bad = try await client.send(.get, "/v1/leaderboards?kind=planet&prefix=group*&cursor=nowhere&limit=0", key: harness.readKey)
            #expect(bad.errorFields == ["limit", "kind", "prefix", "cursor"])
        }
    }

    @Test("display texts are escaped: the five HTML characters become entities")
    func displayTextsAreEscaped() {
        #expect(DisplayPage.escaped(#"<b>"Tom" & 'Jerry'</b>"#) == "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;")
    }

    @Test func windowsFollowTheRulesAndListShowsBoards() async throws {
        var rules = GameRules()
        rules.boards = BoardCatalog(rules: BoardRule.defaults.filter { $0.scope != "group:*" } + [BoardRule(scope: "group:*", windows: [.all])])
        let harness = try await HTTPHarness(rules: rules, publicLeaderboards: true)
        try await harness.run { client in
            let (group, _) = try await seedGroup(client, harness)
            let week = try await client.send(.get, "/v1/leaderboards/group:\(group)/week", key: nil)
            #expect(week.status == .notFound)
            let all = try await client.send(.get, "/v1/leaderboards/group:\(group)/all", key: nil)
            #expect(all.status == .ok)
            let list = try await client.send(.get, "/v1/leaderboards", key: nil)
            let boards = list.json["boards"] as? [[String: Any]] ?? []
            let mine = try #require(boards.first { $0["board"] as? String == "group:\(group)" })
            #expect((mine["windows"] as? [[String: Any]] ?? []).map { $0["window"] as? String } == ["all"])
            let global = try #require(boards.first { $0["board"] as? String == "global" })
            let week2 = (global["windows"] as? [[String: Any]] ?? []).first { $0["window"] as? String == "week" }
            #expect(week2?["period"] as? String == "2026-W48")
            #expect(week2?["medals"] as? Bool == true)
        }
    }
}
