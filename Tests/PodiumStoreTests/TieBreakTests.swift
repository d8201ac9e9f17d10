import Foundation
import PodiumCore
@testable import PodiumStore
import PodiumTestSupport
import PodiumWire
import Postgres
import Redis
import Testing

/// Tie-break policies end to end on a Redis and a database of the test's own (rebuilds take a lease other suites'
/// rebuilds would hold): the live board, around-me, compare, profile ranks, the PostgreSQL fallback, the rebuild and
/// the medals at close all rank equal scores the same way.
@Suite("Tie-break policies", .serialized, .timeLimit(.minutes(5)))
struct TieBreakTests {
    let now = instant("2026-11-25T12:00:00Z")

    /// Rules giving `topic` the policy `tieBreak`, with medals on weeks.
    static func rules(_ topic: String, _ tieBreak: TieBreak) -> GameRules {
        var rules = GameRules()
        rules.boards = BoardCatalog(rules: BoardRule.defaults + [BoardRule(scope: "topic:\(topic)", medalWindows: [.week], tieBreak: tieBreak)])
        return rules
    }

    /// Records `items` one by one; returns each one's rank on the topic's week board as answered.
    static func record(_ items: [ValidCompletion], in storage: PodiumStorage, topic: String) async throws -> [Int?] {
        var ranks: [Int?] = []
        for item in items {
            guard case .created(let response) = try await storage.writer.record(item) else { throw TestFailure("not created") }
            ranks.append(response.ranks.first { $0.board == "topic:\(topic)" && $0.window == .week }?.rank)
        }
        return ranks
    }

    /// The week board as (user, rank, score), from a read.
    static func board(_ storage: PodiumStorage, topic: String, slice: LeaderboardSlice = .page(offset: 0, limit: 10)) async throws -> [String] {
        let read = try await storage.leaderboards.read(board: "topic:\(topic)", window: .week, period: "2026-W48", slice: slice)
        return read.entries.map { "\($0.userId):\($0.rank):\($0.score)" }
    }

    @Test("earliest: of equal scores the one reached first ranks higher, everywhere, and after a rebuild and at close")
    func earliestRanksWhoReachedFirst() async throws {
        let server = ownRedis()
        try await server.start()
        defer { server.stop() }
        let topic = StoreTestEnvironment.unique("tb-early")
        try await StoreTestEnvironment.withOwnDatabase { database in
            let storage = try await StoreTestEnvironment.storage(
                now: now, redisURL: server.url, rules: Self.rules(topic, .earliest), databaseURL: database)
            defer { Task { await storage.postgres.close() } }
            try await storage.rankingSync.rebuild()
            let (late, early, third) = ("\(topic)-late", "\(topic)-early", "\(topic)-third")
            // `late` comes to Podium first (lower handle: it would list first under shared ranks), but reaches 5 at 10:00;
            // `early` reaches 5 at 09:00 (offline, posted later); `third` has 2.
            let answered = try await Self.record([
                try completion(id: "\(topic)-1", user: late, topic: topic, difficulty: "hard", completedAt: "2026-11-25T10:00:00Z", now: now),
                try completion(id: "\(topic)-2", user: early, topic: topic, difficulty: "hard", completedAt: "2026-11-25T09:00:00Z", now: now),
                try completion(id: "\(topic)-3", user: third, topic: topic, difficulty: "easy", completedAt: "2026-11-25T11:00:00Z", now: now),
            ], in: storage, topic: topic)
            #expect(answered == [1, 1, 3], "early's answer ranks it first, above late")
            let expected = ["\(early):1:5", "\(late):2:5", "\(third):3:2"]
            #expect(try await Self.board(storage, topic: topic) == expected)
            #expect(try await Self.board(storage, topic: topic, slice: .around(userID: late, radius: 1)) == expected)
            #expect(try await Self.board(storage, topic: topic, slice: .page(offset: 1, limit: 1)) == ["\(late):2:5"], "a page that starts inside the tie")
            let compared = try await storage.leaderboards.compare(board: "topic:\(topic)", window: .week, period: "2026-W48", userIDs: [third, late])
            #expect(compared.entries.map { "\($0.userId):\($0.rank)" } == ["\(late):2", "\(third):3"])
            let period = BoardPeriod(board: storage.rules.boards.definition(for: .topic(topic)),
                                     period: Period.containing(now, window: .week, timeZone: .gmt))
            #expect(try await storage.leaderboards.standings(userID: late, periods: [period]).ranks.map(\.rank) == [2])

            // The same from a rebuilt Redis, and the reconciler finds nothing to repair.
            let before = try await server.redisValues(RankingKeys.board(period))
            try await storage.rankingSync.rebuild()
            #expect(try await server.redisValues(RankingKeys.board(period)) == before)
            let report = try await storage.reconciler.reconcile([BoardPeriodKey(period)])
            #expect(report.corrected == 0 && report.added == 0 && report.removed == 0)

            // The same from PostgreSQL while Redis is down.
            server.stop()
            let fallback = try await storage.leaderboards.read(board: "topic:\(topic)", window: .week, period: "2026-W48", slice: .page(offset: 0, limit: 10))
            #expect(!fallback.live)
            #expect(fallback.entries.map { "\($0.userId):\($0.rank):\($0.score)" } == expected)
            #expect(try await Self.board(storage, topic: topic, slice: .around(userID: late, radius: 1)) == expected)
            #expect(try await Self.board(storage, topic: topic, slice: .page(offset: 1, limit: 1)) == ["\(late):2:5"])
            let comparedFallback = try await storage.leaderboards.compare(board: "topic:\(topic)", window: .week, period: "2026-W48", userIDs: [third, late])
            #expect(comparedFallback.entries.map { "\($0.userId):\($0.rank)" } == ["\(late):2", "\(third):3"])
            #expect(try await storage.leaderboards.standings(userID: late, periods: [period]).ranks.map(\.rank) == [2])

            // Medals at close follow the same order: gold for early, silver for late.
            let closed = try await storage.closing.close(BoardPeriodKey(period), now: instant("2026-11-30T00:20:00Z"), dryRun: false)
            #expect(closed.medals.map { "\($0.userId):\($0.medal.rawValue):\($0.rank)" } == ["\(early):gold:1", "\(late):silver:2", "\(third):bronze:3"])
        }
    }

