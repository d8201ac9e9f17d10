import Foundation

/// A Redis of a test's own, to start, stop, freeze and thaw: one server (`OwnRedisServer`) or a cluster
/// (`OwnRedisCluster`), as `ownRedis()` picks.
public protocol OwnRedis: AnyObject, Sendable {
    /// The URL that reaches it (`redis://` or `redis+cluster://`).
    var url: String { get }
    /// Starts it, empty, and waits until it serves.
    func start() async throws
    /// Kills it; its data is lost.
    func stop()
    /// Freezes it (SIGSTOP): connections stay open and nothing answers.
    func freeze()
    /// Lets it run again (SIGCONT).
    func thaw()
}

/// A Redis of the test's own, of the topology the run tests: a cluster when `PODIUM_TEST_REDIS_TOPOLOGY` is `cluster`
/// (ops/test/redis-cluster-test.sh), else one server. Not started yet.
public func ownRedis() -> any OwnRedis {
    TestRedisTopology.current == .cluster ? OwnRedisCluster() : OwnRedisServer()
}

/// Which Redis the store and ranking tests run against: one server, or a Redis Cluster (`PODIUM_TEST_REDIS_URL` is then
/// a `redis+cluster://` URL and their own Redis a cluster too).
public enum TestRedisTopology: String, Sendable {
    /// One server (the default).
    case server
    /// A Redis Cluster.
    case cluster

    /// `PODIUM_TEST_REDIS_TOPOLOGY`, `server` when unset.
    public static let current = TestRedisTopology(rawValue: ProcessInfo.processInfo.environment["PODIUM_TEST_REDIS_TOPOLOGY"] ?? "server") ?? .server
}
