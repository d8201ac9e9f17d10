import Foundation
@testable import Postgres
import Testing

@Suite("Prepared statements", .timeLimit(.minutes(5)))
struct PreparedStatementTests {
    @Test("only SELECT, INSERT, UPDATE, DELETE and WITH statements are prepared")
    func preparableStatements() {
        #expect(PostgresConnection.isPreparable("SELECT 1"))
        #expect(PostgresConnection.isPreparable("\n    insert INTO t VALUES ($1)"))
        #expect(PostgresConnection.isPreparable("WITH x AS (SELECT 1) SELECT * FROM x"))
        #expect(PostgresConnection.isPreparable("update t SET a = 1"))
        #expect(PostgresConnection.isPreparable("DELETE FROM t"))
        #expect(!PostgresConnection.isPreparable("BEGIN"))
        #expect(!PostgresConnection.isPreparable("COMMIT"))
        #expect(!PostgresConnection.isPreparable("SET TimeZone = 'UTC'"))
        #expect(!PostgresConnection.isPreparable("CREATE TABLE t (a int)"))
        #expect(!PostgresConnection.isPreparable("SELEC 1"))
    }

    @Test("a statement run again on a connection is prepared once, in queries and pipelines alike")
    func preparedOncePerConnection() async throws {
        let sql = "SELECT $1::int + 1 AS n /* prepared-once */"
        let (answers, prepared) = try await TestDatabase.withPool(poolSize: 1) { pool in
            try await pool.withConnection { connection in
                var answers = try (1...3).map { try connection.query(sql, [$0]).rows[0].int("n") }
                answers += try connection.pipeline([(sql, [10]), (sql, [20])]).map { try $0.rows[0].int("n") }
                let prepared = try connection.query(
                    "SELECT count(*) AS n FROM pg_prepared_statements WHERE statement = $1", [sql]).rows[0].int("n")
                return (answers, prepared)
            }
        }
        #expect(answers == [2, 3, 4, 11, 21])
        #expect(prepared == 1)
    }

    @Test("a prepared statement keeps working after its table changes")
    func preparedStatementSurvivesDDL() async throws {
        let labels = try await TestDatabase.withPool(poolSize: 1) { pool in
            try await TestDatabase.withTable(pool) { table in
                let insert = "INSERT INTO \(table) (id, label) VALUES ($1, $2)"
                let select = "SELECT label FROM \(table) WHERE id = $1"
                try await pool.query(insert, [1, "one"])
                let before = try await pool.query(select, [1]).rows[0].string("label")
                try await pool.query("ALTER TABLE \(table) ADD COLUMN extra int")
                try await pool.query("CREATE INDEX ON \(table) (label)")
                try await pool.query(insert, [2, "two"])
                return [before, try await pool.query(select, [2]).rows[0].string("label")]
            }
        }
        #expect(labels == ["one", "two"])
    }

    @Test("a statement that fails to prepare fails the call and the connection stays usable")
    func badStatementFailsCleanly() async throws {
        let (error, after) = try await TestDatabase.withPool(poolSize: 1) { pool in
            let error = await #expect(throws: PostgresError.self) { try await pool.query("SELECT nope FROM nowhere WHERE a = $1", [1]) }
            return (error, try await pool.query("SELECT 7 AS n").rows[0].int("n"))
        }
        #expect(error?.kind == .query)
        #expect(error?.sqlState == "42P01")
        #expect(after == 7)
    }
}

@Suite("Timestamp text", .timeLimit(.minutes(5)))
struct TimestampTextTests {
    @Test("dates format as UTC with milliseconds; dates beyond Int64 milliseconds as infinity, without trapping")
    func format() {
        #expect(PostgresTimestamp.format(Date(timeIntervalSince1970: 1_795_255_200.123)) == "2026-11-21T10:00:00.123Z")
        #expect(PostgresTimestamp.format(Date(timeIntervalSince1970: 1e18)) == "infinity")
        #expect(PostgresTimestamp.format(Date(timeIntervalSince1970: -1e18)) == "-infinity")
        #expect(PostgresTimestamp.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(PostgresTimestamp.format(Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
        #expect(PostgresTimestamp.format(Date(timeIntervalSince1970: 253_402_300_800)) == "10000-01-01T00:00:00.000Z")
        // Whole milliseconds across four centuries read the same as Foundation's ISO 8601 formatter writes them.
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: Double(Int64.random(in: -2_208_988_800_000...10_000_000_000_000, using: &generator)) / 1000)
            #expect(PostgresTimestamp.format(date) == iso.string(from: date), "\(date.timeIntervalSince1970)")
        }
    }
}
