import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Limits that keep slow or idle clients from holding a replica's connections and memory.
public struct ConnectionLimits: Sendable {
    /// From connecting to the end of the first request's headers.
    public var headerTimeout: Duration
    /// From the end of a request's headers to the end of its body, however slowly it trickles in.
    public var bodyTimeout: Duration
    /// A keep-alive connection with no request for this long is closed (so is one whose next request's
    /// headers do not complete within it).
    public var idleTimeout: Duration
    /// Connections open at once. At the limit a new client is still accepted, and the longest-idle keep-alive
    /// connection is closed for it (see `ConnectionRegistry`).
    public var maxConnections: Int
    /// Connections the kernel completes and queues before the server accepts them (capped by `net.core.somaxconn`).
    /// Hummingbird's default of 256 overflowed when the event loops were busy and new clients came hundreds a second.
    public var backlog: Int
    /// Connections accepted each time the listening socket is ready (NIO's default is 4).
    public var acceptBatch: UInt = 64

    /// Creates limits; the defaults let a classroom of displays poll and slow school networks upload,
    /// while a client that stalls is closed within seconds.
    public init(
        headerTimeout: Duration = .seconds(10), bodyTimeout: Duration = .seconds(30), idleTimeout: Duration = .seconds(60),
        maxConnections: Int = 4096, backlog: Int = 4096
    ) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.backlog = backlog
    }
}

