import Foundation
import Logging
import PodiumCore
@testable import PodiumStore
import PodiumTestSupport
import PodiumWire
import Postgres
import Redis
import Synchronization
import Testing

/// Real PostgreSQL and Redis for store tests (started by ops/test.sh); tests fail, never skip, without them.
enum StoreTestEnvironment {
    static let databaseURL = ProcessInfo.processInfo.environment["PODIUM_TEST_DATABASE_URL"]
        ?? "host=127.0.0.1 port=5432 user=postgres dbname=podium_test"
    static let redisURL = TestRedisDatabase.sharedURL
    static let logger = Logger(label: "podium-store-tests")

    /// A PostgreSQL pool on the test database (or the database at `url`), migrated.
    static func postgres(poolSize: Int = 8, url: String = databaseURL) async throws -> PostgresPool {
        let pool = PostgresPool(configuration: PostgresConfiguration(connectionString: url, poolSize: poolSize), logger: logger)
        try await Migrator(pool: pool, logger: logger).migrate(try Migration.bundled())
        return pool
    }

    /// A Redis pool on the test database.
    static func redis(url: String = redisURL) throws -> RedisClient {
        RedisClient(configuration: try RedisConfiguration(url: url), logger: logger)
    }

    /// Stores over the test servers with a fixed clock. On the shared test Redis the rankings are
    /// marked ready (every test writes both stores); a test's own Redis starts empty, as after a restart.
    static func storage(
        now: Date, redisURL: String = redisURL, rules: GameRules = GameRules(), databaseURL: String = databaseURL
    ) async throws -> PodiumStorage {
        let redis = try redis(url: redisURL)
        if redisURL == Self.redisURL { try await markRankingsReady(redis) }
        return PodiumStorage(postgres: try await postgres(url: databaseURL), redis: redis, rules: rules, logger: logger, now: { now })
    }

    /// Runs `body` with the connection string of a new, empty database of its own, dropped afterwards
    /// (with any session left on it) whether `body` succeeds or not: for tests whose rows or locks would
    /// disturb, or be disturbed by, the tests sharing the test database.
    static func withOwnDatabase<T>(_ body: (String) async throws -> T) async throws -> T {
        try await PodiumTestSupport.withOwnDatabase(on: databaseURL, body)
    }

    /// Runs `body` with a pool on a new database of its own migrated to just before `version`, and the bundled
    /// migrations, for tests of what a migration does to rows written before it; the pool is closed and the database
    /// dropped afterwards.
    static func withOwnDatabase<T>(migratedBelow version: Int, _ body: (PostgresPool, [Migration]) async throws -> T) async throws -> T {
        try await withOwnDatabase { url in
            let pool = PostgresPool(configuration: PostgresConfiguration(connectionString: url, poolSize: 2), logger: logger)
            do {
                let migrations = try Migration.bundled()
                try await Migrator(pool: pool, logger: logger).migrate(migrations.filter { $0.version < version })
                let result = try await body(pool, migrations)
                await pool.close()
                return result
            } catch {
                await pool.close()
                throw error
            }
        }
    }

    /// A replica at `now`: stores over the database at `url` and the Redis at `redis`, with game rules (and so a contest
    /// registry) and change notices of its own.
    static func replica(now: Date, _ url: String, _ redis: any OwnRedis) async throws -> PodiumStorage {
        try await storage(now: now, redisURL: redis.url, databaseURL: url)
    }

    /// Runs `body` with a new database's URL and a Redis server of its own, its rankings marked ready (by a rebuild of
    /// the empty database, as a replica's first start would); both are dropped or stopped afterwards.
    static func withOwnStores(now: Date, _ body: (String, any OwnRedis) async throws -> Void) async throws {
        let redis = ownRedis()
        try await redis.start()
        defer { redis.stop() }
        try await withOwnDatabase { url in
            let first = try await replica(now: now, url, redis)
            try await first.rankingSync.rebuild()
            await first.postgres.close()
            try await body(url, redis)
        }
    }

    /// A name no other test uses (topic, group and user ids are made from it).
    static func unique(_ prefix: String) -> String {
        "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
    }
}

/// A fixed instant from an RFC 3339 string.
func instant(_ text: String) -> Date {
    guard let date = RFC3339.parse(text) else { fatalError("bad test time \(text)") }
    return date
}

/// A valid completion for tests (`durationMs` nil: sent without `duration_ms`).
func completion(
    id: String, user: String, quiz: String = "quiz-1", topic: String, difficulty: String = "medium", correct: Int = 5, total: Int = 10,
    completedAt: String? = nil, durationMs: Int? = 1234, groups: [String]? = nil, displayName: String? = nil, now: Date
) throws -> ValidCompletion {
    let request = CompletionRequest(
        id: id, userId: user, quizId: quiz, topic: topic, difficulty: difficulty, correct: correct, total: total,
        durationMs: durationMs, completedAt: completedAt, groups: groups, displayName: displayName)
    return try request.validated(now: now, rules: GameRules())
}

/// A failure raised by test helpers.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The display name Redis shows for `user`: nil when it has none, or no field for the player.
func redisDisplayName(of user: String, storage: PodiumStorage) async throws -> String? {
    let member = try await member(of: user, in: storage.postgres)
    let value = try await storage.redis.command(["HGET", RankingLayout(storage.redis).playersHash(ofMember: member), member]).string
    return value.flatMap { RankingKeys.player(fromValue: $0).displayName }
}

/// The ranking member of `user` (`RankingMember` of the stored handle); fails when the player has no row.
func member(of user: String, in postgres: PostgresPool) async throws -> String {
    let handle = try await postgres.query("SELECT handle FROM users WHERE user_id = $1", [user]).rows.first?.int64("handle")
    guard let handle, let member = RankingMember.encode(handle) else { throw TestFailure("no handle for \(user)") }
    return member
}

/// The same board period as PostgreSQL holds it, best first, ties by handle.
func postgresBoard(_ postgres: PostgresPool, board: String, window: LeaderboardWindow, period: String) async throws -> [(String, Int64)] {
    try await postgres.query("""
        SELECT user_id, score FROM board_scores JOIN users USING (user_id) WHERE board = $1 AND board_window = $2 AND period = $3
        ORDER BY score DESC, handle
        """, [board, window.rawValue, period]).rows.map { (try $0.string("user_id"), try $0.int64("score")) }
}

/// A count shared by concurrent test tasks.
final class SharedCount: Sendable {
    private let value = Mutex(0)

    /// Adds one.
    func increment() { value.withLock { $0 += 1 } }

    /// Adds one and returns the new count.
    func incremented() -> Int { value.withLock { $0 += 1; return $0 } }

    /// Takes one away.
    func decrement() { value.withLock { $0 -= 1 } }

    /// The count now.
    var current: Int { value.withLock { $0 } }
}

