import AsyncHTTPClient
import Foundation
import Logging
import Metrics
import NIOCore
import NIOHTTP1
import PodiumCore
import PodiumStore
import PodiumWire

/// How webhooks are sent.
public struct WebhookSettings: Sendable {
    /// Attempts per delivery before it is marked dead.
    public var maxAttempts: Int
    /// How long a receiver may take to answer.
    public var timeout: TimeInterval
    /// Delay before the first retry; doubled for each further one (±20 % jitter), at most `maximumBackoff`.
    public var backoff: TimeInterval
    /// The longest wait between attempts.
    public var maximumBackoff: TimeInterval
    /// Deliveries claimed per pass.
    public var batchSize: Int

    /// Creates settings; the defaults suit production receivers.
    public init(maxAttempts: Int = WebhookStore.defaultMaxAttempts, timeout: TimeInterval = 5, backoff: TimeInterval = 2, maximumBackoff: TimeInterval = 3600, batchSize: Int = 20) {
        self.maxAttempts = maxAttempts
        self.timeout = timeout
        self.backoff = backoff
        self.maximumBackoff = maximumBackoff
        self.batchSize = batchSize
    }
}

/// Fans the outbox out to webhooks and POSTs due deliveries, signed.
///
/// Each request carries `Podium-Event-Id` (deduplicate on it), `Podium-Event-Type` and
/// `Podium-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the webhook's secret>`.
/// A 2xx answer delivers; anything else, or no answer within the timeout, is retried with
/// exponential backoff and jitter until the attempts run out, then the delivery is dead.
/// Sending happens here, never on the path that records completions.
public final class WebhookSender: Sendable {
    let store: WebhookStore
    let http: HTTPClient
    let settings: WebhookSettings
    let replica: String
    let now: @Sendable () -> Date
    let logger: Logger
    /// Failed attempts: a receiver that is down fails every delivery, so one line per 10 s says so.
    private let endpointFailing: ThrottledLog

    /// Creates a sender over `http` (owned by the caller).
    public init(store: WebhookStore, http: HTTPClient, settings: WebhookSettings, replica: String, now: @escaping @Sendable () -> Date, logger: Logger) {
        self.store = store
        self.http = http
        self.settings = settings
        self.replica = replica
        self.now = now
        self.logger = logger
        endpointFailing = ThrottledLog(logger)
    }

    /// An HTTP client for sending: redirects are not followed (a 3xx is a failed attempt, and a receiver cannot
    /// point Podium at another address), and a receiver that stops sending times out after `settings.timeout`.
    public static func makeHTTPClient(settings: WebhookSettings) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        let timeout = TimeAmount.milliseconds(Int64(settings.timeout * 1000))
        configuration.timeout = .init(connect: timeout, read: timeout)
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// One pass: fan out new events, then send every claimed delivery concurrently; returns the work done
    /// (events fanned out plus deliveries attempted), so a busy outbox is drained without pauses.
    @discardableResult
    public func runOnce() async throws -> Int {
        let fannedOut = try await store.dispatch(attemptLimit: settings.maxAttempts, now: now())
        // The lease outlives the timeout, so a live sender always finishes before a takeover.
        let claimed = try await store.claim(lease: settings.timeout + 30, now: now(), limit: settings.batchSize)
        await withTaskGroup(of: Void.self) { group in
            for delivery in claimed { group.addTask { await self.send(delivery) } }
        }
        return fannedOut + claimed.count
    }

