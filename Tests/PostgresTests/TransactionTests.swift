import Postgres
import Testing

@Suite("Transactions and pipelines", .timeLimit(.minutes(5)))
struct TransactionTests {
    @Test("a transaction commits: rows are visible afterwards")
    func commit() async throws {
        try await TestDatabase.withPool { pool in
            try await TestDatabase.withTable(pool) { table in
                let returned = try await pool.withTransaction { connection in
                    try connection.query("INSERT INTO \(table) VALUES ($1, $2)", [1, "one"])
                    try connection.query("INSERT INTO \(table) VALUES ($1, $2)", [2, "two"])
                    return "done"
                }
                #expect(returned == "done")
                #expect(try await TestDatabase.count(pool, table) == 2)
            }
        }
    }

    @Test("a throwing body rolls back and its error is rethrown unchanged")
    func rollbackOnThrow() async throws {
        try await TestDatabase.withPool(poolSize: 1) { pool in
            try await TestDatabase.withTable(pool) { table in
                await #expect(throws: TestFailure()) {
                    try await pool.withTransaction { connection in
                        try connection.query("INSERT INTO \(table) VALUES ($1, $2)", [1, "one"])
                        throw TestFailure()
                    }
                }
                #expect(try await TestDatabase.count(pool, table) == 0)
                try await expectNoOpenTransaction(pool)
            }
        }
    }

    @Test("a failing statement rolls back the earlier ones")
    func rollbackOnStatementError() async throws {
        try await TestDatabase.withPool(poolSize: 1) { pool in
            try await TestDatabase.withTable(pool) { table in
                try await pool.query("INSERT INTO \(table) VALUES ($1, $2)", [1, "existing"])
                let error = await #expect(throws: PostgresError.self) {
                    try await pool.withTransaction { connection in
                        try connection.query("INSERT INTO \(table) VALUES ($1, $2)", [2, "new"])
                        try connection.query("INSERT INTO \(table) VALUES ($1, $2)", [1, "duplicate"])
                    }
                }
                #expect(error?.isUniqueViolation == true)
                #expect(try await pool.query("SELECT id FROM \(table) ORDER BY id").rows.map { try $0.int("id") } == [1])
                try await expectNoOpenTransaction(pool)
            }
        }
    }

    @Test("a swallowed statement error fails the commit instead of silently rolling back")
    func swallowedError() async throws {
        try await TestDatabase.withPool(poolSize: 1) { pool in
            try await TestDatabase.withTable(pool) { table in
                let error = await #expect(throws: PostgresError.self) {
                    try await pool.withTransaction { connection in
                        try connection.query("INSERT INTO \(table) VALUES ($1, $2)", [1, "one"])
                        _ = try? connection.query("SELECT 1/0")
                    }
                }
                #expect(error?.kind == .query)
                #expect(error?.operation == "COMMIT")
                #expect(try await TestDatabase.count(pool, table) == 0)
                try await expectNoOpenTransaction(pool)
            }
        }
    }

    @Test("the isolation level is applied and validated")
    func isolation() async throws {
        try await TestDatabase.withPool { pool in
            let level = try await pool.withTransaction(isolation: "serializable") { connection in
                try connection.query("SELECT current_setting('transaction_isolation') AS level").rows[0].string("level")
            }
            #expect(level == "serializable")
            let defaultLevel = try await pool.withTransaction { connection in
                try connection.query("SELECT current_setting('transaction_isolation') AS level").rows[0].string("level")
            }
            #expect(defaultLevel == "read committed")
            let invalid = await #expect(throws: PostgresError.self) {
                try await pool.withTransaction(isolation: "SERIALIZABLE; DROP TABLE x") { _ in 1 }
            }
            #expect(invalid?.kind == .query)
            #expect(invalid?.operation == "BEGIN")
        }
    }

    @Test("a connection returned inside an open transaction is rolled back before reuse")
    func leakedTransaction() async throws {
        try await TestDatabase.withPool(poolSize: 1) { pool in
            try await TestDatabase.withTable(pool) { table in
                try await pool.withConnection { connection in
                    try connection.execute("BEGIN")
                    try connection.query("INSERT INTO \(table) VALUES ($1, $2)", [1, "uncommitted"])
                }
                #expect(try await TestDatabase.count(pool, table) == 0)
                try await expectNoOpenTransaction(pool)
                #expect(pool.openConnections == 1)
            }
        }
    }

    @Test("a pipeline returns one result per statement, in order")
    func pipelineOrder() async throws {
        try await TestDatabase.withPool(poolSize: 1) { pool in
            try await TestDatabase.withTable(pool) { table in
                let results = try await pool.withConnection { connection in
                    try connection.pipeline([
                        (sql: "INSERT INTO \(table) VALUES ($1, $2), ($3, $4)", parameters: [1, "a", 2, "b"]),
                        (sql: "SELECT $1::text AS v", parameters: ["two"]),
                        (sql: "SELECT generate_series(1, $1::int) AS v", parameters: [3]),
                        (sql: "SELECT label AS v FROM \(table) WHERE id = $1", parameters: [2]),
                    ])
                }
                #expect(results.count == 4)
                #expect(results[0].affectedRows == 2)
                #expect(results[0].rows.isEmpty)
                #expect(try results[1].rows.map { try $0.string("v") } == ["two"])
                #expect(try results[2].rows.map { try $0.int("v") } == [1, 2, 3])
                #expect(try results[3].rows.map { try $0.string("v") } == ["b"])
                let empty = try await pool.withConnection { try $0.pipeline([] as [PostgresQuery]) }
                #expect(empty.isEmpty)
            }
        }
    }

    @Test("an error in the middle of a pipeline throws it, rolls the pipeline back and keeps the connection")
    func pipelineError() async throws {
        try await TestDatabase.withPool(poolSize: 1) { pool in
            try await TestDatabase.withTable(pool) { table in
                let (error, pid, afterwards) = try await pool.withConnection { connection -> (PostgresError?, Int, Int) in
                    var caught: PostgresError?
                    do {
                        _ = try connection.pipeline([
                            (sql: "INSERT INTO \(table) VALUES ($1, $2)", parameters: [1, "first"]),
                            (sql: "SELECT 1 / $1::int", parameters: [0]),
                            (sql: "INSERT INTO \(table) VALUES ($1, $2)", parameters: [2, "third"]),
                        ])
                    } catch let error as PostgresError {
                        caught = error
                    }
                    let row = try connection.query("SELECT pg_backend_pid() AS pid, $1::int AS v", [7]).rows[0]
                    return (caught, try row.int("pid"), try row.int("v"))
                }
                #expect(error?.kind == .query)
                #expect(error?.sqlState == "22012")
                #expect(error?.operation == "PQgetResult (pipeline statement 2)")
                #expect(afterwards == 7)
                #expect(try await TestDatabase.count(pool, table) == 0)
                let samePid = try await pool.query("SELECT pg_backend_pid() AS pid").rows[0].int("pid")
                #expect(samePid == pid)
            }
        }
    }

    /// Fails unless the pool's next connection is outside any transaction block (SAVEPOINT then fails with 25P01).
    private func expectNoOpenTransaction(_ pool: PostgresPool) async throws {
        let error = await #expect(throws: PostgresError.self) { try await pool.query("SAVEPOINT probe") }
        #expect(error?.sqlState == "25P01")
    }
}
