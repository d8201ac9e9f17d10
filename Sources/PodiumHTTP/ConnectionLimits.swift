import Hummingbird
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
    /// Connections open at once; more wait in the kernel's backlog until one closes.
    public var maxConnections: Int

    /// Creates limits; the defaults let a classroom of displays poll and slow school networks upload,
    /// while a client that stalls is closed within seconds.
    public init(
        headerTimeout: Duration = .seconds(10), bodyTimeout: Duration = .seconds(30), idleTimeout: Duration = .seconds(60),
        maxConnections: Int = 4096
    ) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
    }
}

/// Closes a connection whose first request's headers, or any request's body, take longer than their limit.
///
/// Sits after HTTP decoding, so it sees whole parts: the first timer runs from the connection's start to the first
/// request head, the second from a head to its end. Between requests, Hummingbird's idle timeout applies (it also
/// closes a connection whose next headers never complete, since only a whole head resets it).
///
/// A handler that stalls before reading a body (waiting for PostgreSQL, say) holds reads back, so the body timer can
/// also close a client that sent everything in time; the timeout is long (30 s) so that only a stalled server does.
final class RequestDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    /// Decoded request parts, passed on unchanged.
    typealias InboundIn = HTTPRequestPart
    /// The same parts.
    typealias InboundOut = HTTPRequestPart

    private let headerTimeout: TimeAmount
    private let bodyTimeout: TimeAmount
    private var deadline: Scheduled<Void>?
    private var sawFirstHead = false

    /// Creates a handler for one connection.
    init(limits: ConnectionLimits) {
        headerTimeout = TimeAmount(limits.headerTimeout)
        bodyTimeout = TimeAmount(limits.bodyTimeout)
    }

    /// Caps the read size and starts the header timer.
    func handlerAdded(context: ChannelHandlerContext) {
        // Reads of at most 4 KiB: Hummingbird buffers up to ten parts per connection before a handler takes them,
        // and with NIO's default of 64 KiB a thousand stalled uploads held 250 MB in those buffers. The first read
        // takes 256 bytes (most of an API request's head), growing as reads fill: NIO keeps each connection's last
        // read buffer for the next read, so a kept-alive connection or a live stream holds that much while it waits.
        try? context.channel.syncOptions?.setOption(
            ChannelOptions.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 256, maximum: Self.maximumRead))
        if context.channel.isActive { arm(headerTimeout, context: context) }
    }

    /// The most bytes one socket read takes in.
    static let maximumRead = 4096

    /// Starts the header timer on a connection that became active after the handler was added.
    func channelActive(context: ChannelHandlerContext) {
        if !sawFirstHead, deadline == nil { arm(headerTimeout, context: context) }
        context.fireChannelActive()
    }

    /// A head starts the body timer, an end stops it.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            sawFirstHead = true
            arm(bodyTimeout, context: context)
        case .body:
            break
        case .end:
            cancel()
        }
        context.fireChannelRead(data)
    }

    /// Stops the timer.
    func handlerRemoved(context: ChannelHandlerContext) {
        cancel()
    }

    /// Stops the timer.
    func channelInactive(context: ChannelHandlerContext) {
        cancel()
        context.fireChannelInactive()
    }

    private func arm(_ timeout: TimeAmount, context: ChannelHandlerContext) {
        cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    private func cancel() {
        deadline?.cancel()
        deadline = nil
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