/// What happens on one connection between the HTTP codec and Hummingbird: timeouts, when the connection closes, and
/// the connection limit's bookkeeping.
///
/// Sits after HTTP decoding, so it sees whole parts:
/// - **Timeouts.** The header timer runs from the connection's start to the first request head, the body timer from a
///   head to its end. Between requests, Hummingbird's idle timeout applies (it also closes a connection whose next
///   headers never complete, since only a whole head resets it). A body that times out before an answer was started
///   is answered 408 (`APIError.requestTimeout` reaches the body's reader), and the connection is closed after it.
/// - **Early answers.** An answer sent before its request's body was read (401, 413, a 503 of the body budget, a 408)
///   says `Connection: close`; the connection then stops writing, reads and drops what the client still sends for at
///   most `lingerTimeout` (so that the client, busy sending, still reads the answer rather than a reset), and closes.
/// - **A client that leaves mid-body** (closes, resets): the body's reader gets `RequestAborted`, which is counted
///   and logged as the client's doing, not as a server error.
/// - **Graceful shutdown** (`ChannelShouldQuiesceEvent`, not passed on): every request already received is answered,
///   the last one with `Connection: close`; a connection with no request in progress waits `drainTimeout` for one
///   that may already be on its way, then closes.
/// - **The connection limit** (`ConnectionRegistry`): a connection with no request in progress after an answer is
///   idle, and may be closed to make room for a new client; an answer may be told to close its connection.
///
/// A handler that stalls before reading a body (waiting for PostgreSQL, say) holds reads back, so the body timer can
/// also stop a client that sent everything in time; the timeout is long (30 s) so that only a stalled server does.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    /// Decoded request parts, passed on unchanged (none after the connection decided to close).
    typealias InboundIn = HTTPRequestPart
    /// The same parts.
    typealias InboundOut = HTTPRequestPart
    /// Answer parts, passed on (a closing answer's head gets `Connection: close`).
    typealias OutboundIn = HTTPResponsePart
    /// The same parts.
    typealias OutboundOut = HTTPResponsePart

    /// How long a closing connection keeps reading (and dropping) what the client still sends after the last answer.
    static let lingerTimeout = TimeAmount.seconds(2)
    /// How long a connection with no request in progress stays open once a graceful shutdown began, for a request the
    /// client may have sent already.
    static let drainTimeout = TimeAmount.seconds(1)
    /// How long the server has to answer 408 after a body timed out, before the connection is closed anyway.
    static let answerTimeout = TimeAmount.seconds(5)
    /// The most bytes one socket read takes in.
    static let maximumRead = 4096

    private let headerTimeout: TimeAmount
    private let bodyTimeout: TimeAmount
    private let registry: ConnectionRegistry
    /// This connection's number in the registry.
    private var number: Int?
    /// The one timer running: header, body, answer, drain or linger.
    private var timer: Scheduled<Void>?
    /// Heads read whose answer has not ended yet.
    private var requestsInProgress = 0
    /// A head was read and its end not yet.
    private var readingBody = false
    /// An answer's head was written and its end not yet.
    private var answering = false
    /// The answer in progress (or the next one) closes the connection.
    private var closeAfterAnswer = false
    /// A graceful shutdown began.
    private var draining = false
    /// The last answer was sent: input is dropped until the client closes or `lingerTimeout` passes.
    private var lingering = false
    /// The body reader was told the request ended (timed out or the client left); later input is dropped.
    private var requestEnded = false

    /// Creates a handler for one connection of a server with these limits, counted in `registry`.
    init(limits: ConnectionLimits, registry: ConnectionRegistry) {
        headerTimeout = TimeAmount(limits.headerTimeout)
        bodyTimeout = TimeAmount(limits.bodyTimeout)
        self.registry = registry
    }

    /// Caps the read size, registers the connection and starts the header timer.
    func handlerAdded(context: ChannelHandlerContext) {
        // Reads of at most 4 KiB: Hummingbird buffers up to ten parts per connection before a handler takes them,
        // and with NIO's default of 64 KiB a thousand stalled uploads held 250 MB in those buffers. The first read
        // takes 256 bytes (most of an API request's head), growing as reads fill: NIO keeps each connection's last
        // read buffer for the next read, so a kept-alive connection or a live stream holds that much while it waits.
        try? context.channel.syncOptions?.setOption(
            ChannelOptions.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 256, maximum: Self.maximumRead))
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let loop = context.eventLoop
        number = registry.register { loop.execute { bound.value.handler.makeRoom(context: bound.value.context) } }
        if context.channel.isActive { arm(headerTimeout, context: context) { $0.close(promise: nil) } }
    }

    /// Starts the header timer on a connection that became active after the handler was added.
    func channelActive(context: ChannelHandlerContext) {
        if timer == nil, requestsInProgress == 0 { arm(headerTimeout, context: context) { $0.close(promise: nil) } }
        context.fireChannelActive()
    }

    /// Tracks the request's parts and their timers; drops input once the connection is closing.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !lingering, !requestEnded else { return }
        switch unwrapInboundIn(data) {
        case .head:
            requestsInProgress += 1
            readingBody = true
            if let number { registry.setIdle(number, false) }
            arm(bodyTimeout, context: context) { [self] context in bodyTimedOut(context: context) }
        case .body:
            break
        case .end:
            readingBody = false
            cancelTimer()
        }
        context.fireChannelRead(data)
    }

    /// Keeps a lingering connection reading, so that what the client still sends is dropped rather than left unread.
    func channelReadComplete(context: ChannelHandlerContext) {
        if lingering {
            context.read()
            return
        }
        context.fireChannelReadComplete()
    }

    /// A closing answer gets `Connection: close`; its end starts the linger, any other end may leave the connection idle.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var response) where response.status.kind != .informational:
            answering = true
            // Pipelined requests (rare) are answered in order: only the answer to the last one received may close.
            let last = requestsInProgress <= 1
            // Only a whole answer (with a length) makes room for the limit: a stream's connection would stay for minutes.
            let whole = response.headerFields[.contentLength] != nil
            if !closeAfterAnswer, last,
               readingBody || requestEnded || draining || (whole && number.map({ registry.takeRoom(for: $0) }) == true) {
                closeAfterAnswer = true
            }
            if closeAfterAnswer && last {
                response.headerFields[.connection] = "close"
                context.write(wrapOutboundOut(.head(response)), promise: promise)
            } else {
                context.write(data, promise: promise)
            }
        case .head, .body:
            context.write(data, promise: promise)
        case .end:
            answering = false
            requestsInProgress = max(0, requestsInProgress - 1)
            guard requestsInProgress == 0 else {
                context.write(data, promise: promise)
                return
            }
            if closeAfterAnswer {
                linger(afterWriting: data, promise: promise, context: context)
            } else {
                context.write(data, promise: promise)
                becameIdle(context: context)
            }
        }
    }

    /// Handles a graceful shutdown's quiesce event here (Hummingbird's handler would close an idle connection at once,
    /// dropping a request on its way, and close a busy one after its answer without saying so); notes the client's
    /// half-close.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            draining = true
            if let number { registry.setIdle(number, false) }
            // A busy connection's answer says `Connection: close` (or, its head already sent, the connection waits for a
            // last request once it ends).
            if requestsInProgress == 0, !lingering {
                arm(Self.drainTimeout, context: context) { $0.close(promise: nil) }
            }
            return
        }
        if case ChannelEvent.inputClosed = event {
            if lingering {
                context.close(promise: nil)
                return
            }
            clientLeft(context: context)
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// An error while a body is read (the decoder's at a premature end, a reset) means the client left.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !lingering else { return }
        if readingBody, !answering, !requestEnded {
            clientLeft(context: context)
            return
        }
        context.fireErrorCaught(error)
    }

    /// Stops the timer and tells a body reader that the client left.
    func channelInactive(context: ChannelHandlerContext) {
        cancelTimer()
        forget()
        if !lingering { clientLeft(context: context) }
        context.fireChannelInactive()
    }

    /// Stops the timer.
    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimer()
        forget()
    }

    /// The connection limit wants this connection's place: an idle connection closes now, a busy one after its answer.
    private func makeRoom(context: ChannelHandlerContext) {
        guard context.channel.isActive, !lingering else { return }
        if requestsInProgress == 0 {
            context.close(promise: nil)
        } else {
            closeAfterAnswer = true
        }
    }

    /// The body's reader learns the request ended without its body: the client left.
    private func clientLeft(context: ChannelHandlerContext) {
        guard readingBody, !answering, !requestEnded else { return }
        requestEnded = true
        context.fireErrorCaught(RequestAborted(reason: .clientClosed))
    }

    /// A body took longer than its limit: answered 408 if no answer began, else the connection closes.
    private func bodyTimedOut(context: ChannelHandlerContext) {
        guard !answering, requestsInProgress == 1 else {
            context.close(promise: nil)
            return
        }
        requestEnded = true
        closeAfterAnswer = true
        context.fireErrorCaught(APIError.requestTimeout(after: bodyTimeout))
        arm(Self.answerTimeout, context: context) { $0.close(promise: nil) }
    }

    /// Writes the last answer's end, then stops writing and drops input until the client closes or the linger ends.
    private func linger(afterWriting data: NIOAny, promise: EventLoopPromise<Void>?, context: ChannelHandlerContext) {
        lingering = true
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { result in
            promise?.completeWith(result)
            context.close(mode: .output, promise: nil)
        }
        context.writeAndFlush(data, promise: written)
        arm(Self.lingerTimeout, context: context) { $0.close(promise: nil) }
        context.read()
    }

    /// Every answer ended: while draining, the connection waits a moment for a last request; otherwise it is idle.
    private func becameIdle(context: ChannelHandlerContext) {
        if draining {
            arm(Self.drainTimeout, context: context) { $0.close(promise: nil) }
        } else if let number {
            registry.setIdle(number, true)
        }
    }

    private func arm(_ timeout: TimeAmount, context: ChannelHandlerContext, _ action: @escaping (ChannelHandlerContext) -> Void) {
        cancelTimer()
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { action(context) }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
    }

    private func forget() {
        if let number { registry.remove(number) }
        number = nil
    }
}

