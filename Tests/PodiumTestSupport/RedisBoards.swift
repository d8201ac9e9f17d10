import PodiumCore
import PodiumStore
import Redis

/// A Redis sorted set, best first, as (user, score): members translated to user ids through the
/// player hash (a member without a player shows as `?<member>`, which no expected board holds).
public func redisBoard(_ redis: RedisClient, _ key: String) async throws -> [(String, Int64)] {
    let flat = try await redis.command(["ZRANGE", key, "0", "-1", "WITHSCORES"]).array ?? []
    let members = stride(from: 0, to: flat.count, by: 2).map { flat[$0].string ?? "" }
    guard !members.isEmpty else { return [] }
    let layout = RankingLayout(redis)
    let players = try await redis.pipeline(members.map { ["HGET", layout.playersHash(ofMember: $0), $0] })
    return members.indices.map {
        let user = ($0 < players.count ? players[$0].string : nil).map { RankingKeys.player(fromValue: $0).userID }
        return (user ?? "?\(members[$0])", RankingPlace(storedValue: flat[2 * $0 + 1].string ?? "0")?.score ?? 0)
    }
}

/// Sets every ready marker of `redis`'s layout, as a rebuild does: Redis then counts as holding the rankings.
public func markRankingsReady(_ redis: RedisClient) async throws {
    for reply in try await redis.pipeline(RankingLayout(redis).readyMarkers.map { ["SET", $0, "tests"] }) where reply != .string("OK") {
        throw RedisError(kind: .server, message: "SET of a ready marker answered \(reply)", operation: "mark rankings ready")
    }
}

/// Deletes every ready marker of `redis`'s layout, as if Redis had lost its data.
public func unmarkRankingsReady(_ redis: RedisClient) async throws {
    _ = try await redis.pipeline(RankingLayout(redis).readyMarkers.map { ["DEL", $0] })
}
