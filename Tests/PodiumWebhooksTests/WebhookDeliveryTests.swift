import AsyncHTTPClient
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PodiumCore
@testable import PodiumStore
import PodiumTestSupport
@testable import PodiumWebhooks
import PodiumWire
import Postgres
import Synchronization
import Testing

/// A receiver on loopback that answers each delivery of one event as scripted, and records every request for it.
final class Receiver: Sendable {
    /// How the receiver answers one delivery: a status; a 200 once the test releases it; a 200 whose body stalls
    /// after its first bytes until the test releases it; a redirect to `/moved` (which answers 200 to anything).
    enum Answer: Sendable { case status(Int), hang, stallBody, redirect }
    struct Received: Sendable {
        let eventID: String
        let signature: String
        let body: String
    }

    let eventID: Mutex<String> = Mutex("")
    private let script: Mutex<[Answer]>
    private let released = Latch()
    private let stalledAnswersFinished = Mutex(0)
    private let log: Mutex<[Received]> = Mutex([])

    init(script: [Answer]) {
        self.script = Mutex(script)
    }

    var received: [Received] { log.withLock { $0 } }

    /// How many `hang` and `stallBody` answers have finished: none before `release()`.
    var finishedStalls: Int { stalledAnswersFinished.withLock { $0 } }

    /// Lets every `hang` and `stallBody` answer, waiting or still to come, finish.
    func release() { released.open() }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/hook") { request, _ -> Response in
            func header(_ name: String) -> String {
                request.headers.first { $0.name.canonicalName == name.lowercased() }?.value ?? ""
            }
            let id = header("Podium-Event-Id")
            // Deliveries of other tests' events are simply accepted. An id ending in `*` names every id it starts.
            let scripted = self.eventID.withLock { $0 }
            guard id == scripted || (scripted.hasSuffix("*") && id.hasPrefix(scripted.dropLast())) else { return Response(status: .ok) }
            let body = String(buffer: try await request.body.collect(upTo: 1 << 20))
            self.log.withLock {
                $0.append(Received(eventID: id, signature: header("Podium-Signature"), body: body))
            }
            let answer = self.script.withLock { $0.isEmpty ? .status(200) : $0.removeFirst() }
            switch answer {
            case .status(let code):
                return Response(status: HTTPResponse.Status(code: code))
            case .hang:
                try await self.released.wait()
                self.stalledAnswersFinished.withLock { $0 += 1 }
                return Response(status: .ok)
            case .stallBody:
                return Response(status: .ok, body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "{"))
                    try await self.released.wait()
                    self.stalledAnswersFinished.withLock { $0 += 1 }
                    try await writer.write(ByteBuffer(string: "}"))
                    try await writer.finish(nil)
                })
            case .redirect:
                return Response(status: .found, headers: [.location: "/moved"])
            }
        }
        router.get("/moved") { _, _ in Response(status: .ok) }
        router.post("/moved") { _, _ in Response(status: .ok) }
        return router
    }
}

