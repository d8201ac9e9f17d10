import Foundation
import PodiumCore
@testable import PodiumStore
import PodiumTestSupport
import PodiumWire
import Postgres
import Redis
import Testing

// Serialized: both outage tests count unranked completions, which a parallel catch-up would change.
@Suite("Keeping Redis equal to PostgreSQL", .serialized, .timeLimit(.minutes(5)))
struct RankingSyncTests {
    let now = instant("2026-11-25T12:00:00Z")

    /// A Redis server of the test's own (started; the test stops it) and storage on it, rebuilt (ready marker set).
    func storageOnOwnRedis() async throws -> (any OwnRedis, PodiumStorage) {
        let server = ownRedis()
        try await server.start()
        let storage = try await StoreTestEnvironment.storage(now: now, redisURL: server.url)
        try await storage.rankingSync.rebuild()
        return (server, storage)
    }

    @Test func redisStoppedDuringIngestThenBackLosesNothing() async throws {
        let (server, storage) = try await storageOnOwnRedis()
        let topic = StoreTestEnvironment.unique("outage")
        let users = (0..<5).map { "\(topic)-u\($0)" }
        func item(_ index: Int) throws -> ValidCompletion {
            try completion(id: "\(topic)-c\(index)", user: users[index % 5], topic: topic, difficulty: ["easy", "hard"][index % 2], now: now)
        }
        for index in 0..<10 {
            guard case .created(let response) = try await storage.writer.record(try item(index)) else { throw TestFailure("not created") }
            #expect(response.rankingsLive)
        }
        server.stop()
        for index in 10..<30 {
            guard case .created(let response) = try await storage.writer.record(try item(index)) else { throw TestFailure("not created") }
            #expect(!response.rankingsLive)
            #expect(response.ranks.isEmpty)
        }
        let unranked = try await storage.postgres.query(
            "SELECT count(*) AS n FROM completions WHERE NOT ranked AND topic = $1", [topic]).onlyInt("n")
        #expect(unranked == 20)

        // Back, but empty (no persistence). Until the sync has rebuilt it, ranks would be read off partial
        // boards: completions are recorded unranked and answer without ranks, profiles rank from PostgreSQL.
        try await server.start()
        for index in 30..<32 {
            guard case .created(let response) = try await storage.writer.record(try item(index)) else { throw TestFailure("not created") }
            #expect(!response.rankingsLive)
            #expect(response.ranks.isEmpty)
        }
        let profile = try #require(try await storage.users.profile(userID: users[0], now: now))
        #expect(!profile.rankingsLive)
        #expect(profile.ranks.count == 8)
        #expect(try await storage.redis.command(["EXISTS", RankingKeys.board("topic:\(topic)", .all, "all")]) == .integer(0))
        try await storage.rankingSync.synchronize(now: now.addingTimeInterval(60))
        for window in LeaderboardWindow.calendar {
            let period = Period.containing(now, window: window, timeZone: .gmt).key
            let truth = try await postgresBoard(storage.postgres, board: "topic:\(topic)", window: window, period: period)
            let live = try await redisBoard(storage.redis, RankingKeys.board("topic:\(topic)", window, period))
            // Completion i is user i % 5's, easy (2 points) when i is even, hard (5) when odd.
            #expect(truth.map { "\($0.0.dropFirst(topic.count + 1))=\($0.1)" } == ["u1=26", "u0=23", "u2=21", "u3=21", "u4=21"])
            #expect(live.map(\.0) == truth.map(\.0))
            #expect(live.map(\.1) == truth.map(\.1))
        }
        let left = try await storage.postgres.query(
            "SELECT count(*) AS n FROM completions WHERE NOT ranked AND topic = $1", [topic]).onlyInt("n")
        #expect(left == 0)
        let total = try await storage.postgres.query("SELECT sum(points) AS n FROM users WHERE user_id = ANY($1)", [users]).onlyInt("n")
        #expect(total == 16 * 2 + 16 * 5)
        server.stop()
    }

