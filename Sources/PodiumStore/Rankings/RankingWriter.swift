import Logging
import PodiumCore
import Postgres
import Redis

/// One player's absolute place (score and tie-break key) on one board period.
public struct ScoreUpdate: Sendable, Hashable {
    /// The board period's sorted set (`RankingKeys.board`).
    public let key: String
    /// The player's member there (`RankingMember`).
    public let member: String
    /// The player's place there, as PostgreSQL holds it.
    public let place: RankingPlace

    /// Creates an update.
    public init(key: String, member: String, place: RankingPlace) {
        self.key = key
        self.member = member
        self.place = place
    }
}

/// A player as the ranking hashes know them: member, user id, and the display name boards show, as
/// PostgreSQL holds them.
public struct RankedPlayer: Sendable, Hashable {
    /// The player's member on every board (`RankingMember`).
    public let member: String
    /// The player's user id.
    public let userID: String
    /// The display name to show; nil when the player has none.
    public let displayName: String?

    /// Creates a player.
    public init(member: String, userID: String, displayName: String? = nil) {
        self.member = member
        self.userID = userID
        self.displayName = displayName
    }
}

/// What Redis must forget of an erased player: the boards it was on and the members it had.
public struct RankingErasure: Sendable, Equatable {
    /// The erased user id.
    public let userID: String
    /// The members the player went by (more than one if the player was erased, came back and was erased again).
    public let members: [String]
    /// The board periods to remove the members from.
    public let keys: [String]

    /// Creates an erasure.
    public init(userID: String, members: [String], keys: [String]) {
        self.userID = userID
        self.members = members
        self.keys = keys
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
/// `ZADD … LT` on stored values (`RankingPlace.storedValue`: the score negated, then the tie-break key) keeps the
/// better of the written and the stored place, so replays, retries and out-of-order writers can never lower or
/// double-count a score.
public struct RankingWriter: Sendable {
    let redis: RedisClient

    /// Creates a writer on `redis`.
    public init(redis: RedisClient) {
        self.redis = redis
    }

    /// Writes `updates` and `players` (their hash fields) in one script call; returns each update's
    /// standing, in order.
    ///
    /// `erasures` run first on the same connection: the old entries and hash fields of players erased
    /// while Redis was unreachable, so nothing of an erased member lingers beside a returning player's
    /// new one.
    @discardableResult
    public func apply(_ updates: [ScoreUpdate], players: [RankedPlayer] = [], erasures: [RankingErasure] = []) async throws -> [Standing] {
        guard !updates.isEmpty || !players.isEmpty || !erasures.isEmpty else { return [] }
        var keys = updates.map(\.key)
        keys += [RankingKeys.players, RankingKeys.userMembers, RankingKeys.readyMarker]
        var arguments = [RankingKeys.liveChannel]
        arguments.reserveCapacity(1 + updates.count * 2 + players.count * 3)
        for update in updates {
            arguments.append(update.place.storedValue)
            arguments.append(update.member)
        }
        for player in players.sorted(by: { $0.member < $1.member }) {
            arguments += [player.member, player.userID, RankingKeys.playerValue(userID: player.userID, displayName: player.displayName)]
        }
        // One pipeline (on one server, one connection, run in order): the erasures, then the update.
        let replies = try await redis.evaluateAll(erasures.map(Self.erasureCall) + [RedisScriptCall(Self.updateScript, keys: keys, arguments: arguments)])
        try replies.throwFirstError(operation: "ranking update")
        let reply = replies[replies.count - 1]
        guard case .array(let counts) = reply, counts.count == updates.count * 2 else {
            throw RedisError(kind: .protocolError, message: "ranking update script returned \(reply)", operation: "ranking update")
        }
        return updates.indices.map { index in
            Standing(rank: Int(counts[index * 2].integer ?? 0) + 1, players: Int(counts[index * 2 + 1].integer ?? 0))
        }
    }

    /// One call for a whole batch: per update `ZADD … LT`, then the other players above the written
    /// score and the board's size; then the players' hash fields. A script rather than three commands per
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
    /// KEYS: the boards of the n updates, the player and user-to-member hashes, the ready marker. ARGV: the live
    /// channel (`RankingKeys.liveChannel`, which it publishes the changed boards to), n (stored value, member) pairs,
    /// then (member, user id, player value) triples. Returns n (players above, players) pairs.
    static let updateScript = RedisScript.bundled("ranking-update")

    /// Removes an erased player's members from boards and hashes. The user-to-member field goes only
    /// while it still names one of these members: a player who came back has a new member, which stays.
    ///
    /// KEYS: the boards, then the player and user-to-member hashes. ARGV: the user id, then the members.
    static let eraseScript = RedisScript.bundled("ranking-erase")

    /// The call of `eraseScript` for `erasure`.
    private static func erasureCall(_ erasure: RankingErasure) -> RedisScriptCall {
        RedisScriptCall(
            eraseScript, keys: erasure.keys + [RankingKeys.players, RankingKeys.userMembers],
            arguments: [erasure.userID] + erasure.members)
    }

    /// Writes absolute scores and the players' hash fields without reading standings back (catch-up and
    /// rebuild), in pipelines of at most 10,000 commands so memory stays bounded however many there are.
    public func write(_ updates: [ScoreUpdate], players: [RankedPlayer] = []) async throws {
        var commands = updates.map { ["ZADD", $0.key, "LT", $0.place.storedValue, $0.member] }
        commands += Self.playerCommands(players)
        for start in stride(from: 0, to: commands.count, by: 10_000) {
            let replies = try await redis.pipeline(Array(commands[start..<min(start + 10_000, commands.count)]))
            try replies.throwFirstError(operation: "ranking write pipeline")
        }
    }

    /// Removes an erased player from `erasure.keys` and from the hashes.
    public func erase(_ erasure: RankingErasure) async throws {
        let call = Self.erasureCall(erasure)
        _ = try await redis.evaluate(call.script, keys: call.keys, arguments: call.arguments)
    }

    /// `HSET`s of the players' hash fields: member to player value, user id to member.
    static func playerCommands(_ players: [RankedPlayer]) -> [[String]] {
        guard !players.isEmpty else { return [] }
        var values = ["HSET", RankingKeys.players]
        var users = ["HSET", RankingKeys.userMembers]
        for player in players.sorted(by: { $0.member < $1.member }) {
            values += [player.member, RankingKeys.playerValue(userID: player.userID, displayName: player.displayName)]
            users += [player.userID, player.member]
        }
        return [values, users]
    }
}

extension RankedPlayer {
    /// The player in a row read with `user_id`, `handle` and `display_name`.
    init(row: PostgresRow) throws {
        self.init(member: try row.member(), userID: try row.string("user_id"), displayName: row["display_name"])
    }
}

extension RankingErasure {
    /// The erasure in a `pending_ranking_erasures` row read with `user_id`, and `members` and `keys` as space-separated text.
    init(row: PostgresRow) throws {
        self.init(
            userID: try row.string("user_id"), members: (row["members"] ?? "").split(separator: " ").map(String.init),
            keys: (row["keys"] ?? "").split(separator: " ").map(String.init))
    }
}

extension PostgresRow {
    /// The `RankingMember` of the handle in column `name`.
    func member(_ name: String = "handle") throws -> String {
        let handle = try int64(name)
        guard let member = RankingMember.encode(handle) else {
            throw PostgresError(kind: .decoding, message: "handle \(handle) is beyond what a ranking member holds", operation: name)
        }
        return member
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
