import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import Logging
import Metrics
import PodiumCore
@testable import PodiumHTTP
import PodiumScheduler
@testable import PodiumStore
import PodiumTestSupport
import PodiumWire
import Postgres
import Prometheus
import Redis
import Testing

/// Podium's router over the real test PostgreSQL and Redis, with a fixed clock, keys for each role,
/// and every answer checked against the OpenAPI document.
///
/// `@unchecked Sendable`: the router is fully built in `init` and only read afterwards.
struct HTTPHarness: @unchecked Sendable {
    static let databaseURL = ProcessInfo.processInfo.environment["PODIUM_TEST_DATABASE_URL"]
        ?? "host=127.0.0.1 port=5432 user=postgres dbname=podium_test"
    static let redisURL = TestRedisDatabase.sharedURL
    static let adminKey = "pdm_test_admin_key_for_http_tests_only_0001"
    /// One registry for the test process, bootstrapped once (the metrics system allows a single bootstrap).
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PodiumMetrics.factory(registry: registry))
        return registry
    }()

    let storage: PodiumStorage
    let scheduler: Scheduler
    let router: Router<PodiumRequestContext>
    let contract: OpenAPIContract
    let ingestKey: String
    let readKey: String
    let now: Date

    init(
        now: Date = instant("2026-11-25T12:00:00Z"), rules: GameRules = GameRules(), publicLeaderboards: Bool = false,
        redisURL: String = Self.redisURL, databaseURL: String = Self.databaseURL,
        playerTokens: PlayerTokenSettings = PlayerTokenSettings(), cors: CORSPolicy = CORSPolicy(),
        rateLimits: RateLimits = Self.unlimited, liveStreamLifetime: Duration = .milliseconds(300),
        clock: (@Sendable () -> Date)? = nil
    ) async throws {
        // The fixed `now`, unless a test moves the clock itself (it starts at `now`).
        let clock = clock ?? { now }
        let logger = Logger(label: "podium-http-tests")
        let postgres = PostgresPool(configuration: PostgresConfiguration(connectionString: databaseURL, poolSize: 8), logger: logger)
        try await Migrator(pool: postgres, logger: logger).migrate(try Migration.bundled())
        let redis = RedisClient(configuration: try RedisConfiguration(url: redisURL), logger: logger)
        // Every test writes both stores, so the shared test Redis holds complete rankings (another URL is a dead one).
        if redisURL == Self.redisURL { try await markRankingsReady(redis) }
        storage = PodiumStorage(postgres: postgres, redis: redis, rules: rules, logger: logger, now: clock)
        let runs = JobRunStore(postgres: postgres)
        scheduler = Scheduler(
            store: runs, settings: rules.scheduler, jobs: BuiltInJobs.all(storage: storage, runs: runs), replica: "http-tests",
            now: clock, logger: logger)
        router = try await PodiumApplication.router(
            storage: storage, scheduler: scheduler, runs: runs,
            settings: HTTPSettings(bootstrapAdminKey: Self.adminKey, publicLeaderboards: publicLeaderboards,
                                   leaderboardCacheLifetime: .seconds(60), liveStreamLifetime: liveStreamLifetime,
                                   playerTokens: playerTokens, cors: cors,
                                   rateLimits: rateLimits),
            registry: Self.registry, logger: logger, now: clock)
        contract = try OpenAPIContract(document: try OpenAPIDocument.data())
        ingestKey = try await storage.apiKeys.create(name: "tests ingest", role: .ingest, now: now).secret
        readKey = try await storage.apiKeys.create(name: "tests read", role: .read, now: now).secret
        self.now = now
    }

    /// Limits no test reaches: the clock is fixed, so buckets never refill, and tests share the bootstrap admin
    /// key's bucket and the one of failed authentications (router tests have no client address).
    static let unlimited = RateLimits(
        perRole: Dictionary(uniqueKeysWithValues: Role.allCases.map { ($0, 1 << 30) }), player: 1 << 30, failedAuthentications: 1 << 30)

    /// Runs `body` with a harness on a database and Redis db of its own (both emptied first, the database
    /// dropped after): for tests that rebuild every board or hold leases other tests would see.
    static func withOwnStores(
        redisDatabase: TestRedisDatabase, playerTokens: PlayerTokenSettings = PlayerTokenSettings(), rateLimits: RateLimits = Self.unlimited,
        _ body: (HTTPHarness) async throws -> Void
    ) async throws {
        let ownRedisURL = try redisDatabase.url()
        try #require(!databaseURL.contains("://"), "this test needs a conninfo database URL")
        let shared = PostgresPool(configuration: PostgresConfiguration(connectionString: databaseURL, poolSize: 1),
                                  logger: Logger(label: "podium-http-tests"))
        let name = "podium_own_\(UUID().uuidString.prefix(8).lowercased())"
        try await shared.query("CREATE DATABASE \(name)")
        // libpq takes the last dbname given.
        let harness = try await HTTPHarness(
            redisURL: ownRedisURL, databaseURL: databaseURL + " dbname=\(name)", playerTokens: playerTokens, rateLimits: rateLimits)
        try await harness.storage.redis.command(["FLUSHDB"])
        try await markRankingsReady(harness.storage.redis)
        do {
            try await body(harness)
        } catch {
            await harness.storage.postgres.close()
            _ = try? await shared.query("DROP DATABASE \(name) WITH (FORCE)")
            await shared.close()
            throw error
        }
        try await harness.storage.redis.command(["FLUSHDB"])
        await harness.storage.postgres.close()
        try await shared.query("DROP DATABASE \(name) WITH (FORCE)")
        await shared.close()
    }

    /// Runs `body` with a client of the router.
    func run<T: Sendable>(_ body: @Sendable (APIClient) async throws -> T) async throws -> T {
        let app = Application(router: router)
        return try await app.test(.router) { client in try await body(APIClient(client: client, contract: contract)) }
    }
}

