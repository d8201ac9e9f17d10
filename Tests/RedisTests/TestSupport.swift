import Foundation
import Logging
import PodiumTestSupport
import Redis
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Redis server the tests use: PODIUM_TEST_REDIS_URL, default redis://127.0.0.1:6379/15.
enum TestRedis {
    static let url = ProcessInfo.processInfo.environment["PODIUM_TEST_REDIS_URL"] ?? "redis://127.0.0.1:6379/15"
    static let logger = Logger(label: "podium.redis-tests")

    static func configuration() throws -> RedisConfiguration {
        try RedisConfiguration(url: url)
    }
}

struct UnreachableRedis: Error, CustomStringConvertible {
    let url: String
    let underlying: any Error
    var description: String { "Redis test server at \(url) is unreachable (run `bash ops/services.sh`): \(underlying)" }
}

/// Runs `body` with a pool on the test server and a unique key prefix, then deletes the prefix's keys and closes the pool.
/// Throws (fails the test) if the server does not answer PING.
func withTestPool<T>(
    _ adjust: (inout RedisConfiguration) -> Void = { _ in },
    _ body: (RedisPool, String) async throws -> T
) async throws -> T {
    var configuration = try TestRedis.configuration()
    adjust(&configuration)
    let pool = RedisPool(configuration: configuration, logger: TestRedis.logger)
    do {
        try await pool.ping()
    } catch {
        await pool.close()
        throw UnreachableRedis(url: TestRedis.url, underlying: error)
    }
    let prefix = "podium-test:\(UUID().uuidString):"
    let result: Result<T, any Error>
    do {
        result = .success(try await body(pool, prefix))
    } catch {
        result = .failure(error)
    }
    await pool.close()
    try await deleteKeys(prefix: prefix)
    return try result.get()
}

/// Deletes every key starting with `prefix` on the test server.
func deleteKeys(prefix: String) async throws {
    let pool = RedisPool(configuration: try TestRedis.configuration(), logger: TestRedis.logger)
    do {
        let keys = try await pool.command(["KEYS", prefix + "*"]).array?.compactMap(\.string) ?? []
        if !keys.isEmpty {
            try await pool.command(["DEL"] + keys)
        }
    } catch {
        await pool.close()
        throw error
    }
    await pool.close()
}

/// Thread-safe counters for what happens inside pool closures.
final class Probe: Sendable {
    private let state = Mutex((active: 0, maxActive: 0, maxOpen: 0, flag: false))

    func enter(open: Int) {
        state.withLock {
            $0.active += 1
            $0.maxActive = max($0.maxActive, $0.active)
            $0.maxOpen = max($0.maxOpen, open)
            $0.flag = true
        }
    }

    func leave() { state.withLock { $0.active -= 1 } }
    var maxActive: Int { state.withLock(\.maxActive) }
    var maxOpen: Int { state.withLock(\.maxOpen) }
    var entered: Bool { state.withLock(\.flag) }

    /// Waits until some closure entered, up to 30 seconds (a busy machine may take a while to schedule it).
    func waitUntilEntered() async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !entered {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
