import Foundation
import PodiumCore
@testable import PodiumStore
import PodiumTestSupport
import PodiumWire
import Testing

/// Leagues on real PostgreSQL and Redis: placement, the close's moves, absence, ties, late completions and erasure.
/// Each test's league counts one topic of its own, so the other suites' completions never enter it.
@Suite("Leagues: placement, moves at the close, late completions, erasure", .serialized, .timeLimit(.minutes(5)))
struct LeagueStoreTests {
    /// Wednesday of week 2026-W48 (UTC), which ends on Monday 2026-11-30T00:00Z.
    let now = instant("2026-11-25T12:00:00Z")
    /// Past that week's end and close grace: Tuesday of 2026-W49.
    let nextWeek = instant("2026-12-01T12:00:00Z")

    /// A league of `topic` with tiers bronze, silver and gold, cohorts of `size`, `up` and `down` moves, created a day
    /// before `now`.
    func league(_ topic: String, size: Int, up: Int = 1, down: Int = 1, tieBreak: TieBreak? = nil) throws -> League {
        try LeagueRequest(
            id: "league-\(topic)", name: "League \(topic)", scope: ["topic:\(topic)"],
            tiers: [.init(name: "bronze"), .init(name: "silver"), .init(name: "gold")], cohortSize: size, up: up, down: down,
            tieBreak: tieBreak
        ).validated(now: now.addingTimeInterval(-86_400)).get()
    }

    /// Records `user`'s completion of `topic` (5 of 10 correct: 3 points) on `storage`, whose clock reads `recordedAt`,
    /// and returns its answer.
    @discardableResult
    func play(
        _ storage: PodiumStorage, _ user: String, _ topic: String, at completedAt: String? = nil, recordedAt: Date? = nil
    ) async throws -> CompletionResponse {
        let item = try completion(
            id: "\(user)-\(UUID().uuidString.prefix(8))", user: user, topic: topic, completedAt: completedAt, now: recordedAt ?? now)
        guard case .created(let response) = try await storage.writer.record(item) else { throw TestFailure("not created") }
        return response
    }

    /// Records `times` completions of `user` (3 points each) on `storage`.
    func play(_ storage: PodiumStorage, _ user: String, _ topic: String, times: Int) async throws {
        for _ in 0..<times { try await play(storage, user, topic) }
    }

    /// The league boards an answer ranked its completion on.
    func leagueBoards(_ response: CompletionResponse) -> [String] {
        response.ranks.map(\.board).filter { $0.hasPrefix("league:") }
    }

    /// Each placement of the league's week: user, tier and cohort, in the order they were made.
    func placements(_ storage: PodiumStorage, league: String, week: String = "2026-W48") async throws -> [String] {
        try await storage.postgres.query("""
            SELECT user_id, tier, cohort FROM league_entries WHERE league_id = $1 AND period = $2 ORDER BY placed_at, tier, cohort, user_id
            """, [league, week]).rows.map { "\(try $0.string("user_id")) \(try $0.int("tier")):\(try $0.int("cohort"))" }
    }

    /// Closes every cohort of `league`'s week at `at` and returns the closes' outcomes.
    func closeWeek(_ storage: PodiumStorage, _ league: League, week: String = "2026-W48", at: Date) async throws -> [PeriodCloseOutcome] {
        var outcomes: [PeriodCloseOutcome] = []
        for cohort in try await storage.leagues.cohorts(of: league, period: week) {
            let report = try await storage.closing.close(BoardPeriodKey(board: cohort.board, window: .week, period: week), now: at, dryRun: false)
            outcomes.append(report.outcome)
        }
        return outcomes
    }

    /// The tier each of `users` holds in `league` (nil: none yet).
    func tiers(_ storage: PodiumStorage, league: String, _ users: [String]) async throws -> [Int?] {
        var tiers: [Int?] = []
        for user in users { tiers.append(try await storage.leagues.tiers(of: user)[league]) }
        return tiers
    }

