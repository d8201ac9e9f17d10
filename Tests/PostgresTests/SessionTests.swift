import Foundation
import Postgres
import Testing

@Suite("Sessions: one connection across awaits")
struct SessionTests {
    @Test("steps share one connection and its transaction; the session's work commits")
    func stepsShareTheTransaction() async throws {
        try await TestDatabase.withPool(poolSize: 2) { pool in
            try await TestDatabase.withTable(pool) { table in
                let pids = try await pool.withSession { session -> [Int] in
                    let first = try await session.run { connection in
                        try connection.execute("BEGIN")
                        try connection.query("INSERT INTO \(table) (id, label) VALUES (1, 'a')")
                        return try connection.query("SELECT pg_backend_pid() AS pid").rows[0].int("pid")
                    }
                    // Something else awaited in between (here: another borrower of the pool sees nothing yet).
                    let seenMeanwhile = try await TestDatabase.count(pool, table)
                    #expect(seenMeanwhile == 0)
                    let second = try await session.run { connection in
                        try connection.query("INSERT INTO \(table) (id, label) VALUES (2, 'b')")
                        try connection.execute("COMMIT")
                        return try connection.query("SELECT pg_backend_pid() AS pid").rows[0].int("pid")
                    }
                    return [first, second]
                }
                #expect(pids[0] == pids[1])
                #expect(try await TestDatabase.count(pool, table) == 2)
            }
        }
    }

    @Test("a session that throws inside its transaction is rolled back and its connection reused")
    func throwingRollsBack() async throws {
        try await TestDatabase.withPool(poolSize: 1) { pool in
            try await TestDatabase.withTable(pool) { table in
                await #expect(throws: TestFailure.self) {
                    try await pool.withSession { session in
                        try await session.run { connection in
                            try connection.execute("BEGIN")
                            try connection.query("INSERT INTO \(table) (id, label) VALUES (1, 'a')")
                        }
                        throw TestFailure()
                    }
                }
                let rows = try await TestDatabase.count(pool, table)
                #expect(rows == 0)
                #expect(pool.openConnections == 1, "the one connection went back to the pool")
            }
        }
    }
}
