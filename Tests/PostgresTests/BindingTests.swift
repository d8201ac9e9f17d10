import Foundation
import Postgres
import Testing

@Suite("Parameter binding and decoding", .timeLimit(.minutes(5)))
struct BindingTests {
    static let date = Date(timeIntervalSince1970: 1_795_255_200.123)  // 2026-11-21T10:00:00.123Z

    @Test("a query with binds written in place numbers them in order, and the same shape gives the same text")
    func bindsInPlace() async throws {
        let name = "it's"
        let ids = ["a", "b,c"]
        let query: PostgresQuery = """
            SELECT \(bind: name)::text AS name, array_length(\(bind: ids)::text[], 1) AS n, \(bind: nil as String?)::text AS missing,
                   \(unescaped: "'constant'") AS constant
            """
        #expect(query.sql.contains("SELECT $1::text AS name, array_length($2::text[], 1) AS n, $3::text AS missing"))
        #expect(query.parameters.map { $0?.postgresText } == ["it's", "{\"a\",\"b,c\"}", nil])
        let other: PostgresQuery = """
            SELECT \(bind: "x")::text AS name, array_length(\(bind: [String]())::text[], 1) AS n, \(bind: "y")::text AS missing,
                   \(unescaped: "'constant'") AS constant
            """
        #expect(other.sql == query.sql, "values never reach the text, so a statement is prepared once")
        let row = try await TestDatabase.withPool { pool in try await pool.withConnection { try $0.query(query) } }.rows[0]
        #expect(try row.string("name") == "it's")
        #expect(try row.int("n") == 2)
        #expect(row["missing"] == nil)
        #expect(try row.string("constant") == "constant")
    }

    @Test("a string-backed enum column decodes to its case, and a text naming no case is an error")
    func enumColumns() async throws {
        enum Colour: String { case red, green }
        let row = try await TestDatabase.withPool { pool in try await pool.query("SELECT 'green' AS good, 'blue' AS bad") }.rows[0]
        #expect(try row.value("good", as: Colour.self) == .green)
        #expect(throws: PostgresError.self) { try row.value("bad", as: Colour.self) }
    }

