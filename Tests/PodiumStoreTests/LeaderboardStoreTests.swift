import Foundation
import PodiumCore
@testable import PodiumStore
import Postgres
import Redis
import Testing

@Suite("Reading rankings from Redis and, when Redis fails, from PostgreSQL")
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
                INSERT INTO board_scores (board, board_window, period, user_id, score, updated_at) VALUES ($1, 'all', 'all', $2, $3, $4)
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
        let server = OwnRedisServer()
        try await server.start()
        let storage = try await StoreTestEnvironment.storage(now: Date(), redisURL: server.url)
        let board = "group:\(StoreTestEnvironment.unique("unready"))"
        // Entries but no marker: a rebuild that has not finished (writers refuse an unready Redis, so seed first).
        try await storage.redis.command(["SET", RankingKeys.readyMarker, "test"])
        let users = try await seed([30, 20, 10], board: board, storage: storage)
        try await storage.redis.command(["DEL", RankingKeys.readyMarker])
        let page = try await storage.leaderboards.read(board: board, window: .all, period: "all", slice: .page(offset: 0, limit: 10))
        #expect(!page.live)
        #expect(page.entries.map(\.userId) == users)
        try await storage.redis.command(["SET", RankingKeys.readyMarker, "test"])
        let live = try await storage.leaderboards.read(board: board, window: .all, period: "all", slice: .page(offset: 0, limit: 10))
        #expect(live.live)
        #expect(live.entries == page.entries)
        server.stop()
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
