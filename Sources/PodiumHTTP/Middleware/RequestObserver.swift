import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PodiumCore
import Logging
import Metrics
import Synchronization

/// The id of the request being served, for logs and problem answers.
///
/// Taken from the client's `X-Request-Id` when it is 1 to 128 visible ASCII characters, generated otherwise.
/// While a request is served it is a task-local value, so every log line written in its task carries it
/// (`RequestID.metadataProvider`), whichever logger wrote it.
public enum RequestID {
    /// The header carrying it, both ways.
    public static let header = HTTPField.Name("X-Request-Id")!

    /// The id of the request this task serves; nil outside a request.
    @TaskLocal static var current: String?

    /// Adds `request_id` to every log line written while a request is served.
    public static let metadataProvider = Logger.MetadataProvider {
        current.map { ["request_id": .string($0)] } ?? [:]
    }

    /// The client's id when usable, else a new one (16 hexadecimal digits).
    static func accept(_ sent: String?) -> String {
        if let sent, (1...128).contains(sent.utf8.count), sent.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) { return sent }
        let hex = String(next(), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Where this process's ids start: random, so that replicas do not repeat each other's.
    private static let seed = UInt64.random(in: .min ... .max)
    /// How many ids this process has made.
    private static let made = Atomic<UInt64>(0)

    /// A new id: SplitMix64 of the process's seed plus a count, which never repeats within the process (the mix is a
    /// bijection) and looks random, without the system call `UInt64.random` makes every time.
    static func next() -> UInt64 {
        var mixed = seed &+ made.add(1, ordering: .relaxed).newValue &* 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Who made a request, as far as the auth middleware found out, for the access log.
///
/// A reference in the request context: the auth middleware runs inside the observer, and what it sets on its
/// copy of the context would not otherwise reach the observer's line.
final class RequestPrincipal: Sendable {
    private let value = Mutex(Caller.anonymous)

    /// The caller the auth middleware established.
    var caller: Caller {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }

    /// `key:<id>` or `player:<subject>`; nil for an anonymous request. Never a secret.
    var name: String? {
        switch caller {
        case .anonymous: nil
        case .key(let grant): "key:\(grant.id)"
        case .player(let claims): "player:\(claims.userID)"
        }
    }
}

/// What the server notes of every request: its id, its metrics and its access log line.
///
/// First in the middleware chain, so it sees every answer, problems included (the problem middleware inside it
/// returns them). Labels use the route template (`/v1/users/{id}`), never the raw path; a request no route
/// matched is labelled `unmatched`.
struct RequestObserverMiddleware: RouterMiddleware {
    /// Whether each request gets an access log line at `info`.
    let accessLog: Bool
    private let inFlight = Meter(label: "podium_http_requests_in_flight")
    private let metrics = RequestMetricsCache()

    /// Creates the middleware; `accessLog` false keeps metrics and ids but writes no access lines.
    init(accessLog: Bool) {
        self.accessLog = accessLog
    }

    func handle(
        _ request: Request, context: PodiumRequestContext, next: (Request, PodiumRequestContext) async throws -> Response
    ) async throws -> Response {
        let id = RequestID.accept(request.headers[RequestID.header])
        var context = context
        // Ours replaces Hummingbird's own id, so that a line names the request once, by the id its answer carries. On the
        // context's logger for the access line, written after the task-local scope below has ended.
        context.logger[metadataKey: "hb.request.id"] = nil
        context.logger[metadataKey: "request_id"] = .string(id)
        let started = ContinuousClock.now
        inFlight.increment()
        var response: Response
        do {
            response = try await RequestID.$current.withValue(id) { try await next(request, context) }
        } catch let aborted as RequestAborted {
            abandon(Noted(request, context: context, started: started), reason: aborted.reason)
            // Usually no one is left to read it; a client that only stopped sending learns why (rather than a bare 500).
            var response = try RequestID.$current.withValue(id) {
                try APIError.malformedBody("the body ended before its announced length").response(from: request, context: context)
            }
            response.headers[RequestID.header] = id
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            finish(Noted(request, context: context, started: started), status: status, bytes: 0)
            throw error
        }
        response.headers[RequestID.header] = id
        let status = response.status
        let noted = Noted(request, context: context, started: started)
        if let length = response.body.contentLength {
            // A whole answer: noted now, and left as it is, so that the server writes it in one go.
            finish(noted, status: status, bytes: length)
            return response
        }
        // A stream (a live page): noted when it ends, with the bytes it sent, or when it is dropped unwritten. It keeps
        // only what its line needs (not the request and its context) for as long as it lasts.
        let record = StreamRecord { [self] bytes in finish(noted, status: status, bytes: bytes) }
        let body = response.body
        response.body = ResponseBody { [record] writer in
            let counter = CountingWriter(writer)
            defer { record.end(bytes: counter.written) }
            try await body.write(counter)
        }
        return response
    }

    /// What a request's metrics and access line need of it, taken once it was answered.
    private struct Noted: Sendable {
        let method: String
        /// The route template; `unmatched` when no route matched.
        let route: String
        let logger: Logger
        let principal: RequestPrincipal
        let started: ContinuousClock.Instant

        init(_ request: Request, context: PodiumRequestContext, started: ContinuousClock.Instant) {
            method = request.method.rawValue
            // Hummingbird names a request no route matched `NotFound`; no route template looks like that.
            route = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 } ?? "unmatched"
            logger = context.logger
            principal = context.principal
            self.started = started
        }
    }

    /// Notes a request the client abandoned before it could be answered: counted by reason, not under a status (it is
    /// no server error, and its answer rarely reaches anyone), with an `info` line whether or not the access log is on.
    private func abandon(_ noted: Noted, reason: RequestAborted.Reason) {
        let elapsed = ContinuousClock.now - noted.started
        inFlight.decrement()
        metrics.recordAbort(reason: reason)
        var metadata: Logger.Metadata = [
            "method": .string(noted.method), "route": .string(noted.route), "reason": .string(reason.rawValue),
            "duration_ms": .string(Self.milliseconds(elapsed)),
        ]
        if let principal = noted.principal.name { metadata["principal"] = .string(principal) }
        noted.logger.info("request aborted by the client", metadata: metadata)
    }

    /// `elapsed` in milliseconds with one decimal (`12.3`), without `String(format:)`'s cost on every request.
    static func milliseconds(_ elapsed: Duration) -> String {
        let tenths = Int((elapsed.inSeconds * 10_000).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private func finish(_ noted: Noted, status: HTTPResponse.Status, bytes: Int) {
        let elapsed = ContinuousClock.now - noted.started
        inFlight.decrement()
        metrics.record(method: noted.method, route: noted.route, status: Int(status.code), duration: elapsed)
        guard accessLog, noted.logger.logLevel <= .info else { return }
        var metadata: Logger.Metadata = [
            "method": .string(noted.method), "route": .string(noted.route), "status": .stringConvertible(status.code),
            "duration_ms": .string(Self.milliseconds(elapsed)),
            "bytes": .stringConvertible(bytes),
        ]
        if let principal = noted.principal.name { metadata["principal"] = .string(principal) }
        noted.logger.info("request", metadata: metadata)
    }
}

/// The end of a streamed answer, noted exactly once: when its body ends, or when the body is dropped without being
/// written (the client left first), so the in-flight gauge always comes down again.
private final class StreamRecord: Sendable {
    private let note: @Sendable (Int) -> Void
    private let ended = Mutex(false)

    init(note: @escaping @Sendable (Int) -> Void) {
        self.note = note
    }

    /// Notes the end with `bytes` sent, unless it was noted before.
    func end(bytes: Int) {
        guard !ended.withLock({ ended in defer { ended = true }; return ended }) else { return }
        note(bytes)
    }

    deinit { end(bytes: 0) }
}

/// A body writer that passes everything on and counts the bytes.
private final class CountingWriter: ResponseBodyWriter, @unchecked Sendable {
    private var writer: any ResponseBodyWriter
    /// Bytes written so far.
    private(set) var written = 0

    init(_ writer: any ResponseBodyWriter) {
        self.writer = writer
    }

    func write(_ buffer: ByteBuffer) async throws {
        written += buffer.readableBytes
        try await writer.write(buffer)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {
        try await writer.finish(trailingHeaders)
    }
}

/// The request metrics, one set per method, route and status, made once and reused.
final class RequestMetricsCache: Sendable {
    private struct Key: Hashable {
        let method: String
        let route: String
        let status: Int
    }

    private struct Series {
        let requests: Counter
        let errors: Counter?
        let duration: Timer
    }

    private let series = Mutex<[Key: Series]>([:])
    private let aborts = Mutex<[RequestAborted.Reason: Counter]>([:])

    /// Counts one request the client abandoned, by reason.
    func recordAbort(reason: RequestAborted.Reason) {
        let counter = aborts.withLock { aborts in
            if let counter = aborts[reason] { return counter }
            let counter = Counter(label: "podium_http_requests_aborted_total", dimensions: [("reason", reason.rawValue)])
            aborts[reason] = counter
            return counter
        }
        counter.increment()
    }

    /// Counts one request and its duration; a 4xx or 5xx answer also counts as an error of its class.
    func record(method: String, route: String, status: Int, duration: Duration) {
        let key = Key(method: method, route: route, status: status)
        let entry = series.withLock { series in
            if let entry = series[key] { return entry }
            let labels = [("method", method), ("route", route)]
            let entry = Series(
                requests: Counter(label: "podium_http_requests_total", dimensions: labels + [("status", String(status))]),
                errors: status >= 400 ? Counter(label: "podium_http_request_errors_total", dimensions: labels + [("status_class", "\(status / 100)xx")]) : nil,
                duration: Timer(label: "podium_http_request_duration_seconds", dimensions: labels, preferredDisplayUnit: .seconds))
            series[key] = entry
            return entry
        }
        entry.requests.increment()
        entry.errors?.increment()
        entry.duration.record(duration: duration)
    }
}
