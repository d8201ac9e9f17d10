import Foundation
import PodiumCore
@testable import PodiumStore
import PodiumTestSupport
import PodiumWire
import Postgres
import Redis
import Testing

/// Best and latest boards, on quiz boards: which run a period keeps, in PostgreSQL and in Redis, and how it ranks.
@Suite("Best and latest boards: one run per player and period", .timeLimit(.minutes(5)))
struct BestBoardsTests {
    /// Tuesday 2026-11-24 00:05 UTC: Monday has ended but is still open (the grace period), so Monday's runs are late.
    let now = instant("2026-11-24T00:05:00Z")

    /// Storage whose quiz boards (every quiz) keep `aggregate` of `metric` in `windows`, with medals in `medalWindows`.
    func storage(
        _ aggregate: BoardAggregate, _ metric: BoardMetric, windows: [LeaderboardWindow] = [.all, .week], medalWindows: [LeaderboardWindow] = []
    ) async throws -> PodiumStorage {
        let quiz = BoardRule(scope: "quiz:*", windows: windows, metric: metric, aggregate: aggregate, medalWindows: medalWindows)
        let rules = GameRules(boards: BoardCatalog(rules: BoardRule.defaults + [quiz]))
        #expect(rules.boards.validationErrors().isEmpty)
        return try await StoreTestEnvironment.storage(now: now, rules: rules)
    }

    /// The row `board_scores` holds for `user` on `board`'s `window` period `period`: score, reached_at, duration, untimed.
    func row(_ storage: PodiumStorage, _ board: String, _ window: String, _ period: String, _ user: String) async throws -> [String]? {
        try await storage.postgres.query("""
            SELECT score::text AS s, to_char(reached_at AT TIME ZONE 'UTC', 'HH24:MI') AS r, duration_ms::text AS d,
                   untimed_completions::text AS u
            FROM board_scores WHERE board = $1 AND board_window = $2 AND period = $3 AND user_id = $4
            """, [board, window, period, user]).rows.first.map { [try $0.string("s"), try $0.string("r"), try $0.string("d"), try $0.string("u")] }
    }

    /// Redis's value for `user` on a board period, and the value the place PostgreSQL holds there should have.
    func redisAgrees(_ storage: PodiumStorage, _ board: String, _ window: LeaderboardWindow, _ period: String, _ user: String) async throws -> Bool {
        let stored = try await storage.postgres.query("""
            SELECT s.score, s.reached_at, s.updated_at, s.duration_ms, s.untimed_completions FROM board_scores s
            WHERE board = $1 AND board_window = $2 AND period = $3 AND user_id = $4
            """, [board, window.rawValue, period, user]).rows
        let held = try await storage.redis.command(["ZSCORE", RankingKeys.board(board, window, period), try await member(of: user, in: storage.postgres)]).string
        guard let first = stored.first else { return held == nil }
        let tieBreak = storage.rules.tieBreak(ofBoard: board)
        let place = RankingPlace(
            score: try first.int64("score"),
            key: tieBreak.key(reachedAt: try first.date("reached_at"), durationMs: try first.int64("duration_ms"),
                              untimedCompletions: try first.int64("untimed_completions")),
            keyBits: tieBreak.keyBits)
        return place.isStored(as: held)
    }

