import Foundation
import NIOConcurrencyHelpers

/// One connection subscribed to one channel (SUBSCRIBE), outside the pool: its messages, as they come.
///
/// `open` connects and subscribes on a thread of its own, which then blocks reading; `messages` yields each
/// message's payload and finishes with an error when the connection breaks (the caller opens a new one), or
/// without one after `close()`.
public final class RedisSubscription: Sendable {
    /// Each message's payload, in the order the server sent them.
    public let messages: AsyncThrowingStream<String, any Error>
    private let connection: NIOLockedValueBox<RedisConnectionBox?>

    private init(messages: AsyncThrowingStream<String, any Error>, connection: NIOLockedValueBox<RedisConnectionBox?>) {
        self.messages = messages
        self.connection = connection
    }

    /// Connects with `configuration` and subscribes to `channel`; throws when either fails.
    public static func open(_ configuration: RedisConfiguration, channel: String) async throws -> RedisSubscription {
        let box = NIOLockedValueBox<RedisConnectionBox?>(nil)
        let (messages, continuation) = AsyncThrowingStream.makeStream(of: String.self, throwing: (any Error).self)
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
                Self.read(connection, into: continuation, closed: { box.withLockedValue { $0 == nil } })
                box.withLockedValue { $0 = nil }
            }
            thread.name = "redis-subscription"
            thread.start()
        }
        return RedisSubscription(messages: messages, connection: box)
    }

    /// Reads messages until the connection ends; a `close()` ends the stream without an error.
    private static func read(
        _ connection: RedisConnection, into continuation: AsyncThrowingStream<String, any Error>.Continuation,
        closed: () -> Bool
    ) {
        while true {
            do {
                // A message is ["message", channel, payload]; other pushes (subscribe confirmations) are skipped.
                if case .array(let parts) = try connection.nextPushedReply(), parts.count == 3, parts[0].string == "message",
                   let payload = parts[2].string {
                    continuation.yield(payload)
                }
            } catch {
                continuation.finish(throwing: closed() ? nil : error)
                return
            }
        }
    }

    /// Ends the subscription: the reading thread returns and `messages` finishes.
    public func close() {
        let open = connection.withLockedValue { box -> RedisConnectionBox? in
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
