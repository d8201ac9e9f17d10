import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PodiumCore
import PodiumHTTP
import PodiumStore
import Testing

/// Rate limits per key, per player and per address of failed authentications, shared by replicas through Redis.
/// The harness clock is fixed, so buckets do not refill during a test.
@Suite("Rate limits", .timeLimit(.minutes(5)))
struct RateLimitTests {
    static let small = RateLimits(perRole: [.read: 3, .ingest: 3, .display: 3, .admin: 3], player: 2, failedAuthentications: 2)

    @Test("a key's requests are counted across replicas; past the limit 429 with Retry-After and RateLimit headers")
    func keysAreLimitedAcrossReplicas() async throws {
        let first = try await HTTPHarness(rateLimits: Self.small)
        let second = try await HTTPHarness(rateLimits: Self.small)
        let key = first.readKey
        let statuses = try await first.run { client in
            var answers: [TestResponse] = []
            for _ in 0..<2 { answers.append(try await client.send(.get, "/v1/leaderboards/global/week", key: key)) }
            return answers
        }
        #expect(statuses.map(\.status) == [.ok, .ok])
        #expect(statuses.map { $0.headers[HTTPField.Name("RateLimit")!] } == [#""read";r=2;t=20"#, #""read";r=1;t=40"#])
        #expect(statuses[0].headers[HTTPField.Name("RateLimit-Policy")!] == #""read";q=3;w=60"#)
        try await second.run { client in
            #expect(try await client.send(.get, "/v1/leaderboards/global/week", key: key).status == .ok)
            let limited = try await client.send(.get, "/v1/leaderboards/global/week", key: key)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] == "20")
            #expect(limited.headers[HTTPField.Name("RateLimit")!] == #""read";r=0;t=20"#)
            #expect(limited.json["code"] as? String == "rate-limited")
            // Another key has a bucket of its own.
            #expect(try await client.send(.get, "/v1/leaderboards/global/week", key: second.readKey).status == .ok)
        }
    }

    @Test("failed authentications from one address are limited; valid credentials from it keep working")
    func failedAuthenticationsAreLimited() async throws {
        // A Redis db of its own: router tests have no client address, so every test's failed authentications
        // count in the same bucket ("unknown"), and on the shared db other tests' failures would drain this one's.
        try await HTTPHarness.withOwnStores(redisDatabase: .failedAuthentications, rateLimits: Self.small) { harness in try await harness.run { client in
            let bad = "pdm_" + String(repeating: "Q", count: 40)
            #expect(try await client.send(.get, "/v1/events", key: bad).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/events", key: "nonsense").status == .unauthorized)
            let limited = try await client.send(.get, "/v1/events", key: bad)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] == "30")
            #expect(try await client.send(.get, "/v1/events", key: harness.readKey).status == .ok)
        } }
    }

    @Test("with Redis unreachable each replica limits on its own")
    func localBucketsWhenRedisIsDown() async throws {
        let harness = try await HTTPHarness(redisURL: "redis://127.0.0.1:1/0", rateLimits: Self.small)
        try await harness.run { client in
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<4 { statuses.append(try await client.send(.get, "/v1/admin/jobs", key: HTTPHarness.adminKey).status) }
            #expect(statuses == [.ok, .ok, .ok, .tooManyRequests])
        }
    }
}