/// Sends requests and checks each answer against the OpenAPI document.
struct APIClient: Sendable {
    /// Sends a request without checking the answer against the document (routes outside it).
    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await client.execute(uri: uri, method: method, headers: headers)
    }

    let client: any TestClientProtocol
    let contract: OpenAPIContract

    /// Sends a request; `json` is encoded as the body unless `raw` is given.
    func send(
        _ method: HTTPRequest.Method, _ path: String, key: String?, json: (any Sendable)? = nil, raw: String? = nil,
        headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = headers
        if let key { headers[.authorization] = "Bearer \(key)" }
        var body: ByteBuffer?
        if let raw { body = ByteBuffer(string: raw) }
        if let json {
            body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json))
            headers[.contentType] = "application/json"
        }
        let response = try await client.execute(uri: path, method: method, headers: headers, body: body)
        let pathOnly = String(path.split(separator: "?", maxSplits: 1).first ?? "")
        let violations = contract.violations(
            method: method.rawValue, path: pathOnly, status: Int(response.status.code),
            contentType: response.headers[.contentType], body: Data(buffer: response.body))
        #expect(violations.isEmpty, "\(method) \(path) answered outside the OpenAPI document: \(violations)")
        return response
    }
}

extension TestResponse {
    /// The body as a JSON object.
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
    }

    /// The fields named by a problem's `errors`.
    var errorFields: [String] {
        (json["errors"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
    }
}

/// A fixed instant from an RFC 3339 string.
func instant(_ text: String) -> Date {
    guard let date = RFC3339.parse(text) else { fatalError("bad test time \(text)") }
    return date
}

/// A name no other test uses.
func unique(_ prefix: String) -> String {
    "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
}

/// A valid completion body.
func completionBody(id: String, user: String, topic: String, difficulty: String = "medium", correct: Int = 5,
                    groups: [String]? = nil, displayName: String? = nil, completedAt: String? = nil, quiz: String = "q1") -> [String: any Sendable] {
    var body: [String: any Sendable] = ["id": id, "user_id": user, "quiz_id": quiz, "topic": topic, "difficulty": difficulty,
                               "correct": correct, "total": 10, "duration_ms": 30_000]
    if let groups { body["groups"] = groups }
    if let displayName { body["display_name"] = displayName }
    if let completedAt { body["completed_at"] = completedAt }
    return body
}

/// A player token for `subject`, signed by `keys` with `kid`: expiring `lifetime` seconds after `now`, issued at
/// `issuedAt` (no `iat` when nil), naming `audience` and `groups` when given.
func signPlayerToken(
    _ keys: JWTKeyCollection, kid: String, subject: String, now: Date, lifetime: TimeInterval = 600, issuedAt: Date?,
    audience: String? = nil, groups: [String]? = nil
) async throws -> String {
    // The payload Podium reads, so the tests sign exactly the claims it checks; nil ones are left out of the token.
    let claims = PlayerTokenPayload(
        sub: SubjectClaim(value: subject), exp: ExpirationClaim(value: now.addingTimeInterval(lifetime)),
        iat: issuedAt.map { IssuedAtClaim(value: $0) }, aud: audience.map { AudienceClaim(value: [$0]) }, groups: groups)
    return try await keys.sign(claims, kid: JWKIdentifier(string: kid))
}
