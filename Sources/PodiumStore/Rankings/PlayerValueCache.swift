import Synchronization

/// Players' values (user id and display name, `RankingKeys.playerValue`) by member, remembered by one replica for reads
/// on a Redis Cluster, where they are otherwise one more round trip after the board's script (the player hashes are in
/// other slots than the boards).
///
/// A value is fresh for `lifetime` after it was read, the time a cached page is served (`PODIUM_LEADERBOARD_CACHE_MS`).
/// For one more `lifetime` it is still served, and the first read that sees it so marks it for a refresh, which that
/// read makes in the background (`refreshing`): a board read rarely waits for names, and a new display name shows in
/// reads within two lifetimes (in a page the HTTP layer caches, one more). Every move of the `.rankings` change signal (every erasure, on every replica) empties the
/// cache, so an erased player's name is not served from it; a lookup that began before that stores nothing.
final class PlayerValueCache: Sendable {
    private struct Entry {
        let value: String
        let read: ContinuousClock.Instant
    }

    private struct State {
        var values: [String: Entry] = [:]
        /// Members whose refresh a read has taken on and not finished.
        var refreshing: Set<String> = []
        /// Moves on every `forgetAll`, so that lookups begun before it store nothing.
        var generation: UInt64 = 0
    }

    /// What the cache holds for some members.
    struct Lookup {
        /// Each member's value, nil where unknown or too old to serve.
        var values: [String?]
        /// Members served but past their freshness, whose refresh is now the caller's (`remember` or `abandon` them).
        var refresh: [String]
        /// To hand `remember`.
        var generation: UInt64
    }

    private let state = Mutex(State())
    /// How long a value read from Redis is fresh; zero disables the cache.
    let lifetime: Duration
    /// The most players remembered; past it the cache starts again empty.
    let capacity: Int
    /// The clock values age by.
    private let now: @Sendable () -> ContinuousClock.Instant

    /// An empty cache with values fresh for `lifetime`, of at most `capacity` players, aging by `now`.
    init(lifetime: Duration, capacity: Int = 100_000, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.lifetime = lifetime
        self.capacity = capacity
        self.now = now
    }

    /// The values of `members`; the ones served but no longer fresh that no other read is refreshing are the caller's
    /// to refresh.
    func values(of members: [String]) -> Lookup {
        let now = now()
        return state.withLock { state in
            var lookup = Lookup(values: [], refresh: [], generation: state.generation)
            for member in members {
                guard let entry = state.values[member], now - entry.read < lifetime * 2 else {
                    lookup.values.append(nil)
                    continue
                }
                lookup.values.append(entry.value)
                if now - entry.read >= lifetime, state.refreshing.insert(member).inserted { lookup.refresh.append(member) }
            }
            return lookup
        }
    }

    /// Remembers `values` (member to value) as read now, unless the cache was emptied since `generation`; ends the
    /// refresh of `refreshed`.
    func remember(_ values: [String: String], refreshed: [String] = [], generation: UInt64) {
        let now = now()
        state.withLock { state in
            state.refreshing.subtract(refreshed)
            guard lifetime > .zero, state.generation == generation else { return }
            if state.values.count + values.count > capacity { state.values = [:] }
            for (member, value) in values { state.values[member] = Entry(value: value, read: now) }
        }
    }

    /// Ends the refresh of `members` without a value (Redis failed): a later read takes it on again.
    func abandon(_ members: [String]) {
        state.withLock { state in state.refreshing.subtract(members) }
    }

    /// Forgets every value.
    func forgetAll() {
        state.withLock { state in
            state.values = [:]
            state.generation += 1
        }
    }
}
