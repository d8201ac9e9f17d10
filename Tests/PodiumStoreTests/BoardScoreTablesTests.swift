import Foundation
import PodiumCore
@testable import PodiumStore
import PodiumTestSupport
import PodiumWire
import Postgres
import Testing

@Suite("Board scores: one current row per board and player, period rows for the rest", .timeLimit(.minutes(5)))
struct BoardScoreTablesTests {
    /// Tuesday 00:05 UTC: Monday 2026-11-23 has ended but is still open (its close waits for the grace period), so a
    /// completion played on Monday is late, not missed.
    let now = instant("2026-11-24T00:05:00Z")

    /// The rows each table holds that the transaction which recorded completion `id` wrote (inserted or updated).
    func rowsWritten(byTransactionOf id: String, _ postgres: PostgresPool) async throws -> [String: Int] {
        let xid = try await postgres.query("SELECT xmin::text AS x FROM completions WHERE id = $1", [id]).onlyString("x")
        // Partitions are counted through their parent (events, migration 021), once.
        let tables = try await postgres.query("""
            SELECT c.relname AS tablename FROM pg_class c
            WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1
            """).rows
        var written: [String: Int] = [:]
        for table in try tables.map({ try $0.string("tablename") }) {
            let count = try await postgres.query("SELECT count(*) AS n FROM \(table) WHERE xmin::text = $1", [xid]).onlyInt("n")
            if count > 0 { written[table] = count }
        }
        return written
    }

    @Test("a batch writes seven rows per completion of a returning player and nine of a new one, on a global, a topic and a group board")
    func rowsPerCompletion() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("rows")
        let group = "\(topic)-g"
        func batch(_ round: String, _ users: [String]) throws -> [ValidCompletion] {
            try users.map { try completion(id: "\(round)-\($0)", user: $0, topic: topic, groups: [group], now: now) }
        }
        // The boards and their periods exist once someone has played on them.
        _ = try await storage.completions.record(try batch("founder", ["\(topic)-founder"]), now: now)
        let players = (0..<4).map { "\(topic)-p\($0)" }

