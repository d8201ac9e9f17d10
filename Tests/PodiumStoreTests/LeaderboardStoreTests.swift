import Foundation
import PodiumCore
@testable import PodiumStore
import Postgres
import Redis
import PodiumTestSupport
import Synchronization
import Testing

@Suite("Reading rankings from Redis and, when Redis fails, from PostgreSQL", .timeLimit(.minutes(5)))
struct LeaderboardStoreTests {
    /// Writes the same board period to PostgreSQL and Redis: players `p00`… with the given scores, created in that
    /// order (so their handles, and the order of a tie, follow it). `descendingIDs` names them the other way round
    /// (`p04`, `p03` … `p00`), so that arrival order and user-id order disagree.
    func seed(_ scores: [Int64], board: String, storage: PodiumStorage, descendingIDs: Bool = false) async throws -> [String] {
        let users = scores.indices.map { String(format: "\(board)-p%02d", descendingIDs ? scores.count - 1 - $0 : $0) }
        let now = Date()
        for (user, score) in zip(users, scores) {
            try await storage.postgres.query(
                "INSERT INTO users (user_id, display_name, created_at, updated_at) VALUES ($1, $2, $3, $3)", [user, "N \(user)", now])
            try await storage.postgres.query("""
                INSERT INTO board_current_scores (board, user_id, all_score, updated_at) VALUES ($1, $2, $3, $4)
                """, [board, user, score, now])
        }
        var members: [String] = []
        for user in users { members.append(try await member(of: user, in: storage.postgres)) }
        try await RankingWriter(redis: storage.redis).apply(
            zip(members, scores).map { ScoreUpdate(key: RankingKeys.board(board, .all, "all"), member: $0, place: RankingPlace(score: $1)) },
            players: zip(members, users).map { RankedPlayer(member: $0, userID: $1, displayName: "N \($1)") })
        return users
    }

    @Test("a player's hash field keeps the user id and any display name, spaces included", arguments: [
        ("u1", nil), ("a.b:c@d-e_f", "Ada"), ("u2", " Ada  Lovelace "), ("u3", "Zoë 🦊"),
        // A name that begins with a combining mark: with the separator it makes one Character.
        ("u4", "\u{301}Ada"),
    ] as [(String, String?)])
    func playerValuesRoundTrip(user: String, name: String?) {
        let value = RankingKeys.playerValue(userID: user, displayName: name)
        #expect(RankingKeys.player(fromValue: value) == (user, name))
    }

    @Test("around-me, compare and profile ranks find a player who was erased and came back, under the new member")
    func erasedPlayerComesBackUnderANewMember() async throws {
        let now = Date()
        let storage = try await StoreTestEnvironment.storage(now: now)
        let topic = StoreTestEnvironment.unique("back")
        let user = "\(topic)-u"
        _ = try await storage.writer.record(try completion(id: "\(topic)-1", user: user, topic: topic, difficulty: "hard", now: now))
        let board = "topic:\(topic)"
        let first = try await storage.leaderboards.read(board: board, window: .all, period: "all", slice: .around(userID: user, radius: 2))
        #expect(first.entries.map { "\($0.userId) \($0.score)" } == ["\(user) 5"])
        #expect(try await storage.erasure.erase(userID: user, now: now))
        let gone = try await storage.leaderboards.read(board: board, window: .all, period: "all", slice: .around(userID: user, radius: 2))
        #expect(gone.found == false && gone.entries.isEmpty)
        _ = try await storage.writer.record(try completion(id: "\(topic)-2", user: user, topic: topic, difficulty: "easy", now: now))
        let back = try await storage.leaderboards.read(board: board, window: .all, period: "all", slice: .around(userID: user, radius: 2))
        #expect(back.live)
        #expect(back.entries.map { "\($0.userId) \($0.score)" } == ["\(user) 2"], "the new member's score, not the erased one's")
        let compared = try await storage.leaderboards.compare(board: board, window: .all, period: "all", userIDs: [user])
        #expect(compared.entries.map { "\($0.userId) \($0.score)" } == ["\(user) 2"])
        let ranks = try await storage.leaderboards.standings(
            userID: user, periods: [BoardPeriod(board: storage.rules.boards.definition(for: .topic(topic)), period: .all)])
        #expect(ranks.ranks.map(\.score) == [2])
    }

