import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import PodiumCore
import PodiumHTTP
@testable import PodiumStore
import Synchronization
import Testing

/// A credential that stops holding while a live stream is open ends it, with `event: ended` saying why: a key revoked
/// on any replica, a key past its `expires_at`, a player token past its `exp`. Keys may expire (`expires_at`).
@Suite("Keys that expire, and live streams that end with their credential", .serialized, .timeLimit(.minutes(5)))
struct CredentialStreamTests {
    static let secret = "credential-stream-secret-of-at-least-32-bytes"
    static let tokens = PlayerTokenSettings(hmacSecrets: ["k1": secret], maxLifetime: 3600)

    /// A clock the test moves: the replica's requests, streams and keys read it.
    final class MovingClock: Sendable {
        private let current: Mutex<Date>
        init(_ start: Date) { current = Mutex(start) }
        var now: Date { current.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    /// Opens `board`'s stream on `router` with `credential`, reading it into `log` until it ends, and waits for its
    /// first page; `body` runs while it is open, and the stream's task is cancelled afterwards on every path.
    static func whileStreaming(
        _ router: Router<PodiumRequestContext>, board: String, credential: String, into log: LiveStreamTests.EventLog,
        _ body: @Sendable () async throws -> Void
    ) async throws {
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await Application(router: router).test(.live) { client in
                let port = try #require(client.port)
                let stream = LiveStreamTests.listen(http, url: "http://127.0.0.1:\(port)\(board)/live", key: credential, into: log)
                defer { stream.cancel() }
                _ = try #require(await log.wait { $0.contains("event: page") }, "the stream opened")
                try await body()
            }
        } catch {
            try await http.shutdown()
            throw error
        }
        try await http.shutdown()
    }

    @Test("a key revoked on one replica ends the streams it holds open there and on another replica, with event: ended revoked")
    func revocationEndsStreamsOnEveryReplica() async throws {
        let revoking = try await HTTPHarness(liveStreamLifetime: .seconds(120))
        let holding = try await HTTPHarness(liveStreamLifetime: .seconds(120))
        let services = [revoking, holding].map { harness in Task { try await harness.storage.live.run() } }
        defer { services.forEach { $0.cancel() } }
        let topic = unique("revoked")
        let key = try await revoking.run { client in
            #expect(try await client.send(.post, "/v1/completions", key: revoking.ingestKey,
                                          json: completionBody(id: "\(topic)-1", user: "\(topic)-a", topic: topic)).status == .created)
            let created = try await client.send(.post, "/v1/admin/api-keys", key: HTTPHarness.adminKey,
                                                json: ["name": "screen", "role": "display", "scopes": ["topic:\(topic)"]] as [String: any Sendable])
            return (id: try #require((created.json["key"] as? [String: Any])?["id"] as? String), secret: try #require(created.json["secret"] as? String))
        }
        let board = "/v1/leaderboards/topic:\(topic)/week"
        let (here, there) = (LiveStreamTests.EventLog(), LiveStreamTests.EventLog())
        try await Self.whileStreaming(revoking.router, board: board, credential: key.secret, into: here) {
            try await Self.whileStreaming(holding.router, board: board, credential: key.secret, into: there) {
                let revoked = try await revoking.run { client in
                    try await client.send(.delete, "/v1/admin/api-keys/\(key.id)", key: HTTPHarness.adminKey)
                }
                #expect(revoked.status == .noContent)
                for log in [here, there] {
                    let events = try #require(await log.wait { $0.contains("event: ended") }, "the stream ended")
                    #expect(events.last == "event: ended\ndata: {\"reason\":\"revoked\"}", "the last event says why")
                }
            }
        }
        let refused = try await holding.run { client in try await client.send(.get, board, key: key.secret) }
        #expect(refused.status == .unauthorized)
    }