        _ = try await storage.completions.record(try batch("new", players), now: now)
        let new = try await rowsWritten(byTransactionOf: "new-\(players[0])", storage.postgres)
        #expect(new == [
            "completions": 4, "users": 4, "user_topics": 4, "board_current_scores": 12, "events": 8, "user_achievements": 4,
        ], "each: the completion, the player (with the day), the topic, three boards, two events (recorded, first-quiz unlocked), the unlock")
        #expect(new.values.reduce(0, +) == 36)

        _ = try await storage.completions.record(try batch("again", players), now: now)
        let returning = try await rowsWritten(byTransactionOf: "again-\(players[0])", storage.postgres)
        #expect(returning == ["completions": 4, "users": 4, "user_topics": 4, "board_current_scores": 12, "events": 4])
        #expect(returning.values.reduce(0, +) == 28)
    }

    @Test("a new period rolls the held one over to the period rows; late completions add to it there; every period is one row")
    func periodsRollOverAndLateCompletionsFindThem() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("roll")
        let board = "topic:\(topic)"
        let (ann, bob) = ("\(topic)-ann", "\(topic)-bob")
        func play(_ id: String, _ user: String, _ at: String, _ difficulty: String) throws -> ValidCompletion {
            try completion(id: "\(topic)-\(id)", user: user, topic: topic, difficulty: difficulty, completedAt: at, now: now)
        }
        func record(_ items: [ValidCompletion]) async throws -> [CompletionResponse] {
            try await storage.completions.record(items, now: now).map { try #require($0.response) }
        }
        func dayScore(_ response: CompletionResponse, _ day: String) -> Int64? {
            response.ranks.first { $0.board == board && $0.window == .day && $0.period == day }?.score
        }
        // Points: easy 2, medium 3, hard 5 (all correct answers 5 of 10).
        _ = try await record([try play("a1", ann, "2026-11-23T23:00:00Z", "easy")])           // Monday: held
        let a2 = try await record([try play("a2", ann, "2026-11-24T00:01:00Z", "medium")])     // Tuesday: Monday rolls over
        let a3 = try await record([try play("a3", ann, "2026-11-23T23:30:00Z", "hard")])       // late Monday: to the period row
        let a45 = try await record([try play("a4", ann, "2026-11-23T23:40:00Z", "easy"), try play("a5", ann, "2026-11-24T00:02:00Z", "hard")])
        _ = try await record([try play("b1", bob, "2026-11-23T22:00:00Z", "hard")])           // Monday: held
        // One batch with a late Monday and a Tuesday: the held Monday and the batch's Monday meet in one period row.
        let b23 = try await record([try play("b2", bob, "2026-11-23T23:50:00Z", "medium"), try play("b3", bob, "2026-11-24T00:03:00Z", "easy")])

        #expect(dayScore(a2[0], "2026-11-24") == 3)
        #expect(dayScore(a3[0], "2026-11-23") == 7, "2 + 5: the answer shows the period row after the late completion")
        #expect(a45.map { dayScore($0, "2026-11-23") } == [9, nil])
        #expect(a45.map { dayScore($0, "2026-11-24") } == [nil, 8])
        #expect(b23.map { dayScore($0, "2026-11-23") } == [8, nil])
        #expect(b23.map { dayScore($0, "2026-11-24") } == [nil, 2])

        let expected: [String: [(String, Int64)]] = [
            "day 2026-11-23": [(ann, 9), (bob, 8)], "day 2026-11-24": [(ann, 8), (bob, 2)],
            "week 2026-W48": [(ann, 17), (bob, 10)], "month 2026-11": [(ann, 17), (bob, 10)], "all all": [(ann, 17), (bob, 10)],
        ]
        for (name, rows) in expected {
            let parts = name.split(separator: " ").map(String.init)
            let window = try #require(LeaderboardWindow(rawValue: parts[0]))
            let stored = try await postgresBoard(storage.postgres, board: board, window: window, period: parts[1])
            #expect(stored.map(\.0) == rows.map(\.0) && stored.map(\.1) == rows.map(\.1), "\(name) in PostgreSQL")
            let live = try await redisBoard(storage.redis, RankingKeys.board(board, window, parts[1]))
            #expect(live.map(\.0) == rows.map(\.0) && live.map(\.1) == rows.map(\.1), "\(name) in Redis")
        }
        let held = try await storage.postgres.query("""
            SELECT user_id, day_period, week_period, month_period FROM board_current_scores WHERE board = $1 ORDER BY user_id
            """, [board]).rows.map { "\(try $0.string("user_id")) \(try $0.string("day_period")) \(try $0.string("week_period")) \(try $0.string("month_period"))" }
        #expect(held == ["\(ann) 2026-11-24 2026-W48 2026-11", "\(bob) 2026-11-24 2026-W48 2026-11"])
        let moved = try await storage.postgres.query("""
            SELECT user_id, board_window, period, score FROM board_period_scores WHERE board = $1 ORDER BY user_id
            """, [board]).rows.map { "\(try $0.string("user_id")) \(try $0.string("board_window")) \(try $0.string("period")) \(try $0.int64("score"))" }
        #expect(moved == ["\(ann) day 2026-11-23 9", "\(bob) day 2026-11-23 8"])

        // Erasing a player removes both kinds of row, and its entries on both days in Redis.
        let member = try await member(of: ann, in: storage.postgres)
        #expect(try await storage.erasure.erase(userID: ann, now: now))
        let left = try await storage.postgres.query("""
            SELECT (SELECT count(*) FROM board_current_scores WHERE user_id = $1) + (SELECT count(*) FROM board_period_scores WHERE user_id = $1) AS n
            """, [ann]).onlyInt("n")
        #expect(left == 0)
        for day in ["2026-11-23", "2026-11-24"] {
            #expect(try await storage.redis.command(["ZSCORE", RankingKeys.board(board, .day, day), member]) == .null)
        }
    }

    @Test("a rebuild walks both tables: a period held by some players and moved for others comes back whole")
    func rebuildReadsBothTables() async throws {
        // Its own database and Redis: a rebuild takes the one rebuild lease and rewrites every board it finds.
        try await StoreTestEnvironment.withOwnDatabase { url in
            let server = OwnRedisServer()
            try await server.start()
            let storage = try await StoreTestEnvironment.storage(now: now, redisURL: server.url, databaseURL: url)
            let plays = [("a1", "ann", "2026-11-23T23:00:00Z"), ("b1", "bob", "2026-11-23T22:00:00Z"), ("a2", "ann", "2026-11-24T00:01:00Z"),
                         ("a3", "ann", "2026-11-23T23:30:00Z"), ("c1", "cid", "2026-11-24T00:02:00Z")]
            for (id, user, at) in plays {
                _ = try await storage.completions.record([try completion(id: id, user: user, topic: "t", completedAt: at, now: now)], now: now)
            }
            #expect(try await storage.postgres.query("SELECT count(*) AS n FROM board_period_scores").onlyInt("n") == 2,
                    "ann's Monday on the global and the topic board moved; bob's is still held")
            server.stop()
            try await server.start()
            try await storage.rankingSync.rebuild()
            let expected = [("day", "2026-11-23", [("ann", 6), ("bob", 3)]), ("day", "2026-11-24", [("ann", 3), ("cid", 3)]),
                            ("week", "2026-W48", [("ann", 9), ("bob", 3), ("cid", 3)]), ("all", "all", [("ann", 9), ("bob", 3), ("cid", 3)])]
            for (window, period, rows) in expected {
                let key = RankingKeys.board("topic:t", try #require(LeaderboardWindow(rawValue: window)), period)
                let live = try await redisBoard(storage.redis, key)
                #expect(live.map(\.0) == rows.map(\.0) && live.map(\.1) == rows.map { Int64($0.1) }, "\(key)")
            }
            server.stop()
            await storage.postgres.close()
        }
    }

    @Test("a period closed early takes nothing more, whether the current row holds it or a newer one replaced it")
    func closedPeriodsTakeNothing() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("closed")
        let board = "topic:\(topic)"
        let user = "\(topic)-u"
        func record(_ id: String, at: String) async throws -> CompletionResponse {
            let item = try completion(id: "\(topic)-\(id)", user: user, topic: topic, completedAt: at, now: now)
            return try #require(try await storage.completions.record([item], now: now).first?.response)
        }
        func missedDays(_ response: CompletionResponse) -> [String] {
            response.missedPeriods.filter { $0.board == board && $0.window == .day }.map(\.period)
        }
        func held() async throws -> [String] {
            try await storage.postgres.query("SELECT day_period, day_score FROM board_current_scores WHERE board = $1", [board]).rows
                .map { "\(try $0.string("day_period")) \(try $0.int64("day_score"))" }
        }
        _ = try await record("1", at: "2026-11-23T23:00:00Z")  // Monday, held by the current row: 3
        // An admin closes Monday early (by the clock it is still in its grace period).
        try await storage.postgres.query("""
            INSERT INTO board_periods (board, board_window, period, ends_at, closed_at) VALUES ($1, 'day', '2026-11-23', '2026-11-24T00:00:00Z', $2)
            ON CONFLICT (board, board_window, period) DO UPDATE SET closed_at = EXCLUDED.closed_at
            """, [board, now])
        #expect(missedDays(try await record("2", at: "2026-11-23T23:10:00Z")) == ["2026-11-23"])
        #expect(try await held() == ["2026-11-23 3"], "the held period took nothing")
        #expect(missedDays(try await record("3", at: "2026-11-24T00:01:00Z")).isEmpty)
        #expect(try await held() == ["2026-11-24 3"])
        #expect(missedDays(try await record("4", at: "2026-11-23T23:20:00Z")) == ["2026-11-23"], "nor once it moved to the period rows")
        #expect(try await postgresBoard(storage.postgres, board: board, window: .day, period: "2026-11-23").map(\.1) == [3])
        #expect(try await postgresBoard(storage.postgres, board: board, window: .day, period: "2026-11-24").map(\.1) == [3])
        #expect(try await postgresBoard(storage.postgres, board: board, window: .week, period: "2026-W48").map(\.1) == [12])
    }

    @Test("migration 018 moves each board and player's all-time score and newest periods into one row; the view shows every row as before")
    func migrationMovesRows() async throws {
        try await StoreTestEnvironment.withOwnDatabase(migratedBelow: 18) { pool, migrations in
            try await pool.query("INSERT INTO users (user_id, created_at, updated_at) VALUES ('ann', now(), now()), ('bob', now(), now())")
            let rows = """
                ('global', 'all', 'all', 'ann', 17, 12, 1), ('global', 'day', '2026-11-23', 'ann', 9, 5, 0),
                ('global', 'day', '2026-11-24', 'ann', 8, 4, 1), ('global', 'week', '2026-W48', 'ann', 17, 9, 1),
                ('global', 'month', '2026-11', 'ann', 17, 9, 1), ('global', 'all', 'all', 'bob', 3, 0, 0),
                ('global', 'month', '2026-10', 'bob', 3, 0, 0), ('contest:cup', 'contest', '20261124T0000Z', 'ann', 4, 1, 0)
                """
            try await pool.query("""
                INSERT INTO board_scores (board, board_window, period, user_id, score, updated_at, reached_at, duration_ms, untimed_completions)
                SELECT b, w, p, u, s, '2026-11-24T00:10:00Z', '2026-11-24T00:05:00Z', d, n FROM (VALUES \(rows)) AS x(b, w, p, u, s, d, n)
                """)
            let everything = """
                SELECT board || ' ' || board_window || ' ' || period || ' ' || user_id || ' ' || score || ' ' || duration_ms || ' '
                       || untimed_completions || ' ' || reached_at::text AS r FROM board_scores ORDER BY 1
                """
            let before = try await pool.query(everything).rows.map { try $0.string("r") }
            try await Migrator(pool: pool, logger: StoreTestEnvironment.logger).migrate(migrations)
            #expect(try await pool.query(everything).rows.map { try $0.string("r") } == before)
            let current = try await pool.query("""
                SELECT user_id || ' ' || COALESCE(day_period, '-') || ' ' || COALESCE(week_period, '-') || ' ' || COALESCE(month_period, '-') AS r
                FROM board_current_scores ORDER BY 1
                """).rows.map { try $0.string("r") }
            #expect(current == ["ann 2026-11-24 2026-W48 2026-11", "bob - - 2026-10"])
            let periodRows = try await pool.query("""
                SELECT board_window || ' ' || period || ' ' || user_id AS r FROM board_period_scores ORDER BY 1
                """).rows.map { try $0.string("r") }
            #expect(periodRows == ["contest 20261124T0000Z ann", "day 2026-11-23 ann"])
        }
    }
}
