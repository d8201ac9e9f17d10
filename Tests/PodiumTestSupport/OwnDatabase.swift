import Foundation
import Logging
import Postgres

/// Runs `body` with the connection string of a new, empty database of its own on the server of `serverURL` (a conninfo
/// string or a `postgres://` URI), dropped afterwards (with any session left on it) whether `body` succeeds or not: for
/// tests whose rows or locks would disturb, or be disturbed by, the tests sharing the test database.
public func withOwnDatabase<T>(on serverURL: String, _ body: (String) async throws -> T) async throws -> T {
    let admin = PostgresPool(
        configuration: PostgresConfiguration(connectionString: serverURL, poolSize: 1), logger: Logger(label: "podium-test-databases"))
    let name = "podium_own_\(UUID().uuidString.prefix(8).lowercased())"
    try await admin.query("CREATE DATABASE \(name)")
    // libpq takes the last dbname of a conninfo string; a URI names the database in its path.
    var uri = URLComponents(string: serverURL)
    uri?.path = "/\(name)"
    let url = serverURL.contains("://") ? uri?.string ?? serverURL : serverURL + " dbname=\(name)"
    do {
        let result = try await body(url)
        try await admin.query("DROP DATABASE \(name) WITH (FORCE)")
        await admin.close()
        return result
    } catch {
        _ = try? await admin.query("DROP DATABASE \(name) WITH (FORCE)")
        await admin.close()
        throw error
    }
}
