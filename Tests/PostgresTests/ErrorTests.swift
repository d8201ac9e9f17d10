import Postgres
import Testing

@Suite("Server errors", .timeLimit(.minutes(5)))
struct ErrorTests {
    @Test("a unique violation reports SQLSTATE 23505 and leaves the connection usable")
    func uniqueViolation() async throws {
        let (error, count) = try await TestDatabase.withPool(poolSize: 1) { pool in
            try await pool.withConnection { connection -> (PostgresError?, Int) in
                try connection.execute("CREATE TEMP TABLE unique_test (id int PRIMARY KEY)")
                try connection.query("INSERT INTO unique_test VALUES ($1)", [1])
                var caught: PostgresError?
                do {
                    try connection.query("INSERT INTO unique_test VALUES ($1)", [1])
                } catch let error as PostgresError {
                    caught = error
                }
                return (caught, try connection.query("SELECT count(*) AS n FROM unique_test").rows[0].int("n"))
            }
        }
        let violation = try #require(error)
        #expect(violation.kind == .query)
        #expect(violation.sqlState == "23505")
        #expect(violation.isUniqueViolation)
        #expect(!violation.isRetryable)
        #expect(violation.operation == "PQexecPrepared")
        #expect(violation.message.hasPrefix("duplicate key value violates unique constraint \"unique_test_pkey\""))
        #expect(violation.message.contains("Key (id)=(1) already exists."))
        #expect(count == 1)
    }

    @Test("a syntax error is a .query error naming the libpq call")
    func syntaxError() async throws {
        try await TestDatabase.withPool { pool in
            let parameterised = await #expect(throws: PostgresError.self) { try await pool.query("SELEC $1", [1]) }
            #expect(parameterised?.kind == .query)
            #expect(parameterised?.sqlState == "42601")
            #expect(parameterised?.operation == "PQexecParams")
            #expect(parameterised?.message == "syntax error at or near \"SELEC\"")
            #expect(parameterised?.description == "PQexecParams failed (query) [42601]: syntax error at or near \"SELEC\"")

            let simple = await #expect(throws: PostgresError.self) {
                try await pool.withConnection { try $0.execute("SELECT 1; SELEC 2") }
            }
            #expect(simple?.kind == .query)
            #expect(simple?.operation == "PQexec")
            #expect(simple?.sqlState == "42601")

            // The failed statements did not cost the pool its connection.
            try await pool.ping()
            #expect(pool.openConnections == 1)
        }
    }

    @Test("statement_timeout cancels a slow statement as .timeout")
    func statementTimeout() async throws {
        try await TestDatabase.withPool(statementTimeout: .milliseconds(500)) { pool in
            let error = await #expect(throws: PostgresError.self) { try await pool.query("SELECT pg_sleep(2)") }
            #expect(error?.kind == .timeout)
            #expect(error?.sqlState == "57014")
            #expect(error?.message == "canceling statement due to statement timeout")
            try await pool.ping()
        }
    }

    @Test("sessions are set up for UTC, ISO dates, UTF-8 and the statement timeout")
    func sessionSettings() async throws {
        let row = try await TestDatabase.withPool { pool in
            try await pool.query(
                """
                SELECT current_setting('TimeZone') AS zone, current_setting('DateStyle') AS style,
                       current_setting('client_encoding') AS encoding, current_setting('statement_timeout') AS timeout
                """
            ).rows[0]
        }
        #expect(try row.string("zone") == "UTC")
        #expect(try row.string("style") == "ISO, MDY")
        #expect(try row.string("encoding") == "UTF8")
        #expect(try row.string("timeout") == "30s")
    }

    @Test("an unreachable server fails with .connection from PQconnectdbParams")
    func unreachableServer() async throws {
        let configuration = PostgresConfiguration(connectionString: "host=127.0.0.1 port=1 user=postgres dbname=none")
        let pool = PostgresPool(configuration: configuration, logger: .init(label: "PostgresTests"))
        let error = await #expect(throws: PostgresError.self) { try await pool.ping() }
        #expect(error?.kind == .connection)
        #expect(error?.operation == "PQconnectdbParams")
        #expect(error?.isRetryable == true)
        #expect(error?.message.contains("Connection refused") == true)
        #expect(pool.openConnections == 0)
        await pool.close()
    }

    @Test("retryability follows SQLSTATE and kind")
    func retryable() {
        #expect(PostgresError(kind: .query, sqlState: "40001", message: "", operation: "COMMIT").isRetryable)
        #expect(PostgresError(kind: .query, sqlState: "40P01", message: "", operation: "PQexecParams").isRetryable)
        #expect(PostgresError(kind: .connection, message: "", operation: "PQexecParams").isRetryable)
        #expect(!PostgresError(kind: .timeout, sqlState: "57014", message: "", operation: "PQexecParams").isRetryable)
        #expect(!PostgresError(kind: .poolClosed, message: "", operation: "acquire connection").isRetryable)
    }
}