    @Test("fastest: of equal scores the one that took less playing time ranks higher; shared keeps today's shared ranks")
    func fastestRanksByPlayingTime() async throws {
        let server = ownRedis()
        try await server.start()
        defer { server.stop() }
        let fast = StoreTestEnvironment.unique("tb-fast")
        let shared = StoreTestEnvironment.unique("tb-shared")
        var rules = Self.rules(fast, .fastest)
        rules.boards = BoardCatalog(rules: rules.boards.rules + [BoardRule(scope: "topic:\(shared)", medalWindows: [.week])])
        try await StoreTestEnvironment.withOwnDatabase { database in
            let storage = try await StoreTestEnvironment.storage(now: now, redisURL: server.url, rules: rules, databaseURL: database)
            defer { Task { await storage.postgres.close() } }
            try await storage.rankingSync.rebuild()
            for topic in [fast, shared] {
                let (slow, quick) = ("\(topic)-slow", "\(topic)-quick")
                // Both reach 5 (3 + 2); slow in 90 s of play, quick in 50 s.
                _ = try await Self.record([
                    try completion(id: "\(topic)-1", user: slow, topic: topic, difficulty: "medium", durationMs: 60_000, now: now),
                    try completion(id: "\(topic)-2", user: quick, topic: topic, difficulty: "medium", durationMs: 30_000, now: now),
                    try completion(id: "\(topic)-3", user: slow, topic: topic, difficulty: "easy", durationMs: 30_000, now: now),
                    try completion(id: "\(topic)-4", user: quick, topic: topic, difficulty: "easy", durationMs: 20_000, now: now),
                ], in: storage, topic: topic)
            }
            #expect(try await Self.board(storage, topic: fast) == ["\(fast)-quick:1:5", "\(fast)-slow:2:5"])
            #expect(try await Self.board(storage, topic: shared) == ["\(shared)-slow:1:5", "\(shared)-quick:1:5"], "shared: one rank, handle order")
            let row = try await storage.postgres.query(
                "SELECT duration_ms, reached_at FROM board_scores WHERE board = $1 AND board_window = 'week' AND user_id = $2",
                ["topic:\(fast)", "\(fast)-slow"]).rows[0]
            #expect(try row.int64("duration_ms") == 90_000)
            #expect(try row.date("reached_at") == now, "completed_at defaults to the time of recording")

            server.stop()
            #expect(try await Self.board(storage, topic: fast) == ["\(fast)-quick:1:5", "\(fast)-slow:2:5"], "PostgreSQL agrees")
            #expect(try await Self.board(storage, topic: shared) == ["\(shared)-slow:1:5", "\(shared)-quick:1:5"])
            let closed = try await storage.closing.close(
                BoardPeriodKey(board: "topic:\(fast)", window: .week, period: "2026-W48"), now: instant("2026-11-30T00:20:00Z"), dryRun: true)
            #expect(closed.medals.map { "\($0.userId):\($0.medal.rawValue)" } == ["\(fast)-quick:gold", "\(fast)-slow:silver"])
            let sharedClose = try await storage.closing.close(
                BoardPeriodKey(board: "topic:\(shared)", window: .week, period: "2026-W48"), now: instant("2026-11-30T00:20:00Z"), dryRun: true)
            #expect(sharedClose.medals.map { "\($0.userId):\($0.medal.rawValue)" } == ["\(shared)-slow:gold", "\(shared)-quick:gold"])
        }
    }

