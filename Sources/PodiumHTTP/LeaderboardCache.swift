import Foundation
import NIOCore
import Synchronization

/// Rendered leaderboard answers kept for a moment, so a room full of displays polling the same
/// board costs one Redis read per `lifetime` instead of one per poll.
///
/// Entries are grouped by the board period's Redis key: a completion recorded through this
/// replica drops that key's entries at once; other replicas' writes show within `lifetime`.
final class LeaderboardCache: Sendable {
    /// A rendered answer.
    struct Entry: Sendable {
        /// The body, as a buffer every answer shares (no copy per poll).
        let body: ByteBuffer
        let contentType: String
        let etag: String
        let expires: ContinuousClock.Instant
    }

    private struct State {
        var boards: [String: [String: Entry]] = [:]
        var count = 0
    }

    private let state = Mutex(State())
    private let lifetime: Duration
    private let capacity: Int

    /// Creates a cache; a zero lifetime disables it.
    init(lifetime: Duration, capacity: Int = 5_000) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The fresh entry for `request` on board period `key`, if any.
    func lookup(key: String, request: String) -> Entry? {
        state.withLock { state in
            guard let entry = state.boards[key]?[request], entry.expires > .now else { return nil }
            return entry
        }
    }

    /// Stores an answer (the whole cache is dropped when full: simple and bounded).
    func store(key: String, request: String, body: ByteBuffer, contentType: String, etag: String) {
        guard lifetime > .zero else { return }
        let entry = Entry(body: body, contentType: contentType, etag: etag, expires: .now + lifetime)
        state.withLock { state in
            if state.count >= capacity { state = State() }
            if state.boards[key, default: [:]].updateValue(entry, forKey: request) == nil { state.count += 1 }
        }
    }

    /// Drops every answer of the board periods in `keys`.
    func invalidate(keys: some Sequence<String>) {
        state.withLock { state in
            for key in keys {
                if let removed = state.boards.removeValue(forKey: key) { state.count -= removed.count }
            }
        }
    }

    /// Drops everything (a display name changed or a player was erased: any board may show them).
    func invalidateAll() {
        state.withLock { $0 = State() }
    }

    /// A strong ETag for `body`: FNV-1a 64 of its bytes.
    static func etag(for body: ByteBuffer) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in body.readableBytesView {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return "\"\(String(hash, radix: 16))\""
    }
}
