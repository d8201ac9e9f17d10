import Synchronization

/// Players' members by user id, remembered by one replica for reads on a Redis Cluster, where a member is otherwise
/// one more round trip (the user-to-member hashes are in other slots than the boards).
///
/// A player keeps one member for as long as the player exists: only an erasure ends it (a player who comes back gets
/// a new one). Every erasure moves the `.rankings` change signal on every replica (`ChangeNotices`), as does the
/// listener connecting or losing its connection, and each move empties the cache (`forgetAll`). A lookup that began
/// before a `forgetAll` stores nothing. A member read from a cache not yet emptied after an erasure names entries
/// the erasure removed: the read finds the player on no board, never another player's entries.
final class MemberCache: Sendable {
    private struct State {
        var members: [String: String] = [:]
        /// Moves on every `forgetAll`, so that lookups begun before it store nothing.
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())
    /// The most players remembered; past it the cache starts again empty (a display polls a few hundred players).
    let capacity: Int

    /// An empty cache of at most `capacity` players.
    init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// The remembered members of `userIDs` (nil where unknown), and the generation to hand `remember`.
    func members(of userIDs: [String]) -> (members: [String?], generation: UInt64) {
        state.withLock { state in (userIDs.map { state.members[$0] }, state.generation) }
    }

    /// Remembers `members` (user id to member), unless the cache was emptied since `generation`.
    func remember(_ members: [String: String], generation: UInt64) {
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.members.count + members.count > capacity { state.members = [:] }
            state.members.merge(members) { _, new in new }
        }
    }

    /// Forgets every member.
    func forgetAll() {
        state.withLock { state in
            state.members = [:]
            state.generation += 1
        }
    }
}