extension APIError {
    /// 408: the body did not arrive within `limit` of the headers (the client's doing; the connection closes after it).
    static func requestTimeout(after limit: TimeAmount) -> APIError {
        APIError(
            .requestTimeout, code: "request-timeout", title: "Request Timeout",
            detail: "the body did not arrive within \(limit.nanoseconds / 1_000_000_000) s of the headers; send the request again")
    }
}

/// A request that ended before its body did because the client left: it is counted in
/// `podium_http_requests_aborted_total` rather than under a status, and answered 400 in case anyone still reads.
struct RequestAborted: Error {
    /// Why a request was abandoned.
    enum Reason: String {
        /// The client closed or reset the connection while sending the body.
        case clientClosed = "client_closed"
    }

    /// Why this one was.
    let reason: Reason
}

/// The connections of one server, for its connection limit: how many are open, which are idle keep-alive connections
/// (and since when), and how many must still close to bring the count back under the limit.
///
/// At the limit a new client is still accepted, and the longest-idle keep-alive connection is closed for it; when none
/// is idle, the next whole answer on any connection says `Connection: close` (so no request is cut), or the next
/// connection whose live stream ends closes. Meanwhile no further client is accepted, so the count exceeds the limit by
/// a few at most, and only until then: idle keep-alive clients can no longer lock new ones out until the idle timeout.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        /// Closes the connection, or has it close after its answer; runs on its event loop.
        let makeRoom: @Sendable () -> Void
        /// When it last became idle; nil while a request is in progress (or before its first one).
        var idleSince: NIODeadline?
        /// Asked to close for the limit.
        var leaving = false
    }

    private struct State {
        var next = 0
        var entries: [Int: Entry] = [:]
        var idle = 0
        /// Connections accepted and not yet closed (the accepting handler's count).
        var open = 0
        /// Connections asked to close for the limit and not yet closed.
        var leaving = 0
    }

    /// The most connections open at once.
    let limit: Int
    private let state = Mutex(State())

    /// Creates an empty registry for `limit` connections.
    init(limit: Int) {
        self.limit = limit
    }

    /// Whether another client may be accepted: there is room, or an idle connection to close for it, or nothing is
    /// over the limit yet (one client more is accepted and an answer elsewhere makes room).
    var isAccepting: Bool {
        state.withLock { $0.open - $0.leaving <= limit || $0.idle > 0 }
    }

    /// Idle keep-alive connections now.
    var idleCount: Int { state.withLock { $0.idle } }

    /// Counts an accepted connection; over the limit, closes the longest-idle one (or asks the next answer to make room).
    func opened() {
        let evict = state.withLock { state -> (@Sendable () -> Void)? in
            state.open += 1
            guard state.open - state.leaving > limit else { return nil }
            // A scan of every connection, only when over the limit.
            var oldest: (number: Int, since: NIODeadline)?
            for (number, entry) in state.entries {
                if let since = entry.idleSince, since < oldest?.since ?? .distantFuture { oldest = (number, since) }
            }
            guard let number = oldest?.number, let entry = state.entries[number] else { return nil }
            state.entries[number]?.idleSince = nil
            state.idle -= 1
            state.entries[number]?.leaving = true
            state.leaving += 1
            return entry.makeRoom
        }
        evict?()
    }

    /// Counts a closed connection.
    func closed() {
        state.withLock { $0.open -= 1 }
    }

    /// Adds a connection; `makeRoom` closes it for the limit. Returns its number.
    func register(makeRoom: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            state.next += 1
            state.entries[state.next] = Entry(makeRoom: makeRoom, idleSince: nil)
            return state.next
        }
    }

    /// Marks connection `number` idle (its answers ended) or busy (a request came); an idle one while the count is over
    /// the limit is closed at once.
    func setIdle(_ number: Int, _ idle: Bool) {
        let evict = state.withLock { state -> (@Sendable () -> Void)? in
            guard let entry = state.entries[number], !entry.leaving, (entry.idleSince != nil) != idle else { return nil }
            if idle, state.open - state.leaving > limit {
                state.entries[number]?.leaving = true
                state.leaving += 1
                return entry.makeRoom
            }
            state.entries[number]?.idleSince = idle ? .now() : nil
            state.idle += idle ? 1 : -1
            return nil
        }
        evict?()
    }

    /// Whether connection `number`'s answer should close it because the count is over the limit (it then counts as leaving).
    func takeRoom(for number: Int) -> Bool {
        state.withLock { state in
            guard state.open - state.leaving > limit, let entry = state.entries[number], !entry.leaving else { return false }
            state.entries[number]?.leaving = true
            state.leaving += 1
            return true
        }
    }

    /// Forgets connection `number` (closed).
    func remove(_ number: Int) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: number) else { return }
            if entry.idleSince != nil { state.idle -= 1 }
            if entry.leaving { state.leaving -= 1 }
        }
    }
}
/// Hummingbird's hook into accepting connections, counting them in a `ConnectionRegistry`.
struct ConnectionLimitDelegate: AvailableConnectionsDelegate {
    /// The server's connections.
    let registry: ConnectionRegistry

