/// What `run` takes: a statement's text for this instance, its bound fields, and how a result row is read.
///
/// Almost every statement is a ``PostgresStatement``, whose text is one constant of its type. A statement conforms to
/// this protocol alone only when its text must name something no parameter can stand for (a table: a monthly
/// partition), and then builds its text per instance from trusted names with `\(unescaped:)`.
public protocol PostgresRunnable: Sendable {
    /// What one result row becomes.
    associatedtype Row: Sendable

    /// The text this statement runs.
    var text: PostgresSQL<Self> { get }

    /// Reads one result row.
    static func decodeRow(_ row: PostgresRow) throws -> Row
}

/// A SQL statement as a type: its text, the fields it binds and the row it reads, in one place.
///
/// The shape follows postgres-nio's `PostgresPreparedStatement`. A statement is a struct whose stored
/// properties are its inputs; its text names them by key path, so no `$n` is written by hand and a value
/// sits next to the column it fills:
///
/// ```swift
/// struct PlayerPoints: PostgresStatement {
///     static let sql: PostgresSQL<Self> = "SELECT points FROM users WHERE user_id = \(\.userID)"
///     struct Row: Decodable, Sendable { let points: Int64 }
///     let userID: String
/// }
/// let rows = try connection.run(PlayerPoints(userID: id))   // [PlayerPoints.Row]
/// ```
///
/// A `Decodable` row is read by column name (each property's name in snake case, `userID` reads `user_id`),
/// so a column is named once, in the statement's own type. A statement that reads no rows uses ``NoRows``.
public protocol PostgresStatement: PostgresRunnable {
    /// The statement's text, written once for the type.
    static var sql: PostgresSQL<Self> { get }
}

extension PostgresStatement {
    /// The type's one text; a statement choosing between a few fixed texts of its type overrides it.
    public var text: PostgresSQL<Self> { Self.sql }
}

extension PostgresRunnable {
    /// The text and bound values, ready to send (what ``PostgresConnection/pipeline(_:)`` takes).
    public var query: PostgresQuery {
        let text = self.text
        return PostgresQuery(sql: text.sql, parameters: text.values(of: self))
    }

    /// The rows of `result` (one statement's outcome) decoded as this statement's rows.
    public static func rows(of result: PostgresResult) throws -> [Row] {
        try result.rows.map(decodeRow)
    }
}

extension PostgresRunnable where Row: Decodable {
    /// Reads a row by its columns' names (see ``PostgresRowDecoder``).
    public static func decodeRow(_ row: PostgresRow) throws -> Row {
        try Row(from: PostgresRowDecoder(row: row))
    }
}

/// The row of a statement that returns none (INSERT, UPDATE, DELETE without RETURNING).
public struct NoRows: Sendable, Decodable {}

/// A statement's SQL text whose parameters are fields of the statement, named by key path.
///
/// `\(\.field)` binds the field and writes its placeholder; the same field written twice is bound once.
/// `\(unnest: \.rows, Row.columns, as: "x")` binds an array of rows one array per column (see
/// ``PostgresColumns``). `\(unescaped:)` splices trusted constant text. The text depends only on the type,
/// so it is built once (a `static let`) and prepared once per connection.
public struct PostgresSQL<Statement>: Sendable, ExpressibleByStringInterpolation {
    /// The text with its `$n` placeholders.
    public let sql: String
    /// How each placeholder's value is read from a statement, in placeholder order.
    let binds: [@Sendable (Statement) -> (any PostgresBindable)?]

    /// Text without parameters.
    public init(stringLiteral value: String) {
        (sql, binds) = (value, [])
    }

    /// Text with its fields bound where they appear.
    public init(stringInterpolation: StringInterpolation) {
        (sql, binds) = (stringInterpolation.sql, stringInterpolation.binds)
    }

    /// The values bound for `statement`, in placeholder order.
    func values(of statement: Statement) -> [(any PostgresBindable)?] {
        binds.map { $0(statement) }
    }

