import Logging
import PodiumCore
import Redis

/// One player's absolute score on one board period.
public struct ScoreUpdate: Sendable, Hashable {
    /// The board period's sorted set (`RankingKeys.board`).
    public let key: String
    /// The player.
    public let userID: String
    /// The player's score there, as PostgreSQL holds it.
    public let score: Int64

    /// Creates an update.
    public init(key: String, userID: String, score: Int64) {
        self.key = key
        self.userID = userID
        self.score = score
    }
}

/// A player's standing right after an update.
public struct Standing: Sendable, Equatable {
    /// Competition rank of the written score.
    public let rank: Int
    /// Players on the board period.
    public let players: Int
}

/// Brings Redis to the scores PostgreSQL holds: absolute values, never increments.
///
/// `ZADD … LT` on negated scores keeps the higher of the written and the stored score, so
/// replays, retries and out-of-order writers can never lower or double-count a score.
public struct RankingWriter: Sendable {
    let redis: RedisPool

    /// Creates a writer on `redis`.
    public init(redis: RedisPool) {
        self.redis = redis
    }

    /// Writes `updates` and `displayNames` in one script call; returns each update's standing, in order.
    ///
    /// `removals` (player to keys) run first on the same connection: the old entries and display name of
    /// players erased while Redis was unreachable, so a returning player starts from the new scores only
    /// (and shows a name only if this batch gives one).
    @discardableResult
    public func apply(
        _ updates: [ScoreUpdate], displayNames: [String: String] = [:], removals: [String: [String]] = [:]
    ) async throws -> [Standing] {
        guard !updates.isEmpty || !displayNames.isEmpty || !removals.isEmpty else { return [] }
        let removing = removals.sorted { $0.key < $1.key }.flatMap { user, keys in
            keys.map { ["ZREM", $0, user] } + [["HDEL", RankingKeys.displayNames, user]]
        }
        var keys = updates.map(\.key)
        keys.append(RankingKeys.displayNames)
        keys.append(RankingKeys.readyMarker)
        var arguments: [String] = []
        arguments.reserveCapacity(updates.count * 2 + displayNames.count * 2)
        for update in updates {
            arguments.append(RankingKeys.storedValue(update.score))
            arguments.append(update.userID)
        }
        for (user, name) in displayNames.sorted(by: { $0.key < $1.key }) {
            arguments.append(user)
            arguments.append(name)
        }
        let reply = try await redis.withConnection { [keys, arguments] connection in
            if !removing.isEmpty { try connection.pipeline(removing).throwFirstError(operation: "ranking erase pipeline") }
            return try connection.evaluate(Self.updateScript, keys: keys, arguments: arguments)
        }
        guard case .array(let counts) = reply, counts.count == updates.count * 2 else {
            throw RedisError(kind: .protocolError, message: "ranking update script returned \(reply)", operation: "ranking update")
        }
        return updates.indices.map { index in
            Standing(rank: Int(counts[index * 2].integer ?? 0) + 1, players: Int(counts[index * 2 + 1].integer ?? 0))
        }
    }

    /// One call for a whole batch: per update `ZADD … LT`, then the other players above the written
    /// score and the board's size; then the display names. A script rather than three commands per
    /// update, because building, sending and parsing those cost more of the server's CPU than Redis spends.
    ///
    /// When the write changed nothing (`CH` counts 0), Redis may already hold a better score of the
    /// same player (a newer completion got there first); that entry is then not counted above the
    /// written score, so the answer ranks the player's own score against the others only.
    ///
    /// An empty Redis (restarted, its rebuild not finished) would answer ranks on a partial board, so
    /// without the ready marker the script writes nothing and fails: the completions are recorded as
    /// not ranked, answer without ranks, and the ranking sync brings them in after the rebuild.
    ///
    /// KEYS: the boards of the n updates, the display-name hash, the ready marker. ARGV: n (stored value,
    /// player) pairs, then (player, display name) pairs. Returns n (players above, players) pairs.
    static let updateScript = RedisScript("""
        if redis.call('EXISTS', KEYS[#KEYS]) == 0 then return redis.error_reply('PODIUM rankings not ready') end
        local n = #KEYS - 2
        local standings = {}
        for i = 1, n do
          local value, member = ARGV[2 * i - 1], ARGV[2 * i]
          local changed = redis.call('ZADD', KEYS[i], 'LT', 'CH', value, member)
          local above = redis.call('ZCOUNT', KEYS[i], '-inf', '(' .. value)
          if changed == 0 and tonumber(redis.call('ZSCORE', KEYS[i], member)) < tonumber(value) then above = above - 1 end
          standings[2 * i - 1] = above
          standings[2 * i] = redis.call('ZCARD', KEYS[i])
        end
        for j = 2 * n + 1, #ARGV, 2 do
          redis.call('HSET', KEYS[n + 1], ARGV[j], ARGV[j + 1])
        end
        return standings
        """)

    /// Writes absolute scores without reading standings back (catch-up and rebuild), in pipelines of
    /// at most 10,000 commands so memory stays bounded however many there are.
    public func write(_ updates: [ScoreUpdate], displayNames: [String: String] = [:]) async throws {
        var commands = updates.map { ["ZADD", $0.key, "LT", RankingKeys.storedValue($0.score), $0.userID] }
        if let names = Self.namesCommand(displayNames) { commands.append(names) }
        for start in stride(from: 0, to: commands.count, by: 10_000) {
            let replies = try await redis.pipeline(Array(commands[start..<min(start + 10_000, commands.count)]))
            try replies.throwFirstError(operation: "ranking write pipeline")
        }
    }

    /// Removes a player from `keys` and from the display names.
    public func remove(userID: String, keys: [String]) async throws {
        var commands = keys.map { ["ZREM", $0, userID] }
        commands.append(["HDEL", RankingKeys.displayNames, userID])
        let replies = try await redis.pipeline(commands)
        try replies.throwFirstError(operation: "ranking erase pipeline")
    }

    /// `HSET` of the display names, nil when there are none.
    private static func namesCommand(_ displayNames: [String: String]) -> [String]? {
        guard !displayNames.isEmpty else { return nil }
        return ["HSET", RankingKeys.displayNames] + displayNames.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
    }
}

extension [RedisReply] {
    /// Throws the first error reply of a pipeline as `RedisError(.server)` naming `operation`.
    func throwFirstError(operation: String) throws {
        for reply in self {
            if case .error(let message) = reply { throw RedisError(kind: .server, message: message, operation: operation) }
        }
    }
}
