import Foundation
import NIOCore
import PodiumCore
import PodiumStore
import Synchronization

/// Rendered leaderboard answers kept for a moment, so a room full of displays polling the same
/// board costs one Redis read per `lifetime` instead of one per poll.
///
/// Entries are grouped by board period: a completion recorded through this
/// replica drops that key's entries at once; other replicas' writes show within `lifetime`.
///
/// A read that began before such a drop must not store what it read afterwards, or the page from
/// before the write would be served for a whole lifetime. Readers take a `ticket()` before reading
/// and hand it to `store`, which refuses it when the key was dropped since.
final class LeaderboardCache: Sendable {
    /// A rendered answer.
    struct Entry: Sendable {
        /// The body, as a buffer every answer shares (no copy per poll).
        let body: ByteBuffer
        let contentType: String
        let etag: String
        var expires: ContinuousClock.Instant
        /// The body as a live stream's `page` event, made once and shared by every stream that sends it.
        let event: ByteBuffer

        /// An entry; its `page` event is made here, once, rather than by each of the streams that send it, and the body
        /// is a slice of it (one copy of the page's bytes).
        init(body: ByteBuffer, contentType: String, etag: String, expires: ContinuousClock.Instant) {
            var event = ByteBuffer(string: "id: \(etag)\nevent: page\ndata: ")
            let start = event.writerIndex
            var page = body
            event.writeBuffer(&page)
            self.body = event.getSlice(at: start, length: body.readableBytes) ?? body
            event.writeString("\n\n")
            self.event = event
            self.contentType = contentType
            self.etag = etag
            self.expires = expires
        }
    }

    /// When a read began, in invalidations counted so far.
    struct Ticket: Sendable {
        fileprivate let epoch: UInt64
    }

    /// One answer being read, joined by whoever asks for it meanwhile.
    private struct Flight {
        let ticket: Ticket
        let task: Task<Entry, any Error>
        /// Tells this flight from a later one of the same request.
        let id: UInt64
    }

    private struct State {
        var boards: [BoardPeriodKey: [String: Entry]] = [:]
        /// Reads in flight, by board period and request.
        var flights: [BoardPeriodKey: [String: Flight]] = [:]
        var count = 0
        /// Invalidations so far.
        var epoch: UInt64 = 0
        /// The epoch of each key's latest invalidation since `floor`.
        var invalidated: [BoardPeriodKey: UInt64] = [:]
        /// Reads that began before this epoch may not store (everything was dropped then, or the
        /// record of which keys were dropped was cleared to bound it).
        var floor: UInt64 = 0

        /// Whether an answer read since `ticket` may be stored for `key`.
        func accepts(_ ticket: Ticket, for key: BoardPeriodKey) -> Bool {
            ticket.epoch >= floor && ticket.epoch >= invalidated[key, default: 0]
        }
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
    func lookup(key: BoardPeriodKey, request: String) -> Entry? {
        state.withLock { state in
            guard let entry = state.boards[key]?[request], entry.expires > .now else { return nil }
            return entry
        }
    }

    /// The answer for `request` on board period `key`: the fresh cached one; else the read in flight for it, if that
    /// began since the key was last dropped (so a room of listeners woken by one change costs one read); else a new
    /// read by `read`, whose answer is stored unless the key was dropped while it read.
    func answer(key: BoardPeriodKey, request: String, read: @escaping @Sendable () async throws -> Entry) async throws -> Entry {
        try await join(key: key, request: request, read: read).value
    }

    /// Where `answer`'s answer comes from, found without waiting: a fresh entry, or the read to wait for.
    enum Joined: Sendable {
        /// A fresh cached entry.
        case cached(Entry)
        /// A read in flight (in a task of its own, which leaves the flights when it ends).
        case flight(Task<Entry, any Error>)

        /// The entry, once read.
        var value: Entry {
            get async throws {
                switch self {
                case .cached(let entry): entry
                case .flight(let task): try await task.value
                }
            }
        }
    }

    /// `answer`'s source for `request` on `key`, without waiting: a live stream waits on it with no deeper call than
    /// the task's value (its own task keeps the memory of its deepest wait for as long as the stream lasts).
    func join(key: BoardPeriodKey, request: String, read: @escaping @Sendable () async throws -> Entry) -> Joined {
        state.withLock { state -> Joined in
            if let entry = state.boards[key]?[request], entry.expires > .now { return .cached(entry) }
            if let flight = state.flights[key]?[request], state.accepts(flight.ticket, for: key) { return .flight(flight.task) }
            let ticket = Ticket(epoch: state.epoch)
            let id = UInt64.random(in: .min ... .max)
            let task = Task {
                // Under the lock that registers it, so this runs after the flight is in place.
                defer { self.land(key: key, request: request, id: id) }
                let entry = try await read()
                self.store(key: key, request: request, entry: entry, readSince: ticket)
                return entry
            }
            state.flights[key, default: [:]][request] = Flight(ticket: ticket, task: task, id: id)
            return .flight(task)
        }
    }

    /// Removes the flight `id` once its read ended (unless a newer one replaced it).
    private func land(key: BoardPeriodKey, request: String, id: UInt64) {
        state.withLock { state in
            guard state.flights[key]?[request]?.id == id else { return }
            state.flights[key]?[request] = nil
            if state.flights[key]?.isEmpty == true { state.flights[key] = nil }
        }
    }

    /// Taken before reading an answer to `store`.
    func ticket() -> Ticket {
        state.withLock { Ticket(epoch: $0.epoch) }
    }

    /// Stores an answer read since `ticket`, unless its board period was dropped meanwhile (the whole
    /// cache is dropped when full: simple and bounded).
    func store(key: BoardPeriodKey, request: String, entry read: Entry, readSince ticket: Ticket) {
        guard lifetime > .zero else { return }
        var entry = read
        entry.expires = .now + lifetime
        state.withLock { state in
            guard state.accepts(ticket, for: key) else { return }
            if state.count >= capacity { (state.boards, state.count) = ([:], 0) }
            if state.boards[key, default: [:]].updateValue(entry, forKey: request) == nil { state.count += 1 }
        }
    }

    /// Drops every answer of the board periods in `keys`.
    func invalidate(keys: some Sequence<BoardPeriodKey>) {
        state.withLock { state in
            state.epoch += 1
            for key in keys {
                if let removed = state.boards.removeValue(forKey: key) { state.count -= removed.count }
                state.invalidated[key] = state.epoch
            }
            if state.invalidated.count > capacity { (state.invalidated, state.floor) = ([:], state.epoch) }
        }
    }

    /// Drops everything (a display name changed or a player was erased: any board may show them).
    func invalidateAll() {
        state.withLock { state in
            state.epoch += 1
            (state.boards, state.count, state.invalidated, state.floor) = ([:], 0, [:], state.epoch)
        }
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
