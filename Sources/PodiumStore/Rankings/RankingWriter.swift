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
    /// Whether the place replaces whatever Redis holds (`ZADD` on a `latest` board, whose places can get worse) rather
    /// than only improving it (`ZADD … LT`). Its writer must hold the player's lock (`PlayerLocks`) from its read of
    /// PostgreSQL until Redis is written, so that no stale place replaces a newer one.
    public let replaces: Bool

    /// Creates an update; `replaces` for a `latest` board's.
    public init(key: String, member: String, place: RankingPlace, replaces: Bool = false) {
        self.key = key
        self.member = member
        self.place = place
        self.replaces = replaces
    }

    /// The command that writes it.
    var command: [String] {
        replaces ? ["ZADD", key, place.storedValue, member] : ["ZADD", key, "LT", place.storedValue, member]
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
    /// Where the player hashes and ready markers are (one server, or a cluster's slots).
    let layout: RankingLayout

    /// Creates a writer on `redis`.
    public init(redis: RedisClient) {
        self.redis = redis
        layout = RankingLayout(redis)
    }

    /// Writes `updates` and `players` (their hash fields); returns each update's standing, in order.
    ///
    /// On one server that is one script call. On a cluster the players' fields go first (so no board entry shows
    /// before its player's name), then one call per slot of the updates' boards, all in one round trip per primary.
    ///
    /// `erasures` run first: the old entries and hash fields of players erased while Redis was unreachable, so
    /// nothing of an erased member lingers beside a returning player's new one.
    @discardableResult
    public func apply(_ updates: [ScoreUpdate], players: [RankedPlayer] = [], erasures: [RankingErasure] = []) async throws -> [Standing] {
        guard !updates.isEmpty || !players.isEmpty || !erasures.isEmpty else { return [] }
        for erasure in erasures {
            try await erase(erasure)
        }
        let sortedPlayers = players.sorted { $0.member < $1.member }
        let groups: [[Int]]
        if layout.cluster {
            if !sortedPlayers.isEmpty {
                try await redis.pipeline(layout.playerCommands(sortedPlayers)).throwFirstError(operation: "ranking players")
            }
            groups = RedisSlot.grouped(updates.map(\.key))
        } else {
            groups = [Array(updates.indices)]
        }
        let calls = groups.map { indices in
            updateCall(indices.map { updates[$0] }, players: layout.cluster ? [] : sortedPlayers)
        }
        let replies = try await redis.evaluateAll(calls)
        try replies.throwFirstError(operation: "ranking update")
        var standings = [Standing](repeating: Standing(rank: 0, players: 0), count: updates.count)
        for (indices, reply) in zip(groups, replies) {
            guard case .array(let counts) = reply, counts.count == indices.count * 2 else {
                throw RedisError(kind: .protocolError, message: "ranking update script returned \(reply)", operation: "ranking update")
            }
            for (position, index) in indices.enumerated() {
                standings[index] = Standing(rank: Int(counts[position * 2].integer ?? 0) + 1, players: Int(counts[position * 2 + 1].integer ?? 0))
            }
        }
        return standings
    }

    /// The call of `updateScript` for `updates` (boards of one slot on a cluster) and `players` (one server only).
    private func updateCall(_ updates: [ScoreUpdate], players: [RankedPlayer]) -> RedisScriptCall {
        var keys = updates.map(\.key)
        keys.append(layout.readyMarker(besides: updates.first?.key ?? ""))
        if let first = players.first {
            keys += [layout.playersHash(ofMember: first.member), layout.membersHash(ofUser: first.userID)]
        }
        var arguments = [RankingKeys.liveChannel, String(updates.count), String(updates.map { $0.replaces ? "=" : "<" })]
        arguments.reserveCapacity(3 + updates.count * 2 + players.count * 3)
        for update in updates {
            arguments.append(update.place.storedValue)
            arguments.append(update.member)
        }
        for player in players {
            arguments += [player.member, player.userID, RankingKeys.playerValue(userID: player.userID, displayName: player.displayName)]
        }
        return RedisScriptCall(Self.updateScript, keys: keys, arguments: arguments)
    }

    /// One call for a batch's boards (on a cluster, those of one slot): per update `ZADD … LT` (`ZADD` for one that
    /// `replaces`: the batch holds its players' locks until it commits, after this), then the other players
    /// above the written score and the board's size; then, on one server, the players' hash fields. A script rather
    /// than three commands per update, because building, sending and parsing those cost more of the server's CPU than
    /// Redis spends.
    ///
    /// When the write changed nothing (`CH` counts 0), Redis may already hold a better score of the
    /// same player (a newer completion got there first); that entry is then not counted above the
    /// written score, so the answer ranks the player's own score against the others only.
    ///
    /// An empty Redis (restarted, its rebuild not finished) would answer ranks on a partial board, so
    /// without the ready marker the script writes nothing and fails: the completions are recorded as
    /// not ranked, answer without ranks, and the ranking sync brings them in after the rebuild.
    ///
    /// KEYS: the boards of the n updates, the ready marker, then (with players) the player and user-to-member hashes.
    /// ARGV: the live channel (`RankingKeys.liveChannel`, which it publishes the changed boards to), n, the updates' modes
    /// (one character each: `<` for `LT`, `=` to replace), n (stored value, member) pairs, then (member, user id, player
    /// value) triples. Returns n (players above, players) pairs.
    static let updateScript = RedisScript.bundled("ranking-update")

    /// Tells live streams on every replica that the board periods of `keys` changed (as the update script tells of the
    /// ones it writes): for teams boards, whose scores come from their groups' boards.
    public func announce(_ keys: [String]) async throws {
        guard !keys.isEmpty else { return }
        try await redis.pipeline([["PUBLISH", RankingKeys.liveChannel, keys.joined(separator: " ")]]).throwFirstError(operation: "live notice")
    }

    /// Removes a user's field from the user-to-member hash while it still names one of the erased members: a player
    /// who came back has a new member, which stays.
    ///
    /// KEYS: the user-to-member hash holding the user. ARGV: the user id, then the members. Returns the fields removed.
    static let forgetMemberScript = RedisScript.bundled("forget-member")

    /// Writes absolute scores and the players' hash fields without reading standings back (catch-up and
    /// rebuild), in pipelines of at most 10,000 commands so memory stays bounded however many there are. An update that
    /// `replaces` needs its player's lock held by the caller.
    public func write(_ updates: [ScoreUpdate], players: [RankedPlayer] = []) async throws {
        var commands = updates.map(\.command)
        commands += layout.playerCommands(players)
        for start in stride(from: 0, to: commands.count, by: 10_000) {
            let replies = try await redis.pipeline(Array(commands[start..<min(start + 10_000, commands.count)]))
            try replies.throwFirstError(operation: "ranking write pipeline")
        }
    }

    /// Removes an erased player from `erasure.keys` and from the hashes: one `ZREM` per board and one `HDEL` per player
    /// hash in one pipeline, then the user's field (`forgetMemberScript`). Repeating it changes nothing more.
    public func erase(_ erasure: RankingErasure) async throws {
        guard !erasure.members.isEmpty else { return }
        var commands = erasure.keys.map { ["ZREM", $0] + erasure.members }
        var fields: [String: [String]] = [:]
        for member in erasure.members {
            fields[layout.playersHash(ofMember: member), default: []].append(member)
        }
        commands += fields.keys.sorted().map { ["HDEL", $0] + fields[$0, default: []] }
        try await redis.pipeline(commands).throwFirstError(operation: "ranking erasure")
        _ = try await redis.evaluate(
            Self.forgetMemberScript, keys: [layout.membersHash(ofUser: erasure.userID)], arguments: [erasure.userID] + erasure.members)
    }
}

