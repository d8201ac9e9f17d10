import Foundation
import Logging
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One notification a ``PostgresListener`` received (`NOTIFY channel, 'payload'` or `pg_notify(channel, payload)`).
public struct PostgresNotification: Sendable, Equatable {
    /// The channel it was sent on.
    public let channel: String
    /// Its payload; empty when the sender gave none.
    public let payload: String
    /// The server process of the session that sent it.
    public let senderPID: Int32

    /// Creates a notification (the listener does; tests may).
    public init(channel: String, payload: String, senderPID: Int32) {
        self.channel = channel
        self.payload = payload
        self.senderPID = senderPID
    }
}

/// One connection, outside any pool, that LISTENs on named channels: their notifications, as they come.
///
/// `open` connects and runs `LISTEN` on a thread of its own, which then waits with poll() on the connection's
/// socket and on a pipe of its own, so no blocking libpq call ever runs on an event loop or a Swift concurrency
/// thread. `notifications` yields each notification and finishes with an error when the connection breaks (the
/// server restarted, the session was terminated): reconnecting is the caller's job, and notifications sent
/// meanwhile are lost, so a caller should read again what it follows after opening a new listener. `close()`
/// (or a consumer that stops iterating) wakes the thread through the pipe: it closes the connection, returns,
/// and `notifications` finishes without an error.
public final class PostgresListener: Sendable {
    /// The notifications of the channels listened to, in the order the server sent them.
    public let notifications: AsyncThrowingStream<PostgresNotification, any Error>
    /// The server process of the listening session (for `pg_terminate_backend` in tests, and logs).
    public let backendPID: Int32
    private let wakeUp: ListenerWakeUp

    private init(notifications: AsyncThrowingStream<PostgresNotification, any Error>, backendPID: Int32, wakeUp: ListenerWakeUp) {
        self.notifications = notifications
        self.backendPID = backendPID
        self.wakeUp = wakeUp
    }

    /// Whether `name` can be a channel here: lower-case letters, digits and underscores, starting with a letter or
    /// an underscore, at most 63 bytes (PostgreSQL's identifier length), so it needs no quoting.
    public static func isChannelName(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 63, first < UInt8(ascii: "0") || first > UInt8(ascii: "9") else {
            return false
        }
        return name.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    /// Connects with `configuration` and listens on `channels`; throws when a name is not a channel name
    /// (``isChannelName(_:)``), or when connecting or `LISTEN` fails.
    public static func open(_ configuration: PostgresConfiguration, channels: [String], logger: Logger) async throws -> PostgresListener {
        if let bad = channels.first(where: { !isChannelName($0) }) {
            throw PostgresError(kind: .query, message: "\(bad) is not a channel name (a-z, 0-9, _)", operation: "LISTEN")
        }
        let wakeUp = try ListenerWakeUp()
        let (notifications, continuation) = AsyncThrowingStream.makeStream(of: PostgresNotification.self, throwing: (any Error).self)
        // A consumer that stops iterating ends the thread too.
        continuation.onTermination = { _ in wakeUp.signal() }
        let backendPID: Int32
        do {
            backendPID = try await withCheckedThrowingContinuation { (opened: CheckedContinuation<Int32, any Error>) in
                let thread = Thread {
                    let connection: PostgresConnection
                    do {
                        connection = try PostgresConnection.connect(configuration: configuration, logger: logger)
                        if !channels.isEmpty { try connection.execute(channels.map { "LISTEN \($0)" }.joined(separator: "; ")) }
                    } catch {
                        opened.resume(throwing: error)
                        return
                    }
                    opened.resume(returning: connection.backendPID)
                    let failure = Self.receive(on: connection, wakeUp: wakeUp, into: continuation)
                    connection.finish()
                    wakeUp.release()
                    // Last: a finished stream means the connection is closed and the thread is returning.
                    continuation.finish(throwing: failure)
                }
                thread.name = "postgres-listener"
                thread.start()
            }
        } catch {
            wakeUp.release()
            continuation.finish(throwing: error)
            throw error
        }
        return PostgresListener(notifications: notifications, backendPID: backendPID, wakeUp: wakeUp)
    }

    /// Ends listening: the thread closes the connection and returns, and `notifications` finishes (without an error,
    /// unless the connection had broken first). Safe to call more than once, and after the stream ended.
    public func close() {
        wakeUp.signal()
    }

    /// Waits for the socket or the wake-up pipe, yielding notifications, until `close()` (nil) or a broken connection (its error).
    private static func receive(
        on connection: PostgresConnection, wakeUp: ListenerWakeUp,
        into continuation: AsyncThrowingStream<PostgresNotification, any Error>.Continuation
    ) -> PostgresError? {
        var descriptors = [
            pollfd(fd: connection.socketDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeUp.readDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            do {
                // Also before the first wait: a notification that came with LISTEN's answer is already read.
                for notification in try connection.receiveNotifications() { continuation.yield(notification) }
            } catch {
                return error
            }
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            while poll(&descriptors, nfds_t(descriptors.count), -1) < 0 {
                guard errno == EINTR else {
                    return PostgresError(kind: .connection, message: "poll failed (errno \(errno))", operation: "poll")
                }
            }
            if descriptors[1].revents != 0 { return nil }
        }
    }
}

/// The pipe that wakes a listener's thread from poll(): `signal()` writes a byte to it; the thread releases it when it returns.
private final class ListenerWakeUp: Sendable {
    /// The end the listener's thread polls.
    let readDescriptor: Int32
    /// The end `signal()` writes to; nil once released.
    private let writeDescriptor: NIOLockedValueBox<Int32?>

    init() throws {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else {
            throw PostgresError(kind: .connection, message: "pipe failed (errno \(errno))", operation: "pipe")
        }
        // Processes a test or a command starts must not inherit either end.
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        readDescriptor = descriptors[0]
        writeDescriptor = NIOLockedValueBox(descriptors[1])
    }

    /// Wakes the thread; does nothing once the pipe is released (the thread has returned).
    func signal() {
        writeDescriptor.withLockedValue { descriptor in
            guard let descriptor else { return }
            var byte: UInt8 = 1
            _ = write(descriptor, &byte, 1)
        }
    }

    /// Closes both ends; only the listener's thread calls it, once it no longer polls (or `open` when it never started).
    func release() {
        writeDescriptor.withLockedValue { descriptor in
            guard let open = descriptor else { return }
            _ = close(open)
            _ = close(readDescriptor)
            descriptor = nil
        }
    }
}
