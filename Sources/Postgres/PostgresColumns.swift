/// The columns of a Swift row type, each declared once with its name and SQL type, for binding many rows to one
/// statement.
///
/// Interpolated into a `PostgresQuery` as `\(unnest: rows, Row.columns, as: "x")`, the rows are bound as one array
/// per column and the SQL reads `unnest($1::text[], $2::bigint[]) AS x(board, score)`: statements then name
/// `x.board` and `x.score`, never a position in a list of parallel arrays.
///
/// Its members are `@inlinable` so that building a literal is specialized for the row and value types where a
/// statement is written: generic across modules, every element cost a metadata lookup and a witness-table call.
public struct PostgresColumns<Row>: Sendable {
    /// One column: its name in the SQL, its element type, and how a row's value is written into the array literal.
    public struct Column: Sendable {
        /// The column's name in the SQL.
        @usableFromInline let name: String
        /// Its element type (`text`, `bigint`, …).
        @usableFromInline let type: String
        /// Writes a row's value into the array literal.
        @usableFromInline let append: @Sendable (Row, inout String) -> Void

        /// A column named `name` of element type `type`, whose values `append` writes.
        @usableFromInline
        init(name: String, type: String, append: @escaping @Sendable (Row, inout String) -> Void) {
            (self.name, self.type, self.append) = (name, type, append)
        }

        /// A column whose every row has a value; `type` is the SQL element type (`text`, `bigint`, `timestamptz`, …).
        @inlinable
        public static func column<Value: PostgresArrayElement>(
            _ name: String, _ type: String, _ value: @escaping @Sendable (Row) -> Value
        ) -> Column {
            Column(name: name, type: type) { row, literal in value(row).appendArrayElement(to: &literal) }
        }

        /// A column where a row may hold SQL NULL (`nil`).
        @inlinable
        public static func optional<Value: PostgresArrayElement>(
            _ name: String, _ type: String, _ value: @escaping @Sendable (Row) -> Value?
        ) -> Column {
            Column(name: name, type: type) { row, literal in
                if let value = value(row) { value.appendArrayElement(to: &literal) } else { literal.append("NULL") }
            }
        }
    }

    /// The columns, in the order `unnest` lists them.
    @usableFromInline let columns: [Column]

    /// Declares the columns.
    public init(_ columns: Column...) {
        self.columns = columns
    }

    /// One column's values for `rows`, as an array literal.
    @inlinable
    func literal(_ column: Column, of rows: [Row]) -> PostgresArrayLiteral {
        var text = "{"
        text.reserveCapacity(rows.count * 12 + 2)
        for index in rows.indices {
            if index > 0 { text.append(",") }
            column.append(rows[index], &text)
        }
        text.append("}")
        return PostgresArrayLiteral(text: text)
    }
}

/// A ready-made array literal bound as one parameter.
@usableFromInline
struct PostgresArrayLiteral: PostgresBindable {
    /// The literal, braces included.
    @usableFromInline let text: String
    /// The literal itself.
    @usableFromInline var postgresText: String? { text }

    /// The literal `text`, braces included.
    @usableFromInline
    init(text: String) {
        self.text = text
    }
}

extension PostgresQuery.StringInterpolation {
    /// Binds `rows` one array per column of `columns` and writes `unnest(…) AS alias(column names)`; with
    /// `ordinality`, also each row's position from 1 (`WITH ORDINALITY`) under that name.
    @inlinable
    public mutating func appendInterpolation<Row>(
        unnest rows: [Row], _ columns: PostgresColumns<Row>, as alias: String, ordinality: String? = nil
    ) {
        appendLiteral("unnest(")
        for (index, column) in columns.columns.enumerated() {
            if index > 0 { appendLiteral(", ") }
            appendInterpolation(bind: columns.literal(column, of: rows))
            appendLiteral("::\(column.type)[]")
        }
        let names = columns.columns.map(\.name) + (ordinality.map { [$0] } ?? [])
        appendLiteral(ordinality == nil ? ")" : ") WITH ORDINALITY")
        appendLiteral(" AS \(alias)(\(names.joined(separator: ", ")))")
    }
}
