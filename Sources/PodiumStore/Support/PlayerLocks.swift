import Postgres

/// The players' transaction-scoped advisory locks, which order every writer of a player's scores and days.
///
/// A completion batch takes its players' locks (with its ids' locks, all ordered by key) in its first round trip and
/// holds them until COMMIT, writing Redis in between. Whoever changes a player's days or achievements outside a batch
/// (`UserStore.setPreferences`, `PlayerErasure.erase`), or repairs a player's Redis entries (`RankingReconciler`), takes
/// the same lock first (``LockPlayer``, ``LockPlayers``), so it sees every batch of the player that wrote Redis, and
/// none writes until it is done. Each lock is a statement of its own: the next statement's snapshot, taken after the
/// lock is granted, sees what the holder committed.
enum PlayerLocks {
    /// What a player's lock key (`hashtextextended(prefix || user_id, 0)`) starts with, beside the completion ids' keys.
    static let prefix = "player "
}

/// Takes one player's lock (`PlayerLocks`) until the transaction ends.
struct LockPlayer: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT pg_advisory_xact_lock(hashtextextended(\(\.prefix) || \(\.userID), 0))"
    typealias Row = NoRows
    /// The player.
    let userID: String
    /// The players' key prefix, bound beside the id.
    var prefix: String { PlayerLocks.prefix }
}

/// Takes several players' locks (`PlayerLocks`) until the transaction ends, in key order as a batch takes them (so two
/// holders of several locks never wait for each other in a circle).
struct LockPlayers: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT count(pg_advisory_xact_lock(k)) AS locked
        FROM (SELECT DISTINCT hashtextextended(\(\.prefix) || u, 0) AS k FROM unnest(\(\.userIDs)::text[]) AS ids(u) ORDER BY 1) locks
        """
    typealias Row = NoRows
    /// The players.
    let userIDs: [String]
    /// The players' key prefix, bound beside the ids.
    var prefix: String { PlayerLocks.prefix }
}