extension RankingLayout {
    /// `HSET`s of the players' hash fields, member to player value and user id to member: two commands on one server,
    /// one per hash the players fall into on a cluster.
    func playerCommands(_ players: [RankedPlayer]) -> [[String]] {
        var commands: [[String]] = []
        var position: [String: Int] = [:]
        func set(_ hash: String, _ field: String, _ value: String) {
            if let index = position[hash] {
                commands[index] += [field, value]
            } else {
                position[hash] = commands.count
                commands.append(["HSET", hash, field, value])
            }
        }
        for player in players.sorted(by: { $0.member < $1.member }) {
            set(playersHash(ofMember: player.member), player.member, RankingKeys.playerValue(userID: player.userID, displayName: player.displayName))
        }
        for player in players.sorted(by: { $0.member < $1.member }) {
            set(membersHash(ofUser: player.userID), player.userID, player.member)
        }
        return commands
    }
}

/// A statement's row naming a player as the ranking hashes know them: `user_id`, `handle` and `display_name`.
protocol RankedPlayerColumns {
    /// The player's user id.
    var userID: String { get }
    /// The player's handle, whose member the boards hold.
    var handle: Int64 { get }
    /// The display name, if any.
    var displayName: String? { get }
}

extension RankedPlayerColumns {
    /// The player, with the member of its handle.
    func player() throws -> RankedPlayer {
        RankedPlayer(member: try RankingMember.member(ofHandle: handle), userID: userID, displayName: displayName)
    }
}

/// The row of a statement that reads players as the ranking hashes know them, and nothing else.
struct RankedPlayerRow: Decodable, Sendable, RankedPlayerColumns {
    let userID: String
    let handle: Int64
    let displayName: String?
}

extension RankingErasure {
    /// The erasure of `userID` from its `members` and board period `keys` as space-separated text (`array_to_string`),
    /// as `pending_ranking_erasures` rows are read; NULL is none.
    init(userID: String, spacedMembers members: String?, spacedKeys keys: String?) {
        self.init(
            userID: userID, members: (members ?? "").split(separator: " ").map(String.init),
            keys: (keys ?? "").split(separator: " ").map(String.init))
    }
}

extension RankingMember {
    /// The member of `handle`; throws a decoding error naming `column` when the handle is beyond what a member holds.
    static func member(ofHandle handle: Int64, column: String = "handle") throws -> String {
        guard let member = encode(handle) else {
            throw PostgresError(kind: .decoding, message: "handle \(handle) is beyond what a ranking member holds", operation: column)
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