    @Test("around-me falls back when the ready marker beside the player's member is gone, though the board's is there")
    func aroundNeedsTheMarkerBesideTheMember() async throws {
        // Its own Redis: on one server the marker it deletes is every test's.
        let server = ownRedis()
        try await server.start()
        defer { server.stop() }
        let storage = try await StoreTestEnvironment.storage(now: Date(), redisURL: server.url)
        try await markRankingsReady(storage.redis)
        let board = "group:\(StoreTestEnvironment.unique("lost"))"
        let users = try await seed([30, 20], board: board, storage: storage)
        let layout = RankingLayout(storage.redis)
        let marker = layout.readyMarker(besides: layout.membersHash(ofUser: users[1]))
        // On one server there is one marker; on a cluster this is another slot's than the board's (or the same).
        try await storage.redis.command(["DEL", marker])
        let around = try await storage.leaderboards.read(board: board, window: .all, period: "all", slice: .around(userID: users[1], radius: 1))
        try await markRankingsReady(storage.redis)
        #expect(!around.live, "a primary that lost its data is not asked for members as if nobody had one")
        #expect(around.entries.map(\.userId) == users)
        let again = try await storage.leaderboards.read(board: board, window: .all, period: "all", slice: .around(userID: users[1], radius: 1))
        #expect(again.live && again.entries.map(\.userId) == users)
    }

    @Test("the member cache remembers, forgets on every move of the signal, and stores nothing looked up before")
    func memberCacheForgets() {
        let cache = MemberCache(capacity: 3)
        let (unknown, generation) = cache.members(of: ["a", "b"])
        #expect(unknown == [nil, nil])
        cache.remember(["a": "AAAAAB", "b": "AAAAAC"], generation: generation)
        #expect(cache.members(of: ["a", "b", "c"]).members == ["AAAAAB", "AAAAAC", nil])
        let (_, before) = cache.members(of: ["c"])
        cache.forgetAll()
        cache.remember(["c": "AAAAAD"], generation: before)
        #expect(cache.members(of: ["a", "c"]).members == [nil, nil], "emptied, and the lookup begun before stored nothing")
        let (_, now) = cache.members(of: [])
        cache.remember(["a": "AAAAAB", "b": "AAAAAC", "c": "AAAAAD"], generation: now)
        cache.remember(["d": "AAAAAE"], generation: now)
        #expect(cache.members(of: ["a", "d"]).members == [nil, "AAAAAE"], "past its capacity it starts again empty")
    }

    @Test("the player value cache serves values, hands out each stale one's refresh once, forgets on every move of the signal, and stores nothing looked up before")
    func playerValueCacheForgets() {
        let cache = PlayerValueCache(lifetime: .seconds(3600), capacity: 3)
        let first = cache.values(of: ["AAAAAB", "AAAAAC"])
        #expect(first.values == [nil, nil] && first.refresh.isEmpty)
        cache.remember(["AAAAAB": "a Ada", "AAAAAC": "b"], generation: first.generation)
        #expect(cache.values(of: ["AAAAAB", "AAAAAC", "AAAAAD"]).values == ["a Ada", "b", nil])
        let before = cache.values(of: ["AAAAAD"]).generation
        cache.forgetAll()
        cache.remember(["AAAAAD": "c"], generation: before)
        #expect(cache.values(of: ["AAAAAB", "AAAAAD"]).values == [nil, nil], "emptied, and the lookup begun before stored nothing")
        let now = cache.values(of: []).generation
        cache.remember(["AAAAAB": "a", "AAAAAC": "b", "AAAAAD": "c"], generation: now)
        cache.remember(["AAAAAE": "d"], generation: now)
        #expect(cache.values(of: ["AAAAAB", "AAAAAE"]).values == [nil, "d"], "past its capacity it starts again empty")

        // Past one lifetime and within two: served, and the first read that sees it takes the refresh on; past two: gone.
        let clock = Mutex(ContinuousClock.now)
        let aging = PlayerValueCache(lifetime: .seconds(1), now: { clock.withLock { $0 } })
        aging.remember(["AAAAAB": "a", "AAAAAC": "b"], generation: aging.values(of: []).generation)
        clock.withLock { $0 += .milliseconds(1500) }
        let stale = aging.values(of: ["AAAAAB", "AAAAAC"])
        #expect(stale.values == ["a", "b"] && stale.refresh == ["AAAAAB", "AAAAAC"])
        #expect(aging.values(of: ["AAAAAB"]).refresh.isEmpty, "one refresh at a time")
        aging.remember(["AAAAAB": "a2"], refreshed: ["AAAAAB"], generation: stale.generation)
        aging.abandon(["AAAAAC"])
        clock.withLock { $0 += .milliseconds(600) }
        let later = aging.values(of: ["AAAAAB", "AAAAAC"])
        #expect(later.values == ["a2", nil], "the refreshed value is fresh again; the other is two lifetimes old")
        #expect(later.refresh.isEmpty)

        let disabled = PlayerValueCache(lifetime: .zero)
        disabled.remember(["AAAAAB": "a"], generation: disabled.values(of: []).generation)
        #expect(disabled.values(of: ["AAAAAB"]).values == [nil], "a zero lifetime serves nothing")
    }