    /// Counts an accepted connection (over the limit, another makes room).
    mutating func connectionOpened() {
        registry.opened()
    }

    /// Counts a closed connection.
    mutating func connectionClosed() {
        registry.closed()
    }

    /// Whether the server reads the next connection from the kernel's backlog.
    func isAcceptingNewConnections() -> Bool {
        registry.isAccepting
    }
}

/// The bytes of request bodies all requests of a replica may hold at once while reading them.
///
/// A body is read into memory before it is decoded; without a shared bound, many clients that send most of
/// a 2 MiB body and stall (until the body timeout closes them) would hold 2 MiB each. Past the budget a new
/// body is refused with 503 and `Retry-After` instead of growing the process.
final class BodyBudget: Sendable {
    /// The replica's budget: 16 MiB, room for 8 bodies at the 2 MiB limit at once, about 100 offline batches of
    /// 500 typical completions, or tens of thousands of single completions.
    static let shared = BodyBudget(bytes: 16 << 20)

    private let available: Atomic<Int>

    /// Creates a budget of `bytes`.
    init(bytes: Int) {
        available = Atomic(bytes)
    }

    /// Reads `request`'s body up to `limit` bytes (413 beyond), taking its bytes from the budget while it is read
    /// and giving them back when `body` returns.
    func withBody<T>(of request: Request, limit: Int, _ body: (ByteBuffer) throws -> T) async throws -> T {
        var held = 0
        defer { _ = available.add(held, ordering: .relaxed) }
        var buffer = ByteBuffer()
        for try await chunk in request.body {
            guard buffer.readableBytes + chunk.readableBytes <= limit else { throw HTTPError(.contentTooLarge) }
            let left = available.subtract(chunk.readableBytes, ordering: .relaxed).newValue
            held += chunk.readableBytes
            if left < 0 {
                throw APIError.unavailable("the server is reading too many request bodies at once; retry shortly")
            }
            var chunk = chunk
            buffer.writeBuffer(&chunk)
        }
        return try body(buffer)
    }
}