    @Test("fastest: leaving out duration_ms no longer wins the tie; untimed players rank after the timed, fewer untimed first")
    func untimedCompletionsRankAfterTimedOnes() async throws {
        let server = ownRedis()
        try await server.start()
        defer { server.stop() }
        let topic = StoreTestEnvironment.unique("tb-untimed")
        try await StoreTestEnvironment.withOwnDatabase { database in
            let storage = try await StoreTestEnvironment.storage(
                now: now, redisURL: server.url, rules: Self.rules(topic, .fastest), databaseURL: database)
            defer { Task { await storage.postgres.close() } }
            try await storage.rankingSync.rebuild()
            let (untimed, timed, mixed) = ("\(topic)-untimed", "\(topic)-timed", "\(topic)-mixed")
            // All reach 5 (3 + 2). `untimed` comes first (lowest handle) and never sends a duration: before, it added no
            // time and ranked first. `timed` takes 50 s; `mixed` times one completion (10 s) and leaves out the other.
            let answered = try await Self.record([
                try completion(id: "\(topic)-1", user: untimed, topic: topic, difficulty: "medium", durationMs: nil, now: now),
                try completion(id: "\(topic)-2", user: timed, topic: topic, difficulty: "medium", durationMs: 30_000, now: now),
                try completion(id: "\(topic)-3", user: mixed, topic: topic, difficulty: "medium", durationMs: 10_000, now: now),
                try completion(id: "\(topic)-4", user: untimed, topic: topic, difficulty: "easy", durationMs: nil, now: now),
                try completion(id: "\(topic)-5", user: timed, topic: topic, difficulty: "easy", durationMs: 20_000, now: now),
                try completion(id: "\(topic)-6", user: mixed, topic: topic, difficulty: "easy", durationMs: nil, now: now),
            ], in: storage, topic: topic)
            #expect(answered == [1, 1, 1, 1, 1, 2], "each answer ranks an untimed score after an equal timed one")
            let stored = try await storage.postgres.query("""
                SELECT user_id, duration_ms, untimed_completions FROM board_scores
                WHERE board = $1 AND board_window = 'week' ORDER BY user_id
                """, ["topic:\(topic)"]).rows.map { "\(try $0.string("user_id")):\(try $0.int64("duration_ms")):\(try $0.int64("untimed_completions"))" }
            #expect(stored == ["\(mixed):10000:1", "\(timed):50000:0", "\(untimed):0:2"])

            // The live board (Redis): timed, then mixed (one untimed completion), then untimed (two).
            let expected = ["\(timed):1:5", "\(mixed):2:5", "\(untimed):3:5"]
            #expect(try await Self.board(storage, topic: topic) == expected)
            #expect(try await Self.board(storage, topic: topic, slice: .around(userID: untimed, radius: 1)) == Array(expected[1...]))
            #expect(try await Self.board(storage, topic: topic, slice: .page(offset: 1, limit: 1)) == ["\(mixed):2:5"])
            let period = BoardPeriod(board: storage.rules.boards.definition(for: .topic(topic)),
                                     period: Period.containing(now, window: .week, timeZone: .gmt))
            #expect(try await storage.leaderboards.standings(userID: untimed, periods: [period]).ranks.map(\.rank) == [3])

            // A rebuilt Redis holds the same values, and the reconciler finds nothing to repair.
            let before = try await server.redisValues(RankingKeys.board(period))
            try await storage.rankingSync.rebuild()
            #expect(try await server.redisValues(RankingKeys.board(period)) == before)
            let report = try await storage.reconciler.reconcile([BoardPeriodKey(period)])
            #expect(report.corrected == 0 && report.added == 0 && report.removed == 0)

            // A scheduled snapshot, taken from the live page as the snapshot job takes it.
            let key = BoardPeriodKey(period)
            let page = try await storage.leaderboards.read(board: key.board, window: .week, period: key.period, slice: .page(offset: 0, limit: 10))
            try await storage.snapshots.record(key, takenAt: instant("2026-11-25T13:00:00Z"), players: page.players, entries: page.entries)

            // The same from PostgreSQL while Redis is down.
            server.stop()
            let fallback = try await storage.leaderboards.read(board: key.board, window: .week, period: key.period, slice: .page(offset: 0, limit: 10))
            #expect(!fallback.live)
            #expect(fallback.entries.map { "\($0.userId):\($0.rank):\($0.score)" } == expected)
            #expect(try await Self.board(storage, topic: topic, slice: .around(userID: untimed, radius: 1)) == Array(expected[1...]))
            #expect(try await Self.board(storage, topic: topic, slice: .page(offset: 1, limit: 1)) == ["\(mixed):2:5"])
            #expect(try await storage.leaderboards.standings(userID: untimed, periods: [period]).ranks.map(\.rank) == [3])

            // Medals and the final snapshot at close: gold for timed, silver for mixed, bronze for untimed.
            let closed = try await storage.closing.close(key, now: instant("2026-11-30T00:20:00Z"), dryRun: false)
            #expect(closed.medals.map { "\($0.userId):\($0.medal.rawValue):\($0.rank)" } == ["\(timed):gold:1", "\(mixed):silver:2", "\(untimed):bronze:3"])
            let snapshots = try await storage.snapshots.snapshots(key, limit: 5, top: 10)
            #expect(snapshots.map(\.kind) == ["final", "scheduled"])
            for snapshot in snapshots {
                #expect(snapshot.entries.map { "\($0.userId):\($0.rank):\($0.score)" } == expected, "\(snapshot.kind)")
            }
        }
    }