    @Test("on a cluster a name read is served again until the cache forgets it; one server reads it with the board every time")
    func namesServedFromTheCacheOnACluster() async throws {
        let storage = try await StoreTestEnvironment.storage(now: Date())
        let board = "group:\(StoreTestEnvironment.unique("names"))"
        let users = try await seed([30, 20, 10], board: board, storage: storage)
        let leaderboards = LeaderboardStore(
            postgres: storage.postgres, redis: storage.redis, rules: storage.rules, logger: StoreTestEnvironment.logger,
            playerValueLifetime: .seconds(3600))
        func names() async throws -> [String?] {
            let around = try await leaderboards.read(board: board, window: .all, period: "all", slice: .around(userID: users[1], radius: 1))
            #expect(around.live)
            return around.entries.map(\.displayName)
        }
        #expect(try await names() == users.map { "N \($0)" })
        // Another replica renames the top player (as the ranking sync would).
        let member = try await member(of: users[0], in: storage.postgres)
        let layout = RankingLayout(storage.redis)
        try await storage.redis.command(["HSET", layout.playersHash(ofMember: member), member, RankingKeys.playerValue(userID: users[0], displayName: "Renamed")])
        let served = try await names()
        #expect(served[0] == (layout.cluster ? "N \(users[0])" : "Renamed"))
        leaderboards.knownValues.forgetAll()
        #expect(try await names() == ["Renamed"] + users.dropFirst().map { "N \($0)" })
    }

    @Test func pageShowsCompetitionRanksWithTiesInArrivalOrder() async throws {
        let storage = try await StoreTestEnvironment.storage(now: Date())
        let board = "group:\(StoreTestEnvironment.unique("ties"))"
        let users = try await seed([100, 90, 90, 80, 90], board: board, storage: storage, descendingIDs: true)
        let page = try await storage.leaderboards.read(board: board, window: .all, period: "all", slice: .page(offset: 0, limit: 10))
        #expect(page.players == 5)
        #expect(page.live)
        #expect(page.entries.map(\.userId) == [users[0], users[1], users[2], users[4], users[3]])
        #expect(page.entries.map(\.rank) == [1, 2, 2, 2, 5])
        #expect(page.entries.map(\.score) == [100, 90, 90, 90, 80])
        #expect(page.entries[0].displayName == "N \(users[0])")
        // A page starting inside the tie keeps the shared rank.
        let second = try await storage.leaderboards.read(board: board, window: .all, period: "all", slice: .page(offset: 2, limit: 2))
        #expect(second.entries.map(\.rank) == [2, 2])
        #expect(second.offset == 2)
    }

