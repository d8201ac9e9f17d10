/// A statement whose parameters are written where they are used: `"… WHERE id = \(bind: id)"`.
///
/// Each `\(bind:)` appends the value to `parameters` and writes its placeholder (`$1`, `$2`, …) into
/// the text, so a value sits next to the column it fills and adding a column is one edit. Anything
/// else is spliced as SQL text and must therefore be a trusted constant: use `\(unescaped:)` to say so.
/// The text of a query depends only on its shape, never on the values, so it is prepared once per connection.
public struct PostgresQuery: Sendable, ExpressibleByStringInterpolation {
    /// The SQL text with `$n` placeholders.
    public var sql: String
    /// The values of the placeholders, in order.
    public var parameters: [(any PostgresBindable)?]

    /// A query from text and parameters numbered by hand.
    public init(sql: String, parameters: [(any PostgresBindable)?] = []) {
        self.sql = sql
        self.parameters = parameters
    }

    /// A query without parameters.
    public init(stringLiteral value: String) {
        self.init(sql: value)
    }

    /// A query with its parameters bound where they appear.
    public init(stringInterpolation: StringInterpolation) {
        self.init(sql: stringInterpolation.sql, parameters: stringInterpolation.parameters)
    }

    /// Builds the text and the parameter list of an interpolated query.
    public struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var sql = ""
        fileprivate var parameters: [(any PostgresBindable)?] = []

        /// Starts an empty query.
        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + 4 * interpolationCount)
            parameters.reserveCapacity(interpolationCount)
        }

        /// SQL text as written.
        public mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        /// A parameter: `value` is bound and its placeholder written here (nil binds NULL).
        public mutating func appendInterpolation(bind value: (any PostgresBindable)?) {
            parameters.append(value)
            sql += "$\(parameters.count)"
        }

        /// Trusted SQL text spliced as it is (a constant fragment, never a value from outside).
        public mutating func appendInterpolation(unescaped text: String) {
            sql += text
        }
    }
}

extension PostgresConnection {
    /// Runs `query` (see `query(_:_:)`).
    @discardableResult
    public func query(_ query: PostgresQuery) throws -> PostgresResult {
        try self.query(query.sql, query.parameters)
    }

    /// Runs `queries` in one round trip (see `pipeline(_:)` with text and parameters).
    public func pipeline(_ queries: [PostgresQuery]) throws -> [PostgresResult] {
        try pipeline(queries.map { ($0.sql, $0.parameters) })
    }

    /// BEGIN, `body`, COMMIT on this connection; ROLLBACK and rethrow when `body` throws.
    ///
    /// If the body swallowed a statement error, the transaction is rolled back and an error thrown,
    /// because PostgreSQL would silently turn COMMIT into ROLLBACK.
    public func transaction<T>(begin: String = "BEGIN", _ body: () throws -> T) throws -> T {
        try execute(begin)
        let value: T
        do {
            value = try body()
        } catch {
            rollbackIfInTransaction()
            throw error
        }
        if isInFailedTransaction {
            rollbackIfInTransaction()
            throw PostgresError(kind: .query, message: "transaction aborted by an earlier statement error; rolled back", operation: "COMMIT")
        }
        try execute("COMMIT")
        return value
    }
}

extension PostgresPool {
    /// Runs `query` on a pooled connection (see `query(_:_:)`).
    @discardableResult
    public func query(_ query: PostgresQuery) async throws -> PostgresResult {
        try await self.query(query.sql, query.parameters)
    }
}
