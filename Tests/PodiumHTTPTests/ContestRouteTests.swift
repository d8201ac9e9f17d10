import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PodiumCore
import PodiumScheduler
@testable import PodiumStore
import Testing

/// Contests end to end on real PostgreSQL and Redis: on a database and Redis db (5) of their own, because a contest
/// of every player would count the completions of tests sharing the test database.
@Suite("Contests: created, scored, read, joined, closed, cancelled and compared", .serialized, .timeLimit(.minutes(5)))
struct ContestRouteTests {
    /// The board's entries as "rank user score medal".
    static func standings(_ page: TestResponse) -> [String] {
        (page.json["entries"] as? [[String: Any]] ?? []).map {
            "\($0["rank"] as? Int ?? 0) \($0["user_id"] as? String ?? "") \($0["score"] as? Int ?? 0) \($0["medal"] as? String ?? "-")"
        }
    }

    /// Boards a completion's answer ranked it on, as "board period rank".
    static func contestRanks(_ answer: TestResponse) -> [String] {
        (answer.json["ranks"] as? [[String: Any]] ?? []).filter { ($0["window"] as? String) == "contest" }.map {
            "\($0["board"] as? String ?? "") \($0["period"] as? String ?? "") \($0["rank"] as? Int ?? 0)"
        }
    }

