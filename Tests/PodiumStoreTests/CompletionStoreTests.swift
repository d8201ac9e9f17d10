import Foundation
import PodiumCore
@testable import PodiumStore
import PodiumTestSupport
import PodiumWire
import Postgres
import Redis
import Testing

@Suite("Recording completions against real PostgreSQL and Redis", .timeLimit(.minutes(5)))
struct CompletionStoreTests {
    // A Wednesday: the previous Sunday's day and ISO week (2026-W47) are closed, November is open.
    let now = instant("2026-11-25T12:00:00Z")

    @Test("a player draws a handle once: later batches and preference changes take none, and a batch numbers its new players by id")
    func handlesAreDrawnOncePerPlayer() async throws {
        try await StoreTestEnvironment.withOwnDatabase { url in
            let pool = PostgresPool(configuration: PostgresConfiguration(connectionString: url, poolSize: 2), logger: StoreTestEnvironment.logger)
            try await Migrator(pool: pool, logger: StoreTestEnvironment.logger).migrate(try Migration.bundled())
            // Its own Redis: these handles (1, 2, 3 …) are other players' in the shared test database.
            let server = ownRedis()
            try await server.start()
            let now = now
            let storage = PodiumStorage(postgres: pool, redis: try StoreTestEnvironment.redis(url: server.url), rules: GameRules(),
                                        logger: StoreTestEnvironment.logger, now: { now })
            try await storage.rankingSync.rebuild()
            for index in 0..<3 {
                _ = try await storage.writer.record(try completion(id: "c\(index)", user: "mia", topic: "math", now: now))
            }
            _ = try await storage.users.setPreferences(userID: "mia", displayName: "Mia", timeZone: "UTC", now: now)
            _ = try await storage.users.setPreferences(userID: "mia", displayName: nil, timeZone: "UTC", now: now)
            // One transaction (the store, not the writer's queue) with two new players and a known one.
            let batch = try ["zoe", "mia", "ann"].enumerated().map { try completion(id: "b\($0.offset)", user: $0.element, topic: "math", now: now) }
            #expect(try await storage.completions.record(batch, now: now).allSatisfy { $0.response != nil })
            _ = try await storage.writer.record(try completion(id: "late", user: "bob", topic: "math", now: now))
            let handles = try await pool.query("SELECT user_id || '=' || handle AS h FROM users ORDER BY handle").rows.map { try $0.string("h") }
            #expect(handles == ["mia=1", "ann=2", "zoe=3", "bob=4"])
            #expect(try await pool.query("SELECT last_value FROM users_handle_seq").rows[0].int64("last_value") == 4)
            let page = try await storage.leaderboards.read(board: "topic:math", window: .all, period: "all", slice: .page(offset: 0, limit: 5))
            #expect(page.live)
            #expect(page.entries.map(\.userId) == ["mia", "ann", "zoe", "bob"], "mia leads; the tie lists by arrival, bob last")
            server.stop()
            await pool.close()
        }
    }

    @Test func newCompletionUpdatesTotalsScoresAndRedis() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("math")
        let group = StoreTestEnvironment.unique("class")
        let user = StoreTestEnvironment.unique("user")
        let item = try completion(id: StoreTestEnvironment.unique("c"), user: user, topic: topic, difficulty: "hard", correct: 7,
                                  total: 10, groups: [group], displayName: "Ada", now: now)

        let outcome = try await storage.writer.record(item)
        guard case .created(let response) = outcome else { throw TestFailure("expected created, got \(outcome)") }
        #expect(response.pointsAwarded == 5)
        #expect(response.totals == PlayerTotals(points: 5, completions: 1, correctAnswers: 7, totalAnswers: 10))
        #expect(response.totals.correctPercent == 70)
        #expect(response.level == LevelProgress(level: 1, levelStartsAt: 0, nextLevelAt: 10, pointsToNextLevel: 5))
        #expect(response.levelReached == nil)
        #expect(response.rankingsLive)
        #expect(response.missedPeriods.isEmpty)
        // 3 boards (global, topic, group) x 4 windows, each rank 1 of 1 on the fresh topic and group boards.
        #expect(response.ranks.count == 12)
        let topicRanks = response.ranks.filter { $0.board == "topic:\(topic)" }
        #expect(topicRanks.map(\.window) == [.all, .day, .week, .month])
        #expect(topicRanks.map(\.period) == ["all", "2026-11-25", "2026-W48", "2026-11"])
        #expect(topicRanks.allSatisfy { $0.rank == 1 && $0.players == 1 && $0.score == 5 })

