import Foundation
import PodiumCore
@testable import PodiumStore
import PodiumTestSupport
import PodiumWire
import Postgres
import Testing

/// Change notices between replicas, each test on a database of its own (notifications are per database, so other
/// tests' writes cannot move the signals watched here) and a Redis server of its own (its players' members would
/// collide with the shared test Redis's): replicas are stores over the same PostgreSQL and Redis, as two processes
/// would be.
@Suite("Change notices across replicas", .timeLimit(.minutes(5)))
struct ChangeNoticeTests {
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
    func contest(_ id: String) throws -> Contest {
        try ContestRequest(
            id: id, title: id, scope: ["topic:\(id)"], startsAt: "2026-11-25T11:00:00Z", endsAt: "2026-11-25T13:00:00Z"
        ).validated(now: now).get()
    }

    @Test("a contest created or cancelled on one replica reaches another's registry by notification, its poll an hour away")
    func contestsFollowNotifications() async throws {
        try await withOwnStores { url, redis in
            let (first, second) = (try await replica(url, redis), try await replica(url, redis))
            let refresh = ContestRefreshService(
                store: second.contests, changes: second.changes, interval: .seconds(3600), logger: StoreTestEnvironment.logger)
            try await whileRunning([{ try await refresh.run() }], listening: second.changes) {
                let registry = second.rules.boards.contests
                // The first may also arrive by the refresh that connecting the listener triggers.
                #expect(try await first.contests.create(try contest("warm-up"), now: now))
                try await eventually("the warm-up contest reaches the second replica") { registry.contest("warm-up") != nil }
                // From here only a notification can make the second replica read again: the listener stays connected.
                #expect(try await first.contests.create(try contest("relay"), now: now))
                try await eventually("the created contest reaches the second replica") { registry.contest("relay") != nil }
                #expect(registry.contest("relay")?.cancelledAt == nil)
                #expect(try await first.contests.cancel(id: "relay", now: now))
                try await eventually("the cancellation reaches the second replica") { registry.contest("relay")?.cancelledAt != nil }
                #expect(registry.revision == first.rules.boards.contests.revision)
            }
        }
    }

    @Test("each write other replicas follow notifies its topic when it commits; a completion tells only its own replica")
    func writesNotifyTheirTopics() async throws {
        try await withOwnStores { url, redis in
            let (writer, reader) = (try await replica(url, redis), try await replica(url, redis))
            try await whileRunning([], listening: reader.changes) {
                /// Runs `write` and waits until `topic`'s signal on the reader moved.
                func expectNotice(_ topic: ChangeTopic, _ what: String, _ write: () async throws -> Void) async throws {
                    let before = reader.changes.signal(topic).generation
                    try await write()
                    try await eventually("\(what) notifies \(topic.channel)") { reader.changes.signal(topic).generation > before }
                }
                let key = try await writer.apiKeys.create(name: "notice", role: .read, now: now)
                try await expectNotice(.keys, "creating a key") { _ = try await writer.apiKeys.create(name: "other", role: .read, now: now) }
                try await expectNotice(.keys, "revoking a key") {
                    let revoked = try await writer.apiKeys.revoke(id: key.key.id, now: now)
                    #expect(revoked)
                }
                try await expectNotice(.contests, "creating a contest") {
                    let created = try await writer.contests.create(try contest("notice"), now: now)
                    #expect(created)
                }
                try await expectNotice(.contests, "cancelling a contest") {
                    let cancelled = try await writer.contests.cancel(id: "notice", now: now)
                    #expect(cancelled)
                }

                // A completion: its replica's sender is told at once, no other replica is.
                let outboxBefore = reader.changes.signal(.outbox).generation
                let played = try completion(id: "notice-1", user: "notice-player", topic: "notice", completedAt: "2026-11-25T10:00:00Z", now: now)
                guard case .created = try await writer.writer.record(played) else { throw TestFailure("not recorded") }
                #expect(writer.changes.lastLocalNote(.outbox) != nil)
                #expect(writer.changes.lastLocalNote(.rankings) == nil, "Redis took the scores")
                // Notifications arrive in commit order: once a later one is here, an earlier one would have been too.
                try await expectNotice(.keys, "a key after the completion") { _ = try await writer.apiKeys.create(name: "after", role: .read, now: now) }
                #expect(reader.changes.signal(.outbox).generation == outboxBefore, "a completion notifies no other replica")

                try await expectNotice(.outbox, "closing a period") {
                    let report = try await writer.closing.close(
                        BoardPeriodKey(board: "topic:notice", window: .day, period: "2026-11-25"), now: instant("2026-11-26T01:00:00Z"), dryRun: false)
                    #expect(report.outcome == .closed)
                }
                let webhook = try await writer.webhooks.create(
                    url: "http://127.0.0.1:1/hook", eventTypes: ["period.closed"], secret: "notice-secret-of-16+", now: now)
                let delivery = try await writer.postgres.query("""
                    INSERT INTO webhook_deliveries (webhook_id, event_id, status, attempts, attempt_limit, next_attempt_at, created_at)
                    SELECT $1, max(id), 'dead', 1, 1, $2, $2 FROM events RETURNING id
                    """, [webhook.id, now]).rows[0].int64("id")
                try await expectNotice(.outbox, "sending a dead delivery again") {
                    let resent = try await writer.webhooks.resend(deliveryID: delivery, attemptLimit: 1, now: now)
                    #expect(resent)
                }
                #expect(try await writer.webhooks.nextDue() == now, "the resent delivery is due")

                let redisDown = PodiumStorage(
                    postgres: writer.postgres, redis: try StoreTestEnvironment.redis(url: "redis://127.0.0.1:\(try freeLoopbackPort())/0"),
                    rules: GameRules(), logger: StoreTestEnvironment.logger, now: { now })
                try await expectNotice(.rankings, "queueing a display name Redis missed") {
                    _ = try await redisDown.users.setPreferences(userID: "notice-player", displayName: "Renamed", timeZone: "UTC", now: now)
                }
                try await expectNotice(.rankings, "erasing a player") {
                    let erased = try await writer.erasure.erase(userID: "notice-player", now: now)
                    #expect(erased)
                }
                #expect(try await reader.rankingSync.backlog() == RankingBacklog(unranked: 0, erasures: true, names: false))
            }
        }
    }

