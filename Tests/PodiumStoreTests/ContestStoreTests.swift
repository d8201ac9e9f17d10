import Foundation
import PodiumCore
@testable import PodiumStore
import PodiumTestSupport
import PodiumWire
import Synchronization
import Testing

/// Contests across replicas, on a database and a Redis server of the test's own (its players would otherwise collide
/// with the shared test Redis's members): replicas are stores with registries of their own over the same PostgreSQL
/// and Redis, as two processes would be.
@Suite("Contests across replicas", .serialized, .timeLimit(.minutes(5)))
struct ContestStoreTests {
    let now = instant("2026-11-25T12:00:00Z")

    /// A replica: stores over the database at `url` and the Redis at `redis`, at the suite's instant.
    func replica(_ url: String, _ redis: any OwnRedis) async throws -> PodiumStorage {
        try await StoreTestEnvironment.replica(now: now, url, redis)
    }

    /// Runs `body` with a new database's URL and a Redis server of its own, its rankings marked ready.
    func withOwnStores(_ body: (String, any OwnRedis) async throws -> Void) async throws {
        try await StoreTestEnvironment.withOwnStores(now: now, body)
    }

    /// A contest of `topic` under way at `now`.
    func contest(_ id: String, topic: String, entry: ContestEntry = .open) throws -> Contest {
        try ContestRequest(
            id: id, title: id, scope: ["topic:\(topic)"], startsAt: "2026-11-25T11:00:00Z", endsAt: "2026-11-25T13:00:00Z", entry: entry
        ).validated(now: now).get()
    }

    /// The contest boards `item`'s answer ranked it on, as recorded by `storage`.
    func contestBoards(_ item: ValidCompletion, in storage: PodiumStorage) async throws -> [String] {
        guard case .created(let response) = try await storage.writer.record(item) else { throw TestFailure("not created") }
        return response.ranks.filter { $0.window == .contest }.map(\.board)
    }