    @Test("every scalar type round-trips through its PostgreSQL type")
    func scalarRoundTrip() async throws {
        let uuid = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
        let missing: String? = nil
        let present: String? = "present"
        let row = try await TestDatabase.withPool { pool in
            try await pool.query(
                """
                SELECT $1::text AS s, $2::int AS i, $3::bigint AS big, $4::int AS i32, $5::float8 AS d,
                       $6::bool AS yes, $7::bool AS no, $8::timestamptz AS ts, $9::uuid AS u,
                       $10::text AS missing, $11::text AS literal_nil, $12::text AS present,
                       $13::text AS quoted, $14::text AS unicode
                """,
                ["hello", 42, Int64.max, Int32.min, 3.25, true, false, Self.date, uuid,
                 missing, nil, present, "it's \"quoted\" \\ back", "Zürich 東京 🏁"]
            ).rows[0]
        }
        #expect(try row.string("s") == "hello")
        #expect(try row.int("i") == 42)
        #expect(try row.int64("big") == Int64.max)
        #expect(try row.int("i32") == Int(Int32.min))
        #expect(try row.double("d") == 3.25)
        #expect(try row.bool("yes") == true)
        #expect(try row.bool("no") == false)
        #expect(try row.string("ts") == "2026-11-21 10:00:00.123+00")
        #expect(try row.date("ts") == Self.date)
        #expect(try row.string("u") == "6f9619ff-8b86-d011-b42d-00c04fc964ff")
        #expect(row["missing"] == nil)
        #expect(row["literal_nil"] == nil)
        #expect(row.optionalString("missing") == nil)
        #expect(try row.string("present") == "present")
        #expect(try row.string("quoted") == "it's \"quoted\" \\ back")
        #expect(try row.string("unicode") == "Zürich 東京 🏁")
        #expect(row.columns == ["s", "i", "big", "i32", "d", "yes", "no", "ts", "u",
                                "missing", "literal_nil", "present", "quoted", "unicode"])
        #expect(row[0] == "hello")
        #expect(row[13] == "Zürich 東京 🏁")
    }

    @Test("scalar text forms match PostgreSQL literals")
    func scalarText() {
        #expect(Self.date.postgresText == "2026-11-21T10:00:00.123Z")
        #expect(Date(timeIntervalSince1970: -0.5).postgresText == "1969-12-31T23:59:59.500Z")
        #expect(true.postgresText == "t")
        #expect(false.postgresText == "f")
        #expect(Double.nan.postgresText == "NaN")
        #expect((-Double.infinity).postgresText == "-Infinity")
        #expect(Optional<Int>.none.postgresText == nil)
        #expect(Optional(7).postgresText == "7")
    }

    @Test("doubles keep full precision, NaN and infinities")
    func doubles() async throws {
        let row = try await TestDatabase.withPool { pool in
            try await pool.query(
                "SELECT $1::float8 AS pi, $2::float8 AS tenth, $3::float8 AS nan, $4::float8 AS inf, $5::float8 AS ninf",
                [Double.pi, 0.1, Double.nan, Double.infinity, -Double.infinity]
            ).rows[0]
        }
        #expect(try row.double("pi") == Double.pi)
        #expect(try row.double("tenth") == 0.1)
        #expect(try row.double("nan").isNaN)
        #expect(try row.double("inf") == .infinity)
        #expect(try row.double("ninf") == -.infinity)
    }

    @Test("array literals quote text, escape quotes and backslashes, and leave numbers and booleans bare")
    func arrayLiteralText() {
        #expect(["a", "b\"c"].postgresText == #"{"a","b\"c"}"#)
        #expect(["x\\y", "p,q"].postgresText == #"{"x\\y","p,q"}"#)
        #expect([Int64(1), -2].postgresText == "{1,-2}")
        #expect([0.5, -Double.infinity, .nan].postgresText == "{0.5,-Infinity,NaN}")
        #expect([true, false].postgresText == "{t,f}")
        #expect([String]().postgresText == "{}")
    }

    @Test("double and boolean arrays round-trip, NaN and infinities included")
    func doubleAndBooleanArrays() async throws {
        let doubles = [Double.pi, -0.1, 1e300, -Double.infinity, .infinity, .nan]
        let (values, flags) = try await TestDatabase.withPool { pool in
            let values = try await pool.query(
                "SELECT x FROM unnest($1::float8[]) WITH ORDINALITY AS t(x, position) ORDER BY position", [doubles]
            ).rows.map { try $0.double("x") }
            let flags = try await pool.query(
                "SELECT x FROM unnest($1::bool[]) WITH ORDINALITY AS t(x, position) ORDER BY position", [[true, false, true]]
            ).rows.map { try $0.bool("x") }
            return (values, flags)
        }
        #expect(values.dropLast() == doubles.dropLast())
        #expect(values.last?.isNaN == true)
        #expect(flags == [true, false, true])
    }

    @Test("string arrays with commas, quotes, backslashes, braces and NULL words round-trip")
    func stringArrays() async throws {
        let strings = ["plain", "with,comma", "with \"quote\"", "back\\slash", "{braces}", "NULL", "",
                       " spaced ", "Zürich 東京", "trailing\\"]
        let (length, elements, empty) = try await TestDatabase.withPool { pool in
            let length = try await pool.query("SELECT array_length($1::text[], 1) AS n", [strings]).rows[0].int("n")
            let elements = try await pool.query(
                "SELECT x FROM unnest($1::text[]) WITH ORDINALITY AS t(x, position) ORDER BY position", [strings]
            ).rows.map { try $0.string("x") }
            let empty = try await pool.query("SELECT cardinality($1::text[]) AS n", [[String]()]).rows[0].int("n")
            return (length, elements, empty)
        }
        #expect(length == strings.count)
        #expect(elements == strings)
        #expect(empty == 0)
    }

    @Test("integer arrays round-trip")
    func integerArrays() async throws {
        let bigs: [Int64] = [1, -2, Int64.max, Int64.min]
        let ints: [Int] = [3, 0, -7]
        let (bigValues, intSum, intLength) = try await TestDatabase.withPool { pool in
            let bigValues = try await pool.query(
                "SELECT x FROM unnest($1::bigint[]) WITH ORDINALITY AS t(x, position) ORDER BY position", [bigs]
            ).rows.map { try $0.int64("x") }
            let row = try await pool.query("SELECT sum(x) AS total, array_length($1::int[], 1) AS n FROM unnest($1::int[]) AS x", [ints]).rows[0]
            return (bigValues, try row.int("total"), try row.int("n"))
        }
        #expect(bigValues == bigs)
        #expect(intSum == -4)
        #expect(intLength == 3)
    }

    @Test("timestamps decode from timestamptz, timestamp, date and offset text")
    func timestampDecoding() async throws {
        let row = try await TestDatabase.withPool { pool in
            try await pool.query(
                """
                SELECT '2026-11-21 10:00:00+00'::timestamptz AS whole,
                       '2026-11-21 15:30:00.123456+05:30'::timestamptz AS micros,
                       '2026-11-21 10:00:00.5+05:30'::text AS offset_text,
                       '2026-11-21 10:00:00'::timestamp AS naive,
                       '2026-11-21'::date AS day,
                       '1960-02-29 23:59:59.999+00'::timestamptz AS before_epoch,
                       NULL::timestamptz AS none,
                       'infinity'::timestamptz AS forever
                """
            ).rows[0]
        }
        #expect(try row.date("whole") == Date(timeIntervalSince1970: 1_795_255_200))
        #expect(try row.string("micros") == "2026-11-21 10:00:00.123456+00")
        #expect(try row.date("micros") == Date(timeIntervalSince1970: 1_795_255_200.123456))
        #expect(try row.date("offset_text") == Date(timeIntervalSince1970: 1_795_255_200.5 - 5.5 * 3600))
        #expect(try row.date("naive") == Date(timeIntervalSince1970: 1_795_255_200))
        #expect(try row.date("day") == Date(timeIntervalSince1970: 1_795_219_200))
        #expect(try row.date("before_epoch") == Date(timeIntervalSince1970: -310_435_200.001))
        #expect(try row.optionalDate("none") == nil)
        #expect(try row.optionalDate("whole") == Date(timeIntervalSince1970: 1_795_255_200))
        let error = #expect(throws: PostgresError.self) { try row.date("forever") }
        #expect(error?.kind == .decoding)
    }

    @Test("decoding failures throw .decoding naming the column; subscripts return nil")
    func decodingErrors() async throws {
        let row = try await TestDatabase.withPool { pool in
            try await pool.query(
                "SELECT 'abc' AS t, NULL::int AS n, 1.5::numeric AS frac, 42.000::numeric AS whole, sum(x) AS total, 'yes' AS word FROM unnest(ARRAY[9000000000, 1]::bigint[]) AS x"
            ).rows[0]
        }
        #expect(try row.int("whole") == 42)
        #expect(try row.int64("total") == 9_000_000_001)
        #expect(try row.optionalInt("n") == nil)
        #expect(try row.optionalInt("whole") == 42)
        #expect(row["unknown"] == nil)
        #expect(row[99] == nil)
        #expect(row[-1] == nil)
        #expect(row.optionalString("unknown") == nil)

        let notInteger = #expect(throws: PostgresError.self) { try row.int("t") }
        #expect(notInteger?.kind == .decoding)
        #expect(notInteger?.message == "column \"t\" \"abc\" is not an integer")
        #expect(notInteger?.operation == "decode column")
        let fraction = #expect(throws: PostgresError.self) { try row.int64("frac") }
        #expect(fraction?.kind == .decoding)
        let null = #expect(throws: PostgresError.self) { try row.string("n") }
        #expect(null?.message == "column \"n\" is NULL")
        let unknown = #expect(throws: PostgresError.self) { try row.optionalInt("unknown") }
        #expect(unknown?.kind == .decoding)
        #expect(unknown?.message.hasPrefix("column \"unknown\" no such column") == true)
        #expect(throws: PostgresError.self) { try row.bool("word") }
        #expect(throws: PostgresError.self) { try row.double("t") }
        #expect(throws: PostgresError.self) { try row.date("t") }
        #expect(throws: PostgresError.self) { try row.optionalDate("unknown") }
    }

    @Test("affectedRows reports inserted, updated and selected rows")
    func affectedRows() async throws {
        let counts = try await TestDatabase.withPool { pool in
            try await TestDatabase.withTable(pool) { table in
                let inserted = try await pool.query(
                    "INSERT INTO \(table) (id, label) SELECT g, 'row' FROM generate_series(1, 3) AS g").affectedRows
                let updated = try await pool.query("UPDATE \(table) SET label = $1 WHERE id >= $2", ["new", 2]).affectedRows
                let selected = try await pool.query("SELECT * FROM \(table)").affectedRows
                let created = try await pool.query("CREATE TEMP TABLE IF NOT EXISTS scratch (x int)").affectedRows
                return [inserted, updated, selected, created]
            }
        }
        #expect(counts == [3, 2, 3, 0])
    }
}