    @Test("a completion Redis missed tells its own replica's ranking sync, and the backlog shows it until caught up")
    func missedRankingsTellTheSync() async throws {
        try await withOwnStores { url, redis in
            let storage = try await replica(url, redis)
            let dead = PodiumStorage(
                postgres: storage.postgres, redis: try StoreTestEnvironment.redis(url: "redis://127.0.0.1:\(try freeLoopbackPort())/0"),
                rules: GameRules(), logger: StoreTestEnvironment.logger, now: { now })
            #expect(try await dead.rankingSync.backlog() == RankingBacklog(unranked: 0, erasures: false, names: false))
            let user = StoreTestEnvironment.unique("unranked")
            guard case .created = try await dead.writer.record(try completion(id: user, user: user, topic: "notice", now: now)) else {
                throw TestFailure("not recorded")
            }
            #expect(dead.changes.lastLocalNote(.rankings) != nil)
            #expect(dead.changes.lastLocalNote(.outbox) != nil)
            #expect(storage.changes.lastLocalNote(.rankings) == nil, "another replica's sync is not told")
            #expect(try await dead.rankingSync.backlog() == RankingBacklog(unranked: 1, erasures: false, names: false))
            #expect(await !dead.rankingSync.rankingsReady())
            // The replica's own Redis answers: once a sync caught the completion up, nothing waits.
            #expect(await storage.rankingSync.rankingsReady())
            try await storage.rankingSync.synchronize(now: now.addingTimeInterval(60))
            #expect(try await storage.rankingSync.backlog().isEmpty)
        }
    }

    @Test("a killed listening session moves every signal twice, when lost and when listening again, on a new session")
    func reconnectMovesEverySignal() async throws {
        try await withOwnStores { url, redis in
            let storage = try await replica(url, redis)
            let changes = storage.changes
            try await whileRunning([], listening: changes) {
                #expect(changes.pause(fallback: .seconds(1)) == ChangeNotices.safetyNet)
                let listenerPID = try #require(try await storage.postgres.query("""
                    SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN podium_%'
                    """).rows.first?.int("pid"))
                let before = ChangeTopic.allCases.map { changes.signal($0).generation }
                #expect(try await storage.postgres.query("SELECT pg_terminate_backend($1) AS ok", [listenerPID]).rows[0].bool("ok"))
                try await eventually("listening again") {
                    changes.isListening && zip(ChangeTopic.allCases, before).allSatisfy { changes.signal($0).generation >= $1 + 2 }
                }
                let again = try await storage.postgres.query("""
                    SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN podium_%'
                    """).rows.map { try $0.int("pid") }
                #expect(again.count == 1 && again != [listenerPID])
            }
        }
    }

    @Test("without a listener, loops keep their quick interval; a signal wakes a waiter, a timeout does not move it")
    func signalsAndPauses() async throws {
        let changes = ChangeNotices(configuration: nil, logger: StoreTestEnvironment.logger)
        #expect(!changes.isListening)
        #expect(changes.pause(fallback: .milliseconds(500)) == .milliseconds(500))
        let signal = changes.signal(.jobs)
        let seen = signal.generation
        #expect(await signal.wait(after: seen, upTo: .milliseconds(1)) == false)
        let waiter = Task { await signal.wait(after: seen, upTo: .seconds(3600)) }
        changes.noteLocally(.jobs)
        #expect(await waiter.value)
        #expect(await signal.wait(after: seen, upTo: .seconds(3600)), "a move before the wait returns at once")
        let cancelled = Task { await signal.wait(after: signal.generation, upTo: .seconds(3600)) }
        cancelled.cancel()
        #expect(await cancelled.value == false)
    }
}