    /// Runs `work` for at most `limit`, cancelling it then; its errors are dropped.
    private static func within(_ limit: Duration, _ work: @escaping @Sendable () async throws -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await work() }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }

    /// The signature header value for `body` sent at `timestamp` (unix seconds).
    public static func signature(secret: String, timestamp: Int, body: String) -> String {
        "t=\(timestamp),v1=" + Hashing.hmacSHA256Hex(key: secret, "\(timestamp).\(body)")
    }

    /// Wait after failed attempt `attempt` (1-based): backoff × 2^(attempt−1), ±20 % jitter, then capped.
    func retryDelay(afterAttempt attempt: Int) -> TimeInterval {
        min(Backoff.delay(base: settings.backoff, afterAttempt: attempt, maximum: settings.maximumBackoff) * Double.random(in: 0.8...1.2),
            settings.maximumBackoff)
    }

    /// One signed POST of `body` to `url`: the receiver's status (nil when it did not answer), why it failed, and
    /// how long it took in milliseconds.
    private func post(url: String, secret: String, eventID: String, eventType: String, body: String, at started: Date)
        async -> (statusCode: Int?, failure: String?, milliseconds: Int)
    {
        let clock = ContinuousClock.now
        var statusCode: Int?
        var failure: String?
        do {
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "User-Agent", value: "Podium-Webhooks/1")
            request.headers.add(name: "Podium-Event-Id", value: eventID)
            request.headers.add(name: "Podium-Event-Type", value: eventType)
            request.headers.add(
                name: "Podium-Signature", value: Self.signature(secret: secret, timestamp: Int(started.timeIntervalSince1970), body: body))
            request.body = .bytes(ByteBuffer(string: body))
            let response = try await http.execute(request, timeout: .milliseconds(Int64(settings.timeout * 1000)))
            statusCode = Int(response.status.code)
            // Read (and drop) a little of the answer so the connection can be reused, for at most the timeout:
            // a receiver that drips or stalls its body cannot hold the sender.
            await Self.within(.milliseconds(Int64(settings.timeout * 1000))) { _ = try await response.body.collect(upTo: 64 * 1024) }
        } catch {
            failure = DeliveryFailure.describe(error, timeout: settings.timeout)
        }
        let elapsed = ContinuousClock.now - clock
        return (statusCode, failure, Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000))
    }

    private func send(_ delivery: ClaimedDelivery) async {
        let started = now()
        let (statusCode, failure, milliseconds) = await post(
            url: delivery.url, secret: delivery.secret, eventID: delivery.eventId, eventType: delivery.eventType, body: delivery.body,
            at: started)
        let delivered = statusCode.map { (200..<300).contains($0) } ?? false
        Counter(label: "podium_webhook_attempts_total", dimensions: [("outcome", delivered ? "delivered" : "failed")]).increment()
        if delivered || delivery.attempt >= delivery.attemptLimit {
            Counter(label: "podium_webhook_deliveries_total", dimensions: [("outcome", delivered ? "delivered" : "dead")]).increment()
        }
        if !delivered {
            // The host only: a receiver's address may carry a token in its path or query.
            endpointFailing.log("webhook endpoint failing", metadata: [
                "host": "\(URL(string: delivery.url)?.host ?? "?")", "delivery": "\(delivery.id)", "attempt": "\(delivery.attempt)",
                "dead": "\(delivery.attempt >= delivery.attemptLimit)", "status": "\(statusCode.map(String.init) ?? "none")",
                "error": "\(failure ?? "")"])
        }
        do {
            try await store.finish(
                delivery, replica: replica, startedAt: started, durationMs: milliseconds, statusCode: statusCode, error: failure,
                retryDelay: retryDelay(afterAttempt: delivery.attempt), now: now())
        } catch {
            logger.warning("could not record a webhook attempt; the lease will expire and it is retried",
                           metadata: ["delivery": "\(delivery.id)", "error": "\(error)"])
        }
    }
}

extension WebhookSender: WebhookTesting {
    /// Sends webhook `webhookID` a `webhook.test` event now, signed with its secret, once (disabled webhooks too, so a
    /// receiver can be checked before it is enabled); nothing is stored. Nil when there is no such webhook.
    public func test(webhookID: String) async throws -> WebhookTestResult? {
        guard let target = try await store.target(id: webhookID) else { return nil }
        let started = now()
        let event = TestEvent(
            id: "evt_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased(),
            occurredAt: RFC3339.format(started), data: TestEvent.Data(webhookId: webhookID))
        let body = String(decoding: try PodiumJSON.encoder().encode(event), as: UTF8.self)
        let (statusCode, failure, milliseconds) = await post(
            url: target.url, secret: target.secret, eventID: event.id, eventType: event.type, body: body, at: started)
        let delivered = statusCode.map { (200..<300).contains($0) } ?? false
        return WebhookTestResult(
            webhookId: webhookID, eventId: event.id, delivered: delivered, statusCode: statusCode,
            error: failure ?? (delivered ? nil : "receiver answered \(statusCode ?? 0)"), durationMs: milliseconds)
    }
}

/// The body of a test event: shaped as every delivery (`id`, `type`, `occurred_at`, `data`).
private struct TestEvent: Encodable {
    struct Data: Encodable {
        /// The webhook tested.
        let webhookId: String
    }

    let id: String
    let type = "webhook.test"
    let occurredAt: String
    let data: Data
}