    @Test("a contest counts only completions in its run and scope, ranks ties by its policy, closes early with medals, and compares")
    func lifecycle() async throws {
        try await HTTPHarness.withOwnStores(redisDatabase: .contestRoutes) { harness in
            try await harness.run { client in
                let admin = HTTPHarness.adminKey
                let lunch: [String: any Sendable] = [
                    "id": "lunch", "title": "Lunch quiz", "scope": ["group:5c", "group:5d"], "starts_at": "2026-11-25T11:00:00Z",
                    "ends_at": "2026-11-25T13:00:00Z", "tie_break": "earliest", "time_zone": "Europe/London",
                ]
                let created = try await client.send(.post, "/v1/admin/contests", key: admin, json: lunch)
                #expect(created.status == .created)
                #expect(created.json["board"] as? String == "contest:lunch" && created.json["status"] as? String == "running")
                #expect((created.json["current_run"] as? [String: Any])?["period"] as? String == "20261125T1100Z")
                #expect((created.json["current_run"] as? [String: Any])?["closes_at"] as? String == "2026-11-25T13:15:00.000Z")
                #expect(try await client.send(.post, "/v1/admin/contests", key: admin, json: lunch).status == .conflict)
                let bad = try await client.send(.post, "/v1/admin/contests", key: admin, json: ["id": "x", "title": "X", "scope": ["planet:mars"]] as [String: any Sendable])
                #expect(bad.status == .badRequest && bad.errorFields == ["scope", "starts_at", "ends_at"])
                #expect(try await client.send(.post, "/v1/admin/contests", key: harness.readKey, json: lunch).status == .forbidden)

                // b scores 9, a and c 6 each (a first: earliest ranks a above c); d is outside the groups, e played before the start.
                let (a, b, c, d, e) = ("ann", "ben", "cat", "dan", "eve")
                let plays: [(String, String, [String])] = [
                    (a, "11:10", ["5c"]), (a, "11:15", ["5c"]), (b, "11:20", ["5d"]), (b, "11:21", ["5d"]), (b, "11:22", ["5d"]),
                    (c, "11:30", ["5c"]), (c, "11:31", ["5c"]), (d, "11:35", ["4a"]), (e, "10:30", ["5c"]),
                ]
                var answers: [TestResponse] = []
                for (index, (user, time, groups)) in plays.enumerated() {
                    let body = completionBody(id: "lunch-\(index)", user: user, topic: "math", groups: groups, completedAt: "2026-11-25T\(time):00Z")
                    let answer = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body)
                    #expect(answer.status == .created)
                    answers.append(answer)
                }
                #expect(Self.contestRanks(answers[4]) == ["contest:lunch 20261125T1100Z 1"])
                #expect(Self.contestRanks(answers[6]) == ["contest:lunch 20261125T1100Z 3"], "tied with ann, who reached 6 first")
                #expect(Self.contestRanks(answers[7]).isEmpty && Self.contestRanks(answers[8]).isEmpty)

                let path = "/v1/leaderboards/contest:lunch/contest"
                let page = try await client.send(.get, path, key: harness.readKey)
                #expect(page.status == .ok)
                #expect(Self.standings(page) == ["1 \(b) 9 -", "2 \(a) 6 -", "3 \(c) 6 -"])
                #expect(page.json["title"] as? String == "Lunch quiz" && page.json["period"] as? String == "20261125T1100Z")
                #expect(page.json["starts_at"] as? String == "2026-11-25T11:00:00.000Z" && page.json["status"] as? String == "open")
                let etag = try #require(page.headers[.eTag])
                #expect(try await client.send(.get, path, key: harness.readKey, headers: [.ifNoneMatch: etag]).status == .notModified)
                #expect(try await client.send(.get, path + "?period=20261125T1100Z", key: harness.readKey).headers[.eTag] == etag)
                #expect(try await client.send(.get, path + "?period=20261125T1101Z", key: harness.readKey).status == .notFound)
                #expect(try await client.send(.get, "/v1/leaderboards/contest:nope/contest", key: harness.readKey).status == .notFound)
                #expect(try await client.send(.get, "/v1/leaderboards/contest:lunch/week", key: harness.readKey).status == .notFound)
                let around = try await client.send(.get, path + "?around=\(c)&radius=1", key: harness.readKey)
                #expect(Self.standings(around) == ["2 \(a) 6 -", "3 \(c) 6 -"])
                let csv = String(buffer: try await client.send(.get, path + "?format=csv", key: harness.readKey).body)
                #expect(csv.split(whereSeparator: \.isNewline).count == 4, "a header and three players")
                let listed = try await client.send(.get, "/v1/leaderboards?kind=contest", key: harness.readKey)
                #expect((listed.json["boards"] as? [[String: Any]])?.compactMap { $0["board"] as? String } == ["contest:lunch"])

                // The snapshot job takes the open run like any open period; rank history follows it.
                let snapshotJob = SnapshotLeaderboardsJob(
                    periods: harness.storage.periods, leaderboards: harness.storage.leaderboards, snapshots: harness.storage.snapshots, top: 10)
                let taken = try await snapshotJob.run(JobContext(
                    slot: harness.now, attempt: 1, now: { harness.now }, logger: Logger(label: "contest-tests")))
                #expect(taken["snapshots", default: 0] >= 1)
                let snapshots = try await client.send(.get, path + "/snapshots", key: harness.readKey)
                #expect((snapshots.json["snapshots"] as? [[String: Any]])?.map { $0["players"] as? Int } == [3])
                let history = try await client.send(.get, "/v1/users/\(c)/rank-history?board=contest:lunch&window=contest", key: harness.readKey)
                #expect((history.json["points"] as? [[String: Any]])?.map { "\($0["period"] ?? "") \($0["rank"] ?? "")" } == ["20261125T1100Z 3"])

                // A join contest of every player, for two at most.
                let club: [String: any Sendable] = [
                    "id": "club", "title": "Club", "scope": ["global"], "starts_at": "2026-11-25T11:00:00Z", "ends_at": "2026-11-25T14:00:00Z",
                    "entry": "join", "max_players": 2,
                ]
                #expect(try await client.send(.post, "/v1/admin/contests", key: admin, json: club).status == .created)
                let entries = "/v1/contests/club/entries"
                #expect(try await client.send(.put, "\(entries)/\(a)", key: harness.ingestKey).status == .created)
                #expect(try await client.send(.put, "\(entries)/\(a)", key: harness.ingestKey).status == .ok)
                #expect(try await client.send(.put, "\(entries)/\(b)", key: harness.ingestKey).status == .created)
                let full = try await client.send(.put, "\(entries)/\(c)", key: harness.ingestKey)
                #expect(full.status == .conflict && full.json["detail"] as? String == "contest club has 2 players, the most it takes")
                #expect(try await client.send(.put, "/v1/contests/lunch/entries/\(c)", key: harness.ingestKey).status == .conflict)
                #expect(try await client.send(.delete, "\(entries)/\(b)", key: harness.ingestKey).status == .noContent)
                #expect(try await client.send(.delete, "\(entries)/\(b)", key: harness.ingestKey).status == .notFound)
                let shown = try await client.send(.get, "/v1/contests/club", key: harness.readKey)
                #expect(shown.json["players_joined"] as? Int == 1 && shown.json["entry"] as? String == "join")
                for (index, user) in [a, c].enumerated() {
                    let body = completionBody(id: "club-\(index)", user: user, topic: "art", completedAt: "2026-11-25T11:40:00Z")
                    let answer = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body)
                    #expect(Self.contestRanks(answer) == (user == a ? ["contest:club 20261125T1100Z 1"] : []), "only entrants count")
                }
                let contests = try await client.send(.get, "/v1/contests", key: harness.readKey)
                // Both running: the one ending first (lunch, 13:00) leads; filters, search and pages narrow the list.
                #expect((contests.json["contests"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["lunch", "club"])
                #expect(contests.json["total"] as? Int == 2 && contests.json["next_cursor"] == nil)
                let ids = { (query: String) async throws -> [String] in
                    let answer = try await client.send(.get, "/v1/contests?\(query)", key: harness.readKey)
                    return (answer.json["contests"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
                }
                #expect(try await ids("q=LUN") == ["lunch"], "the id, any case")
                #expect(try await ids("q=quiz") == ["lunch"], "the title")
                #expect(try await ids("status=cancelled").isEmpty)
                #expect(try await ids("status=running,ended") == ["lunch", "club"])
                let first = try await client.send(.get, "/v1/contests?limit=1", key: harness.readKey)
                #expect(first.json["total"] as? Int == 2 && first.json["next_cursor"] as? String == "1")
                #expect(try await ids("limit=1&cursor=1") == ["club"])
                #expect(try await client.send(.get, "/v1/contests?status=finished", key: harness.readKey).errorFields == ["status"])

                // Term comparison: a player across the two contests, a group across a contest and its own board's weeks.
                let player = try await client.send(.get, "/v1/comparisons?a=contest:lunch/contest&b=contest:club/contest&user_id=\(a)",
                                                   key: harness.readKey)
                #expect(player.status == .ok)
                let sides = [player.json["a"], player.json["b"]].compactMap { $0 as? [String: Any] }
                #expect(sides.map { "\($0["board"] ?? "") \($0["score"] ?? "") \($0["rank"] ?? "-") \($0["of"] ?? "")" }
                    == ["contest:lunch 6 2 3", "contest:club 3 1 1"])
                #expect(player.json["score_change"] as? Int == -3 && player.json["rank_change"] as? Int == 1)
                #expect(sides.first?["title"] as? String == "Lunch quiz")
                let group = try await client.send(.get, "/v1/comparisons?a=contest:lunch/contest&b=group:5c/week&group=5c", key: harness.readKey)
                let groupSides = [group.json["a"], group.json["b"]].compactMap { $0 as? [String: Any] }
                // 5c holds ann's 6 and cat's 6 in the contest (5d: ben's 9); on its own week board eve's 3 too, against 5d's 9 and 4a's 3.
                #expect(groupSides.map { "\($0["score"] ?? "") \($0["rank"] ?? "-") \($0["of"] ?? "")" } == ["12 1 2", "15 1 3"])
                // The run's group totals, best first, as the classroom display shows them.
                let totals = try await client.send(.get, path + "/groups", key: harness.readKey)
                #expect(totals.status == .ok && totals.json["period"] as? String == "20261125T1100Z")
                #expect((totals.json["groups"] as? [[String: Any]])?.map { "\($0["group"] ?? "") \($0["total"] ?? "") \($0["rank"] ?? "")" }
                    == ["5c 12 1", "5d 9 2"])
                let totalsTag = try #require(totals.headers[.eTag])
                #expect(try await client.send(.get, path + "/groups", key: harness.readKey, headers: [.ifNoneMatch: totalsTag]).status == .notModified)
                let firstOnly = try await client.send(.get, path + "/groups?limit=1", key: harness.readKey)
                #expect((firstOnly.json["groups"] as? [[String: Any]])?.count == 1)
                #expect(try await client.send(.get, path + "/groups?limit=0", key: harness.readKey).errorFields == ["limit"])
                let weekly = try await client.send(.get, "/v1/leaderboards/group:5c/week/groups", key: harness.readKey)
                #expect(weekly.status == .notFound
                    && weekly.json["detail"] as? String == "board group:5c keeps no group totals on its week window: they are kept for contest runs")
                let earlier = try await client.send(.get, "/v1/comparisons?a=group:5c/week/2026-W47&b=group:5c/week&group=5c", key: harness.readKey)
                #expect((earlier.json["a"] as? [String: Any])?["rank"] == nil && earlier.json["score_change"] as? Int == 15)
                let mismatched = try await client.send(.get, "/v1/comparisons?a=global/week&b=group:5c/week&group=5c", key: harness.readKey)
                #expect(mismatched.status == .badRequest && mismatched.errorFields == ["a"])
                #expect(mismatched.json["detail"] as? String == "a must be a contest or the group's own board group:5c when comparing a group")
                #expect(try await client.send(.get, "/v1/comparisons?a=global/week&b=global/week", key: harness.readKey).errorFields == ["user_id"])
                #expect(try await client.send(.get, "/v1/comparisons?a=global&b=global/week&user_id=\(a)", key: harness.readKey)
                    .errorFields == ["a"])

                // Closing the run under way early: dry run first, then for real; a completion played after that misses it.
                let preview = try await client.send(.post, "/v1/admin/contests/lunch/close?dry_run=true", key: admin)
                #expect(preview.json["outcome"] as? String == "dry-run")
                let medals = { (report: TestResponse) in
                    (report.json["medals"] as? [[String: Any]] ?? []).map { "\($0["medal"] ?? "") \($0["user_id"] ?? "")" }
                }
                #expect(medals(preview) == ["gold \(b)", "silver \(a)", "bronze \(c)"])
                #expect(Self.standings(try await client.send(.get, path, key: harness.readKey)).allSatisfy { $0.hasSuffix(" -") })
                #expect(try await client.send(.post, "/v1/admin/contests/lunch/close?period=20261125T1200Z", key: admin).status == .notFound)
                #expect(try await client.send(.post, "/v1/admin/contests/lunch/close?period=noon", key: admin).errorFields == ["period"])
                let closed = try await client.send(
                    .post, "/v1/admin/contests/lunch/close?period=\(preview.json["period"] as? String ?? "")", key: admin)
                #expect(closed.json["outcome"] as? String == "closed" && medals(closed) == medals(preview))
                #expect(try await client.send(.post, "/v1/admin/contests/lunch/close", key: admin).json["outcome"] as? String == "already-closed")
                let shownClosed = try await client.send(.get, "/v1/contests/lunch", key: harness.readKey)
                #expect((shownClosed.json["current_run"] as? [String: Any])?["closed_at"] as? String == "2026-11-25T12:00:00.000Z")
                #expect((shown.json["current_run"] as? [String: Any])?["closed_at"] == nil, "the club's run is still open")
                let final = try await client.send(.get, path, key: harness.readKey)
                #expect(Self.standings(final) == ["1 \(b) 9 gold", "2 \(a) 6 silver", "3 \(c) 6 bronze"])
                #expect(final.json["status"] as? String == "closed")
                let late = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: completionBody(
                    id: "lunch-late", user: c, topic: "math", groups: ["5c"], completedAt: "2026-11-25T11:50:00Z"))
                #expect(Self.contestRanks(late).isEmpty)
                #expect((late.json["missed_periods"] as? [[String: Any]])?.compactMap { $0["board"] as? String } == ["contest:lunch"])
                #expect(Self.standings(try await client.send(.get, path, key: harness.readKey)) == Self.standings(final))

                // Cancelling: the run under way closes without medals and nothing counts any more.
                let hourly: [String: any Sendable] = ["id": "hourly", "title": "Hourly", "scope": ["global"], "cron": "0 * * * *",
                                                      "duration_minutes": 30]
                let hourlyAnswer = try await client.send(.post, "/v1/admin/contests", key: admin, json: hourly)
                #expect(hourlyAnswer.status == .created && hourlyAnswer.json["schedule_words"] as? String == "every hour, on the hour")
                let counted = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: completionBody(
                    id: "hourly-1", user: d, topic: "art", completedAt: "2026-11-25T12:00:00Z"))
                #expect(Self.contestRanks(counted) == ["contest:hourly 20261125T1200Z 1"])
                let cancelled = try await client.send(.post, "/v1/admin/contests/hourly/cancel", key: admin)
                #expect(cancelled.status == .ok && cancelled.json["status"] as? String == "cancelled")
                let again = try await client.send(.post, "/v1/admin/contests/hourly/cancel", key: admin)
                #expect(again.status == .ok && again.json["status"] as? String == "cancelled", "cancelling is idempotent")
                let after = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: completionBody(
                    id: "hourly-2", user: e, topic: "art", completedAt: "2026-11-25T12:00:00Z"))
                #expect(Self.contestRanks(after).isEmpty)
                let hourlyPage = try await client.send(.get, "/v1/leaderboards/contest:hourly/contest", key: harness.readKey)
                #expect(Self.standings(hourlyPage) == ["1 \(d) 3 -"] && hourlyPage.json["status"] as? String == "closed")
            }

            // The scheduler closes the club's run once, at its end plus grace, with the medal of its one player.
            let job = ClosePeriodsJob(periods: harness.storage.periods, closing: harness.storage.closing)
            let context = JobContext(slot: instant("2026-11-25T14:15:00Z"), attempt: 1, now: { instant("2026-11-25T14:15:00Z") },
                                     logger: Logger(label: "contest-tests"))
            #expect(try await job.run(context) == ["closed": 1, "medals": 1, "skipped": 0])
            #expect(try await job.run(context) == ["closed": 0, "medals": 0, "skipped": 0])
            try await harness.run { client in
                let club = try await client.send(.get, "/v1/leaderboards/contest:club/contest", key: harness.readKey)
                #expect(Self.standings(club) == ["1 ann 3 gold"] && club.json["status"] as? String == "closed")
                let medals = try await client.send(.get, "/v1/users/ann/medals", key: harness.readKey)
                #expect((medals.json["medals"] as? [[String: Any]])?.compactMap { $0["board"] as? String }.sorted() == ["contest:club", "contest:lunch"])
            }
        }
    }

    @Test("a run closed early is over, a cancelled contest's page says so, a recurring one names its next run, and a missing league is named")
    func contestStatesAsDisplaysReadThem() async throws {
        try await HTTPHarness.withOwnStores(redisDatabase: .contestRoutes) { harness in
            try await harness.run { client in
                let admin = HTTPHarness.adminKey
                // A one-run contest closed early (at 12:00, an hour before its end) is ended from the close.
                let term: [String: any Sendable] = ["id": "term", "title": "Term", "scope": ["global"],
                                                    "starts_at": "2026-11-25T11:00:00Z", "ends_at": "2026-11-25T13:00:00Z"]
                #expect(try await client.send(.post, "/v1/admin/contests", key: admin, json: term).status == .created)
                #expect(try await client.send(.get, "/v1/contests/term", key: harness.readKey).json["status"] as? String == "running")
                #expect(try await client.send(.post, "/v1/admin/contests/term/close", key: admin).json["outcome"] as? String == "closed")
                #expect(try await client.send(.get, "/v1/contests/term", key: harness.readKey).json["status"] as? String == "ended")
                let ids = { (query: String) async throws -> [String] in
                    let answer = try await client.send(.get, "/v1/contests?\(query)", key: harness.readKey)
                    return (answer.json["contests"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
                }
                #expect(try await ids("status=ended") == ["term"])
                #expect(try await ids("status=running").isEmpty)

                // A contest cancelled before its run: its page is closed and says when it was cancelled.
                let later: [String: any Sendable] = ["id": "later", "title": "Later", "scope": ["global"],
                                                     "starts_at": "2026-11-27T14:00:00Z", "ends_at": "2026-11-27T15:00:00Z"]
                #expect(try await client.send(.post, "/v1/admin/contests", key: admin, json: later).status == .created)
                let before = try await client.send(.get, "/v1/leaderboards/contest:later/contest", key: harness.readKey)
                #expect(before.json["status"] as? String == "open" && before.json["cancelled_at"] == nil)
                #expect(try await client.send(.post, "/v1/admin/contests/later/cancel", key: admin).status == .ok)
                let cancelled = try await client.send(.get, "/v1/leaderboards/contest:later/contest", key: harness.readKey)
                #expect(cancelled.json["status"] as? String == "closed")
                #expect(cancelled.json["cancelled_at"] as? String == "2026-11-25T12:00:00.000Z")
                #expect(cancelled.json["next_starts_at"] == nil, "a one-run contest has no next run")

                // Mondays at 9: on a Wednesday the board shows Monday's run, and when the next one starts.
                let weekly: [String: any Sendable] = ["id": "weekly", "title": "Weekly", "scope": ["global"], "cron": "0 9 * * 1",
                                                      "duration_minutes": 60]
                #expect(try await client.send(.post, "/v1/admin/contests", key: admin, json: weekly).status == .created)
                let between = try await client.send(.get, "/v1/leaderboards/contest:weekly/contest", key: harness.readKey)
                #expect(between.json["period"] as? String == "20261123T0900Z")
                #expect(between.json["next_starts_at"] as? String == "2026-11-30T09:00:00.000Z")
                let earlier = try await client.send(.get, "/v1/leaderboards/contest:weekly/contest?period=20261116T0900Z", key: harness.readKey)
                #expect(earlier.json["next_starts_at"] as? String == "2026-11-23T09:00:00.000Z")

                // A mistyped league or tier in a cohort's board is named as such, not as a missing window.
                let missing = try await client.send(.get, "/v1/leaderboards/league:nope:silver:1/week", key: harness.readKey)
                #expect(missing.status == .notFound && missing.json["detail"] as? String == "no league nope")
                let league: [String: any Sendable] = ["id": "ladder", "name": "Ladder", "scope": ["global"], "cohort_size": 10, "up": 2,
                                                      "down": 2, "tiers": [["name": "bronze", "title": "Bronze"], ["name": "silver", "title": "Silver"]]]
                #expect(try await client.send(.post, "/v1/admin/leagues", key: admin, json: league).status == .created)
                let tier = try await client.send(.get, "/display/league:ladder:gold:1/week", key: nil)
                #expect(tier.status == .notFound && tier.json["detail"] as? String == "league ladder has no tier gold: its tiers are bronze, silver")
            }
        }
    }
}
