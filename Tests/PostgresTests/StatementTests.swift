import Foundation
import Postgres
import Testing

/// A statement binding scalar fields, one of them twice, and reading every kind of column a row type can hold.
private struct EchoRow: PostgresStatement {
    enum Colour: String, Decodable { case red, green }

    static let sql: PostgresSQL<Self> = """
        SELECT \(\.userID)::text AS user_id, \(\.points)::bigint AS points, \(\.points)::bigint * 2 AS double_points,
               \(\.at)::timestamptz AS closes_at, \(\.missing)::text AS missing, \(\.boards)::text[] AS boards,
               'green' AS colour, \(\.flag)::bool AS flag, 0.5::float8 AS share
        """

    struct Row: Decodable, Sendable, Equatable {
        let userID: String
        let points: Int64
        let doublePoints: Int
        let closesAt: Date
        let missing: String?
        let boards: [String]
        let colour: Colour
        let flag: Bool
        let share: Double
    }

    let userID: String
    let points: Int64
    let at: Date
    let missing: String?
    let boards: [String]
    let flag: Bool
}

/// A statement binding rows one array per column.
private struct SumRows: PostgresStatement {
    struct Item: Sendable {
        let name: String
        let score: Int64
        static let columns = PostgresColumns<Item>(.column("name", "text", \.name), .column("score", "bigint", \.score))
    }

    static let sql: PostgresSQL<Self> = """
        SELECT x.name, x.score, x.n FROM \(unnest: \.items, Item.columns, as: "x", ordinality: "n") ORDER BY x.n
        """

    struct Row: Decodable, Sendable, Equatable {
        let name: String
        let score: Int64
        let n: Int
    }

    let items: [Item]
}

/// A statement that picks one of two fixed texts.
private struct Ordered: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT v FROM unnest(\(\.values)::int[]) AS v ORDER BY v"
    static let descending: PostgresSQL<Self> = "SELECT v FROM unnest(\(\.values)::int[]) AS v ORDER BY v DESC"
    var text: PostgresSQL<Self> { lowestFirst ? Self.sql : Self.descending }

    struct Row: Decodable, Sendable { let v: Int }

    let values: [Int]
    let lowestFirst: Bool
}

/// A statement splicing a shared expression around a bound field.
private struct Tripled: PostgresStatement {
    static func triple(_ value: String) -> String { "(\(value)::int * 3)" }
    static let sql: PostgresSQL<Self> = "SELECT \(\.value, in: triple) AS tripled, \(\.value)::int AS plain, \(\.other)::int AS other"
    struct Row: Decodable, Sendable, Equatable { let tripled: Int; let plain: Int; let other: Int }
    let value: Int
    let other: Int
}

/// A statement naming a column its query does not return.
private struct Misnamed: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT 1 AS points"
    struct Row: Decodable, Sendable { let score: Int }
}

@Suite("Typed statements", .timeLimit(.minutes(5)))
struct StatementTests {
    @Test("key-path binds are numbered in order, a field used twice is bound once, and no value reaches the text")
    func bindsByField() async throws {
        let at = Date(timeIntervalSince1970: 1_795_255_200.123)
        let statement = EchoRow(userID: "it's", points: 7, at: at, missing: nil, boards: ["topic:maths", "global"], flag: true)
        let query = statement.query
        #expect(query.sql.contains("$1::text AS user_id, $2::bigint AS points, $2::bigint * 2 AS double_points"))
        #expect(query.sql.contains("$3::timestamptz AS closes_at, $4::text AS missing, $5::text[] AS boards"))
        #expect(query.parameters.count == 6)
        #expect(query.parameters.map { $0?.postgresText } == ["it's", "7", "2026-11-21T10:00:00.123Z", nil, "{\"topic:maths\",\"global\"}", "t"])
        let rows = try await TestDatabase.withPool { try await $0.run(statement) }
        #expect(rows == [EchoRow.Row(
            userID: "it's", points: 7, doublePoints: 14, closesAt: at, missing: nil, boards: ["topic:maths", "global"],
            colour: .green, flag: true, share: 0.5)])
    }

    @Test("rows bound as arrays come back in order with their positions")
    func unnestRows() async throws {
        let items = [SumRows.Item(name: "a,b", score: 3), SumRows.Item(name: "c", score: -1)]
        let statement = SumRows(items: items)
        #expect(statement.query.sql.contains("unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS x(name, score, n)"))
        let rows = try await TestDatabase.withPool { try await $0.run(statement) }
        #expect(rows == [SumRows.Row(name: "a,b", score: 3, n: 1), SumRows.Row(name: "c", score: -1, n: 2)])
    }

    @Test("a statement may choose between fixed texts by its fields")
    func variants() async throws {
        let (up, down) = try await TestDatabase.withPool { pool in
            (try await pool.run(Ordered(values: [2, 3, 1], lowestFirst: true)).map(\.v),
             try await pool.run(Ordered(values: [2, 3, 1], lowestFirst: false)).map(\.v))
        }
        #expect(up == [1, 2, 3])
        #expect(down == [3, 2, 1])
    }

    @Test("a fragment spliced around a field reuses the field's one placeholder")
    func fragmentAroundField() async throws {
        let statement = Tripled(value: 7, other: 1)
        #expect(statement.query.sql == "SELECT ($1::int * 3) AS tripled, $1::int AS plain, $2::int AS other")
        #expect(try await TestDatabase.withPool { try await $0.run(statement) } == [Tripled.Row(tripled: 21, plain: 7, other: 1)])
    }

    @Test("a row naming a column the result lacks fails with a decoding error that lists the columns")
    func missingColumn() async throws {
        let error = await #expect(throws: PostgresError.self) {
            try await TestDatabase.withPool { try await $0.run(Misnamed()) }
        }
        #expect(error?.kind == .decoding)
        #expect(error?.message == "column \"score\" no such column (columns: points)")
    }

    @Test("runCounting reports the rows a statement changed")
    func counting() async throws {
        struct Insert: PostgresStatement {
            static let sql: PostgresSQL<Self> = "INSERT INTO statement_counts (n) SELECT generate_series(1, \(\.count))"
            typealias Row = NoRows
            let count: Int
        }
        let changed = try await TestDatabase.withPool { pool in
            try await pool.withConnection { connection in
                try connection.execute("CREATE TEMP TABLE statement_counts (n int)")
                return try connection.runCounting(Insert(count: 4))
            }
        }
        #expect(changed == 4)
    }

    @Test("column names are the properties' names in snake case")
    func snakeCase() {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        let names = ["userID", "userId", "closesAt", "id", "n", "tier2Name", "requestHash"].map { PostgresRowDecoder.columnName(Key(stringValue: $0)) }
        #expect(names == ["user_id", "user_id", "closes_at", "id", "n", "tier2_name", "request_hash"])
    }
}