    /// Builds the text and the list of binds.
    ///
    /// The unnest interpolation is `@inlinable`, so that the array literals of a statement's rows are built by code
    /// specialized for the row type where the statement is written (see ``PostgresColumns``).
    public struct StringInterpolation: StringInterpolationProtocol {
        @usableFromInline var sql = ""
        @usableFromInline var binds: [@Sendable (Statement) -> (any PostgresBindable)?] = []
        private var placeholders: [AnyKeyPath: Int] = [:]

        /// Starts empty.
        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + 4 * interpolationCount)
        }

        /// SQL text as written.
        public mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        /// Binds the statement's `field` (nil binds NULL) and writes its placeholder.
        public mutating func appendInterpolation<Value: PostgresBindable>(_ field: KeyPath<Statement, Value> & Sendable) {
            sql += placeholder(of: field)
        }

        /// Binds the statement's `field` and splices `fragment` called with its placeholder (`$n`): trusted constant SQL
        /// written once elsewhere around a bound value, such as an expression several statements share.
        public mutating func appendInterpolation<Value: PostgresBindable>(
            _ field: KeyPath<Statement, Value> & Sendable, in fragment: (String) -> String
        ) {
            sql += fragment(placeholder(of: field))
        }

        /// Binds the array of rows at `field` one array per column of `columns` and writes
        /// `unnest(…) AS alias(column names)`; with `ordinality`, also each row's position from 1 under that name.
        @inlinable
        public mutating func appendInterpolation<Row>(
            unnest field: KeyPath<Statement, [Row]> & Sendable, _ columns: PostgresColumns<Row>, as alias: String,
            ordinality: String? = nil
        ) {
            appendLiteral("unnest(")
            for (index, column) in columns.columns.enumerated() {
                if index > 0 { appendLiteral(", ") }
                bind { columns.literal(column, of: $0[keyPath: field]) }
                appendLiteral("::\(column.type)[]")
            }
            let names = columns.columns.map(\.name) + (ordinality.map { [$0] } ?? [])
            appendLiteral(ordinality == nil ? ")" : ") WITH ORDINALITY")
            appendLiteral(" AS \(alias)(\(names.joined(separator: ", ")))")
        }

        /// Trusted constant SQL text spliced as it is (never a value from outside).
        public mutating func appendInterpolation(unescaped text: String) {
            sql += text
        }

        /// The placeholder of `field`, bound now if this is its first use.
        private mutating func placeholder<Value: PostgresBindable>(of field: KeyPath<Statement, Value> & Sendable) -> String {
            if let number = placeholders[field] { return "$\(number)" }
            binds.append { $0[keyPath: field] }
            placeholders[field] = binds.count
            return "$\(binds.count)"
        }

        /// Adds a placeholder whose value `value` reads from the statement and writes it.
        @usableFromInline
        mutating func bind(_ value: @escaping @Sendable (Statement) -> (any PostgresBindable)?) {
            binds.append(value)
            sql += "$\(binds.count)"
        }
    }
}

extension PostgresConnection {
    /// Runs `statement` and returns its rows.
    @discardableResult
    public func run<Statement: PostgresRunnable>(_ statement: Statement) throws -> [Statement.Row] {
        try Statement.rows(of: query(statement.query))
    }

    /// Runs `statement` and returns how many rows it inserted, updated or deleted.
    public func runCounting<Statement: PostgresRunnable>(_ statement: Statement) throws -> Int {
        try query(statement.query).affectedRows
    }
}

extension PostgresPool {
    /// Runs `statement` on a pooled connection and returns its rows.
    @discardableResult
    public func run<Statement: PostgresRunnable>(_ statement: Statement) async throws -> [Statement.Row] {
        try await withConnection { try $0.run(statement) }
    }

    /// Runs `statement` on a pooled connection and returns how many rows it inserted, updated or deleted.
    public func runCounting<Statement: PostgresRunnable>(_ statement: Statement) async throws -> Int {
        try await withConnection { try $0.runCounting(statement) }
    }
}
