/// A failure of a PostgreSQL call, naming the call that failed.
///
/// `kind` is what callers branch on; `sqlState` carries the server's error code
/// when there is one, so callers can recognise e.g. unique violations without
/// parsing messages.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    /// The broad class of failure.
    public enum Kind: Sendable {
        /// The connection could not be opened or broke; the connection is discarded.
        case connection
        /// The server rejected a statement (syntax, constraint, …); the connection stays usable.
        case query
        /// Waiting for a free connection or the statement itself took too long
        /// (acquire timeout, or SQLSTATE 57014 from `statement_timeout`).
        case timeout
        /// A result value was NULL, missing or not of the requested type.
        case decoding
        /// The pool was closed.
        case poolClosed
    }

    /// The broad class of failure.
    public let kind: Kind
    /// The server's SQLSTATE (`PG_DIAG_SQLSTATE`), e.g. "23505"; nil when the failure is client-side.
    public let sqlState: String?
    /// The server's primary message followed by its detail, or a client-side explanation.
    public let message: String
    /// The call that failed, e.g. "PQexecParams", "PQconnectdbParams", "acquire connection".
    public let operation: String

    /// Creates an error; the library creates these, callers may for tests or adapters.
    public init(kind: Kind, sqlState: String? = nil, message: String, operation: String) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.operation = operation
    }

    /// Whether a unique constraint rejected the statement (SQLSTATE 23505).
    public var isUniqueViolation: Bool { sqlState == "23505" }

    /// Whether running the same work again may succeed.
    ///
    /// True for serialization failures (40001), deadlocks (40P01) and broken
    /// connections, which the pool replaces on the next call.
    public var isRetryable: Bool {
        kind == .connection || sqlState == "40001" || sqlState == "40P01"
    }

    /// A one-line description: operation, kind, SQLSTATE and message.
    public var description: String {
        let code = sqlState.map { " [\($0)]" } ?? ""
        return "\(operation) failed (\(kind))\(code): \(message)"
    }
}