    @Test("a key made with expires_at is listed and audited with it, works until then, is refused after it, and its open stream ends expired; a player token's stream ends at its exp")
    func expiringKeysAndTokens() async throws {
        let start = instant("2026-11-25T12:00:00Z")
        let clock = MovingClock(start)
        let harness = try await HTTPHarness(now: start, playerTokens: Self.tokens, liveStreamLifetime: .seconds(120), clock: { clock.now })
        let service = Task { try await harness.storage.live.run() }
        defer { service.cancel() }
        let topic = unique("expiring")
        let expiry = "2026-11-25T12:01:00.000Z"
        let key = try await harness.run { client in
            #expect(try await client.send(.post, "/v1/completions", key: harness.ingestKey,
                                          json: completionBody(id: "\(topic)-1", user: "\(topic)-a", topic: topic)).status == .created)
            // An expiry not in the future, or not a time, is refused and makes no key.
            for bad in ["2026-11-25T12:00:00Z", "2026-11-24T12:00:00Z", "next week"] {
                let refused = try await client.send(.post, "/v1/admin/api-keys", key: HTTPHarness.adminKey, json: [
                    "name": "screen", "role": "display", "scopes": ["topic:\(topic)"], "expires_at": bad,
                ] as [String: any Sendable])
                #expect(refused.status == .badRequest && refused.errorFields == ["expires_at"], "\(bad)")
            }
            let created = try await client.send(.post, "/v1/admin/api-keys", key: HTTPHarness.adminKey, json: [
                "name": "term screen \(topic)", "role": "display", "scopes": ["topic:\(topic)"], "expires_at": "2026-11-25T13:01:00+01:00",
            ] as [String: any Sendable])
            #expect(created.status == .created)
            let info = try #require(created.json["key"] as? [String: Any])
            #expect(info["expires_at"] as? String == expiry)
            let id = try #require(info["id"] as? String)
            let listed = try await client.send(.get, "/v1/admin/api-keys", key: HTTPHarness.adminKey)
            let row = (listed.json["keys"] as? [[String: Any]])?.first { $0["id"] as? String == id }
            #expect(row?["expires_at"] as? String == expiry)
            let trail = try await client.send(.get, "/v1/admin/audit?q=\(id)", key: HTTPHarness.adminKey)
            let entry = (trail.json["entries"] as? [[String: Any]])?.first
            #expect(entry?["action"] as? String == "POST /v1/admin/api-keys")
            #expect(entry?["detail"] as? String == "display key \(id), expires \(expiry)")
            #expect(created.headers[HTTPField.Name("X-Podium-Audit-Detail")!] == nil, "the audit note is not sent to the client")
            return try #require(created.json["secret"] as? String)
        }
        let board = "/v1/leaderboards/topic:\(topic)/week"
        let log = LiveStreamTests.EventLog()
        try await Self.whileStreaming(harness.router, board: board, credential: key, into: log) {
            clock.advance(59.999)
            #expect(try await harness.run { client in try await client.send(.get, board, key: key) }.status == .ok, "until its expiry")
            clock.advance(0.001)
            let events = try #require(await log.wait { $0.contains("event: ended") }, "the stream ended")
            #expect(events.last == "event: ended\ndata: {\"reason\":\"expired\"}")
        }
        let expired = try await harness.run { client in try await client.send(.get, board, key: key) }
        #expect(expired.status == .unauthorized)
        #expect(expired.json["detail"] as? String == "the API key expired at \(expiry)")

        // A player token's stream ends at the token's exp, which the replica's clock reaches.
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: Self.secret), digestAlgorithm: .sha256, kid: JWKIdentifier(string: "k1"))
        let token = try await signPlayerToken(keys, kid: "k1", subject: "\(topic)-a", now: clock.now, lifetime: 30, issuedAt: clock.now)
        let tokenLog = LiveStreamTests.EventLog()
        try await Self.whileStreaming(harness.router, board: "/v1/leaderboards/global/week", credential: token, into: tokenLog) {
            clock.advance(30)
            let events = try #require(await tokenLog.wait { $0.contains("event: ended") }, "the stream ended")
            #expect(events.last == "event: ended\ndata: {\"reason\":\"expired\"}")
        }
    }
}