    @Test("Redis killed while eight writers are recording: every completion is acknowledged, and ranked exactly once Redis is back")
    func redisKilledMidIngestLosesNothing() async throws {
        let (server, storage) = try await storageOnOwnRedis()
        let topic = StoreTestEnvironment.unique("midstop")
        let users = (0..<8).map { "\(topic)-u\($0)" }
        let acknowledged = SharedCount()
        let now = now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (writer, user) in users.enumerated() {
                group.addTask {
                    for index in 0..<25 {
                        let item = try completion(id: "\(topic)-\(writer)-\(index)", user: user, topic: topic, now: now)
                        guard case .created = try await storage.writer.record(item) else { throw TestFailure("not created") }
                        acknowledged.increment()
                    }
                }
            }
            // Killed while the writers are mid-way: some batches are in flight to Redis when it dies.
            while acknowledged.current < 40 { try await Task.sleep(for: .milliseconds(1)) }
            server.stop()
            try await group.waitForAll()
        }
        #expect(acknowledged.current == 200)
        try await server.start()
        try await storage.rankingSync.synchronize(now: now.addingTimeInterval(60))
        for window in LeaderboardWindow.calendar {
            let period = Period.containing(now, window: window, timeZone: .gmt).key
            let truth = try await postgresBoard(storage.postgres, board: "topic:\(topic)", window: window, period: period)
            let live = try await redisBoard(storage.redis, RankingKeys.board("topic:\(topic)", window, period))
            // 25 medium completions (3 points each) per player; the tie in the order the writers happened to
            // create the players, the same in both.
            let expected = (0..<8).map { "u\($0)=75" }
            #expect(truth.map { "\($0.0.dropFirst(topic.count + 1))=\($0.1)" }.sorted() == expected, "\(window)")
            #expect(live.map(\.0) == truth.map(\.0) && live.map(\.1) == truth.map(\.1), "\(window)")
        }
        let left = try await storage.postgres.query(
            "SELECT count(*) AS n FROM completions WHERE NOT ranked AND topic = $1", [topic]).onlyInt("n")
        #expect(left == 0)
        server.stop()
    }

    @Test func catchUpWritesPendingScoresWithoutARebuild() async throws {
        let (server, storage) = try await storageOnOwnRedis()
        let topic = StoreTestEnvironment.unique("pending")
        let user = "\(topic)-u"
        server.stop()
        guard case .created = try await storage.writer.record(try completion(id: "\(topic)-c", user: user, topic: topic, now: now))
        else { throw TestFailure("not created") }
        try await server.start()
        try await markRankingsReady(storage.redis)
        func isRanked() async throws -> Bool {
            try await storage.postgres.query("SELECT ranked FROM completions WHERE id = $1", ["\(topic)-c"]).onlyBool("ranked")
        }
        // Too recent for the catch-up: the writer that recorded it may still be updating Redis.
        _ = try await storage.rankingSync.catchUp(now: now, limit: 10_000)
        #expect(try await isRanked() == false)
        #expect(try await storage.rankingSync.catchUp(now: now.addingTimeInterval(10), limit: 10_000) >= 1)
        #expect(try await isRanked())
        let live = try await redisBoard(storage.redis, RankingKeys.board("topic:\(topic)", .all, "all"))
        #expect(live.map(\.0) == [user])
        #expect(live.map(\.1) == [3])
        server.stop()
    }

    @Test func playerErasedWhileRedisWasDownComesBackWithOnlyNewScores() async throws {
        let (server, storage) = try await storageOnOwnRedis()
        let topic = StoreTestEnvironment.unique("reerase")
        let user = "\(topic)-u"
        for index in 0..<3 {
            _ = try await storage.writer.record(try completion(id: "\(topic)-old\(index)", user: user, topic: topic, difficulty: "hard", now: now))
        }
        let key = RankingKeys.board("topic:\(topic)", .all, "all")
        #expect(try await redisBoard(storage.redis, key).map(\.1) == [15])
        let old = try await member(of: user, in: storage.postgres)
        server.stop()
        #expect(try await storage.erasure.erase(userID: user, now: now))
        try await server.start()
        try await markRankingsReady(storage.redis)
        try await storage.rankingSync.rebuild()
        // Simulate the stale entry an unreachable Redis kept (a restarted-with-data Redis).
        _ = try await storage.redis.pipeline([
            ["ZADD", key, RankingPlace(score: 15).storedValue, old], ["HSET", RankingLayout(storage.redis).playersHash(ofMember: old), old, "\(user) Old name"],
            ["HSET", RankingLayout(storage.redis).membersHash(ofUser: user), user, old],
        ])
        guard case .created(let response) = try await storage.writer.record(
            try completion(id: "\(topic)-new", user: user, topic: topic, difficulty: "easy", now: now)) else { throw TestFailure("not created") }
        #expect(response.totals.points == 2)
        let new = try await member(of: user, in: storage.postgres)
        #expect(new != old, "a player who comes back is a new member")
        #expect(try await redisBoard(storage.redis, key).map { "\($0.0)=\($0.1)" } == ["\(user)=2"])
        #expect(try await storage.redis.command(["HGET", RankingLayout(storage.redis).playersHash(ofMember: old), old]) == .null, "the erased name went too")
        #expect(try await redisDisplayName(of: user, storage: storage) == nil)
        #expect(try await storage.redis.command(["HGET", RankingLayout(storage.redis).membersHash(ofUser: user), user]) == .string(new))
        // The sync repeats the queued erasure: it must not take the returning player's new member away.
        try await storage.rankingSync.applyPendingErasures(now: now)
        #expect(try await storage.redis.command(["HGET", RankingLayout(storage.redis).membersHash(ofUser: user), user]) == .string(new))
        #expect(try await redisBoard(storage.redis, key).map { "\($0.0)=\($0.1)" } == ["\(user)=2"])
        server.stop()
    }

    @Test func nameChangesRedisMissedAreAppliedByTheSync() async throws {
        let (server, storage) = try await storageOnOwnRedis()
        let topic = StoreTestEnvironment.unique("names")
        let (clearer, renamer) = ("\(topic)-clear", "\(topic)-rename")
        for user in [clearer, renamer] {
            _ = try await storage.users.setPreferences(userID: user, displayName: "Old \(user)", timeZone: "UTC", now: now)
        }
        func name(_ user: String) async throws -> String? { try await redisDisplayName(of: user, storage: storage) }
        #expect(try await name(clearer) == "Old \(clearer)")

        server.stop()
        _ = try await storage.users.setPreferences(userID: clearer, displayName: nil, timeZone: "UTC", now: now)
        _ = try await storage.users.setPreferences(userID: renamer, displayName: "New", timeZone: "UTC", now: now)
        let queued = try await storage.postgres.query(
            "SELECT user_id FROM pending_display_names WHERE user_id = ANY($1) ORDER BY user_id", [[clearer, renamer]]).rows.map { try $0.string("user_id") }
        #expect(queued == [clearer, renamer])

        // Back with its data (simulated: the old names, as a Redis that kept them would have).
        try await server.start()
        try await markRankingsReady(storage.redis)
        let (clearerMember, renamerMember) = (try await member(of: clearer, in: storage.postgres), try await member(of: renamer, in: storage.postgres))
        _ = try await storage.redis.pipeline([
            ["HSET", RankingLayout(storage.redis).playersHash(ofMember: clearerMember), clearerMember, "\(clearer) Old \(clearer)"],
            ["HSET", RankingLayout(storage.redis).playersHash(ofMember: renamerMember), renamerMember, "\(renamer) Old \(renamer)"],
        ])
        try await storage.rankingSync.synchronize(now: now)
        #expect(try await name(clearer) == nil)
        #expect(try await name(renamer) == "New")
        let left = try await storage.postgres.query(
            "SELECT count(*) AS n FROM pending_display_names WHERE user_id = ANY($1)", [[clearer, renamer]]).onlyInt("n")
        #expect(left == 0)

        // A rebuild also removes a name PostgreSQL no longer has.
        try await storage.redis.command(["HSET", RankingLayout(storage.redis).playersHash(ofMember: clearerMember), clearerMember, "\(clearer) Old \(clearer)"])
        try await storage.rankingSync.rebuild()
        #expect(try await name(clearer) == nil)
        #expect(try await name(renamer) == "New")
        server.stop()
    }

    @Test func onlyOneRebuildRunsAtATime() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        try await storage.postgres.query("""
            INSERT INTO maintenance_leases (name, holder, expires_at) VALUES ('rankings-rebuild', 'other-replica', $1)
            ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
            """, [now.addingTimeInterval(60)])
        await #expect(throws: RebuildInProgress.self) { try await storage.rankingSync.rebuild() }
        try await storage.postgres.query("UPDATE maintenance_leases SET expires_at = $1 WHERE name = 'rankings-rebuild'",
                                         [now.addingTimeInterval(-1)])
        let report = try await storage.rankingSync.rebuild()
        #expect(report.boards > 0)
        let left = try await storage.postgres.query("SELECT count(*) AS n FROM maintenance_leases WHERE name = 'rankings-rebuild'")
        #expect(try left.onlyInt("n") == 0)
    }

    @Test("a rebuild whose lease another run took stops instead of going on alongside it")
    func rebuildStopsWhenItsLeaseIsTaken() async throws {
        let (server, storage) = try await storageOnOwnRedis()
        // Writes wait a second on this Redis: the lease is taken while the rebuild sends its first chunk.
        try await storage.redis.command(["CLIENT", "PAUSE", "1000", "WRITE"])
        let rebuilding = Task { try await storage.rankingSync.rebuild() }
        let held = "SELECT count(*) AS n FROM maintenance_leases WHERE name = 'rankings-rebuild' AND holder <> 'thief'"
        while try await storage.postgres.query(held).onlyInt("n") == 0 { try await Task.sleep(for: .milliseconds(5)) }
        try await storage.postgres.query("UPDATE maintenance_leases SET holder = 'thief' WHERE name = 'rankings-rebuild'")
        await #expect(throws: RebuildInProgress.self) { try await rebuilding.value }
        let thief = try await storage.postgres.query("DELETE FROM maintenance_leases WHERE holder = 'thief' RETURNING expires_at").rows
        #expect(thief.count == 1, "the stopped rebuild leaves the other run's lease alone")
        let temporary = try await storage.redis.command(["KEYS", "*:rebuild:*"])
        #expect(temporary == .array([]), "the stopped rebuild deletes the board it was writing")
        server.stop()
    }

    @Test func rebuiltBoardsEqualLiveBoards() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("rebuild")
        let items = try (0..<40).map {
            try completion(id: "\(topic)-c\($0)", user: "\(topic)-u\($0 % 9)", topic: topic, difficulty: ["easy", "medium", "hard"][$0 % 3],
                           groups: ["\(topic)-g\($0 % 2)"], displayName: "P\($0 % 9)", now: now)
        }
        _ = await storage.writer.record(items)
        let keys = ["topic:\(topic)", "group:\(topic)-g0", "group:\(topic)-g1"].flatMap { board in
            LeaderboardWindow.calendar.map { RankingKeys.board(board, $0, Period.containing(now, window: $0, timeZone: .gmt).key) }
        }
        var before: [[String]] = []
        for key in keys { before.append(try await redisBoard(storage.redis, key).map { "\($0.0)=\($0.1)" }) }
        _ = try await storage.redis.pipeline(keys.map { ["DEL", $0] })
        let report = try await storage.rankingSync.rebuild()
        #expect(report.entries >= 9 * 4 + 9 * 4)
        var after: [[String]] = []
        for key in keys { after.append(try await redisBoard(storage.redis, key).map { "\($0.0)=\($0.1)" }) }
        #expect(after == before)
        #expect(before.allSatisfy { !$0.isEmpty })
        #expect(try await redisDisplayName(of: "\(topic)-u3", storage: storage) == "P3")
    }

    @Test func rebuildLeavesClosedPeriodsOut() async throws {
        // Its own Redis: a rebuild of the shared one would drop the entries other suites' batches have written there
        // but not yet committed in PostgreSQL.
        let (server, storage) = try await storageOnOwnRedis()
        defer { server.stop() }
        let topic = StoreTestEnvironment.unique("closedrebuild")
        _ = try await storage.writer.record(try completion(id: "\(topic)-c", user: "\(topic)-u", topic: topic, now: now))
        let keys = LeaderboardWindow.calendar.map {
            RankingKeys.board("topic:\(topic)", $0, Period.containing(now, window: $0, timeZone: .gmt).key)
        }
        try await storage.postgres.query(
            "UPDATE board_periods SET closed_at = $2 WHERE board = $1 AND board_window = 'day'", ["topic:\(topic)", now])
        _ = try await storage.redis.pipeline(keys.map { ["DEL", $0] })
        _ = try await storage.rankingSync.rebuild()
        var present: [Int64] = []
        for key in keys { present.append(try await storage.redis.command(["EXISTS", key]).integer ?? -1) }
        // all, day, week, month: the closed day is read from its final snapshot, not rebuilt.
        #expect(present == [1, 0, 1, 1])
    }

    @Test func erasingAPlayerRemovesEveryTrace() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("erase")
        let user = "\(topic)-u"
        _ = try await storage.writer.record(try completion(id: "\(topic)-c", user: user, topic: topic, groups: ["\(topic)-g"],
                                                           displayName: "Kid", now: now))
        let member = try await member(of: user, in: storage.postgres)
        #expect(try await storage.redis.command(["HGET", RankingLayout(storage.redis).membersHash(ofUser: user), user]) == .string(member))
        #expect(try await storage.erasure.erase(userID: user, now: now))
        for table in ["users", "completions", "user_topics", "board_scores"] {
            let count = try await storage.postgres.query("SELECT count(*) AS n FROM \(table) WHERE user_id = $1", [user]).onlyInt("n")
            #expect(count == 0, "\(table)")
        }
        for window in LeaderboardWindow.calendar {
            let key = RankingKeys.board("topic:\(topic)", window, Period.containing(now, window: window, timeZone: .gmt).key)
            #expect(try await storage.redis.command(["ZSCORE", key, member]) == .null)
        }
        #expect(try await storage.redis.command(["HGET", RankingLayout(storage.redis).playersHash(ofMember: member), member]) == .null)
        #expect(try await storage.redis.command(["HGET", RankingLayout(storage.redis).membersHash(ofUser: user), user]) == .null)
        #expect(try await storage.erasure.erase(userID: user, now: now) == false)

        // An entry written by a close racing the erasure (it read the scores before the erasure committed):
        // erasing again finds and removes it, and only then is there nothing left.
        let snapshot = try await storage.postgres.query("""
            INSERT INTO snapshots (board, board_window, period, kind, taken_at, players) VALUES ($1, 'week', '2026-W47', 'final', $2, 1)
            RETURNING id
            """, ["topic:\(topic)", now]).rows[0].int64("id")
        try await storage.postgres.query("""
            INSERT INTO snapshot_entries (snapshot_id, position, user_id, score, rank, medal) VALUES ($1, 0, $2, 3, 1, 'gold')
            """, [snapshot, user])
        #expect(try await storage.erasure.erase(userID: user, now: now))
        #expect(try await storage.postgres.query("SELECT count(*) AS n FROM snapshot_entries WHERE user_id = $1", [user]).onlyInt("n") == 0)
        let pendingKeys = try await storage.postgres.query(
            "SELECT cardinality(redis_keys) AS n FROM pending_ranking_erasures WHERE user_id = $1", [user]).onlyInt("n")
        #expect(pendingKeys == 12, "the second erasure keeps the first one's Redis keys queued")
        #expect(try await storage.postgres.query("SELECT players FROM snapshots WHERE id = $1", [snapshot]).onlyInt("players") == 0)
        #expect(try await storage.erasure.erase(userID: user, now: now) == false)
    }
}

