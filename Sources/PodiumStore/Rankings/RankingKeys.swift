import PodiumCore

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
/// Two hashes translate: member to player (user id and display name) and user id to member.
/// They hold one field each per player, where the boards hold one entry per player per
/// board period.
public enum RankingKeys {
    /// Hash of member to player (`playerValue`: user id and display name), read with each page.
    public static let players = "podium:member:players"
    /// Hash of user id to member, read by around-me, compare and profile ranks.
    public static let userMembers = "podium:user:members"
    /// Set while Redis holds a complete copy of the rankings; missing after Redis lost its data.
    ///
    /// Its name carries the values' format: Redis filled by a Podium from before migration 015
    /// (values were negated scores, members before 011 user ids) has no such key, so the first
    /// replica of this version rebuilds.
    public static let readyMarker = "podium:rankings:ready:places"
    /// The display-name hash of Podium before migration 011 (user id to name); a rebuild deletes it.
    static let legacyDisplayNames = "podium:names"

    /// The pub/sub channel on which each ranking update names the board periods it changed (their sorted sets'
    /// keys, space-separated), for live streams on every replica. `RankingWriter` hands this name to the update script.
    public static let liveChannel = "podium:live"

    /// The board period of a sorted set's key (`board` above), or nil for another key.
    public static func period(ofBoardKey key: String) -> BoardPeriodKey? {
        let prefix = "podium:lb:"
        guard key.hasPrefix(prefix) else { return nil }
        let parts = key.dropFirst(prefix.count).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, let window = LeaderboardWindow(rawValue: String(parts[parts.count - 2])) else { return nil }
        return BoardPeriodKey(board: parts.dropLast(2).joined(separator: ":"), window: window, period: String(parts[parts.count - 1]))
    }

    /// The sorted set of one board period.
    public static func board(_ board: String, _ window: LeaderboardWindow, _ period: String) -> String {
        "podium:lb:\(board):\(window.rawValue):\(period)"
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
