import Foundation
import NIOConcurrencyHelpers

/// One connection subscribed to one channel (SUBSCRIBE), outside the pool: its messages, as they come.
///
/// `open` connects and subscribes on a thread of its own, which then waits for pushes. While nothing arrives it
/// sends a PING every `heartbeat`, and when the server has said nothing at all for `silenceLimit` (it hangs, or a
/// network path drops packets without a reset) it gives the connection up: `messages` finishes with a `.timeout`
/// error, as it finishes with an error when the connection breaks (the caller opens a new one), and without one
/// after `close()`. `close()` also runs when the consumer stops iterating `messages`, so a subscription never
/// outlives its reader and its thread always ends.
public final class RedisSubscription: Sendable {
    /// Each message's payload, in the order the server sent them.
    public let messages: AsyncThrowingStream<String, any Error>
    private let connection: NIOLockedValueBox<RedisConnectionBox?>

    private init(messages: AsyncThrowingStream<String, any Error>, connection: NIOLockedValueBox<RedisConnectionBox?>) {
        self.messages = messages
        self.connection = connection
    }

    deinit {
        close()
    }

    /// Connects with `configuration` and subscribes to `channel`; throws when either fails.
    public static func open(
        _ configuration: RedisConfiguration, channel: String, heartbeat: Duration = .seconds(1), silenceLimit: Duration = .seconds(3)
    ) async throws -> RedisSubscription {
        // Its heartbeat writes to a socket the server may have closed: that must fail with EPIPE, not kill the process.
        _ = RedisPool.ignoreSIGPIPE
        let box = NIOLockedValueBox<RedisConnectionBox?>(nil)
        let (messages, continuation) = AsyncThrowingStream.makeStream(of: String.self, throwing: (any Error).self)
        continuation.onTermination = { _ in Self.close(box) }
        try await withCheckedThrowingContinuation { (opened: CheckedContinuation<Void, any Error>) in
            let thread = Thread {
                let connection: RedisConnection
                do {
                    connection = try RedisConnection.connect(configuration)
                    try connection.subscribe(channel)
                } catch {
                    opened.resume(throwing: error)
                    return
                }
                box.withLockedValue { $0 = RedisConnectionBox(connection) }
                opened.resume()
                Self.read(
                    connection, into: continuation, heartbeat: heartbeat, silenceLimit: silenceLimit,
                    closed: { box.withLockedValue { $0 == nil } })
                box.withLockedValue { $0 = nil }
            }
            thread.name = "redis-subscription"
            thread.start()
        }
        return RedisSubscription(messages: messages, connection: box)
    }

    /// Reads messages until the connection ends or falls silent; a `close()` ends the stream without an error.
    private static func read(
        _ connection: RedisConnection, into continuation: AsyncThrowingStream<String, any Error>.Continuation,
        heartbeat: Duration, silenceLimit: Duration, closed: () -> Bool
    ) {
        let clock = ContinuousClock()
        var lastHeard = clock.now
        while true {
            do {
                switch try connection.waitForPush(within: heartbeat) {
                case .silence:
                    guard clock.now - lastHeard < silenceLimit else {
                        throw RedisError(kind: .timeout, message: "the server said nothing for \(silenceLimit)", operation: "subscriber heartbeat")
                    }
                    try connection.sendPing()
                case .partial:
                    lastHeard = clock.now
                case .reply(let reply):
                    lastHeard = clock.now
                    // A message is ["message", channel, payload]; other pushes (subscribe confirmations, pongs) are skipped.
                    if case .array(let parts) = reply, parts.count == 3, parts[0].string == "message", let payload = parts[2].string {
                        continuation.yield(payload)
                    }
                }
            } catch {
                continuation.finish(throwing: closed() ? nil : error)
                return
            }
        }
    }

    /// Ends the subscription: the reading thread returns and `messages` finishes. Safe to call more than once.
    public func close() {
        Self.close(connection)
    }

    /// Takes the connection out of `box` and shuts its socket down, which wakes the reading thread.
    private static func close(_ box: NIOLockedValueBox<RedisConnectionBox?>) {
        let open = box.withLockedValue { box -> RedisConnectionBox? in
            defer { box = nil }
            return box
        }
        open?.connection.shutDownSocket()
    }
}

/// A connection shared between the reading thread and `close()`, which only shuts its socket down.
private final class RedisConnectionBox: @unchecked Sendable {
    let connection: RedisConnection

    init(_ connection: RedisConnection) {
        self.connection = connection
    }
}