    @Test("a contest created on one replica counts from the next completion recorded on another, and its join rule holds there")
    func createdOnOneCountedOnAnother() async throws {
        try await withOwnStores { url, redis in
            let first = try await replica(url, redis)
            let second = try await replica(url, redis)
            let topic = StoreTestEnvironment.unique("replicas")
            let played = "2026-11-25T11:30:00Z"
            #expect(try await contestBoards(try completion(id: "\(topic)-0", user: "p1", topic: topic, completedAt: played, now: now), in: second).isEmpty)

            #expect(try await first.contests.create(try contest("open-\(topic)", topic: topic), now: now))
            #expect(second.rules.boards.contests.contest("open-\(topic)") == nil, "the second replica has not read it yet")
            #expect(try await contestBoards(try completion(id: "\(topic)-1", user: "p1", topic: topic, completedAt: played, now: now), in: second)
                == ["contest:open-\(topic)"])
            #expect(second.rules.boards.contests.revision == first.rules.boards.contests.revision)

            // A join contest: only the entrant counts, on either replica.
            let club = try contest("club-\(topic)", topic: topic, entry: .join)
            #expect(try await first.contests.create(club, now: now))
            #expect(try await second.contests.join(contestID: club.id, userID: "p2", now: now) == .joined)
            #expect(try await contestBoards(try completion(id: "\(topic)-2", user: "p2", topic: topic, completedAt: played, now: now), in: second)
                .sorted() == ["contest:club-\(topic)", "contest:open-\(topic)"])
            #expect(try await contestBoards(try completion(id: "\(topic)-3", user: "p3", topic: topic, completedAt: played, now: now), in: first)
                == ["contest:open-\(topic)"])

            // Cancelled on the first, ignored by the second from its next batch on; the background refresh reads it too.
            #expect(try await first.contests.cancel(id: "open-\(topic)", now: now))
            #expect(try await contestBoards(try completion(id: "\(topic)-4", user: "p1", topic: topic, completedAt: played, now: now), in: second).isEmpty)
            let third = try await replica(url, redis)
            #expect(try await third.contests.refresh())
            #expect(third.rules.boards.contests.contest("open-\(topic)")?.cancelledAt == now)
            #expect(try await third.contests.refresh() == false, "nothing new to read")

            // The scores are PostgreSQL's: one row per player of the open contest (p1 and p2 once each, p3), the entrant only in the club.
            let rows = try await first.postgres.query("""
                SELECT board, user_id, score FROM board_scores WHERE board_window = 'contest' ORDER BY board, user_id
                """).rows.map { "\(try $0.string("board")) \(try $0.string("user_id")) \(try $0.int("score"))" }
            #expect(rows == ["contest:club-\(topic) p2 3", "contest:open-\(topic) p1 3", "contest:open-\(topic) p2 3", "contest:open-\(topic) p3 3"])
            // An erased player's entries go with them.
            #expect(try await first.erasure.erase(userID: "p2", now: now))
            #expect(try await first.postgres.query("SELECT 1 FROM contest_entries WHERE user_id = 'p2'").rows.isEmpty)
        }
    }

    @Test("two replicas closing a contest's run at once close it once, with one set of medals")
    func runClosesOnceAcrossReplicas() async throws {
        try await withOwnStores { url, redis in
            let first = try await replica(url, redis)
            let second = try await replica(url, redis)
            let topic = StoreTestEnvironment.unique("close")
            let cup = try contest("cup-\(topic)", topic: topic)
            #expect(try await first.contests.create(cup, now: now))
            for (index, (player, difficulty)) in [("p1", "hard"), ("p2", "medium"), ("p3", "easy")].enumerated() {
                let item = try completion(
                    id: "\(topic)-\(index)", user: player, topic: topic, difficulty: difficulty, completedAt: "2026-11-25T11:30:00Z", now: now)
                #expect(try await contestBoards(item, in: index % 2 == 0 ? first : second) == ["contest:cup-\(topic)"])
            }
            let key = BoardPeriodKey(board: "contest:cup-\(topic)", window: .contest, period: "20261125T1100Z")
            let after = instant("2026-11-25T13:15:00Z")
            async let one = first.closing.close(key, now: after, dryRun: false)
            async let two = second.closing.close(key, now: after, dryRun: false)
            let reports = try await [one, two]
            #expect(reports.map(\.outcome.rawValue).sorted() == ["already-closed", "closed"])
            #expect(reports.map { $0.medals.map(\.medal.rawValue) } == [["gold", "silver", "bronze"], ["gold", "silver", "bronze"]])
            let medals = try await first.postgres.query(
                "SELECT count(*) AS n FROM snapshot_entries WHERE medal IS NOT NULL").rows[0].int("n")
            #expect(medals == 3)
        }
    }

    @Test("a run's close waits for a batch still scoring it (the batch holds its close lock shared until it commits)")
    func closeWaitsForBatchesInFlight() async throws {
        try await withOwnStores { url, redis in
            let storage = try await replica(url, redis)
            let topic = StoreTestEnvironment.unique("hold")
            let cup = try contest("hold-\(topic)", topic: topic)
            #expect(try await storage.contests.create(cup, now: now))
            let key = BoardPeriodKey(board: cup.board.id, window: .contest, period: "20261125T1100Z")
            let finished = Mutex(false)
            // A transaction holding the run open as a completion batch does, until the close is seen waiting.
            let (waited, closedWhileHeld, report) = try await whileContended(
                on: storage.postgres, hold: { _ = try $0.run(ContestScoring.holdOpen([PeriodStore.closeLockKey(key)])) },
                lock: .pair(lockClass: PeriodStore.closeLockClass, text: PeriodStore.closeLockKey(key)),
                contender: {
                    defer { finished.withLock { $0 = true } }
                    return try await storage.closing.close(key, now: now, dryRun: false, early: true)
                },
                whileHeld: { finished.withLock { $0 } })
            #expect(waited, "the close waited for the run's lock")
            #expect(!closedWhileHeld, "the close did not finish while the holder kept the run open")
            #expect(report.outcome == .closed)
        }
    }

    @Test("concurrent joins never pass max_players")
    func joinsAreBounded() async throws {
        try await withOwnStores { url, redis in
            let storage = try await replica(url, redis)
            let request = ContestRequest(
                id: "small", title: "Small", scope: ["global"], startsAt: "2026-11-25T11:00:00Z", endsAt: "2026-11-25T13:00:00Z",
                entry: .join, maxPlayers: 5)
            let small = try request.validated(now: now).get()
            #expect(try await storage.contests.create(small, now: now))
            let outcomes = try await withThrowingTaskGroup(of: JoinOutcome.self) { group in
                for index in 0..<40 { group.addTask { try await storage.contests.join(contestID: small.id, userID: "p\(index)", now: now) } }
                return try await group.reduce(into: [JoinOutcome]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .joined }.count == 5 && outcomes.filter { $0 == .full }.count == 35)
            #expect(try await storage.contests.entrantCounts(["small"]) == ["small": 5])
        }
    }
}
