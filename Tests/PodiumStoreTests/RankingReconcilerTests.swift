import Foundation
import PodiumCore
@testable import PodiumStore
import PodiumTestSupport
import PodiumWire
import Postgres
import Redis
import Testing

/// A reconciliation beside live ingest: a batch writes Redis before its COMMIT, so for a moment Redis is right and
/// PostgreSQL does not show it yet; the reconciler must not "repair" that.
@Suite("Reconciling Redis with PostgreSQL during ingest", .serialized, .timeLimit(.minutes(5)))
struct RankingReconcilerTests {
    let now = instant("2026-11-25T12:00:00Z")

    /// A Redis server of the test's own (the caller stops it) and storage on it, marked ready (not rebuilt: the rebuild's
    /// lease is one for the whole test database, which `RankingSyncTests` takes meanwhile).
    func storageOnOwnRedis() async throws -> (any OwnRedis, PodiumStorage) {
        let server = ownRedis()
        try await server.start()
        let storage = try await StoreTestEnvironment.storage(now: now, redisURL: server.url)
        try await markRankingsReady(storage.redis)
        return (server, storage)
    }

    /// Runs a real batch of `item` to just before its COMMIT (its standing, with the player's lock, and its score
    /// upserts: `CompletionStore.writeScores`), writes its all-time entry on `board` to Redis as its script would, then
    /// reconciles that period while the transaction stays open; commits once the reconciler is seen waiting for the
    /// player's lock (or after 60 s). Returns whether it waited and its report. On every path the transaction ends and
    /// the reconciler is awaited.
    func reconcileBesideUncommittedBatch(
        storage: PodiumStorage, item: ValidCompletion, board: String, score: Int64
    ) async throws -> (waited: Bool, report: ReconcileReport) {
        let period = BoardPeriodKey(board: board, window: .all, period: "all")
        let key = RankingKeys.board(board, .all, "all")
        let place = RankingPlace(score: score, key: storage.rules.tieBreak(ofBoard: board).key(reachedAt: now, durationMs: 0, untimedCompletions: 0))
        let layout = RankingLayout(storage.redis)
        let now = now
        return try await storage.postgres.withSession { session in
            let handle = try await session.run { connection in
                // As a batch does when other suites' contests changed since this storage's registry read them.
                while true {
                    do {
                        _ = try CompletionStore.writeScores(
                            [item], placements: LeaguePlacements(cohorts: [:]), now: now, rules: storage.rules, on: connection)
                        break
                    } catch let changed as ContestsChanged {
                        try RegistryLoad.load(into: storage.rules.boards.contests, revision: changed.revision, on: connection)
                    }
                }
                return try connection.query("SELECT handle FROM users WHERE user_id = $1", [item.userID]).rows[0].int64("handle")
            }
            let reconciling: Task<ReconcileReport, any Error>
            let waited: Bool
            do {
                let member = try #require(RankingMember.encode(handle))
                // The batch's script: the entry and the player's fields, as `ranking-update.lua` writes them.
                try await storage.redis.pipeline([
                    ["ZADD", key, place.storedValue, member],
                    ["HSET", layout.playersHash(ofMember: member), member, item.userID],
                    ["HSET", layout.membersHash(ofUser: item.userID), item.userID, member],
                ]).throwFirstError(operation: "the batch's Redis write")
                reconciling = Task { try await storage.reconciler.reconcile([period]) }
                waited = try await AdvisoryLock.hashed(PlayerLocks.prefix + item.userID).waitForWaiters(on: storage.postgres)
            } catch {
                _ = try? await session.run { try $0.execute("ROLLBACK") }
                throw error
            }
            try await session.run { try $0.execute("COMMIT") }
            return (waited, try await reconciling.value)
        }
    }

    @Test("an entry in Redis before its batch commits is confirmed under the player's lock: a returning player's higher score is not lowered, a new player's first entry not removed",
          arguments: [false, true])
    func entryOfAnUncommittedBatchIsKept(newPlayer: Bool) async throws {
        let (server, storage) = try await storageOnOwnRedis()
        defer { server.stop() }
        let topic = StoreTestEnvironment.unique(newPlayer ? "inflightnew" : "inflight")
        let (steady, player) = ("\(topic)-steady", "\(topic)-player")
        // Both have 3 points (medium), unless the player is new; the batch adds 5 (hard).
        for user in newPlayer ? [steady] : [steady, player] {
            guard case .created = try await storage.writer.record(try completion(id: "\(user)-c", user: user, topic: topic, now: now))
            else { throw TestFailure("not created") }
        }
        let item = try completion(id: "\(player)-hard", user: player, topic: topic, difficulty: "hard", now: now)
        let score: Int64 = newPlayer ? 5 : 8

        let (waited, report) = try await reconcileBesideUncommittedBatch(storage: storage, item: item, board: "topic:\(topic)", score: score)

        #expect(waited, "the repair waited for the batch's player lock")
        #expect(report.counts == ["periods": 1, "entries": newPlayer ? 1 : 2, "added": 0, "corrected": 0, "removed": 0, "players": 0])
        let live = try await redisBoard(storage.redis, RankingKeys.board("topic:\(topic)", .all, "all"))
        #expect(live.map { "\($0.0)=\($0.1)" } == ["\(player)=\(score)", "\(steady)=3"])
    }

    @Test("reconciles run back to back beside eight writers of new and returning players repair nothing, and leave Redis equal to PostgreSQL")
    func reconcilesDuringIngestUndoNothing() async throws {
        let (server, storage) = try await storageOnOwnRedis()
        defer { server.stop() }
        let topic = StoreTestEnvironment.unique("reconcileload")
        let now = now
        let periods = LeaderboardWindow.calendar.map { window in
            BoardPeriodKey(board: "topic:\(topic)", window: window, period: Period.containing(now, window: window, timeZone: .gmt).key)
        }
        let writing = SharedCount()
        let reports = try await withThrowingTaskGroup(of: [ReconcileReport].self) { group in
            for writer in 0..<8 {
                writing.increment()
                group.addTask {
                    defer { writing.decrement() }
                    // Each writer: 60 new players, every third of whom plays again (a returning player's higher score).
                    for index in 0..<60 {
                        let user = "\(topic)-w\(writer)-u\(index)"
                        let plays = index % 3 == 0 ? 2 : 1
                        for play in 0..<plays {
                            let item = try completion(id: "\(user)-c\(play)", user: user, topic: topic, now: now)
                            guard case .created = try await storage.writer.record(item) else { throw TestFailure("not created") }
                        }
                    }
                    return []
                }
            }
            group.addTask {
                var reports: [ReconcileReport] = []
                while writing.current > 0 { reports.append(try await storage.reconciler.reconcile(periods)) }
                return reports
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(reports.count >= 1)
        let repairs = reports.filter { $0.added + $0.corrected + $0.removed > 0 }
        #expect(repairs.isEmpty, "\(repairs.count) of \(reports.count) runs repaired entries a committed or committing batch had set: \(repairs.map(\.counts))")

        let settled = try await storage.reconciler.reconcile(periods)
        #expect(settled.counts == ["periods": 4, "entries": 4 * 480, "added": 0, "corrected": 0, "removed": 0, "players": 0])
        for period in periods {
            let truth = try await postgresBoard(storage.postgres, board: period.board, window: period.window, period: period.period)
            let live = try await redisBoard(storage.redis, RankingKeys.board(period.board, period.window, period.period))
            #expect(truth.count == 480)
            #expect(live.map(\.0) == truth.map(\.0) && live.map(\.1) == truth.map(\.1), "\(period.window)")
        }
    }
}
