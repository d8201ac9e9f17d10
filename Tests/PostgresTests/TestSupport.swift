import Foundation
import Logging
import Postgres

/// Shared set-up for the integration tests against a real PostgreSQL server.
enum TestDatabase {
    /// The server under test: PODIUM_TEST_DATABASE_URL, or the local `podium_test` database.
    ///
    /// There is deliberately no skipping: if the server is unreachable, every test fails.
    static let connectionString = ProcessInfo.processInfo.environment["PODIUM_TEST_DATABASE_URL"]
        ?? "host=127.0.0.1 port=5432 user=postgres dbname=podium_test"

    /// A name unique to this run, for tables and application names, so tests can run in parallel.
    static func uniqueName(_ prefix: String) -> String {
        "\(prefix)_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased())"
    }

    /// The connection string with `application_name` added, in whichever syntax it uses.
    static func connectionString(applicationName: String) -> String {
        guard connectionString.contains("://") else { return "\(connectionString) application_name=\(applicationName)" }
        let separator = connectionString.contains("?") ? "&" : "?"
        return "\(connectionString)\(separator)application_name=\(applicationName)"
    }

    /// Runs `body` with a fresh pool and always closes the pool afterwards.
    static func withPool<T>(
        poolSize: Int = 4,
        applicationName: String = uniqueName("podium_test"),
        acquireTimeout: Duration = .seconds(10),
        statementTimeout: Duration? = .seconds(30),
        _ body: (PostgresPool) async throws -> T
    ) async throws -> T {
        let configuration = PostgresConfiguration(
            connectionString: connectionString(applicationName: applicationName),
            poolSize: poolSize,
            acquireTimeout: acquireTimeout,
            statementTimeout: statementTimeout)
        let pool = PostgresPool(configuration: configuration, logger: Logger(label: "PostgresTests"))
        do {
            let result = try await body(pool)
            await pool.close()
            return result
        } catch {
            await pool.close()
            throw error
        }
    }

    /// Terminates backend `pid` and waits until its socket is closed, so the client can see it.
    static func terminate(_ pid: Int, using admin: PostgresPool) async throws {
        let terminated = try await admin.query("SELECT pg_terminate_backend($1, 5000) AS ok", [pid]).rows[0].bool("ok")
        guard terminated else { throw TestFailure() }
        // pg_terminate_backend returns once the backend left the process table; its socket closes a moment later.
        try await Task.sleep(for: .milliseconds(200))
    }

    /// Runs `body` with a new permanent table (`id bigint PRIMARY KEY, label text`), dropped afterwards.
    static func withTable<T>(_ pool: PostgresPool, _ body: (String) async throws -> T) async throws -> T {
        let table = uniqueName("pgtest")
        try await pool.query("CREATE TABLE \(table) (id bigint PRIMARY KEY, label text)")
        do {
            let result = try await body(table)
            try await pool.query("DROP TABLE \(table)")
            return result
        } catch {
            _ = try? await pool.query("DROP TABLE \(table)")
            throw error
        }
    }

    /// The number of rows in `table`.
    static func count(_ pool: PostgresPool, _ table: String) async throws -> Int {
        try await pool.query("SELECT count(*) AS n FROM \(table)").rows[0].int("n")
    }
}

/// An error thrown by test bodies to trigger rollbacks.
struct TestFailure: Error, Equatable {}