    @Test("an older, lower score written after a newer one is ranked against the other players only")
    func olderScoreArrivingLateIsNotRankedBelowItsOwnPlayer() async throws {
        let storage = try await StoreTestEnvironment.storage(now: Date())
        let key = RankingKeys.board("group:\(StoreTestEnvironment.unique("late"))", .all, "all")
        let writer = RankingWriter(redis: storage.redis)
        let (other, player) = (RankingMember.encode(1)!, RankingMember.encode(2)!)
        try await writer.apply([ScoreUpdate(key: key, member: other, place: RankingPlace(score: 10)), ScoreUpdate(key: key, member: player, place: RankingPlace(score: 20))])
        let late = try await writer.apply([ScoreUpdate(key: key, member: player, place: RankingPlace(score: 5))])
        #expect(late.map { "\($0.rank)/\($0.players)" } == ["2/2"], "only `other` (10) is above 5; the player's own 20 is not")
        let replay = try await writer.apply([ScoreUpdate(key: key, member: player, place: RankingPlace(score: 20)), ScoreUpdate(key: key, member: other, place: RankingPlace(score: 10))])
        #expect(replay.map { "\($0.rank)/\($0.players)" } == ["1/2", "2/2"], "an equal replay ranks as before")
        #expect(try await storage.redis.command(["ZSCORE", key, player]).string == RankingPlace(score: 20).storedValue, "the better score stays")
    }

    @Test func redisWithoutReadyMarkerIsNotTrustedAndPostgresAnswers() async throws {
        let server = ownRedis()
        try await server.start()
        let storage = try await StoreTestEnvironment.storage(now: Date(), redisURL: server.url)
        let board = "group:\(StoreTestEnvironment.unique("unready"))"
        // Entries but no marker: a rebuild that has not finished (writers refuse an unready Redis, so seed first).
        try await markRankingsReady(storage.redis)
        let users = try await seed([30, 20, 10], board: board, storage: storage)
        try await unmarkRankingsReady(storage.redis)
        let page = try await storage.leaderboards.read(board: board, window: .all, period: "all", slice: .page(offset: 0, limit: 10))
        #expect(!page.live)
        #expect(page.entries.map(\.userId) == users)
        try await markRankingsReady(storage.redis)
        let live = try await storage.leaderboards.read(board: board, window: .all, period: "all", slice: .page(offset: 0, limit: 10))
        #expect(live.live)
        #expect(live.entries == page.entries)
        server.stop()
    }

    @Test("while Redis is frozen (SIGSTOP), reads answer from PostgreSQL and none waits for Redis; live again after it thaws")
    func readsWhileRedisIsFrozen() async throws {
        let server = OwnRedisServer()
        try await server.start()
        defer { server.stop() }
        try await readThroughHang(redisPort: server.port, name: "frozen", hang: { server.freeze() }, end: { server.thaw() })
    }

    @Test("behind a TCP proxy that stops forwarding without closing, reads answer from PostgreSQL; live again after it forwards")
    func readsWhileThePathToRedisIsSilent() async throws {
        let server = OwnRedisServer()
        try await server.start()
        defer { server.stop() }
        let proxy = try await StallingProxy(to: server.port)
        defer { proxy.stop() }
        try await readThroughHang(redisPort: proxy.port, name: "silent", hang: { proxy.stall() }, end: { proxy.resume() })
    }

    /// Reads a board with four readers through a Redis hang of 8 s (`hang` then `end`, Redis reached on `redisPort`
    /// with the shipped read deadline of 250 ms), and checks: every answer is the board, from PostgreSQL; every read
    /// ended while Redis still hung (the hang ends only after the readers are done, or, failing the test, 20 s
    /// after they should have been); the reads after it are live again. Prints the p99 of the reads during the hang
    /// and the time from its end to the first live answer: figures, not assertions, as the machine may be loaded.
    private func readThroughHang(
        redisPort: Int, name: String, hang: @escaping @Sendable () -> Void, end: @escaping @Sendable () -> Void
    ) async throws {
        let redis = RedisClient(
            configuration: RedisConfiguration(port: redisPort, poolSize: 8, readDeadline: .milliseconds(250)),
            logger: StoreTestEnvironment.logger)
        let outcome: Result<Void, any Error>
        do {
            outcome = .success(try await readThroughHang(redis: redis, name: name, hang: hang, end: end))
        } catch {
            outcome = .failure(error)
        }
        // On every path: the hang ends (the callers also stop the server and proxy) and the pool closes.
        end()
        await redis.close()
        try outcome.get()
    }