    @Test("players fill the cohorts of their tier in order of arrival, a cohort never holds more than its size, and a second completion places no one")
    func placementOrderAndRoom() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("place")
        let league = try league(topic, size: 3)
        #expect(try await storage.leagues.create(league))
        var boards: [String] = []
        for index in 1...7 { boards += leagueBoards(try await play(storage, "\(topic)-p\(index)", topic)) }
        let prefix = "league:\(league.id):bronze"
        #expect(boards == ["\(prefix):1", "\(prefix):1", "\(prefix):1", "\(prefix):2", "\(prefix):2", "\(prefix):2", "\(prefix):3"])
        #expect(leagueBoards(try await play(storage, "\(topic)-p1", topic)) == ["\(prefix):1"], "the player's cohort, not a new place")
        let cohorts = try await storage.leagues.cohorts(of: league, period: "2026-W48")
        #expect(cohorts.map(\.players) == [3, 3, 1])
        #expect(try await placements(storage, league: league.id).count == 7)
        // The cohort is a board like the others: p1 played twice and leads its cohort.
        let page = try await storage.leaderboards.read(board: "\(prefix):1", window: .week, period: "2026-W48", slice: .page(offset: 0, limit: 10))
        #expect(page.entries.map(\.userId) == ["\(topic)-p1", "\(topic)-p2", "\(topic)-p3"])
        #expect(page.entries.map(\.score) == [page.entries[1].score * 2, page.entries[1].score, page.entries[1].score])
    }

    @Test("200 concurrent first completions on three replicas: every player placed once, cohorts of 30 filled exactly (PostgreSQL decides)")
    func concurrentPlacementAcrossReplicas() async throws {
        try await StoreTestEnvironment.withOwnStores(now: now) { url, redis in
            let replicas = [try await StoreTestEnvironment.replica(now: now, url, redis),
                            try await StoreTestEnvironment.replica(now: now, url, redis),
                            try await StoreTestEnvironment.replica(now: now, url, redis)]
            let topic = StoreTestEnvironment.unique("crowd")
            let league = try league(topic, size: 30)
            #expect(try await replicas[0].leagues.create(league))
            for replica in replicas { try await replica.contests.refresh() }
            let boards = try await withThrowingTaskGroup(of: [String].self) { group in
                for index in 0..<200 {
                    group.addTask { leagueBoards(try await play(replicas[index % 3], "p\(index)", topic)) }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(boards.count == 200)
            let counts = Dictionary(boards.map { ($0, 1) }, uniquingKeysWith: +)
            #expect(counts.values.sorted() == [20, 30, 30, 30, 30, 30, 30])
            let entries = try await replicas[1].postgres.query("""
                SELECT count(*) AS n, count(DISTINCT user_id) AS players FROM league_entries WHERE league_id = $1
                """, [league.id]).rows[0]
            #expect(try entries.int("n") == 200)
            #expect(try entries.int("players") == 200)
            let cohorts = try await replicas[2].leagues.cohorts(of: league, period: "2026-W48")
            #expect(cohorts.map(\.players) == [30, 30, 30, 30, 30, 30, 20])
            // The boards agree with the places: each cohort's board holds exactly its players.
            let scores = try await replicas[0].postgres.query("""
                SELECT board, count(*) AS n FROM board_scores WHERE board LIKE $1 GROUP BY board ORDER BY board
                """, ["league:\(league.id):%"]).rows.map { try $0.int("n") }
            #expect(scores.sorted() == [20, 30, 30, 30, 30, 30, 30])
            for replica in replicas { await replica.postgres.close() }
        }
    }

    @Test("the close moves the best up and the worst down at every tier, none up from the top nor down from the bottom, exactly once")
    func movesAtEveryTier() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("moves")
        let league = try league(topic, size: 4, up: 1, down: 1)
        #expect(try await storage.leagues.create(league))
        // Four players earned each tier in an earlier week; in each, they play 4, 3, 2 and 1 times.
        let players = (0..<3).flatMap { tier in (0..<4).map { "\(topic)-t\(tier)-\($0)" } }
        try await storage.postgres.query("""
            INSERT INTO league_players (league_id, user_id, tier, period) SELECT $1, u, t, '2026-W47' FROM unnest($2::text[], $3::int[]) AS x(u, t)
            """, [league.id, players, players.indices.map { $0 / 4 }])
        for (index, player) in players.enumerated() { try await play(storage, player, topic, times: 4 - index % 4) }
        let cohorts = try await storage.leagues.cohorts(of: league, period: "2026-W48")
        #expect(cohorts.map(\.board) == ["bronze", "silver", "gold"].map { "league:\(league.id):\($0):1" })

        #expect(try await closeWeek(storage, league, at: nextWeek) == [.closed, .closed, .closed])
        #expect(try await tiers(storage, league: league.id, players) == [1, 0, 0, 0, 2, 1, 1, 0, 2, 2, 2, 1])
        let events = try await storage.postgres.query("""
            SELECT type, count(*) AS n FROM events WHERE payload->>'league' = $1 GROUP BY type ORDER BY type
            """, [league.id]).rows.map { "\(try $0.string("type")) \(try $0.int("n"))" }
        #expect(events == ["league.promoted 2", "league.relegated 2", "league.stayed 8"])
        let medals = try await storage.postgres.query("""
            SELECT count(*) AS n FROM events WHERE type = 'medal.awarded' AND payload->>'board' LIKE $1
            """, ["league:\(league.id):%"]).rows[0].int("n")
        #expect(medals == 9, "gold, silver and bronze in each of the three cohorts")

        // Exactly once: closing again changes nothing.
        #expect(try await closeWeek(storage, league, at: nextWeek) == [.alreadyClosed, .alreadyClosed, .alreadyClosed])
        let again = try await storage.postgres.query(
            "SELECT count(*) AS n FROM events WHERE payload->>'league' = $1", [league.id]).rows[0].int("n")
        #expect(again == 12)
        let results = try await storage.leagues.results(of: "\(topic)-t1-0", league: league, limit: 5)
        #expect(results.map(\.move) == [.promoted])
        #expect(results.map(\.nextTier) == ["gold"])
    }

    @Test("ties on a line go the players' way: both tied on the promotion line move up, neither tied across the relegation line moves down")
    func tiesOnTheLines() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("ties")
        let league = try league(topic, size: 4, up: 1, down: 1)
        #expect(try await storage.leagues.create(league))
        let players = (0..<4).map { "\(topic)-\($0)" }
        try await storage.postgres.query(
            "INSERT INTO league_players (league_id, user_id, tier, period) SELECT $1, u, 1, '2026-W47' FROM unnest($2::text[]) AS u",
            [league.id, players])
        for (player, times) in zip(players, [2, 2, 1, 1]) { try await play(storage, player, topic, times: times) }
        #expect(try await closeWeek(storage, league, at: nextWeek) == [.closed])
        #expect(try await tiers(storage, league: league.id, players) == [2, 2, 1, 1])
    }

    @Test("an absent player keeps their tier; the next week places players in the tier they earned; a late completion counts nowhere and reports the cohort it missed")
    func absenceNextWeekAndLateCompletions() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("weeks")
        let league = try league(topic, size: 2, up: 1, down: 1)
        #expect(try await storage.leagues.create(league))
        let (winner, other) = ("\(topic)-winner", "\(topic)-other")
        try await play(storage, winner, topic, times: 2)
        try await play(storage, other, topic, times: 1)
        #expect(try await closeWeek(storage, league, at: nextWeek) == [.closed])
        #expect(try await tiers(storage, league: league.id, [winner, other]) == [1, 0])

        let later = try await StoreTestEnvironment.storage(now: nextWeek)
        try await later.contests.refresh()
        // Late: played in 2026-W48, recorded after its close. Nothing counts; the answer names the cohort it missed.
        let board = { try await postgresBoard(later.postgres, board: "league:\(league.id):bronze:1", window: .week, period: "2026-W48").map { "\($0.0) \($0.1)" } }
        let before = try await board()
        let late = try await play(later, other, topic, at: "2026-11-29T20:00:00Z", recordedAt: nextWeek)
        #expect(late.missedPeriods.map(\.board).contains("league:\(league.id):bronze:1"))
        #expect(leagueBoards(late).isEmpty)
        #expect(try await board() == before)
        let stranger = try await play(later, "\(topic)-stranger", topic, at: "2026-11-29T20:00:00Z", recordedAt: nextWeek)
        #expect(stranger.missedPeriods.allSatisfy { !$0.board.hasPrefix("league:") }, "a player never placed that week missed no cohort")
        #expect(try await placements(later, league: league.id).count == 2, "a late completion places no one")

        // 2026-W49: the winner plays in silver; the other player stays away and keeps bronze through the week's close.
        #expect(leagueBoards(try await play(later, winner, topic, recordedAt: nextWeek)) == ["league:\(league.id):silver:1"])
        #expect(try await closeWeek(later, league, week: "2026-W49", at: instant("2026-12-08T12:00:00Z")) == [.closed])
        #expect(try await tiers(later, league: league.id, [winner, other]) == [2, 0], "alone in the cohort, rank 1 moves up; the absent keeps bronze")
    }

    @Test("erasing a player removes them from their cohorts, their tiers and their league history")
    func erasure() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("erase")
        let league = try league(topic, size: 5)
        #expect(try await storage.leagues.create(league))
        let player = "\(topic)-gone"
        try await play(storage, player, topic, times: 2)
        try await play(storage, "\(topic)-stays", topic, times: 1)
        #expect(try await closeWeek(storage, league, at: nextWeek) == [.closed])
        #expect(try await storage.erasure.erase(userID: player, now: nextWeek))
        for table in ["league_entries", "league_players", "league_results"] {
            let rows = try await storage.postgres.query("SELECT count(*) AS n FROM \(table) WHERE user_id = $1", [player]).rows[0].int("n")
            #expect(rows == 0, "\(table)")
        }
        let snapshot = try await storage.postgres.query("""
            SELECT count(*) AS n FROM snapshot_entries e JOIN snapshots s ON s.id = e.snapshot_id WHERE s.board LIKE $1 AND e.user_id = $2
            """, ["league:\(league.id):%", player]).rows[0].int("n")
        #expect(snapshot == 0)
        #expect(try await tiers(storage, league: league.id, ["\(topic)-stays"]) == [0])
    }

    @Test("a paused league counts nothing until resumed; an ended one counts nothing played after its end")
    func pauseResumeEnd() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("pause")
        let league = try league(topic, size: 5)
        #expect(try await storage.leagues.create(league))
        #expect(try await storage.leagues.create(league) == false, "the id is taken")
        #expect(try await storage.leagues.pause(id: league.id, now: now) == .changed)
        #expect(try await storage.leagues.pause(id: league.id, now: now) == .unchanged)
        #expect(leagueBoards(try await play(storage, "\(topic)-a", topic)).isEmpty)
        #expect(try await storage.leagues.resume(id: league.id) == .changed)
        #expect(leagueBoards(try await play(storage, "\(topic)-a", topic)) == ["league:\(league.id):bronze:1"])
        #expect(try await storage.leagues.end(id: league.id, now: now) == .changed)
        #expect(leagueBoards(try await play(storage, "\(topic)-a", topic)).isEmpty)
        #expect(try await storage.leagues.resume(id: league.id) == .unchanged)
        #expect(try await storage.leagues.pause(id: "no-such-league", now: now) == .missing)
    }

    @Test("a replay places no one: neither a completion recorded before its league existed, nor one recorded while it was paused")
    func replaysPlaceNoOne() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("replayplace")
        let league = try league(topic, size: 5)
        // Before the league exists: counted nowhere, then replayed once it does.
        let early = try completion(id: "\(topic)-early", user: "\(topic)-a", topic: topic, now: now)
        guard case .created(let first) = try await storage.writer.record(early) else { throw TestFailure("not created") }
        #expect(leagueBoards(first).isEmpty)
        #expect(try await storage.leagues.create(league))
        guard case .replayed(let again) = try await storage.writer.record(early) else { throw TestFailure("not a replay") }
        #expect(again == first)
        // While the league is paused: counted nowhere, then replayed once it is resumed (an offline app syncing).
        #expect(try await storage.leagues.pause(id: league.id, now: now) == .changed)
        let paused = try completion(id: "\(topic)-paused", user: "\(topic)-b", topic: topic, now: now)
        guard case .created(let during) = try await storage.writer.record(paused) else { throw TestFailure("not created") }
        #expect(leagueBoards(during).isEmpty)
        #expect(try await storage.leagues.resume(id: league.id) == .changed)
        guard case .replayed = try await storage.writer.record(paused) else { throw TestFailure("not a replay") }

        #expect(try await placements(storage, league: league.id).isEmpty)
        #expect(try await storage.leagues.cohorts(of: league, period: "2026-W48").isEmpty)
    }

    @Test("weeks are cut in the league's zone: the week that leaves summer time in Paris ends at 23:00 UTC on Sunday, 169 hours after it began")
    func daylightSavingWeekInTheLeaguesZone() async throws {
        let topic = StoreTestEnvironment.unique("dst")
        let league = try LeagueRequest(
            id: "league-\(topic)", name: "Paris league", scope: ["topic:\(topic)"], timeZone: "Europe/Paris", tiers: [.init(name: "bronze")]
        ).validated(now: instant("2026-10-01T00:00:00Z")).get()
        let sunday = try await StoreTestEnvironment.storage(now: instant("2026-10-25T22:40:00Z"))
        #expect(try await sunday.leagues.create(league))
        // 23:30 in Paris on Sunday (CET since 03:00): still week 43.
        let late = try await play(sunday, "\(topic)-a", topic, at: "2026-10-25T22:30:00Z", recordedAt: instant("2026-10-25T22:40:00Z"))
        #expect(late.ranks.filter { $0.board.hasPrefix("league:") }.map(\.period) == ["2026-W43"])
        let monday = try await StoreTestEnvironment.storage(now: instant("2026-10-25T23:40:00Z"))
        try await monday.contests.refresh()
        // 00:30 on Monday in Paris: week 44, a new place.
        let next = try await play(monday, "\(topic)-a", topic, at: "2026-10-25T23:30:00Z", recordedAt: instant("2026-10-25T23:40:00Z"))
        #expect(next.ranks.filter { $0.board.hasPrefix("league:") }.map(\.period) == ["2026-W44"])
        let ends = try await monday.postgres.query("""
            SELECT period, ends_at FROM board_periods WHERE board = $1 ORDER BY period
            """, ["league:\(league.id):bronze:1"]).rows.map { "\(try $0.string("period")) \(RFC3339.format(try $0.date("ends_at")))" }
        #expect(ends == ["2026-W43 2026-10-25T23:00:00.000Z", "2026-W44 2026-11-01T23:00:00.000Z"])
        #expect(try await placements(monday, league: league.id, week: "2026-W43") == ["\(topic)-a 0:1"])
        #expect(try await placements(monday, league: league.id, week: "2026-W44") == ["\(topic)-a 0:1"])
    }

    @Test("a player who enters the next week before the last one closed plays it in the old tier, and its move applies to the tier the close gave them")
    func enteringBeforeTheLastWeekClosed() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("early")
        let league = try league(topic, size: 2, up: 1, down: 1)
        #expect(try await storage.leagues.create(league))
        let (winner, other) = ("\(topic)-winner", "\(topic)-other")
        try await play(storage, winner, topic, times: 2)
        try await play(storage, other, topic, times: 1)
        // Monday 00:05: week 49 has begun, week 48 takes late completions until 00:15 and is not closed yet.
        let monday = instant("2026-11-30T00:05:00Z")
        let early = try await StoreTestEnvironment.storage(now: monday)
        try await early.contests.refresh()
        #expect(leagueBoards(try await play(early, winner, topic, recordedAt: monday)) == ["league:\(league.id):bronze:1"], "still bronze")
        // Week 48 closes: the winner earns silver. Week 49's close applies its move (alone, so up) to silver: gold.
        #expect(try await closeWeek(early, league, at: instant("2026-11-30T00:20:00Z")) == [.closed])
        #expect(try await tiers(early, league: league.id, [winner, other]) == [1, 0])
        #expect(try await closeWeek(early, league, week: "2026-W49", at: instant("2026-12-07T00:20:00Z")) == [.closed])
        #expect(try await tiers(early, league: league.id, [winner, other]) == [2, 0])
        let results = try await early.leagues.results(of: winner, league: league, limit: 5)
        #expect(results.map { "\($0.period) \($0.tier) \($0.move.rawValue) \($0.nextTier)" }
            == ["2026-W49 bronze promoted gold", "2026-W48 bronze promoted silver"])
        // A late close of an older week never overwrites a newer one's tier.
        let row = try await early.postgres.query(
            "SELECT tier, period FROM league_players WHERE league_id = $1 AND user_id = $2", [league.id, winner]).rows[0]
        #expect(try row.int("tier") == 2 && row["period"] == "2026-W49")
    }
}
