import PodiumCore

/// Redis key names for the live rankings.
///
/// A board period is one sorted set whose members are user ids and whose scores are the
/// NEGATED board scores: ascending order is then best score first and, within a tie,
/// user id ascending (Redis orders equal scores by member), which is Podium's documented
/// listing order. Scores only grow, so writes use `ZADD … LT` with absolute values: a
/// stale or replayed write can never lower a player's score.
public enum RankingKeys {
    /// Hash of user id to display name, read with each page.
    public static let displayNames = "podium:names"
    /// Set while Redis holds a complete copy of the rankings; missing after Redis lost its data.
    public static let readyMarker = "podium:rankings:ready"

    /// The sorted set of one board period.
    public static func board(_ board: String, _ window: LeaderboardWindow, _ period: String) -> String {
        "podium:lb:\(board):\(window.rawValue):\(period)"
    }

    /// The sorted set of `entry`.
    public static func board(_ entry: BoardPeriod) -> String {
        board(entry.board.id, entry.period.window, entry.period.key)
    }

    /// The stored value for `score` (negated; see the type's summary).
    public static func storedValue(_ score: Int64) -> String { String(-score) }

    /// The score behind a stored value as Redis returns it ("-12" or "-12.0").
    public static func score(fromStored text: String) -> Int64? {
        if let value = Int64(text) { return -value }
        return Double(text).map { -Int64($0) }
    }
}
