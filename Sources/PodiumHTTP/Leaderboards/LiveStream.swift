import Foundation
import HTTPTypes
import Hummingbird
import Metrics
import NIOCore
import PodiumStore
import ServiceLifecycle

/// One listener's Server-Sent Events stream of a leaderboard page (`GET …/live`).
///
/// Sends the page whenever its ETag differs from the last one sent; reads it again on every change signal (which
/// `LiveRankings` sends a board period's listeners at most once per `LiveRankings.minimumInterval`) and every
/// `refreshInterval`; says whether notices arrive; sends a heartbeat comment
/// after `heartbeatInterval` of silence. Ends after its lifetime, when the client goes, when the server shuts down
/// gracefully (`LiveRankings.endAll`), or when its credential stops holding (`ended`, asked at every signal, so at
/// least every `refreshInterval`): then it sends `event: ended` with the reason (`{"reason":"revoked"}` or
/// `{"reason":"expired"}`) first.
struct LiveStream: Sendable {
    /// The request header with the id of the last event a reconnecting client saw.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
    /// The response header that tells nginx not to buffer the stream.
    static let accelBuffering = HTTPField.Name("X-Accel-Buffering")!
    /// How often the page is read again without a notice (closes, renames, a replica that could not publish).
    static let refreshInterval = Duration.seconds(5)
    /// The most silence before a heartbeat comment, which keeps proxies from closing the stream.
    static let heartbeatInterval = Duration.seconds(15)

    /// The ETag of the page the client already has (from `Last-Event-ID`), if any.
    let lastSent: String?
    /// Reads the page now (from the replica's cache when it is fresh).
    let read: @Sendable () async throws -> LeaderboardCache.Entry
    /// Why the stream's credential no longer holds; nil while it does (`CredentialWatch`).
    let ended: @Sendable () async -> StreamEnd?

    /// Writes the stream until the client goes, its lifetime ends or the server shuts down: `first` now (unless
    /// the client has it), then as `listener`'s signals say (its `.refresh` every `refreshInterval`, and its end after
    /// the lifetime, come from `LiveRankings`' one clock: see `LiveRankings.listen`).
    func run(first: LeaderboardCache.Entry, listener: LiveListener, writer: inout some ResponseBodyWriter) async throws {
        defer { listener.continuation.finish() }
        let listeners = Meter(label: "podium_live_listeners")
        listeners.increment()
        defer { listeners.decrement() }
        let clock = ContinuousClock()
        var sent = lastSent
        var lastWrite = clock.now
        try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
        if first.etag != sent {
            try await writer.write(first.event)
            sent = first.etag
        }
        // A graceful shutdown ends the signals (`LiveRankings.endAll`, before the server drains), and so the response.
        // Not a shutdown handler per stream: each would keep its frames in the connection's task for the stream's life.
        for await signal in listener.signals {
            if let reason = await ended() {
                try await writer.write(ByteBuffer(string: "event: ended\ndata: {\"reason\":\"\(reason.rawValue)\"}\n\n"))
                return
            }
            switch signal {
            case .live(let live):
                try await writer.write(ByteBuffer(string: "event: status\ndata: {\"live\":\(live)}\n\n"))
                lastWrite = clock.now
            case .changed, .refresh:
                let entry = try await read()
                if entry.etag != sent {
                    try await writer.write(entry.event)
                    sent = entry.etag
                    lastWrite = clock.now
                } else if clock.now - lastWrite >= Self.heartbeatInterval {
                    try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                    lastWrite = clock.now
                }
            }
        }
    }
}

/// Why a live stream ended before its lifetime: its credential stopped holding.
enum StreamEnd: String, Sendable {
    /// The API key was revoked.
    case revoked
    /// The API key's `expires_at`, or the player token's `exp`, has passed.
    case expired
}

/// Watches the credential a live stream was opened with: an API key stays unrevoked (by the replica's `KeyDirectory`,
/// which hears of revocations on any replica) and unexpired, a player token unexpired.
struct CredentialWatch: Sendable {
    /// Every valid API key.
    let directory: KeyDirectory
    /// The clock expiries are read by.
    let now: @Sendable () -> Date

    /// The check a stream opened by `caller` asks: nil while its credential holds, else why not.
    func check(_ caller: Caller) -> @Sendable () async -> StreamEnd? {
        switch caller {
        case .anonymous:
            return { nil }
        case .key(let grant) where grant.id == KeyGrant.bootstrapID:
            // The bootstrap key comes from the environment: it is neither revoked nor expires while the process runs.
            return { nil }
        case .key(let grant):
            return { [directory, now] in
                if grant.hasExpired(at: now()) { return .expired }
                // A copy that cannot be had (PostgreSQL down past the stale limit) ends nothing: requests say 503 instead.
                guard let unrevoked = try? await directory.isUnrevoked(id: grant.id) else { return nil }
                return unrevoked ? nil : .revoked
            }
        case .player(let claims):
            return { [now] in claims.hasExpired(at: now()) ? .expired : nil }
        }
    }
}
