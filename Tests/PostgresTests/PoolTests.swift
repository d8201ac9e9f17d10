import Foundation
import Logging
@testable import Postgres
import Testing

@Suite("Connection pool", .timeLimit(.minutes(5)))
struct PoolTests {
    @Test("with poolSize 2, ten concurrent sleeps never hold more than 2 connections and all complete")
    func bounded() async throws {
        let application = TestDatabase.uniqueName("podium_bound")
        let observations = try await TestDatabase.withPool(poolSize: 2, applicationName: application) { pool in
            try await withThrowingTaskGroup(of: (server: Int, pool: Int).self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await pool.withConnection { connection in
                            let server = try connection.query(
                                "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1", [application]
                            ).rows[0].int("n")
                            try connection.query("SELECT pg_sleep(0.2)")
                            return (server, pool.openConnections)
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(observations.count == 10)
        #expect(observations.allSatisfy { (1...2).contains($0.server) })
        #expect(observations.allSatisfy { (1...2).contains($0.pool) })
        #expect(observations.contains { $0.server == 2 })
    }

    @Test("an exhausted pool fails a waiting caller with .timeout after acquireTimeout")
    func acquireTimeout() async throws {
        try await TestDatabase.withPool(poolSize: 1, acquireTimeout: .milliseconds(300)) { pool in
            // The only connection stays taken until the caller has failed: an error, not a late answer, shows the timeout.
            let (holder, release) = await holdOnlyConnection(of: pool)
            let clock = ContinuousClock()
            let begin = clock.now
            let error = await #expect(throws: PostgresError.self) { try await pool.query("SELECT 1") }
            let waited = clock.now - begin
            release.signal()
            #expect(error?.kind == .timeout)
            #expect(error?.operation == "acquire connection")
            #expect(waited >= .milliseconds(290))
            try await holder.value
            try await pool.ping()
            #expect(pool.openConnections == 1)
        }
    }

    @Test("cancelling a waiting caller throws CancellationError and leaks no slot")
    func cancelledWaiter() async throws {
        try await TestDatabase.withPool(poolSize: 1) { pool in
            // The only connection stays taken until the waiter's outcome is known, however slow the machine.
            let (holder, release) = await holdOnlyConnection(of: pool)
            let waiter = Task { try await pool.query("SELECT 1") }
            try await Task.sleep(for: .milliseconds(100))
            waiter.cancel()
            await #expect(throws: CancellationError.self) { try await waiter.value }
            release.signal()
            try await holder.value
            try await pool.ping()
            #expect(pool.openConnections == 1)
        }
    }

    @Test("waiting callers are served first come, first served")
    func fifo() async throws {
        let order = try await TestDatabase.withPool(poolSize: 1) { pool in
            // The only connection stays taken until every waiter has queued, however slow the machine.
            let (holder, release) = await holdOnlyConnection(of: pool)
            var waiters: [Task<(index: Int, ranAt: Date), any Error>] = []
            for index in 0..<4 {
                waiters.append(Task {
                    let row = try await pool.query("SELECT clock_timestamp() AS t").rows[0]
                    return (index, try row.date("t"))
                })
                while pool.waiterCount < index + 1 { try await Task.sleep(for: .milliseconds(1)) }
            }
            release.signal()
            try await holder.value
            var runs: [(index: Int, ranAt: Date)] = []
            for waiter in waiters { runs.append(try await waiter.value) }
            return runs.sorted { $0.ranAt < $1.ranAt }.map(\.index)
        }
        #expect(order == [0, 1, 2, 3])
    }

    @Test("a connection the server terminated while idle is replaced transparently: the next call succeeds")
    func reconnectAfterIdleTermination() async throws {
        try await TestDatabase.withPool(poolSize: 1) { admin in
            try await TestDatabase.withPool(poolSize: 1) { pool in
                let before = try await pool.query("SELECT pg_backend_pid() AS pid").rows[0].int("pid")
                try await TestDatabase.terminate(before, using: admin)
                let after = try await pool.query("SELECT pg_backend_pid() AS pid").rows[0].int("pid")
                #expect(after != before)
                #expect(pool.openConnections == 1)
            }
        }
    }

    @Test("a connection terminated during a call fails that call with .connection; the next call succeeds")
    func reconnectAfterTerminationDuringCall() async throws {
        try await TestDatabase.withPool(poolSize: 1) { admin in
            try await TestDatabase.withPool(poolSize: 1) { pool in
                let before = try await pool.query("SELECT pg_backend_pid() AS pid").rows[0].int("pid")
                // The call sleeps far longer than the machine could take to start it; it ends when it is terminated.
                let sleeper = Task { try await pool.query("SELECT pg_sleep(120)") }
                // Wait until the call runs, however loaded the machine (a call terminated before it started would not fail).
                for _ in 0..<3000 {
                    let state = try await admin.query("SELECT state FROM pg_stat_activity WHERE pid = $1", [before])
                    if state.rows.first?["state"] == "active" { break }
                    try await Task.sleep(for: .milliseconds(20))
                }
                try await TestDatabase.terminate(before, using: admin)
                let error = await #expect(throws: PostgresError.self) { try await sleeper.value }
                #expect(error?.kind == .connection)
                #expect(error?.isRetryable == true)
                #expect(error?.operation == "PQexecPrepared")
                #expect(pool.openConnections == 0)
                let after = try await pool.query("SELECT pg_backend_pid() AS pid").rows[0].int("pid")
                #expect(after != before)
                #expect(pool.openConnections == 1)
            }
        }
    }

    @Test("close() waits for borrowed connections, then every call throws .poolClosed")
    func close() async throws {
        let configuration = PostgresConfiguration(connectionString: TestDatabase.connectionString, poolSize: 1)
        let pool = PostgresPool(configuration: configuration, logger: .init(label: "PostgresTests"))
        try await pool.ping()
        let (started, signal) = AsyncStream.makeStream(of: Void.self)
        let release = DispatchSemaphore(value: 0)
        // The borrower keeps its connection until the waiter has been failed and close() is under way, however slow
        // the machine: the order is made, not timed.
        let borrower = Task {
            try await pool.withConnection { connection in
                signal.yield()
                release.wait()
                return try connection.query("SELECT 5 AS v").rows[0].int("v")
            }
        }
        _ = await started.first { _ in true }
        let waiter = Task { try await pool.query("SELECT 1") }
        while pool.waiterCount < 1 { try await Task.sleep(for: .milliseconds(1)) }
        let closing = Task { await pool.close() }
        let waiting = await #expect(throws: PostgresError.self) { try await waiter.value }
        #expect(waiting?.kind == .poolClosed)
        release.signal()
        #expect(try await borrower.value == 5)
        await closing.value
        #expect(pool.openConnections == 0)
        let later = await #expect(throws: PostgresError.self) { try await pool.ping() }
        #expect(later?.kind == .poolClosed)
        #expect(later?.operation == "acquire connection")
        await pool.close()
    }

    @Test("eight concurrent statements with poolSize 8 run at the same time on eight backends")
    func parallelism() async throws {
        // Proven by counts, not clocks: each statement waits for an advisory lock that a session of another pool
        // holds, and all eight are seen waiting at once (in pg_locks) before it is let go, which only eight
        // statements running at once on eight backends can show. The lock is let go on every path.
        let key = Int64.random(in: 1...Int64.max)
        let waiting = try await TestDatabase.withPool(poolSize: 2) { control in
            try await control.withSession { holder in
                try await holder.run { _ = try $0.query("SELECT pg_advisory_lock($1)", [key]) }
                let outcome: Result<(pids: Set<Int>, seen: Int), any Error>
                do {
                    outcome = .success(try await TestDatabase.withPool(poolSize: 8) { pool in
                        async let pids = withThrowingTaskGroup(of: Int.self) { group in
                            for _ in 0..<8 {
                                group.addTask {
                                    try await pool.query("SELECT pg_backend_pid() AS pid, pg_advisory_xact_lock_shared($1)::text",
                                                         [key]).rows[0].int("pid")
                                }
                            }
                            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
                        }
                        var seen = 0
                        let deadline = ContinuousClock.now + .seconds(60)
                        // Nothing here throws before the lock is let go: the eight would otherwise wait for it forever.
                        while seen < 8 && ContinuousClock.now < deadline {
                            try? await Task.sleep(for: .milliseconds(20))
                            seen = (try? await control.query("""
                                SELECT count(*) AS n FROM pg_locks
                                WHERE locktype = 'advisory' AND NOT granted AND (classid::bigint << 32 | objid::bigint) = $1
                                """, [key]).rows[0].int("n")) ?? seen
                        }
                        _ = try? await holder.run { try $0.query("SELECT pg_advisory_unlock($1)", [key]) }
                        return (try await pids, seen)
                    })
                } catch {
                    outcome = .failure(error)
                }
                _ = try? await holder.run { try $0.query("SELECT pg_advisory_unlock_all()") }
                return try outcome.get()
            }
        }
        #expect(waiting.pids.count == 8)
        #expect(waiting.seen == 8)
    }

    @Test("connections get keepalive settings that notice a vanished server; the connection string can override them")
    func deadPeerDetectionSettings() async throws {
        try await TestDatabase.withPool(poolSize: 1) { pool in
            let options = try await pool.withConnection { connection in
                ["keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout"].map { connection.option($0) }
            }
            #expect(options == ["1", "10", "5", "3", "30000"])
        }
        let base = TestDatabase.connectionString(applicationName: TestDatabase.uniqueName("podium_keepalive"))
        let configuration = PostgresConfiguration(
            connectionString: base + (base.contains("://") ? "&" : " ") + "keepalives_idle=42", poolSize: 1)
        let pool = PostgresPool(configuration: configuration, logger: Logger(label: "PostgresTests"))
        let idle = try await pool.withConnection { $0.option("keepalives_idle") }
        await pool.close()
        #expect(idle == "42")
    }
}

@Suite("Reading connection strings", .timeLimit(.minutes(5)))
struct ConnectionStringTests {
    @Test func readableConnectionStrings() {
        for text in ["host=db user=app password=S3cret dbname=podium", "postgres://app:S3cret@db:5432/podium",
                     "postgresql://app@db/podium?sslmode=disable", "podium"] {
            #expect(PostgresConfiguration.isReadable(connectionString: text), "\(text)")
        }
    }

    /// Each of these makes libpq quote part of the password in its error.
    @Test func unreadableConnectionStrings() {
        for text in ["postgres://app:50%off@db/podium", "postgresql:/app:S3cret@db:5432/podium", "host=db password=S3 cret",
                     "host=db nonsense=1", ""] {
            #expect(!PostgresConfiguration.isReadable(connectionString: text), "\(text)")
        }
    }
}

/// Takes `pool`'s only connection in a task that keeps it until `release` is signalled; returns once it is taken.
private func holdOnlyConnection(of pool: PostgresPool) async -> (holder: Task<Void, any Error>, release: DispatchSemaphore) {
    let (started, signal) = AsyncStream.makeStream(of: Void.self)
    let release = DispatchSemaphore(value: 0)
    let holder = Task {
        try await pool.withConnection { _ in
            signal.yield()
            release.wait()
        }
    }
    _ = await started.first { _ in true }
    return (holder, release)
}