    /// The body of `readThroughHang(redisPort:name:hang:end:)`, on `redis`.
    private func readThroughHang(
        redis: RedisClient, name: String, hang: @escaping @Sendable () -> Void, end: @escaping @Sendable () -> Void
    ) async throws {
        let storage = PodiumStorage(postgres: try await StoreTestEnvironment.postgres(), redis: redis, rules: GameRules(),
                                    logger: StoreTestEnvironment.logger, now: { Date() })
        try await markRankingsReady(redis)
        let board = "group:\(StoreTestEnvironment.unique(name))"
        let users = try await seed([30, 20, 10], board: board, storage: storage)
        let read: @Sendable () async throws -> RankedEntries = {
            try await storage.leaderboards.read(board: board, window: .all, period: "all", slice: .page(offset: 0, limit: 10))
        }
        let clock = ContinuousClock()
        // Live before the hang: a loaded machine may miss the 250 ms deadline now and then, and fall back meanwhile.
        // The loop keeps the answer it stopped on: asking once more could itself miss the deadline.
        let settled = clock.now + .seconds(30)
        var liveBefore = try await read().live
        while !liveBefore && clock.now < settled {
            try await Task.sleep(for: .milliseconds(50))
            liveBefore = try await read().live
        }
        #expect(liveBefore, "live before the hang")

        hang()
        let hangEnds = clock.now + .seconds(8)
        // Ends a hang that readers waiting for Redis would otherwise make last for ever.
        let watchdog = Task {
            guard (try? await Task.sleep(until: hangEnds + .seconds(20))) != nil else { return false }
            end()
            return true
        }
        defer { watchdog.cancel() }
        let reads = try await withThrowingTaskGroup(of: [(started: ContinuousClock.Instant, ended: ContinuousClock.Instant, page: RankedEntries)].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var done: [(ContinuousClock.Instant, ContinuousClock.Instant, RankedEntries)] = []
                    while clock.now < hangEnds {
                        let started = clock.now
                        let page = try await read()
                        done.append((started, clock.now, page))
                    }
                    return done
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        watchdog.cancel()
        let readersWaitedForRedis = await watchdog.value
        let ended = clock.now
        end()
        var firstLive: ContinuousClock.Instant?
        while firstLive == nil && clock.now - ended < .seconds(30) {
            if try await read().live { firstLive = clock.now } else { try await Task.sleep(for: .milliseconds(50)) }
        }

        #expect(reads.count >= 4, "every reader got answers during the hang")
        #expect(reads.allSatisfy { $0.page.entries.map(\.userId) == users }, "every answer is the board")
        #expect(reads.allSatisfy { !$0.page.live }, "answered from PostgreSQL while Redis hangs")
        #expect(!readersWaitedForRedis, "no read waited for Redis to answer again")
        // Order, not speed: every read ended before the hang did (the watchdog above). How long the reads took is a
        // figure, printed below: a loaded machine (CI beside two CPU burners, under faketime) must not fail the test.
        let latencies = reads.map { $0.ended - $0.started }.sorted()
        let p99 = latencies[latencies.count * 99 / 100]
        let liveAgain = try #require(firstLive, "live again after the hang") - ended
        print("reads while Redis is \(name): \(reads.count) reads, p99 \(p99), max \(latencies.last!), live again \(liveAgain) after it")
    }

    @Test func aroundMeAtTopAndBottomAndAbsent() async throws {
        let storage = try await StoreTestEnvironment.storage(now: Date())
        let board = "group:\(StoreTestEnvironment.unique("around"))"
        let users = try await seed([50, 40, 30, 20, 10], board: board, storage: storage)
        let top = try await storage.leaderboards.read(board: board, window: .all, period: "all", slice: .around(userID: users[0], radius: 2))
        #expect(top.entries.map(\.userId) == Array(users[0...2]))
        #expect(top.offset == 0)
        let bottom = try await storage.leaderboards.read(board: board, window: .all, period: "all", slice: .around(userID: users[4], radius: 2))
        #expect(bottom.entries.map(\.userId) == Array(users[2...4]))
        #expect(bottom.entries.map(\.rank) == [3, 4, 5])
        let middle = try await storage.leaderboards.read(board: board, window: .all, period: "all", slice: .around(userID: users[2], radius: 1))
        #expect(middle.entries.map(\.rank) == [2, 3, 4])
        let absent = try await storage.leaderboards.read(board: board, window: .all, period: "all", slice: .around(userID: "nobody", radius: 2))
        #expect(!absent.found)
        #expect(absent.entries.isEmpty)
    }

    @Test(arguments: [1, 2, 3])
    func rankIsTheSameHoweverItIsRead(seed value: Int) async throws {
        var generator = SeededGenerator(seed: UInt64(value))
        let scores = (0..<40).map { _ in Int64.random(in: 0...8, using: &generator) }
        let storage = try await StoreTestEnvironment.storage(now: Date())
        let board = "group:\(StoreTestEnvironment.unique("prop"))"
        let users = try await seed(scores, board: board, storage: storage, descendingIDs: value == 2)
        let reference = Dictionary(uniqueKeysWithValues: zip(users, CompetitionRanking.ranks(ofAll: scores)))

        let dead = PodiumStorage(postgres: storage.postgres, redis: try StoreTestEnvironment.redis(url: "redis://127.0.0.1:1/0"),
                                 rules: GameRules(), logger: StoreTestEnvironment.logger, now: { Date() })
        for reader in [storage.leaderboards, dead.leaderboards] {
            for offset in stride(from: 0, to: 40, by: 7) {
                let page = try await reader.read(board: board, window: .all, period: "all", slice: .page(offset: offset, limit: 7))
                #expect(page.entries.count == min(7, 40 - offset))
                for entry in page.entries { #expect(entry.rank == reference[entry.userId], "page at \(offset), live \(page.live)") }
            }
            for user in users.shuffled(using: &generator).prefix(8) {
                let around = try await reader.read(board: board, window: .all, period: "all", slice: .around(userID: user, radius: 3))
                for entry in around.entries { #expect(entry.rank == reference[entry.userId]) }
                #expect(around.entries.contains { $0.userId == user })
            }
            let friends = Array(users.shuffled(using: &generator).prefix(6)) + ["stranger"]
            let compared = try await reader.compare(board: board, window: .all, period: "all", userIDs: friends)
            #expect(compared.entries.count == 6)
            for entry in compared.entries { #expect(entry.rank == reference[entry.userId]) }
            let strangers = try await reader.compare(board: board, window: .all, period: "all", userIDs: ["stranger"])
            #expect(strangers.entries.isEmpty && strangers.players == 40, "live \(strangers.live)")
        }
        // PostgreSQL answers exactly as Redis does: same entries in the same order, offset, size and found.
        let slices: [LeaderboardSlice] = [.page(offset: 0, limit: 5), .page(offset: 13, limit: 9), .page(offset: 38, limit: 10),
                                          .page(offset: 40, limit: 3), .around(userID: "stranger", radius: 2)]
            + users.shuffled(using: &generator).prefix(6).map { .around(userID: $0, radius: 4) }
        for slice in slices {
            let fallback = try await dead.leaderboards.read(board: board, window: .all, period: "all", slice: slice)
            let live = try await storage.leaderboards.read(board: board, window: .all, period: "all", slice: slice)
            #expect(!fallback.live)
            #expect(live.live)
            #expect(fallback.entries == live.entries, "\(slice)")
            #expect(fallback.offset == live.offset, "\(slice)")
            #expect(fallback.players == live.players)
            #expect(fallback.found == live.found, "\(slice)")
        }
        // Compare too, ties included: the same entries in the same order from both.
        let friends = Array(users.shuffled(using: &generator).prefix(20)) + ["stranger"]
        let liveCompare = try await storage.leaderboards.compare(board: board, window: .all, period: "all", userIDs: friends)
        let fallbackCompare = try await dead.leaderboards.compare(board: board, window: .all, period: "all", userIDs: friends)
        #expect(liveCompare.live && !fallbackCompare.live)
        #expect(liveCompare.entries.count == 20)
        #expect(fallbackCompare.entries == liveCompare.entries)
        // And that order is rank, then arrival (the order `seed` created the players in), whatever the ids.
        let arrival = Dictionary(uniqueKeysWithValues: users.enumerated().map { ($1, $0) })
        let expected = friends.dropLast().sorted { (reference[$0]!, arrival[$0]!) < (reference[$1]!, arrival[$1]!) }
        #expect(liveCompare.entries.map(\.userId) == expected)
    }
}

/// A small deterministic generator (SplitMix64) so property tests are repeatable.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
