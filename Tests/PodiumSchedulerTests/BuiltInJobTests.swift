import Foundation
import Logging
import PodiumCore
import PodiumScheduler
@testable import PodiumStore
import PodiumTestSupport
import PodiumWire
import Postgres
import Redis
import Testing

/// The built-in jobs and what they write, against the real PostgreSQL and Redis.
@Suite("Built-in jobs", .timeLimit(.minutes(5)))
struct BuiltInJobTests {
    /// Rules whose completions below 20 % accuracy earn nothing (to put a zero score on a board).
    static let rules = GameRules(points: PointsRules(minimumAccuracy: 0.2))

    let storage: PodiumStorage
    let clock = TestClock(instant("2026-11-18T12:00:00Z"))

    init() async throws {
        let redis = RedisClient(configuration: try RedisConfiguration(url: SchedulerTestEnvironment.redisURL), logger: SchedulerTestEnvironment.logger)
        try await markRankingsReady(redis)
        let clock = clock
        storage = PodiumStorage(
            postgres: try await SchedulerTestEnvironment.postgres(), redis: redis, rules: Self.rules, logger: SchedulerTestEnvironment.logger,
            now: { clock.now })
    }

    /// Records one completion at the clock's time (through `storage`, or `other`); returns its answer.
    @discardableResult
    func record(
        user: String, topic: String, difficulty: String = "hard", correct: Int = 8, completedAt: String? = nil, on other: PodiumStorage? = nil
    ) async throws -> CompletionResponse {
        let storage = other ?? storage
        let request = CompletionRequest(
            id: SchedulerTestEnvironment.uniqueJob("c"), userId: user, quizId: "q", topic: topic, difficulty: difficulty, correct: correct,
            total: 10, durationMs: nil, completedAt: completedAt, groups: nil, displayName: nil)
        let outcome = try await storage.completions.record([try request.validated(now: clock.now, rules: Self.rules)], now: clock.now)
        return try #require(outcome.first?.response)
    }

    func context(slot: Date) -> JobContext {
        JobContext(slot: slot, attempt: 1, now: { clock.now }, logger: SchedulerTestEnvironment.logger)
    }