    @Test("best: a better run replaces a worse one, a worse one and a replay change nothing; the topic board still sums; one more row")
    func bestKeepsTheBestRun() async throws {
        let storage = try await storage(.best, .points)
        let quiz = StoreTestEnvironment.unique("best")
        let board = "quiz:\(quiz)"
        let ann = "\(quiz)-ann"
        func play(_ id: String, _ difficulty: String, _ at: String, durationMs: Int? = 60_000) throws -> ValidCompletion {
            try completion(id: "\(quiz)-\(id)", user: ann, quiz: quiz, topic: quiz, difficulty: difficulty, completedAt: at,
                           durationMs: durationMs, now: now)
        }
        func quizScore(_ outcome: RecordOutcome) throws -> Int64? {
            try #require(outcome.response).ranks.first { $0.board == board && $0.window == .all }?.score
        }
        // Points for 5 of 10: easy 2, medium 3, hard 5.
        let first = try await storage.completions.record([try play("a1", "medium", "2026-11-23T10:00:00Z")], now: now)
        #expect(try quizScore(first[0]) == 3)
        let worse = try await storage.completions.record([try play("a2", "easy", "2026-11-23T10:10:00Z")], now: now)
        #expect(try quizScore(worse[0]) == 3, "a worse run is answered with the best so far")
        #expect(try await row(storage, board, "all", "all", ann) == ["3", "10:00", "60000", "0"])
        let better = try await storage.completions.record([try play("a3", "hard", "2026-11-23T10:20:00Z", durationMs: nil)], now: now)
        #expect(try quizScore(better[0]) == 5)
        #expect(try await row(storage, board, "all", "all", ann) == ["5", "10:20", "0", "1"], "the run kept whole: an untimed one")
        let replay = try await storage.completions.record([try play("a3", "hard", "2026-11-23T10:20:00Z", durationMs: nil)], now: now)
        #expect(replay[0] == better[0].replayedForm)
        #expect(try await row(storage, board, "week", "2026-W48", ann) == ["5", "10:20", "0", "1"])
        #expect(try await row(storage, "topic:\(quiz)", "all", "all", ann)?.first == "10", "the topic board sums 3 + 2 + 5")
        #expect(try await redisAgrees(storage, board, .all, "all", ann))
        #expect(try await redisAgrees(storage, board, .week, "2026-W48", ann))

        // A returning player's completion on a quiz board writes one row more than without one: the quiz board's.
        _ = try await storage.completions.record([try play("a4", "easy", "2026-11-23T10:30:00Z")], now: now)
        let written = try await BoardScoreTablesTests().rowsWritten(byTransactionOf: "\(quiz)-a4", storage.postgres)
        #expect(written == ["completions": 1, "users": 1, "user_topics": 1, "board_current_scores": 3, "events": 1])
    }

