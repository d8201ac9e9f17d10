/// The columns of a Swift row type, each declared once with its name and SQL type, for binding many rows to one
/// statement.
///
/// Interpolated into a `PostgresQuery` as `\(unnest: rows, Row.columns, as: "x")`, the rows are bound as one array
/// per column and the SQL reads `unnest($1::text[], $2::bigint[]) AS x(board, score)`: statements then name
/// `x.board` and `x.score`, never a position in a list of parallel arrays.
public struct PostgresColumns<Row>: Sendable {
    /// One column: its name in the SQL, its element type, and how a row's value is written into the array literal.
    public struct Column: Sendable {
        /// The column's name in the SQL.
        let name: String
        /// Its element type (`text`, `bigint`, …).
        let type: String
        /// Writes a row's value into the array literal.
        let append: @Sendable (Row, inout String) -> Void

        /// A column whose every row has a value; `type` is the SQL element type (`text`, `bigint`, `timestamptz`, …).
        public static func column<Value: PostgresArrayElement>(
            _ name: String, _ type: String, _ value: @escaping @Sendable (Row) -> Value
        ) -> Column {
            Column(name: name, type: type) { row, literal in value(row).appendArrayElement(to: &literal) }
        }

        /// A column where a row may hold SQL NULL (`nil`).
        public static func optional<Value: PostgresArrayElement>(
            _ name: String, _ type: String, _ value: @escaping @Sendable (Row) -> Value?
        ) -> Column {
            Column(name: name, type: type) { row, literal in
                if let value = value(row) { value.appendArrayElement(to: &literal) } else { literal.append("NULL") }
            }
        }
    }

    /// The columns, in the order `unnest` lists them.
    let columns: [Column]

    /// Declares the columns.
    public init(_ columns: Column...) {
        self.columns = columns
    }

    /// One column's values for `rows`, as an array literal.
    func literal(_ column: Column, of rows: [Row]) -> PostgresArrayLiteral {
        var text = "{"
        text.reserveCapacity(rows.count * 12 + 2)
        for (index, row) in rows.enumerated() {
            if index > 0 { text.append(",") }
            column.append(row, &text)
        }
        text.append("}")
        return PostgresArrayLiteral(text: text)
    }
}

/// A ready-made array literal bound as one parameter.
struct PostgresArrayLiteral: PostgresBindable {
    /// The literal, braces included.
    let text: String
    /// The literal itself.
    var postgresText: String? { text }
}

extension PostgresQuery.StringInterpolation {
    /// Binds `rows` one array per column of `columns` and writes `unnest(…) AS alias(column names)`; with
    /// `ordinality`, also each row's position from 1 (`WITH ORDINALITY`) under that name.
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