    @Test("close awards gold to tied firsts, then bronze; score 0 gets nothing; closing twice changes nothing")
    func closeAwardsMedalsOnce() async throws {
        let topic = SchedulerTestEnvironment.uniqueJob("close")
        let lonely = SchedulerTestEnvironment.uniqueJob("lonely")
        let (a, b, c, e, zero) = ("\(topic)-a", "\(topic)-b", "\(topic)-c", "\(topic)-e", "\(topic)-z")
        // Week 2026-W45 and its days: this is the only test whose close-periods job reaches them, and its job
        // (at 2026-11-09) closes no period another test closes or expects open.
        clock.set(instant("2026-11-04T12:00:00Z"))
        // b plays before a: the tie lists b first (first come, first listed), not by user id.
        try await record(user: b, topic: topic)
        try await record(user: a, topic: topic)
        try await record(user: c, topic: topic, difficulty: "medium")
        try await record(user: e, topic: topic, difficulty: "easy")
        try await record(user: a, topic: lonely)
        try await record(user: zero, topic: lonely, correct: 1)

        clock.set(instant("2026-11-09T00:14:59Z"))
        let week = BoardPeriodKey(board: "topic:\(topic)", window: .week, period: "2026-W45")
        #expect(try await storage.periods.duePeriods(now: clock.now, limit: 10_000).map(\.key).contains(week) == false, "grace not over")
        clock.set(instant("2026-11-09T00:15:00Z"))
        #expect(try await storage.periods.duePeriods(now: clock.now, limit: 10_000).map(\.key).contains(week))

        let preview = try await storage.closing.close(week, now: clock.now, dryRun: true)
        #expect(preview.outcome == .dryRun)
        #expect(preview.medals.map { "\($0.userId):\($0.medal):\($0.rank)" } == ["\(b):gold:1", "\(a):gold:1", "\(c):bronze:3"])
        #expect(try await storage.periods.finalSnapshot(week) == nil, "a dry run writes nothing")

        let counts = try await ClosePeriodsJob(periods: storage.periods, closing: storage.closing).run(context(slot: clock.now))
        #expect((counts["closed"] ?? 0) >= 4, "the day and the week of both topic boards, at least")
        for board in ["topic:\(topic)", "topic:\(lonely)"] {
            for (window, period) in [(LeaderboardWindow.day, "2026-11-04"), (.week, "2026-W45")] {
                #expect(try await storage.periods.finalSnapshot(BoardPeriodKey(board: board, window: window, period: period)) != nil)
            }
        }
        let again = try await storage.closing.close(week, now: clock.now, dryRun: false)
        #expect(again.outcome == .alreadyClosed)
        #expect(again.players == 4)
        #expect(again.medals.map { "\($0.userId):\($0.medal)" } == ["\(b):gold", "\(a):gold", "\(c):bronze"])

        let lonelyWeek = try await storage.closing.close(
            BoardPeriodKey(board: "topic:\(lonely)", window: .week, period: "2026-W45"), now: clock.now, dryRun: false)
        #expect(lonelyWeek.medals.map { "\($0.userId):\($0.medal)" } == ["\(a):gold"], "the zero score gets no silver")

        // Day windows award no medals by default, but they close with a final board.
        let day = try await storage.closing.close(
            BoardPeriodKey(board: "topic:\(topic)", window: .day, period: "2026-11-04"), now: clock.now, dryRun: false)
        #expect(day.outcome == .alreadyClosed)
        #expect(day.medals.isEmpty)

        let snapshot = try #require(try await storage.periods.finalSnapshot(week))
        let board = try await storage.periods.readFinal(snapshot: snapshot, slice: .page(offset: 0, limit: 10))
        #expect(board.entries.map { "\($0.rank):\($0.userId):\($0.score):\($0.medal?.rawValue ?? "-")" } == [
            "1:\(b):5:gold", "1:\(a):5:gold", "3:\(c):3:bronze", "4:\(e):2:-",
        ])
        let around = try await storage.periods.readFinal(snapshot: snapshot, slice: .around(userID: c, radius: 1))
        #expect(around.entries.map(\.userId) == [a, c, e])
        #expect(around.offset == 1)

        // The month is still open: only the weeks have awarded medals.
        let medalsOfA = try await storage.periods.medals(userID: a).filter { $0.board != "global" }
        #expect(Set(medalsOfA.map { "\($0.board):\($0.window.rawValue):\($0.medal)" }) == [
            "topic:\(topic):week:gold", "topic:\(lonely):week:gold",
        ])
        let medalEvents = try await storage.postgres.query("""
            SELECT count(*) AS n FROM events WHERE type = 'medal.awarded' AND payload->>'board' = $1 AND payload->>'period' = '2026-W45'
            """, ["topic:\(topic)"]).rows[0].int("n")
        #expect(medalEvents == 3, "one event per medal, never repeated")
        let closedEvents = try await storage.postgres.query("""
            SELECT count(*) AS n FROM events WHERE type = 'period.closed' AND payload->>'board' = $1
            """, ["topic:\(topic)"]).rows[0].int("n")
        #expect(closedEvents == 2, "the day and the week closed once each; the month is open")
    }

    @Test("a completion after the close misses the closed periods and changes neither the board nor its medals")
    func lateCompletionDoesNotChangeClosedBoard() async throws {
        let topic = SchedulerTestEnvironment.uniqueJob("late")
        let (leader, latecomer) = ("\(topic)-leader", "\(topic)-late")
        try await record(user: leader, topic: topic, difficulty: "easy")
        clock.set(instant("2026-11-23T00:05:00Z"))
        // Within grace, ops close the ended day early; the scheduler would close it at 00:15.
        let day = BoardPeriodKey(board: "topic:\(topic)", window: .day, period: "2026-11-18")
        let week = BoardPeriodKey(board: "topic:\(topic)", window: .week, period: "2026-W47")
        _ = try await storage.closing.close(day, now: clock.now, dryRun: false)
        _ = try await storage.closing.close(week, now: clock.now, dryRun: false)

        clock.set(instant("2026-11-23T00:06:00Z"))
        let late = try await record(user: latecomer, topic: topic, completedAt: "2026-11-22T23:30:00Z")
        let missed = late.missedPeriods.filter { $0.board == "topic:\(topic)" }.map { "\($0.window.rawValue):\($0.period)" }
        #expect(Set(missed) == ["week:2026-W47"], "the week was closed early; 2026-11-22 never had a score, so it is open")
        #expect(late.missedPeriods.first { $0.board == "topic:\(topic)" }?.closedAt == "2026-11-23T00:05:00.000Z",
                "when ops closed it, not when the clock would have")
        #expect(late.ranks.contains { $0.board == "topic:\(topic)" && $0.window == .month }, "the open month still counts it")
        #expect(late.totals.points == 5, "the player's totals count it")
        let scores = try await storage.postgres.query("""
            SELECT count(*) AS n FROM board_scores WHERE board = $1 AND board_window = 'week' AND period = '2026-W47'
            """, ["topic:\(topic)"]).rows[0].int("n")
        #expect(scores == 1, "the closed week's scores were not touched")
        let snapshot = try #require(try await storage.periods.finalSnapshot(week))
        let board = try await storage.periods.readFinal(snapshot: snapshot, slice: .page(offset: 0, limit: 10))
        #expect(board.entries.map { "\($0.userId):\($0.score):\($0.medal?.rawValue ?? "-")" } == ["\(leader):2:gold"])
        #expect(board.players == 1)
    }

    @Test("erasing a player removes their medals, snapshot entries and events, and the boards count one player less")
    func erasureReachesSnapshotsAndEvents() async throws {
        let topic = SchedulerTestEnvironment.uniqueJob("erase")
        let (gone, stays) = ("\(topic)-gone", "\(topic)-stays")
        try await record(user: gone, topic: topic)
        try await record(user: stays, topic: topic, difficulty: "easy")
        clock.set(instant("2026-11-23T00:15:00Z"))
        let week = BoardPeriodKey(board: "topic:\(topic)", window: .week, period: "2026-W47")
        _ = try await storage.closing.close(week, now: clock.now, dryRun: false)
        #expect(try await storage.periods.medals(userID: gone).count >= 1)

        #expect(try await storage.erasure.erase(userID: gone, now: clock.now))
        #expect(try await storage.periods.medals(userID: gone).isEmpty)
        let snapshot = try #require(try await storage.periods.finalSnapshot(week))
        let board = try await storage.periods.readFinal(snapshot: snapshot, slice: .page(offset: 0, limit: 10))
        #expect(board.entries.map { "\($0.rank):\($0.userId):\($0.medal?.rawValue ?? "-")" } == ["2:\(stays):silver"])
        #expect(board.players == 1)
        // Offsets count the entries left, whatever positions the erased player leaves empty.
        #expect(board.offset == 0)
        let around = try await storage.periods.readFinal(snapshot: snapshot, slice: .around(userID: stays, radius: 2))
        #expect(around.offset == 0 && around.entries.map(\.userId) == [stays])
        let pastTheEnd = try await storage.periods.readFinal(snapshot: snapshot, slice: .page(offset: 5, limit: 10))
        #expect(pastTheEnd.offset == 5 && pastTheEnd.entries.isEmpty)
        let events = try await storage.postgres.query(
            "SELECT count(*) AS n FROM events WHERE user_id = $1 OR payload->>'user_id' = $1", [gone]).rows[0].int("n")
        #expect(events == 0)
        let leftovers = try await storage.postgres.query("""
            SELECT (SELECT count(*) FROM users WHERE user_id = $1) + (SELECT count(*) FROM user_achievements WHERE user_id = $1) AS n
            """, [gone]).rows[0].int("n")
        #expect(leftovers == 0, "active days and achievements go too")
    }

    @Test("snapshots keep the top N of every open period once per slot; rank history reads them back")
    func snapshotsOncePerSlot() async throws {
        // Week 2026-W48: no other test closes it.
        clock.set(instant("2026-11-24T12:00:00Z"))
        let topic = SchedulerTestEnvironment.uniqueJob("snap")
        let players = (0..<4).map { "\(topic)-p\($0)" }
        for (index, player) in players.enumerated() {
            try await record(user: player, topic: topic, difficulty: ["hard", "hard", "medium", "easy"][index])
        }
        let job = SnapshotLeaderboardsJob(periods: storage.periods, leaderboards: storage.leaderboards, snapshots: storage.snapshots, top: 3)
        let slot = instant("2026-11-24T12:00:00Z")
        #expect((try await job.run(context(slot: slot))["snapshots"] ?? 0) >= 4)
        _ = try await job.run(context(slot: slot))
        let stored = try await storage.postgres.query(
            "SELECT count(*) AS n FROM snapshots WHERE board = $1", ["topic:\(topic)"]).rows[0].int("n")
        #expect(stored == 4, "one snapshot per window, however often the slot runs")

        let week = BoardPeriodKey(board: "topic:\(topic)", window: .week, period: "2026-W48")
        let snapshots = try await storage.snapshots.snapshots(week, limit: 10, top: 10)
        #expect(snapshots.count == 1)
        #expect(snapshots.first?.players == 4)
        #expect(snapshots.first?.takenAt == "2026-11-24T12:00:00.000Z")
        #expect(snapshots.first?.entries.map { "\($0.rank):\($0.userId)" } == ["1:\(players[0])", "1:\(players[1])", "3:\(players[2])"])

        let history = try await storage.snapshots.rankHistory(userID: players[2], board: "topic:\(topic)", window: nil, limit: 10)
        #expect(Set(history.map(\.window)) == [.all, .day, .week, .month])
        #expect(history.allSatisfy { $0.rank == 3 && $0.score == 3 && $0.players == 4 && $0.kind == "scheduled" })
        let outside = try await storage.snapshots.rankHistory(userID: players[3], board: "topic:\(topic)", window: nil, limit: 10)
        #expect(outside.isEmpty, "not in the top 3: \(outside)")
    }

    @Test("reconcile adds missing entries, corrects wrong scores, removes strays, rewrites lost or wrong player fields, and finds nothing the second time")
    func reconcileRepairsDrift() async throws {
        // Redis db 12 of the test server, of its own: a rebuild another test runs on db 15 would rewrite the
        // drift this test makes before it reconciles.
        let redis = RedisClient(configuration: try RedisConfiguration(url: try TestRedisDatabase.reconcileJob.url()), logger: SchedulerTestEnvironment.logger)
        try await redis.command(["FLUSHDB"])
        try await markRankingsReady(redis)
        let clock = clock
        let storage = PodiumStorage(postgres: storage.postgres, redis: redis, rules: Self.rules, logger: SchedulerTestEnvironment.logger,
                                    now: { clock.now })
        let topic = SchedulerTestEnvironment.uniqueJob("drift")
        let (kept, lost, wrong) = ("\(topic)-kept", "\(topic)-lost", "\(topic)-wrong")
        for user in [kept, lost, wrong] { try await record(user: user, topic: topic, on: storage) }
        let period = BoardPeriodKey(board: "topic:\(topic)", window: .all, period: "all")
        let day = BoardPeriodKey(board: "topic:\(topic)", window: .day, period: "2026-11-18")
        let key = RankingKeys.board(period.board, period.window, period.period)
        let members = try await storage.postgres.query(
            "SELECT user_id, handle FROM users WHERE user_id = ANY($1)", [[kept, lost, wrong]]).rows.reduce(into: [String: String]()) {
                $0[try $1.string("user_id")] = RankingMember.encode(try $1.int64("handle"))
            }
        // Strays: a member no player has (the last handle, far beyond any test's), and text that is no member at all.
        let stray = try #require(RankingMember.encode(RankingMember.maximumHandle))
        let (keptMember, lostMember, wrongMember) = (try #require(members[kept]), try #require(members[lost]), try #require(members[wrong]))
        _ = try await storage.redis.pipeline([
            ["ZREM", key, lostMember], ["ZADD", key, RankingPlace(score: 99).storedValue, wrongMember],
            ["ZADD", key, "-7", stray], ["ZADD", key, "-8", "\(topic)-stray"],
            // The lost player's fields are gone too; the kept one shows a name it never had; `wrong` points at the stray.
            ["HDEL", RankingLayout(storage.redis).playersHash(ofMember: lostMember), lostMember], ["HDEL", RankingLayout(storage.redis).membersHash(ofUser: lost), lost],
            ["HSET", RankingLayout(storage.redis).playersHash(ofMember: keptMember), keptMember, "\(kept) Not my name"], ["HSET", RankingLayout(storage.redis).membersHash(ofUser: wrong), wrong, stray],
        ])

        // Two periods with the same players: their fields are repaired once.
        let report = try await storage.reconciler.reconcile([period, day])
        #expect(report.counts == ["periods": 2, "entries": 6, "added": 1, "corrected": 1, "removed": 2, "players": 3])
        let board = try await redisBoard(storage.redis, key)
        #expect(board.map { "\($0.0):\($0.1)" } == ["\(kept):5", "\(lost):5", "\(wrong):5"])
        let layout = RankingLayout(storage.redis)
        let fields = try await storage.redis.pipeline(
            [keptMember, lostMember, wrongMember].map { ["HGET", layout.playersHash(ofMember: $0), $0] }
                + [kept, lost, wrong].map { ["HGET", layout.membersHash(ofUser: $0), $0] })
        #expect(fields == [.string(kept), .string(lost), .string(wrong), .string(keptMember), .string(lostMember), .string(wrongMember)])
        let second = try await storage.reconciler.reconcile([period])
        #expect(second.counts == ["periods": 1, "entries": 3, "added": 0, "corrected": 0, "removed": 0, "players": 0])
    }

    @Test("periods that can never close (their board left the configuration) do not hold up the others")
    func unclosablePeriodsDoNotStarveTheRest() async throws {
        let topic = SchedulerTestEnvironment.uniqueJob("starve")
        let gone = SchedulerTestEnvironment.uniqueJob("nope")
        // More unclosable periods than one page, all due long before anything else.
        try await storage.postgres.query("""
            INSERT INTO board_periods (board, board_window, period, ends_at)
            SELECT $1, 'day', '2000-01-' || lpad(g::text, 2, '0') || '-' || g, timestamptz '2000-02-01' + g * interval '1 minute'
            FROM generate_series(1, 150) g
            """, ["nope:\(gone)"])
        // Dated 2025, so its close-periods job closes no 2026 period that other tests close themselves.
        clock.set(instant("2025-06-10T12:00:00Z"))
        try await record(user: "\(topic)-u", topic: topic)
        clock.set(instant("2025-06-11T01:00:00Z"))
        let day = BoardPeriodKey(board: "topic:\(topic)", window: .day, period: "2025-06-10")

        let counts = try await ClosePeriodsJob(periods: storage.periods, closing: storage.closing).run(context(slot: clock.now))
        try await storage.postgres.query("DELETE FROM board_periods WHERE board = $1", ["nope:\(gone)"])
        #expect((counts["skipped"] ?? 0) >= 150)
        #expect(try await storage.periods.finalSnapshot(day) != nil)
    }

    @Test("prune deletes old runs, scheduled snapshots, events (a month at a time) and long-closed Redis boards, and keeps the rest")
    func pruneKeepsWhatRetentionKeeps() async throws {
        let topic = SchedulerTestEnvironment.uniqueJob("prune")
        let runs = JobRunStore(postgres: storage.postgres)
        // Everything here is dated 2025, before any other test's data, so the prune cannot touch their rows.
        clock.set(instant("2025-03-05T12:00:00Z"))
        try await record(user: "\(topic)-p", topic: topic)
        let job = SchedulerTestEnvironment.uniqueJob("old-job")
        _ = try await runs.requestRun(job: job, slot: instant("2025-03-05T12:00:00Z"), attemptLimit: 1, now: clock.now)
        let claim = try #require(try await runs.claimNext(job: job, replica: "t", lease: 60, now: clock.now))
        _ = try await runs.succeed(claim, result: [:], now: clock.now)
        let week = BoardPeriodKey(board: "topic:\(topic)", window: .week, period: "2025-W10")
        try await storage.snapshots.record(week, takenAt: clock.now, players: 1, entries: [])
        clock.set(instant("2025-03-10T00:20:00Z"))
        _ = try await storage.closing.close(week, now: clock.now, dryRun: false)
        // Another test's close-periods job (its clock in 2026) may have closed this 2025 week first: pin the closing time.
        try await storage.postgres.query(
            "UPDATE board_periods SET closed_at = $4 WHERE board = $1 AND board_window = $2 AND period = $3",
            [week.board, week.window.rawValue, week.period, clock.now])
        let key = RankingKeys.board(week.board, week.window, week.period)
        #expect(try await storage.redis.command(["EXISTS", key]).integer == 1)

        var retention = RetentionSettings()
        (retention.runHistoryDays, retention.snapshotDays, retention.eventDays, retention.closedRankingDays) = (30, 30, 30, 2)
        let prune = PruneJob(
            runs: runs, snapshots: storage.snapshots, events: storage.events, completions: storage.completions,
            periods: storage.periods, reconciler: storage.reconciler, retention: retention)
        clock.set(instant("2025-03-11T00:00:00Z"))
        _ = try await prune.run(context(slot: clock.now))
        #expect(try await storage.redis.command(["EXISTS", key]).integer == 1, "closed only one day ago")
        #expect(try await runs.runs(job: job, limit: 5).count == 1)

        clock.set(instant("2025-04-10T00:00:00Z"))
        let counts = try await prune.run(context(slot: clock.now))
        #expect((counts["redis_rankings"] ?? 0) >= 1)
        #expect(try await storage.redis.command(["EXISTS", key]).integer == 0)
        #expect(try await runs.runs(job: job, limit: 5).isEmpty)
        let kinds = try await storage.snapshots.snapshots(week, limit: 10, top: 1).map(\.kind)
        #expect(kinds == ["final"], "the scheduled snapshot went, the final one (the medals) stays")
        // Another test's close job may close this player's 2025 global periods meanwhile, with events dated in 2026.
        let marchEvents = { try await self.storage.postgres.query(
            "SELECT count(*) AS n FROM events WHERE user_id = $1 AND occurred_at < '2025-04-01'", ["\(topic)-p"]).rows[0].int("n") }
        // Events go a month at a time (migration 021): March is not all past the cutoff (March 11) yet.
        #expect(try await marchEvents() > 0)
        clock.set(instant("2025-05-01T00:00:00Z"))
        #expect((try await prune.run(context(slot: clock.now))["events"] ?? 0) >= 1)
        #expect(try await marchEvents() == 0, "all of March is past the cutoff (April 1): its month went")
        #expect(try await storage.periods.medals(userID: "\(topic)-p").map(\.medal).contains(.gold))
    }
}