    @Test("best: of equal runs the faster ranks higher, then the one reached first; Redis ranks as PostgreSQL does")
    func bestTiesGoToTheFasterThenEarlierRun() async throws {
        let storage = try await storage(.best, .correct)
        let quiz = StoreTestEnvironment.unique("ties")
        let board = "quiz:\(quiz)"
        let (bob, cy, dee, eve) = ("\(quiz)-bob", "\(quiz)-cy", "\(quiz)-dee", "\(quiz)-eve")
        func play(_ user: String, _ correct: Int, _ at: String, _ durationMs: Int?) throws -> ValidCompletion {
            try completion(id: "\(user)-\(at)", user: user, quiz: quiz, topic: quiz, correct: correct, completedAt: at, durationMs: durationMs, now: now)
        }
        _ = try await storage.completions.record([
            try play(bob, 8, "2026-11-23T10:00:00Z", 50_000),
            try play(cy, 8, "2026-11-23T10:05:00Z", 40_000),
            try play(dee, 8, "2026-11-23T10:07:00Z", 40_000),
            try play(eve, 9, "2026-11-23T10:09:00Z", nil),
        ], now: now)
        // Cy again, as fast but later: the earlier run stays.
        _ = try await storage.completions.record([try play(cy, 8, "2026-11-23T10:30:00Z", 40_000)], now: now)
        #expect(try await row(storage, board, "week", "2026-W48", cy) == ["8", "10:05", "40000", "0"])
        let page = try await storage.leaderboards.read(board: board, window: .week, period: "2026-W48", slice: .page(offset: 0, limit: 10))
        #expect(page.live)
        #expect(page.entries.map(\.userId) == [eve, cy, dee, bob])
        #expect(page.entries.map(\.rank) == [1, 2, 3, 4])
        #expect(page.entries.map(\.score) == [9, 8, 8, 8])
        for user in [bob, cy, dee, eve] { #expect(try await redisAgrees(storage, board, .week, "2026-W48", user)) }
    }

    @Test("latest: a newer run replaces a better one, an older late run changes nothing; accuracy in basis points; Redis follows down")
    func latestKeepsTheNewestRun() async throws {
        let storage = try await storage(.latest, .accuracy)
        let quiz = StoreTestEnvironment.unique("latest")
        let board = "quiz:\(quiz)"
        let ann = "\(quiz)-ann"
        func play(_ id: String, _ correct: Int, _ at: String) throws -> ValidCompletion {
            try completion(id: "\(quiz)-\(id)", user: ann, quiz: quiz, topic: quiz, correct: correct, total: 8, completedAt: at, now: now)
        }
        _ = try await storage.completions.record([try play("a1", 7, "2026-11-23T10:00:00Z")], now: now)
        #expect(try await row(storage, board, "all", "all", ann)?.first == "8750")
        let lower = try await storage.completions.record([try play("a2", 3, "2026-11-23T10:10:00Z")], now: now)
        #expect(try #require(lower[0].response).ranks.first { $0.board == board && $0.window == .all }?.score == 3750)
        #expect(try await row(storage, board, "all", "all", ann)?.prefix(2) == ["3750", "10:10"])
        #expect(try await redisAgrees(storage, board, .all, "all", ann), "Redis went down with it")
        // A run played before the latest, synced late: older, so it changes nothing.
        _ = try await storage.completions.record([try play("a3", 8, "2026-11-23T10:05:00Z")], now: now)
        #expect(try await row(storage, board, "all", "all", ann)?.prefix(2) == ["3750", "10:10"])
        #expect(try await redisAgrees(storage, board, .all, "all", ann))
        // Two in one batch: the newer counts.
        _ = try await storage.completions.record([try play("a5", 2, "2026-11-23T10:50:00Z"), try play("a4", 6, "2026-11-23T10:40:00Z")], now: now)
        #expect(try await row(storage, board, "week", "2026-W48", ann)?.prefix(2) == ["2500", "10:50"])
        #expect(try await redisAgrees(storage, board, .week, "2026-W48", ann))
    }

    @Test("duration: only perfect, timed runs count, fastest first, shown in milliseconds")
    func durationRanksTheFastestPerfectRun() async throws {
        let storage = try await storage(.best, .duration)
        let quiz = StoreTestEnvironment.unique("fast")
        let board = "quiz:\(quiz)"
        let (ann, bob) = ("\(quiz)-ann", "\(quiz)-bob")
        func play(_ id: String, _ user: String, correct: Int = 10, _ durationMs: Int?, at: String = "2026-11-23T10:00:00Z") throws -> ValidCompletion {
            try completion(id: "\(quiz)-\(id)", user: user, quiz: quiz, topic: quiz, correct: correct, completedAt: at, durationMs: durationMs, now: now)
        }
        let imperfect = try await storage.completions.record([try play("a0", ann, correct: 9, 30_000)], now: now)
        let response = try #require(imperfect[0].response)
        #expect(!response.ranks.contains { $0.board == board } && !response.missedPeriods.contains { $0.board == board },
                "an imperfect run neither counts nor misses")
        #expect(try await row(storage, board, "all", "all", ann) == nil)
        _ = try await storage.completions.record([try play("a1", ann, 65_437)], now: now)
        _ = try await storage.completions.record([try play("a2", ann, 70_000), try play("a3", ann, nil)], now: now)
        let page = try await storage.leaderboards.read(board: board, window: .all, period: "all", slice: .page(offset: 0, limit: 10))
        #expect(page.entries.map(\.score) == [65_430], "shown to the centisecond")
        let faster = try await storage.completions.record([try play("a4", ann, 50_000, at: "2026-11-23T10:30:00Z")], now: now)
        #expect(try #require(faster[0].response).ranks.first { $0.board == board && $0.window == .all }?.score == 50_000)
        _ = try await storage.completions.record([try play("b1", bob, 50_000, at: "2026-11-23T10:40:00Z")], now: now)
        let both = try await storage.leaderboards.read(board: board, window: .all, period: "all", slice: .page(offset: 0, limit: 10))
        #expect(both.entries.map(\.userId) == [ann, bob], "equal times: the earlier run first")
        #expect(both.entries.map(\.rank) == [1, 2])
        #expect(both.entries.map(\.score) == [50_000, 50_000])
        for user in [ann, bob] { #expect(try await redisAgrees(storage, board, .all, "all", user)) }
    }

    @Test("close: medals go to the fastest perfect runs, once; the final snapshot, the medals and the closed page show milliseconds")
    func durationBoardCloses() async throws {
        let storage = try await storage(.best, .duration, windows: [.week], medalWindows: [.week])
        let quiz = StoreTestEnvironment.unique("close")
        let board = "quiz:\(quiz)"
        let users = (0..<4).map { "\(quiz)-\($0)" }
        var items: [ValidCompletion] = []
        for (index, user) in users.enumerated() {
            items.append(try completion(id: "\(user)-a", user: user, quiz: quiz, topic: quiz, correct: 10, completedAt: "2026-11-23T10:00:00Z",
                                        durationMs: 40_000 + index * 5_000, now: now))
            items.append(try completion(id: "\(user)-b", user: user, quiz: quiz, topic: quiz, correct: 10, completedAt: "2026-11-23T11:00:00Z",
                                        durationMs: 70_000 - index * 10_000, now: now))
        }
        _ = try await storage.completions.record(items, now: now)
        // Best runs: 0 → 40 s, 1 → 45 s, 2 → 50 s, 3 → 40 s at 11:00 (later than 0's).
        let key = BoardPeriodKey(board: board, window: .week, period: "2026-W48")
        let at = instant("2026-11-30T00:20:00Z")
        let closed = try await storage.closing.close(key, now: at, dryRun: false)
        #expect(closed.medals.map { "\($0.userId):\($0.medal.rawValue):\($0.score)" }
                == ["\(users[0]):gold:40000", "\(users[3]):silver:40000", "\(users[1]):bronze:45000"])
        let again = try await storage.closing.close(key, now: at, dryRun: false)
        #expect(again.outcome == .alreadyClosed)
        #expect(again.medals.map(\.userId) == closed.medals.map(\.userId))
        let period = BoardPeriod(board: storage.rules.boards.definition(for: .quiz(quiz)), period: Period.containing(now, window: .week, timeZone: .gmt))
        let final = try await storage.boardReads.read(period, slice: .page(offset: 0, limit: 10), now: at)
        #expect(final.isFinal)
        #expect(final.entries.entries.map { "\($0.userId):\($0.rank):\($0.score)" }
                == ["\(users[0]):1:40000", "\(users[3]):2:40000", "\(users[1]):3:45000", "\(users[2]):4:50000"])
    }

    @Test("a late run meets the held period where a newer one rolled it over, in one batch and after: the best of them stays")
    func lateRunsOnRolledOverPeriods() async throws {
        let storage = try await storage(.best, .points, windows: [.day])
        let quiz = StoreTestEnvironment.unique("late")
        let board = "quiz:\(quiz)"
        let ann = "\(quiz)-ann"
        func play(_ id: String, _ difficulty: String, _ at: String) throws -> ValidCompletion {
            try completion(id: "\(quiz)-\(id)", user: ann, quiz: quiz, topic: quiz, difficulty: difficulty, completedAt: at, now: now)
        }
        _ = try await storage.completions.record([try play("a1", "medium", "2026-11-23T20:00:00Z")], now: now)
        // One batch: a better late Monday run and a Tuesday run; the held Monday rolls over and meets the late one.
        _ = try await storage.completions.record(
            [try play("a2", "hard", "2026-11-23T21:00:00Z"), try play("a3", "easy", "2026-11-24T00:01:00Z")], now: now)
        #expect(try await row(storage, board, "day", "2026-11-23", ann)?.prefix(2) == ["5", "21:00"])
        #expect(try await row(storage, board, "day", "2026-11-24", ann)?.prefix(2) == ["2", "00:01"])
        // Worse and better late Monday runs, now against the period row.
        _ = try await storage.completions.record([try play("a4", "medium", "2026-11-23T22:00:00Z")], now: now)
        #expect(try await row(storage, board, "day", "2026-11-23", ann)?.prefix(2) == ["5", "21:00"])
        _ = try await storage.completions.record([try play("a5", "medium", "2026-11-24T00:02:00Z")], now: now)
        #expect(try await row(storage, board, "day", "2026-11-24", ann)?.prefix(2) == ["3", "00:02"])
        for day in ["2026-11-23", "2026-11-24"] { #expect(try await redisAgrees(storage, board, .day, day, ann)) }
    }

    @Test("a rebuild gives Redis exactly the places PostgreSQL holds on best and latest boards; the reconciler lowers a latest place")
    func rebuildAndReconcileMatchPostgres() async throws {
        try await StoreTestEnvironment.withOwnStores(now: now) { url, redis in
            let best = BoardRule(scope: "quiz:*", windows: [.all], metric: .points, aggregate: .best)
            let latest = BoardRule(scope: "quiz:latest-one", windows: [.all], metric: .correct, aggregate: .latest)
            let rules = GameRules(boards: BoardCatalog(rules: BoardRule.defaults + [latest, best]))
            let storage = try await StoreTestEnvironment.storage(now: now, redisURL: redis.url, rules: rules, databaseURL: url)
            defer { Task { await storage.postgres.close() } }
            let users = (0..<6).map { "p\($0)" }
            var items: [ValidCompletion] = []
            for (index, user) in users.enumerated() {
                for (round, difficulty) in ["hard", "easy", "medium"].enumerated() {
                    let at = "2026-11-23T1\(round):0\(index):00Z"
                    items.append(try completion(id: "b-\(user)-\(round)", user: user, quiz: "quiz-a", topic: "t", difficulty: difficulty,
                                                completedAt: at, durationMs: 10_000 * (index + 1), now: now))
                    items.append(try completion(id: "l-\(user)-\(round)", user: user, quiz: "latest-one", topic: "t", correct: 3 + round + index % 2,
                                                completedAt: at, now: now))
                }
            }
            _ = try await storage.completions.record(items, now: now)
            let keys = [RankingKeys.board("quiz:quiz-a", .all, "all"), RankingKeys.board("quiz:latest-one", .all, "all")]
            func held() async throws -> [[String]] {
                try await keys.asyncMap { try await storage.redis.command(["ZRANGE", $0, "0", "-1", "WITHSCORES"]).array?.compactMap(\.string) ?? [] }
            }
            let written = try await held()
            #expect(written.map(\.count) == [12, 12])
            for user in users {
                #expect(try await redisAgrees(storage, "quiz:quiz-a", .all, "all", user))
                #expect(try await redisAgrees(storage, "quiz:latest-one", .all, "all", user))
            }
            _ = try await storage.redis.command(["DEL"] + keys)
            try await storage.rankingSync.rebuild()
            #expect(try await held() == written)

            // A stale, better place on the latest board (as a writer without the lock would leave): reconciled down.
            let member = try await member(of: "p0", in: storage.postgres)
            _ = try await storage.redis.command(["ZADD", keys[1], "-9000000000000", member])
            let report = try await storage.reconciler.reconcile([BoardPeriodKey(board: "quiz:latest-one", window: .all, period: "all")])
            #expect(report.corrected == 1)
            #expect(try await held() == written)
        }
    }
}

extension RecordOutcome {
    /// The answer a replay of this first recording gets.
    var replayedForm: RecordOutcome {
        if case .created(let response) = self { return .replayed(response) }
        return self
    }
}

extension Array {
    /// The results of `transform` on each element, in order, one at a time.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
