/// A failure talking to Redis.
public struct RedisError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, broadly.
    public enum Kind: Sendable {
        /// The server could not be reached, or the connection broke (I/O error, EOF).
        case connection
        /// A socket read/write timed out, or no pooled connection became free in time.
        case timeout
        /// The server answered with an error reply.
        case server
        /// The reply could not be parsed, or was not what the operation expects.
        case protocolError
        /// The configuration (for example a URL) is invalid.
        case configuration
        /// The pool has been closed.
        case poolClosed
    }

    /// What went wrong, broadly.
    public let kind: Kind
    /// The server's error reply or hiredis's error string.
    public let message: String
    /// The call that failed, e.g. `redisConnectWithTimeout`, `redisCommandArgv ZADD` or `acquire connection`.
    public let operation: String

    /// Creates an error.
    public init(kind: Kind, message: String, operation: String) {
        self.kind = kind
        self.message = message
        self.operation = operation
    }

    /// `operation: message (kind)`.
    public var description: String { "\(operation): \(message) (\(kind))" }
}
