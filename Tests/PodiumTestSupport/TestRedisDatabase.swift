import Foundation

/// The Redis databases of the test server, each with one owner at a time: two tests on one db flush or rebuild each
/// other's boards. A test that needs a db of its own takes one here (or starts an `OwnRedisServer`); ops/test.sh
/// empties 1 and 3 to 15 before a run.
///
/// Taken outside the Swift tests: 11 the browser tests (and 10, 12, 13 and 14 for Podiums of their own, after the Swift
/// tests), 8 ops/test/schemathesis.sh, 7 ops/test/monitoring-test.sh, 6 the docs
/// test's helper, 3 and 2 ops/bench/bench.sh and ops/bench/bench-live.sh; 0 is the quick start's.
public enum TestRedisDatabase: Int, Sendable, CaseIterable {
    /// The suites' shared db (`PODIUM_TEST_REDIS_URL`'s).
    case shared = 15
    /// MultiProcessTests' three `podium serve` replicas.
    case multiProcess = 14
    /// The rebuild route test.
    case rebuildRoute = 13
    /// The reconcile job test.
    case reconcileJob = 12
    /// The access matrix.
    case accessMatrix = 10
    /// The failed-authentication limit test (router tests have no client address: every failure shares one bucket).
    case failedAuthentications = 9
    /// The contest routes.
    case contestRoutes = 5
    /// The audit trail, player search and named dry runs (`AdminTrailTests`).
    case adminTrail = 6
    /// The erasure of each kind of personal data.
    case erasure = 4
    /// The shutdown tests' `podium serve`.
    case shutdown = 1
    /// The league close drill's three `podium serve` replicas.
    case leagueDrill = 3

    /// The shared db's URL: `PODIUM_TEST_REDIS_URL`, else db 15 of the Redis on 127.0.0.1:6379 (ops/services.sh's).
    public static let sharedURL = ProcessInfo.processInfo.environment["PODIUM_TEST_REDIS_URL"] ?? "redis://127.0.0.1:6379/15"

    /// This db on the test server: `sharedURL` with its path replaced. Throws when that URL cannot name another db (it
    /// is no `redis://` URL, or already names this one while this is not the shared db).
    public func url() throws -> String {
        var components = URLComponents(string: Self.sharedURL)
        components?.path = "/\(rawValue)"
        guard let url = components?.string, self == .shared || url != Self.sharedURL else {
            throw TestRedisDatabaseError(description: "PODIUM_TEST_REDIS_URL \(Self.sharedURL) cannot be moved to db \(rawValue)")
        }
        return url
    }
}

/// The test Redis URL cannot name the db a test needs.
public struct TestRedisDatabaseError: Error, CustomStringConvertible {
    /// Why.
    public let description: String
}
