import Foundation
import Postgres
import Synchronization
import Testing

@Suite("Sessions: one connection across awaits", .timeLimit(.minutes(5)))
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

    @Test("a session whose connection was lost fails its later steps instead of reconnecting and autocommitting them")
    func lostConnectionIsNotReplacedMidSession() async throws {
        try await TestDatabase.withPool(poolSize: 1) { admin in
            try await TestDatabase.withPool(poolSize: 2) { pool in
                try await TestDatabase.withTable(pool) { table in
                    try await pool.withSession { session in
                        let pid = try await session.run { connection in
                            try connection.execute("BEGIN")
                            try connection.query("INSERT INTO \(table) (id, label) VALUES (1, 'a')")
                            return try connection.query("SELECT pg_backend_pid() AS pid").rows[0].int("pid")
                        }
                        try await TestDatabase.terminate(pid, using: admin)
                        let lost = await #expect(throws: PostgresError.self) {
                            try await session.run { connection in try connection.query("INSERT INTO \(table) (id, label) VALUES (2, 'b')") }
                        }
                        #expect(lost?.kind == .connection)
                        // A caller that carries on anyway must not get the rest of its transaction autocommitted elsewhere.
                        let later = await #expect(throws: PostgresError.self) {
                            try await session.run { connection in
                                try connection.query("INSERT INTO \(table) (id, label) VALUES (3, 'c')")
                                try connection.execute("COMMIT")
                            }
                        }
                        #expect(later?.kind == .connection)
                        #expect(later?.operation == "PostgresSession.run")
                    }
                    #expect(try await TestDatabase.count(pool, table) == 0)
                }
            }
        }
    }

    @Test("a step started while another step of the session runs fails; the running step is unaffected")
    func oneStepAtATime() async throws {
        let gate = StepGate()
        try await TestDatabase.withPool(poolSize: 2) { pool in
            try await pool.withSession { session in
                let first = Task {
                    try await session.run { connection in
                        gate.running.store(true, ordering: .releasing)
                        while !gate.released.load(ordering: .acquiring) { usleep(1_000) }
                        return try connection.query("SELECT 1 AS one").rows[0].int("one")
                    }
                }
                while !gate.running.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(5)) }
                let refused = await #expect(throws: PostgresError.self) {
                    try await session.run { connection in try connection.query("SELECT 2") }
                }
                #expect(refused?.message == "a session runs one step at a time")
                gate.released.store(true, ordering: .releasing)
                #expect(try await first.value == 1)
            }
        }
    }
}

/// Flags shared between a test and a session step blocked on a pool thread.
private final class StepGate: Sendable {
    /// Set by the step once it runs.
    let running = Atomic(false)
    /// Set by the test to let the step finish.
    let released = Atomic(false)
}