@Suite("API keys and migrations", .timeLimit(.minutes(5)))
struct KeysAndMigrationsTests {
    @Test func keysAreStoredHashedAndCanBeRevoked() async throws {
        let postgres = try await StoreTestEnvironment.postgres()
        let keys = ApiKeyStore(postgres: postgres)
        let created = try await keys.create(name: "frontend", role: .ingest, now: Date())
        #expect(created.secret.hasPrefix("pdm_") && created.secret.count == 44)
        #expect(try await keys.validGrants()[ApiKeyStore.hash(created.secret)] == KeyGrant(id: created.key.id, role: .ingest, scopes: []))
        let stored = try await postgres.query("SELECT key_hash FROM api_keys WHERE id = $1", [created.key.id]).onlyString("key_hash")
        #expect(stored == ApiKeyStore.hash(created.secret))
        #expect(stored != created.secret)
        #expect(try await keys.revoke(id: created.key.id, now: Date()))
        #expect(try await keys.validGrants()[ApiKeyStore.hash(created.secret)] == nil)
        #expect(try await keys.revoke(id: created.key.id, now: Date()) == false)
    }

    @Test func migrationsApplyOnceEvenFromConcurrentReplicasAndRefuseEditedFiles() async throws {
        try await StoreTestEnvironment.withOwnDatabase { url in
            let pools = (0..<3).map { _ in PostgresPool(configuration: PostgresConfiguration(connectionString: url, poolSize: 2),
                                                         logger: StoreTestEnvironment.logger) }
            let migrations = try Migration.bundled()
            let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
                for pool in pools { group.addTask { try await Migrator(pool: pool, logger: StoreTestEnvironment.logger).migrate(migrations) } }
                return try await group.reduce(into: [Int]()) { $0 += $1 }
            }
            #expect(applied.sorted() == migrations.map(\.version))
            #expect(try await Migrator(pool: pools[0], logger: StoreTestEnvironment.logger).migrate(migrations).isEmpty)

            var edited = migrations
            edited[0] = Migration(version: edited[0].version, name: edited[0].name, sql: edited[0].sql + "\n-- edited")
            await #expect(throws: MigrationError.checksumMismatch(version: edited[0].version, name: edited[0].name)) {
                try await Migrator(pool: pools[0], logger: StoreTestEnvironment.logger).migrate(edited)
            }
            for pool in pools { await pool.close() }
        }
    }

    @Test("migration 009 records the gaps earlier erasures left in final snapshots, and only those")
    func snapshotGapsAreBackfilled() async throws {
        try await StoreTestEnvironment.withOwnDatabase(migratedBelow: 9) { pool, migrations in
            // A final snapshot missing position 2 (an erased player), a whole one, and a scheduled (top N) one missing 1.
            try await pool.query("""
                INSERT INTO snapshots (id, board, board_window, period, kind, taken_at, players) VALUES
                    (1, 'global', 'week', '2026-W40', 'final', now(), 3), (2, 'global', 'week', '2026-W41', 'final', now(), 2),
                    (3, 'global', 'week', '2026-W42', 'scheduled', now(), 9)
                """)
            try await pool.query("""
                INSERT INTO snapshot_entries (snapshot_id, position, user_id, score, rank)
                SELECT s, p, 'u' || s || '-' || p, 10 - p, p + 1 FROM (VALUES (1, 0), (1, 1), (1, 3), (2, 0), (2, 1), (3, 0), (3, 2)) v(s, p)
                """)
            #expect(try await Migrator(pool: pool, logger: StoreTestEnvironment.logger).migrate(migrations.filter { $0.version <= 9 }) == [9])
            let gaps = try await pool.query("SELECT snapshot_id || ':' || position AS g FROM snapshot_gaps ORDER BY 1").rows.map { try $0.string("g") }
            #expect(gaps == ["1:2"])
        }
    }

    @Test("migration 011 gives existing players handles in the order they came, and the first sync rebuilds a Redis of user ids")
    func upgradeToMembersRebuildsRedis() async throws {
        try await StoreTestEnvironment.withOwnDatabase(migratedBelow: 11) { pool, migrations in
            try await pool.query("""
                INSERT INTO users (user_id, display_name, created_at, updated_at) VALUES
                    ('zed', NULL, '2026-01-01T00:00:00Z', now()), ('amy', 'Amy', '2026-02-01T00:00:00Z', now()),
                    ('bob', NULL, '2026-02-01T00:00:00Z', now())
                """)
            try await pool.query("""
                INSERT INTO board_scores (board, board_window, period, user_id, score, updated_at) VALUES
                    ('global', 'all', 'all', 'zed', 5, now()), ('global', 'all', 'all', 'amy', 5, now()), ('global', 'all', 'all', 'bob', 7, now())
                """)
            try await pool.query("INSERT INTO pending_ranking_erasures (user_id, redis_keys, erased_at) VALUES ('gone', '{}', now())")
            #expect(try await Migrator(pool: pool, logger: StoreTestEnvironment.logger).migrate(migrations)
                    == migrations.map(\.version).filter { $0 >= 11 })
            let handles = try await pool.query("SELECT user_id || '=' || handle AS h FROM users ORDER BY handle").rows.map { try $0.string("h") }
            #expect(handles == ["zed=1", "amy=2", "bob=3"], "creation time first, then user id")
            try await pool.query("INSERT INTO users (user_id, created_at, updated_at) VALUES ('new', '2020-01-01T00:00:00Z', now())")
            #expect(try await pool.query("SELECT handle FROM users WHERE user_id = 'new'").rows[0].int64("handle") == 4)
            #expect(try await pool.query("SELECT members FROM pending_ranking_erasures").rows[0].string("members") == "{}")

            // Redis as Podium before 011 left it: members are user ids, the old marker and name hash; and the marker of
            // the release before board keys had hash tags, which does not stand for this layout either.
            let server = ownRedis()
            try await server.start()
            let redis = try StoreTestEnvironment.redis(url: server.url)
            _ = try await redis.pipeline([
                ["SET", "podium:rankings:ready", "old"], ["SET", "podium:rankings:ready:places", "old"],
                ["ZADD", "podium:lb:global:all:all", "-5", "zed", "-5", "amy", "-7", "bob"],
                ["HSET", "podium:names", "amy", "Amy"],
            ])
            let now = Date()
            let storage = PodiumStorage(postgres: pool, redis: redis, rules: GameRules(), logger: StoreTestEnvironment.logger, now: { now })
            try await storage.rankingSync.synchronize(now: now)
            let page = try await storage.leaderboards.read(board: "global", window: .all, period: "all", slice: .page(offset: 0, limit: 10))
            #expect(page.live)
            #expect(page.entries.map { "\($0.rank) \($0.userId) \($0.score) \($0.displayName ?? "-")" } == ["1 bob 7 -", "2 zed 5 -", "2 amy 5 Amy"])
            #expect(try await redis.command(["ZCARD", "podium:lb:{global:all:all}"]) == .integer(3), "no user-id member is left")
            #expect(try await redis.command(["EXISTS", "podium:lb:global:all:all"]) == .integer(0), "the untagged board went")
            #expect(try await redis.command(["EXISTS", "podium:names"]) == .integer(0))
            server.stop()
        }
    }

    @Test func migrationsOutlastThePoolsStatementTimeout() async throws {
        try await StoreTestEnvironment.withOwnDatabase { url in
            let holder = PostgresPool(configuration: PostgresConfiguration(connectionString: url, poolSize: 2, statementTimeout: nil),
                                      logger: StoreTestEnvironment.logger)
            let replica = PostgresPool(
                configuration: PostgresConfiguration(connectionString: url, poolSize: 1, statementTimeout: .milliseconds(300)),
                logger: StoreTestEnvironment.logger)
            let slow = Migration(version: 1, name: "001_slow.sql", sql: "CREATE TABLE slow (x integer); SELECT pg_sleep(0.6);")
            // Another replica holds the migration lock ("podium" in ASCII) until the migrator is seen waiting for it, and
            // then 1.5 s more, five times the timeout: the order is made, not timed, and the lock is let go on every path.
            let (waited, migrated) = try await holder.withSession { session in
                try await session.run { _ = try $0.query("SELECT pg_advisory_lock($1)", [Int64(0x706F_6469_756D)]) }
                let migrating = Task { try await Migrator(pool: replica, logger: StoreTestEnvironment.logger).migrate([slow]) }
                let deadline = ContinuousClock.now + .seconds(60)
                var waited = false
                while !waited && ContinuousClock.now < deadline {
                    waited = ((try? await holder.query("""
                        SELECT count(*) AS waiting FROM pg_locks l JOIN pg_database d ON d.oid = l.database
                        WHERE l.locktype = 'advisory' AND NOT l.granted AND d.datname = current_database()
                        """).rows[0].int("waiting")) ?? 0) > 0
                    if !waited { try? await Task.sleep(for: .milliseconds(20)) }
                }
                try? await Task.sleep(for: .milliseconds(1_500))
                _ = try? await session.run { try $0.query("SELECT pg_advisory_unlock($1)", [Int64(0x706F_6469_756D)]) }
                return (waited, try await migrating.value)
            }
            #expect(waited, "the migrator waited for the lock")
            #expect(migrated == [1])
            #expect(try await replica.query("SELECT to_regclass('slow') IS NOT NULL AS made").rows[0].bool("made"))
            #expect(try await replica.query("SHOW statement_timeout").rows[0].string("statement_timeout") == "300ms")
            await holder.close()
            await replica.close()
        }
    }
}
