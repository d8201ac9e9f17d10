import PodiumCore
import PodiumWire
import Redis

/// Redis key names for the live rankings.
///
/// A board period is one sorted set whose members are players' `RankingMember`s (six
/// characters each, whatever the user ids look like) and whose scores are places
/// (`RankingPlace.storedValue`: the board score negated and shifted 32 bits, plus the board's
/// tie-break key): ascending order is then best score first, then the better tie-break and,
/// within a full tie, member ascending, which is handle order (the player who came to Podium
/// first lists first), Podium's documented listing order. Places only improve, so writes use
/// `ZADD … LT` with absolute values: a stale or replayed write can never lower a player's score.
///
/// Two kinds of hash translate: member to player (user id and display name) and user id to member.
/// They hold one field each per player, where the boards hold one entry per player per
/// board period; `RankingLayout` says which hash holds a player's fields, and where the ready marker is.
///
/// A board period's key carries its identity as a hash tag (`podium:lb:{global:week:2026-W47}`), so on a Redis
/// Cluster each board period (with the temporary copy a rebuild renames over it) lives in one slot, and board
/// periods spread over the cluster's primaries.
public enum RankingKeys {
    /// The display-name hash of Podium before migration 011 (user id to name); a rebuild deletes it.
    static let legacyDisplayNames = "podium:names"

    /// The pub/sub channel on which each ranking update names the board periods it changed (their sorted sets'
    /// keys, space-separated), for live streams on every replica. `RankingWriter` hands this name to the update script.
    public static let liveChannel = "podium:live"

    /// The board period of a sorted set's key (`board` above), or nil for another key.
    public static func period(ofBoardKey key: String) -> BoardPeriodKey? {
        let prefix = "podium:lb:{"
        guard key.hasPrefix(prefix), key.hasSuffix("}") else { return nil }
        let parts = key.dropFirst(prefix.count).dropLast().split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, let window = LeaderboardWindow(rawValue: String(parts[parts.count - 2])) else { return nil }
        return BoardPeriodKey(board: parts.dropLast(2).joined(separator: ":"), window: window, period: String(parts[parts.count - 1]))
    }

    /// The sorted set of one board period: `podium:lb:{<board>:<window>:<period>}` (board ids, windows and period
    /// keys hold no braces).
    public static func board(_ board: String, _ window: LeaderboardWindow, _ period: String) -> String {
        "podium:lb:{\(board):\(window.rawValue):\(period)}"
    }

    /// The sorted set of `entry`.
    public static func board(_ entry: BoardPeriod) -> String {
        board(entry.board.id, entry.period.window, entry.period.key)
    }

    /// A player's field in `players`: the user id, then a space and the display name when there is one.
    /// User ids have no spaces, so the first space ends the id; one value (not a hash per part) keeps a
    /// page to one `HMGET` and a player to one field.
    public static func playerValue(userID: String, displayName: String?) -> String {
        displayName.map { "\(userID) \($0)" } ?? userID
    }

    /// The user id and display name in a `players` field.
    ///
    /// Split at the first space *byte*: a name may begin with a combining mark, which would make the
    /// space and the mark one `Character`, and a search by `Character` would miss the separator.
    public static func player(fromValue value: String) -> (userID: String, displayName: String?) {
        let bytes = value.utf8
        guard let space = bytes.firstIndex(of: UInt8(ascii: " ")) else { return (value, nil) }
        return (String(decoding: bytes[..<space], as: UTF8.self), String(decoding: bytes[bytes.index(after: space)...], as: UTF8.self))
    }
}

/// Where the player hashes and the ready marker live: one key each on one Redis server, spread by hash tags on a
/// Redis Cluster, where a script may only touch keys of one slot.
///
/// - One server: the hashes `podium:member:players` and `podium:user:members`, and one marker, so every read and
///   every batch's update is one script call that translates members inside Redis.
/// - A cluster: the hashes split in `hashBuckets` buckets each, `podium:member:players:{m<n>}` by the member's slot and
///   `podium:user:members:{u<n>}` by the user id's, and a marker in every slot (`podium:rankings:ready:slots:{<tag>}`,
///   `RedisSlot.tag(of:)`). A script touches one board period (or several of one slot) and its slot's marker; the
///   hashes are read and written beside it (see `LeaderboardStore` and `RankingWriter`).
///
/// The marker says Redis holds a complete copy of the rankings; it is missing after Redis (or one primary) lost its
/// data. Its name carries the keys' format: Redis filled by a Podium from before board keys had hash tags has no such
/// key, so the first replica of this version rebuilds.
public struct RankingLayout: Sendable {
    /// Whether the keys are laid out for a Redis Cluster.
    public let cluster: Bool

    /// The layout for `redis`: a cluster's when it is one.
    public init(_ redis: RedisClient) {
        cluster = redis.isCluster
    }

    /// The layout for one server (`cluster` false) or a cluster.
    public init(cluster: Bool) {
        self.cluster = cluster
    }

    /// How many hashes each kind of player hash is split into on a cluster (fixed: a change needs a rebuild).
    public static let hashBuckets = 1024

    /// The hash of member to player (`RankingKeys.playerValue`: user id and display name) that holds `member`.
    public func playersHash(ofMember member: String) -> String {
        cluster ? "podium:member:players:{m\(RedisSlot.of(member) % Self.hashBuckets)}" : Self.serverPlayers
    }

    /// The hash of user id to member that holds `userID`.
    public func membersHash(ofUser userID: String) -> String {
        cluster ? "podium:user:members:{u\(RedisSlot.of(userID) % Self.hashBuckets)}" : Self.serverMembers
    }

    /// The ready marker a script touching `key` checks: the one in `key`'s slot on a cluster.
    public func readyMarker(besides key: String) -> String {
        cluster ? Self.marker(ofSlot: RedisSlot.of(key)) : Self.serverMarker
    }

    /// Every ready marker: what a rebuild sets.
    public var readyMarkers: [String] {
        cluster ? (0..<RedisSlot.count).map(Self.marker(ofSlot:)) : [Self.serverMarker]
    }

    /// The markers whose presence says Redis holds the rankings: on a cluster, the marker of each primary's first
    /// slot (a primary that lost its data lost all its markers), asked of `redis`.
    func readyMarkersToCheck(on redis: RedisClient) async throws -> [String] {
        cluster ? try await redis.firstSlotOfEachPrimary().map(Self.marker(ofSlot:)) : [Self.serverMarker]
    }

    /// The hash of member to player on one server, which holds every player.
    static let serverPlayers = "podium:member:players"
    /// The hash of user id to member on one server, which holds every player.
    static let serverMembers = "podium:user:members"
    /// The marker on one server.
    static let serverMarker = "podium:rankings:ready:slots"

    /// The marker in `slot` on a cluster.
    private static func marker(ofSlot slot: Int) -> String {
        "podium:rankings:ready:slots:{\(RedisSlot.tag(of: slot))}"
    }
}