    @Test("fastest: the SQL key PostgreSQL ranks by equals the key Redis is written with")
    func sqlKeyAgreesWithSwiftKey() async throws {
        let postgres = try await StoreTestEnvironment.postgres(poolSize: 1)
        defer { Task { await postgres.close() } }
        let durations: [Int64] = [0, 999, 1_000, 61_250, (1 << 31) - 1, 1 << 31, 1 << 40]
        let counts: [Int64] = [0, 1, 2, 1_023, 1_024, 1_025, 1 << 40]
        let pairs = durations.flatMap { duration in counts.map { (duration, $0) } }
        let rows = try await postgres.query("""
            SELECT v.duration_ms, v.untimed_completions, \(TieBreakSQL.key(policy: "'fastest'", row: "v")) AS tie_key
            FROM (SELECT d AS duration_ms, n AS untimed_completions, NULL::timestamptz AS reached_at, NULL::timestamptz AS updated_at
                  FROM unnest($1::bigint[], $2::bigint[]) AS x(d, n)) v
            """, [pairs.map(\.0), pairs.map(\.1)]).rows
        #expect(rows.count == pairs.count)
        for row in rows {
            let (duration, count) = (try row.int64("duration_ms"), try row.int64("untimed_completions"))
            #expect(try row.int64("tie_key") == TieBreak.fastest.key(reachedAt: nil, durationMs: duration, untimedCompletions: count),
                    "\(duration) ms, \(count) untimed")
        }
    }

    @Test("run: the SQL key PostgreSQL ranks and merges by equals the key Redis is written with")
    func sqlRunKeyAgreesWithSwiftKey() async throws {
        let postgres = try await StoreTestEnvironment.postgres(poolSize: 1)
        defer { Task { await postgres.close() } }
        let durations: [Int64] = [0, 99, 100, 61_299, 6_553_400, 6_553_500, 1 << 40]
        let instants = [instant("2019-06-01T00:00:00Z"), instant("2026-11-23T10:00:59Z"), instant("2026-11-23T10:01:00Z"), instant("2060-01-01T00:00:00Z")]
        let cases = durations.flatMap { duration in instants.flatMap { at in [(duration, at, Int64(0)), (duration, at, Int64(1))] } }
        let rows = try await postgres.query("""
            SELECT v.duration_ms, v.untimed_completions, v.reached_at, \(TieBreakSQL.key(policy: "'run'", row: "v")) AS tie_key
            FROM (SELECT d AS duration_ms, n AS untimed_completions, r AS reached_at, NULL::timestamptz AS updated_at
                  FROM unnest($1::bigint[], $2::bigint[], $3::timestamptz[]) AS x(d, n, r)) v
            """, [cases.map(\.0), cases.map(\.2), cases.map { RFC3339.format($0.1) }]).rows
        #expect(rows.count == cases.count)
        for row in rows {
            let (duration, untimed, at) = (try row.int64("duration_ms"), try row.int64("untimed_completions"), try row.date("reached_at"))
            #expect(try row.int64("tie_key") == TieBreak.run.key(reachedAt: at, durationMs: duration, untimedCompletions: untimed),
                    "\(duration) ms, \(untimed) untimed, at \(at)")
        }
    }
}

extension OwnRedis {
    /// A sorted set's members with their stored values, in order, as Redis returns them.
    func redisValues(_ key: String) async throws -> [String] {
        let redis = RedisClient(configuration: try RedisConfiguration(url: url), logger: StoreTestEnvironment.logger)
        defer { Task { await redis.close() } }
        return (try await redis.command(["ZRANGE", key, "0", "-1", "WITHSCORES"]).array ?? []).compactMap(\.string)
    }
}
