import Postgres

/// The players' transaction-scoped advisory locks, which order every writer of a player's scores and days.
///
/// A completion batch takes its players' locks (with its ids' locks, all ordered by key) in its first round trip and
/// holds them until COMMIT, writing Redis in between. Whoever changes a player's days or achievements outside a batch
/// (`UserStore.setPreferences`, `UserStore.erase`), or repairs a player's Redis entries (`RankingReconciler`), takes
/// the same lock first, so it sees every batch of the player that wrote Redis, and none writes until it is done.
enum PlayerLocks {
    /// What a player's lock key (`hashtextextended(prefix || user_id, 0)`) starts with, beside the completion ids' keys.
    static let prefix = "player "

    /// Takes `userID`'s lock until the transaction ends.
    static func lock(_ userID: String) -> PostgresQuery {
        "SELECT pg_advisory_xact_lock(hashtextextended(\(bind: prefix) || \(bind: userID), 0))"
    }

    /// Takes the locks of `userIDs` until the transaction ends, in key order as a batch takes them (so two holders of
    /// several locks never wait for each other in a circle).
    static func lock(_ userIDs: [String]) -> PostgresQuery {
        """
        SELECT count(pg_advisory_xact_lock(k)) AS locked
        FROM (SELECT DISTINCT hashtextextended(\(bind: prefix) || u, 0) AS k FROM unnest(\(bind: userIDs)::text[]) AS ids(u) ORDER BY 1) locks
        """
    }
}
