import Synchronization

/// Players' values (user id and display name, `RankingKeys.playerValue`) by member, remembered by one replica for a
/// moment for reads on a Redis Cluster, where they are otherwise one more round trip after the board's script (the
/// player hashes are in other slots than the boards).
///
/// A value is served for `lifetime` after it was read, the time a cached page is served (`PODIUM_LEADERBOARD_CACHE_MS`):
/// a new display name shows in around-me, compare and page reads within it, as another replica's writes show in pages.
/// Every move of the `.rankings` change signal (every erasure, on every replica) empties the cache, so an erased
/// player's name is not served from it; a lookup that began before that stores nothing.
final class PlayerValueCache: Sendable {
    private struct Entry {
        let value: String
        let expires: ContinuousClock.Instant
    }

    private struct State {
        var values: [String: Entry] = [:]
        /// Moves on every `forgetAll`, so that lookups begun before it store nothing.
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())
    /// How long a value read from Redis is served; zero disables the cache.
    let lifetime: Duration
    /// The most players remembered; past it the cache starts again empty.
    let capacity: Int

    /// An empty cache serving values for `lifetime`, of at most `capacity` players.
    init(lifetime: Duration, capacity: Int = 100_000) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The values of `members` still fresh (nil where unknown or expired), and the generation to hand `remember`.
    func values(of members: [String]) -> (values: [String?], generation: UInt64) {
        let now = ContinuousClock.now
        return state.withLock { state in
            (members.map { member in state.values[member].flatMap { $0.expires > now ? $0.value : nil } }, state.generation)
        }
    }

    /// Remembers `values` (member to value) as read now, unless the cache was emptied since `generation`.
    func remember(_ values: [String: String], generation: UInt64) {
        guard lifetime > .zero, !values.isEmpty else { return }
        let expires = ContinuousClock.now + lifetime
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.values.count + values.count > capacity { state.values = [:] }
            for (member, value) in values { state.values[member] = Entry(value: value, expires: expires) }
        }
    }

    /// Forgets every value.
    func forgetAll() {
        state.withLock { state in
            state.values = [:]
            state.generation += 1
        }
    }
}