        for window in LeaderboardWindow.calendar {
            let period = Period.containing(now, window: window, timeZone: .gmt).key
            let inPostgres = try await postgresBoard(storage.postgres, board: "group:\(group)", window: window, period: period)
            let inRedis = try await redisBoard(storage.redis, RankingKeys.board("group:\(group)", window, period))
            #expect(inPostgres.map(\.0) == [user] && inPostgres.map(\.1) == [5])
            #expect(inRedis.map(\.0) == [user] && inRedis.map(\.1) == [5])
        }
        let name = try await redisDisplayName(of: user, storage: storage)
        #expect(name == "Ada")
        let ranked = try await storage.postgres.query("SELECT ranked FROM completions WHERE id = $1", [item.id]).onlyBool("ranked")
        #expect(ranked)
    }

    @Test func replayReturnsFirstAnswerAndConflictIsDetected() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("geo")
        let user = StoreTestEnvironment.unique("user")
        let id = StoreTestEnvironment.unique("c")
        let first = try completion(id: id, user: user, topic: topic, now: now)
        guard case .created(let created) = try await storage.writer.record(first) else { throw TestFailure("not created") }

        let replay = try await storage.writer.record(try completion(id: id, user: user, topic: topic, now: now))
        #expect(replay == .replayed(created))

        let changed = try await storage.writer.record(try completion(id: id, user: user, topic: topic, correct: 9, now: now))
        #expect(changed == .conflict)

        let totals = try #require(try await storage.postgres.query("SELECT points, completions FROM users WHERE user_id = $1", [user]).rows.first)
        #expect(try totals.int("points") == 3)
        #expect(try totals.int("completions") == 1)
    }

    @Test func concurrentDuplicatesCountOnce() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("dup")
        let user = StoreTestEnvironment.unique("user")
        let item = try completion(id: StoreTestEnvironment.unique("c"), user: user, topic: topic, now: now)
        // Separate writers so the duplicates really race in separate transactions.
        let writers = (0..<4).map { _ in
            CompletionWriter(store: storage.completions, maxBatchSize: 8, maxConcurrentBatches: 4, now: { now })
        }
        let outcomes = await withTaskGroup(of: RecordOutcome?.self) { group in
            for index in 0..<24 { group.addTask { try? await writers[index % 4].record(item) } }
            return await group.reduce(into: [RecordOutcome?]()) { $0.append($1) }
        }
        let created = outcomes.filter { if case .created = $0 { true } else { false } }
        let replayed = outcomes.filter { if case .replayed = $0 { true } else { false } }
        #expect(created.count == 1)
        #expect(replayed.count == 23)
        let rows = try await storage.postgres.query("SELECT points FROM users WHERE user_id = $1", [user]).rows
        #expect(try rows.map { try $0.int("points") } == [3])
        let board = try await redisBoard(storage.redis, RankingKeys.board("topic:\(topic)", .all, "all"))
        #expect(board.map(\.1) == [3])
    }

    @Test func lateCompletionMissesClosedDayAndWeek() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("late")
        let user = StoreTestEnvironment.unique("user")
        let item = try completion(id: StoreTestEnvironment.unique("c"), user: user, topic: topic, completedAt: "2026-11-22T10:00:00Z", now: now)
        guard case .created(let response) = try await storage.writer.record(item) else { throw TestFailure("not created") }

        let missed = response.missedPeriods.filter { $0.board == "topic:\(topic)" }
        #expect(missed == [
            MissedPeriod(board: "topic:\(topic)", window: .day, period: "2026-11-22", closedAt: "2026-11-23T00:15:00.000Z"),
            MissedPeriod(board: "topic:\(topic)", window: .week, period: "2026-W47", closedAt: "2026-11-23T00:15:00.000Z"),
        ])
        #expect(response.ranks.filter { $0.board == "topic:\(topic)" }.map(\.window) == [.all, .month])
        let weekRows = try await postgresBoard(storage.postgres, board: "topic:\(topic)", window: .week, period: "2026-W47")
        #expect(weekRows.isEmpty)
        let monthRows = try await postgresBoard(storage.postgres, board: "topic:\(topic)", window: .month, period: "2026-11")
        #expect(monthRows.map(\.1) == [3])
        #expect(response.totals.points == 3)
    }

    @Test func levelReachedIsReportedOnTheCompletionThatCrossesTheThreshold() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("lvl")
        let user = StoreTestEnvironment.unique("user")
        var reached: [Int?] = []
        for index in 0..<3 {
            let item = try completion(id: "\(user)-\(index)", user: user, topic: topic, difficulty: "hard", now: now)
            guard case .created(let response) = try await storage.writer.record(item) else { throw TestFailure("not created") }
            reached.append(response.levelReached)
        }
        // 5, 10 (level 2 starts at 10), 15.
        #expect(reached == [nil, 2, nil])
    }

    @Test func batchOfManyPlayersMatchesOneByOneTotals() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("bulk")
        let users = (0..<10).map { "\(topic)-u\($0)" }
        let items = try (0..<60).map { index in
            try completion(id: "\(topic)-c\(index)", user: users[index % 10], topic: topic,
                           difficulty: ["easy", "medium", "hard"][index % 3], now: now)
        }
        let results = await storage.writer.record(items)
        #expect(results.allSatisfy { if case .success(.created) = $0 { true } else { false } })
        let board = try await postgresBoard(storage.postgres, board: "topic:\(topic)", window: .all, period: "all")
        // Ties list by handle, which players draw in the order their first completion's batch commits: with the writer's
        // concurrent batches that is not always user-id order, so the expected order reads the handles.
        var handles: [String: Int64] = [:]
        for row in try await storage.postgres.query("SELECT user_id, handle FROM users WHERE user_id = ANY($1)", [users]).rows {
            handles[try row.string("user_id")] = try row.int64("handle")
        }
        let expected = users.map { user in
            (user, Int64(items.filter { $0.userID == user }.map { [Difficulty.easy: 2, .medium: 3, .hard: 5][$0.difficulty]! }.reduce(0, +)))
        }.sorted { ($0.1, handles[$1.0] ?? 0) > ($1.1, handles[$0.0] ?? 0) }
        #expect(board.map(\.0) == expected.map(\.0))
        #expect(board.map(\.1) == expected.map(\.1))
        let live = try await redisBoard(storage.redis, RankingKeys.board("topic:\(topic)", .all, "all"))
        #expect(live.map(\.0) == board.map(\.0))
        #expect(live.map(\.1) == board.map(\.1))
    }

    @Test("one player's completions sharing a transaction each get the answer they would get one by one")
    func samePlayerInOneBatchMatchesOneByOne() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let plays: [(difficulty: String, correct: Int, at: String)] = [
            ("hard", 10, "2026-11-23T09:00:00Z"), ("hard", 5, "2026-11-24T09:00:00Z"),
            ("medium", 5, "2026-11-24T18:00:00Z"), ("hard", 5, "2026-11-25T09:00:00Z"),
        ]
        // Ids sort against the order of play (d, c, b, a): the transaction follows the times, not the ids.
        func items(_ user: String) throws -> [ValidCompletion] {
            try plays.enumerated().map { index, play in
                try completion(id: "\(user)-\(["d", "c", "b", "a"][index])", user: user, topic: "\(user)-t", difficulty: play.difficulty,
                               correct: play.correct, completedAt: play.at, displayName: "Name \(index)", now: now)
            }
        }
        let alone = StoreTestEnvironment.unique("alone")
        var oneByOne: [CompletionResponse] = []
        for item in try items(alone) {
            oneByOne.append(try #require(try await storage.completions.record([item], now: now).first?.response))
        }
        let together = StoreTestEnvironment.unique("together")
        let batch = try await storage.completions.record(try items(together), now: now).map { try #require($0.response) }

        #expect(batch.map(\.totals.points) == [5, 10, 13, 18])
        #expect(batch.map(\.totals.completions) == [1, 2, 3, 4])
        #expect(batch.map(\.levelReached) == [nil, 2, nil, nil])
        #expect(batch.map { $0.achievementsUnlocked.map(\.id) } == oneByOne.map { $0.achievementsUnlocked.map(\.id) })
        #expect(batch[0].achievementsUnlocked.map(\.id).contains("first-quiz"))
        #expect(batch.map(\.streak) == oneByOne.map(\.streak))
        #expect(batch.map(\.streak.longest) == [1, 2, 2, 3])
        #expect(batch.map(\.totals) == oneByOne.map(\.totals))
        // Boards named after the player's own topic, with the player's score there, and the periods missed.
        func own(_ response: CompletionResponse, _ user: String) -> [String] {
            response.ranks.map { "\($0.board.replacingOccurrences(of: user, with: "p")) \($0.window) \($0.period) \($0.score)" }
                + response.missedPeriods.map { "missed \($0.board.replacingOccurrences(of: user, with: "p")) \($0.period)" }
        }
        #expect(batch.map { own($0, together) } == oneByOne.map { own($0, alone) })
        #expect(batch[0].missedPeriods.map(\.period) == ["2026-11-23", "2026-11-23"])
        #expect(batch.last?.ranks.first { $0.board == "topic:\(together)-t" && $0.window == .all }?.score == 18)
        let stored = try await storage.postgres.query("""
            SELECT u.points, u.completions, u.display_name, t.completions AS topic_completions,
                   cardinality(u.days) AS days
            FROM users u JOIN user_topics t USING (user_id) WHERE u.user_id = $1
            """, [together]).rows[0]
        #expect(try stored.int("points") == 18 && stored.int("completions") == 4 && stored.int("topic_completions") == 4)
        #expect(try stored.int("days") == 3 && stored["display_name"] == "Name 3")
    }

    @Test func storedAnswersAreCompressedWithLZ4() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let methods = try await storage.postgres.query("""
            SELECT attname::text AS name, attcompression::text AS method FROM pg_attribute
            WHERE attrelid = 'completions'::regclass AND attname IN ('answer', 'response') ORDER BY attname
            """).rows.map { "\(try $0.string("name")) \(try $0.string("method"))" }
        #expect(methods == ["answer l", "response l"])
    }

    @Test("answers are stored as the text sent; one stored as jsonb before migration 020 replays the same")
    func answersStoredAsTextAndAsJSONBReplay() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let user = StoreTestEnvironment.unique("old-answer")
        let item = try completion(id: "\(user)-c", user: user, topic: "t-\(user)", now: now)
        let first = try #require(try await storage.completions.record([item], now: now).first?.response)
        let stored = try await storage.postgres.query("SELECT answer, response FROM completions WHERE id = $1", [item.id]).rows[0]
        #expect(stored["answer"] == first.jsonString() && stored["response"] == nil)
        try await storage.postgres.query("UPDATE completions SET response = answer::jsonb, answer = NULL WHERE id = $1", [item.id])
        guard case .replayed(let replayed)? = try await storage.completions.record([item], now: now).first else {
            Issue.record("the same request again is not a replay")
            return
        }
        #expect(replayed.jsonString() == first.jsonString())
    }

    @Test func profileRanksIncludeBoardsWithoutAnAllWindow() async throws {
        var rules = GameRules()
        rules.boards = BoardCatalog(rules: BoardRule.defaults.filter { $0.scope != "group:*" } + [BoardRule(scope: "group:*", windows: [.week])])
        let now = instant("2026-11-25T12:00:00Z")
        let storage = try await StoreTestEnvironment.storage(now: now, rules: rules)
        let user = StoreTestEnvironment.unique("weekly")
        let group = StoreTestEnvironment.unique("class")
        _ = try await storage.writer.record(try completion(id: "\(user)-c", user: user, topic: "t-\(group)", groups: [group], now: now))
        let profile = try #require(try await storage.users.profile(userID: user, now: now))
        let groupRanks = profile.ranks.filter { $0.board == "group:\(group)" }.map { "\($0.window.rawValue) \($0.period) #\($0.rank)" }
        #expect(groupRanks == ["week 2026-W48 #1"])
        #expect(profile.ranks.count == 9, "global and topic in four windows each, the class board in its one")
    }

    @Test func pointsBeyond32BitsAreRecorded() async throws {
        var rules = GameRules()
        rules.points = PointsRules(perCorrectAnswer: PointsRules.maximumSetting)
        let storage = try await StoreTestEnvironment.storage(now: now, rules: rules)
        let user = StoreTestEnvironment.unique("big")
        let item = try completion(id: "\(user)-c", user: user, topic: "t-\(user)", correct: 2500, total: 2500, now: now)
        guard case .created(let response) = try await storage.writer.record(item) else { throw TestFailure("not created") }
        #expect(response.pointsAwarded == 3 + 2_500_000_000)
        let best = try await storage.postgres.query("SELECT best_points FROM user_topics WHERE user_id = $1", [user]).onlyInt("best_points")
        #expect(best == 3 + 2_500_000_000)
    }
}