/// Whether `signature` (`t=…,v1=…`) is the HMAC-SHA256 of "t.body" under `secret`.
func isValid(signature: String, body: String, secret: String) -> Bool {
    let parts = Dictionary(uniqueKeysWithValues: signature.split(separator: ",").compactMap { part -> (String, String)? in
        let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
        return pair.count == 2 ? (pair[0], pair[1]) : nil
    })
    guard let timestamp = parts["t"], let given = parts["v1"] else { return false }
    let expected = HMAC<SHA256>.authenticationCode(for: Data("\(timestamp).\(body)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
    return given == expected.map { String(format: "%02x", $0) }.joined()
}

/// A clock tests move by hand.
final class ManualClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// Serialized: the senders of two tests would claim each other's deliveries (they share the database).
@Suite("Webhook delivery against a loopback receiver", .serialized, .timeLimit(.minutes(5)))
struct WebhookDeliveryTests {
    static let databaseURL = ProcessInfo.processInfo.environment["PODIUM_TEST_DATABASE_URL"]
        ?? "host=127.0.0.1 port=5432 user=postgres dbname=podium_test"
    static let logger = Logger(label: "podium-webhook-tests")
    static let secret = "whsec_test_secret_0123456789"

    /// Runs `body` with a live receiver, a store, a sender and a fresh event the receiver scripts its answers for. The
    /// sender gives up on an answer after `timeout` seconds: long, but for the tests of the timeout itself.
    func withReceiver(
        _ script: [Receiver.Answer], maxAttempts: Int, timeout: TimeInterval = 30,
        _ body: @Sendable (Receiver, WebhookStore, WebhookSender, ManualClock, Webhook, Int64) async throws -> Void
    ) async throws {
        let postgres = PostgresPool(configuration: PostgresConfiguration(connectionString: Self.databaseURL, poolSize: 4), logger: Self.logger)
        try await Migrator(pool: postgres, logger: Self.logger).migrate(try Migration.bundled())
        let store = WebhookStore(postgres: postgres)
        let clock = ManualClock()
        let settings = WebhookSettings(maxAttempts: maxAttempts, timeout: timeout, backoff: 1, batchSize: 100)
        let http = WebhookSender.makeHTTPClient(settings: settings)
        let receiver = Receiver(script: script)
        let app = Application(router: receiver.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        do {
            try await app.test(.live) { client in
                let port = try #require(client.port)
                let webhook = try await store.create(
                    url: "http://127.0.0.1:\(port)/hook", eventTypes: ["period.closed"], secret: Self.secret, now: clock.now)
                let event = try await postgres.withTransaction { connection in
                    let closed = PeriodClosedEvent(
                        board: "webhook-test", window: .day, period: "2027-01-15", players: 0, medals: 0, closedAt: "2027-01-16T00:15:00Z")
                    try connection.run(try EventStore.append([closed], occurredAt: Date(timeIntervalSince1970: 1_800_000_000)))
                    return try connection.query("SELECT currval('events_id_seq') AS id").rows[0].int64("id")
                }
                receiver.eventID.withLock { $0 = "evt_\(event)" }
                try await waitUntilInFeed(event: event, postgres: postgres)
                let sender = WebhookSender(
                    store: store, http: http, settings: settings, replica: "webhook-tests", now: { clock.now }, logger: Self.logger)
                do {
                    try await body(receiver, store, sender, clock, webhook, event)
                } catch {
                    receiver.release()
                    throw error
                }
                receiver.release()
                #expect(try await store.delete(id: webhook.id))
            }
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
        await postgres.close()
    }

    /// Waits until `event` is below the feed's horizon: other tests' transactions, still open when it
    /// committed, keep it out of the feed (and so from senders) until they end.
    func waitUntilInFeed(event: Int64, postgres: PostgresPool) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while try await !postgres.query(
            "SELECT tx < pg_snapshot_xmin(pg_current_snapshot()) AS visible FROM events WHERE id = $1", [event]
        ).rows[0].bool("visible") {
            guard ContinuousClock.now < deadline else { throw WebhookTestFailure("event \(event) never reached the feed") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// This test's delivery (other tests' events of the same type reach this webhook too).
    func ours(_ store: WebhookStore, _ webhook: Webhook, event: Int64) async throws -> WebhookDelivery? {
        try await store.deliveries(webhookID: webhook.id, limit: 500)?.first { $0.eventId == "evt_\(event)" }
    }

    /// Runs the sender until this test's delivery has `attempts` attempts.
    func drive(_ sender: WebhookSender, _ store: WebhookStore, _ webhook: Webhook, _ event: Int64, attempts: Int) async throws -> WebhookDelivery {
        for _ in 0..<200 {
            _ = try await sender.runOnce()
            if let delivery = try await ours(store, webhook, event: event), delivery.attempts >= attempts, delivery.status != .sending {
                return delivery
            }
        }
        throw WebhookTestFailure("delivery never reached \(attempts) attempts")
    }

    @Test("a test event is sent at once, signed and shaped as a delivery, its answer reported, and nothing stored")
    func testEventsAreSentOnceAndSigned() async throws {
        try await withReceiver([.status(503), .status(204)], maxAttempts: 5) { receiver, store, sender, clock, webhook, event in
            receiver.eventID.withLock { $0 = "evt_test_*" }
            let before = try await store.deliveries(webhookID: webhook.id, limit: 500)?.count
            let refused = try #require(try await sender.test(webhookID: webhook.id))
            #expect(!refused.delivered && refused.statusCode == 503 && refused.error == "receiver answered 503")
            #expect(refused.eventId.hasPrefix("evt_test_") && refused.webhookId == webhook.id)
            let taken = try #require(try await sender.test(webhookID: webhook.id))
            #expect(taken.delivered && taken.statusCode == 204 && taken.error == nil && taken.eventId != refused.eventId)
            let received = receiver.received
            #expect(received.map(\.eventID) == [refused.eventId, taken.eventId], "one attempt each, no retry")
            for request in received {
                #expect(isValid(signature: request.signature, body: request.body, secret: Self.secret))
                let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body.utf8)) as? [String: Any])
                #expect(body["type"] as? String == "webhook.test" && body["id"] as? String == request.eventID)
                #expect((body["data"] as? [String: Any])?["webhook_id"] as? String == webhook.id && body["occurred_at"] is String)
            }
            #expect(try await store.deliveries(webhookID: webhook.id, limit: 500)?.count == before, "nothing is stored")
            #expect(try await sender.test(webhookID: "wh_missing") == nil)
        }
    }

    @Test("the signature is the one the README's Python receiver computes")
    func signatureMatchesTheDocumentedRecipe() {
        // hmac.new(b"whsec_test_secret_0123456789", b'1800000000.{"id": "evt_1"}', hashlib.sha256).hexdigest()
        #expect(WebhookSender.signature(secret: Self.secret, timestamp: 1_800_000_000, body: #"{"id": "evt_1"}"#)
            == "t=1800000000,v1=fe1dfe062b1f2dde61f5e2e184d39537390cec670a0451a2315925ec1cb7947c")
    }

    @Test("a receiver that fails, then times out, then succeeds gets the event delivered once, signed")
    func failTimeoutSucceed() async throws {
        try await withReceiver([.status(500), .hang], maxAttempts: 5, timeout: 2) { receiver, store, sender, clock, webhook, event in
            var delivery = try await drive(sender, store, webhook, event, attempts: 1)
            #expect(delivery.status == .pending)
            #expect(delivery.lastStatusCode == 500)
            // Backoff 1 s ± 20 %: not yet due 0.7 s later.
            clock.advance(0.7)
            _ = try await sender.runOnce()
            #expect(try await ours(store, webhook, event: event)?.attempts == 1)
            clock.advance(0.6)
            delivery = try await drive(sender, store, webhook, event, attempts: 2)
            #expect(delivery.status == .pending)
            #expect(delivery.lastStatusCode == nil)
            #expect(delivery.history.last?.error == "no answer within 2 s", "the timeout is recorded, in plain words")
            #expect(receiver.finishedStalls == 0, "the attempt ended by the sender's timeout, not by the receiver's answer")
            receiver.release()
            clock.advance(3)
            delivery = try await drive(sender, store, webhook, event, attempts: 3)
            #expect(delivery.status == .delivered)
            #expect(delivery.history.map(\.statusCode) == [500, nil, 200])
            #expect(delivery.eventId == "evt_\(event)")

            clock.advance(3600)
            _ = try await sender.runOnce()
            let received = receiver.received
            #expect(received.count == 3, "three attempts, then nothing more")
            #expect(received.allSatisfy { isValid(signature: $0.signature, body: $0.body, secret: Self.secret) })
            #expect(!isValid(signature: received[0].signature, body: received[0].body, secret: "another secret of 16+"))
            let json = try #require(try JSONSerialization.jsonObject(with: Data(received[0].body.utf8)) as? [String: Any])
            #expect(json["id"] as? String == "evt_\(event)")
            #expect(json["type"] as? String == "period.closed")
            #expect((json["data"] as? [String: Any])?["board"] as? String == "webhook-test")
        }
    }

    @Test("retry waits double from the backoff, with ±20 % jitter, and never pass the maximum")
    func retryDelays() async throws {
        let http = WebhookSender.makeHTTPClient(settings: WebhookSettings())
        let postgres = PostgresPool(configuration: PostgresConfiguration(connectionString: Self.databaseURL, poolSize: 1), logger: Self.logger)
        let sender = WebhookSender(
            store: WebhookStore(postgres: postgres), http: http, settings: WebhookSettings(backoff: 2, maximumBackoff: 10),
            replica: "webhook-tests", now: { Date() }, logger: Self.logger)
        let first = (0..<100).map { _ in sender.retryDelay(afterAttempt: 1) }
        let late = (0..<100).map { _ in sender.retryDelay(afterAttempt: 5) }
        try await http.shutdown()
        await postgres.close()
        #expect(first.allSatisfy { (1.6...2.4).contains($0) })
        #expect(late.allSatisfy { (8...10).contains($0) }, "\(late.max() ?? 0)")
    }

    @Test("a receiver that stalls its answer's body cannot hold the sender")
    func stalledBody() async throws {
        try await withReceiver([.stallBody], maxAttempts: 5, timeout: 2) { receiver, store, sender, _, webhook, event in
            let delivery = try await drive(sender, store, webhook, event, attempts: 1)
            #expect(receiver.finishedStalls == 0, "ended by the sender's 2 s timeout while the receiver still stalls")
            #expect(delivery.status == .delivered, "the 200 came; the rest of the body does not matter")
        }
    }

    @Test("a redirect is a failed attempt: it is not followed")
    func redirectIsNotFollowed() async throws {
        try await withReceiver([.redirect], maxAttempts: 5) { _, store, sender, _, webhook, event in
            let delivery = try await drive(sender, store, webhook, event, attempts: 1)
            #expect(delivery.status == .pending)
            #expect(delivery.lastStatusCode == 302)
        }
    }

    @Test("senders on three replicas working at once send each event once")
    func concurrentSendersSendOnce() async throws {
        try await withReceiver([], maxAttempts: 5) { receiver, store, sender, clock, webhook, event in
            let others = ["replica-b", "replica-c"].map { name in
                WebhookSender(
                    store: store, http: sender.http, settings: sender.settings,
                    replica: name, now: { clock.now }, logger: Self.logger)
            }
            for _ in 0..<5 {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for replica in [sender] + others { group.addTask { try await replica.runOnce() } }
                    try await group.waitForAll()
                }
            }
            #expect(receiver.received.count == 1)
            #expect(try await ours(store, webhook, event: event)?.status == .delivered)
            #expect(try await ours(store, webhook, event: event)?.attempts == 1)
        }
    }

    @Test("a receiver that refuses the connection reads \"connection refused\" in a delivery's record and a test event's answer")
    func refusedConnectionIsNamedPlainly() async throws {
        // The client tries to connect again until the timeout, then reports the last refusal.
        try await withReceiver([], maxAttempts: 5, timeout: 2) { _, store, sender, clock, _, event in
            // Nothing listens on port 1 of loopback: every connection is refused.
            let refusing = try await store.create(
                url: "http://127.0.0.1:1/hook", eventTypes: ["period.closed"], secret: Self.secret, now: clock.now)
            let tested = try #require(try await sender.test(webhookID: refusing.id))
            #expect(!tested.delivered && tested.statusCode == nil && tested.error == "connection refused")
            let delivery = try await drive(sender, store, refusing, event, attempts: 1)
            #expect(delivery.status == .pending && delivery.lastStatusCode == nil && delivery.lastError == "connection refused")
            #expect(delivery.history.map(\.error) == ["connection refused"])
            #expect(try await store.delete(id: refusing.id))
        }
    }

    @Test("a delivery that keeps failing is dead after the limit, and a resend delivers it")
    func deadThenResent() async throws {
        try await withReceiver([.status(503), .status(404)], maxAttempts: 2) { receiver, store, sender, clock, webhook, event in
            _ = try await drive(sender, store, webhook, event, attempts: 1)
            clock.advance(2)
            let dead = try await drive(sender, store, webhook, event, attempts: 2)
            #expect(dead.status == .dead)
            #expect(dead.history.map(\.statusCode) == [503, 404])
            clock.advance(3600)
            _ = try await sender.runOnce()
            #expect(receiver.received.count == 2, "nothing is sent after the limit")

            #expect(try await store.resend(deliveryID: dead.id, attemptLimit: 1, now: clock.now))
            #expect(try await store.resend(deliveryID: dead.id, attemptLimit: 1, now: clock.now) == false, "only dead deliveries")
            let resent = try await drive(sender, store, webhook, event, attempts: 3)
            #expect(resent.status == .delivered)
            #expect(receiver.received.count == 3)
        }
    }
}

/// A failure raised by these tests' helpers.
struct WebhookTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
