import CHiredis

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One connection. Not Sendable; used only inside pool closures, on a blocking thread.
public final class RedisConnection {
    private let context: UnsafeMutablePointer<redisContext>

    /// While set, every `command(_:)` is preceded by `ASKING`: a cluster's `ASK` redirect admits one command for a slot
    /// being migrated, and a script run by name that the node lacks (NOSCRIPT) goes again whole, as a second command.
    var asking = false

    /// True once hiredis saw an I/O, EOF, timeout or protocol error; such a connection is never reused.
    var isBroken: Bool { context.pointee.err != 0 }

    /// Whether an idle connection is still open: between commands the server sends nothing, so a
    /// readable socket means it closed the connection (a restart, `CLIENT KILL`, its idle timeout).
    /// One `poll` with a zero timeout; lets the pool replace the connection instead of failing a caller.
    var isOpen: Bool {
        guard !isBroken else { return false }
        var descriptor = pollfd(fd: context.pointee.fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 0
    }

    private init(context: UnsafeMutablePointer<redisContext>) {
        self.context = context
    }

    deinit {
        redisFree(context)
    }

    /// Connects, sets the command timeout, then sends AUTH and SELECT as configured. Blocks.
    static func connect(_ configuration: RedisConfiguration) throws -> RedisConnection {
        let operation = "redisConnectWithTimeout"
        guard let port = Int32(exactly: configuration.port) else {
            throw RedisError(kind: .configuration, message: "port \(configuration.port) is out of range", operation: operation)
        }
        guard let context = redisConnectWithTimeout(configuration.host, port, timeval(configuration.connectTimeout)) else {
            throw RedisError(kind: .connection, message: "could not allocate a hiredis context", operation: operation)
        }
        // From here on the connection owns the context: it is freed when `connection` goes away, also on error.
        let connection = RedisConnection(context: context)
        if connection.isBroken {
            throw connection.contextError(operation)
        }
        guard redisSetTimeout(context, timeval(configuration.commandTimeout)) == REDIS_OK else {
            throw connection.contextError("redisSetTimeout")
        }
        if let password = configuration.password {
            try connection.command(["AUTH"] + (configuration.user.map { [$0] } ?? []) + [password])
        }
        if configuration.database != 0 {
            try connection.command(["SELECT", String(configuration.database)])
        }
        return connection
    }

    /// One command as an argument vector (redisCommandArgv — never a format string), binary-safe arguments. A top-level error reply is THROWN as RedisError(kind: .server).
    @discardableResult
    public func command(_ arguments: [String]) throws -> RedisReply {
        if asking {
            asking = false
            defer { asking = true }
            try command(["ASKING"])
        }
        let operation = "redisCommandArgv \(Self.name(of: arguments))"
        let raw = try Self.withArgv(arguments, operation: operation) { argc, argv, argvlen in
            redisCommandArgv(context, argc, argv, argvlen)
        }
        guard let raw else { throw contextError(operation) }
        let reply = Self.decodeAndFree(raw)
        if case .error(let message) = reply {
            throw RedisError(kind: .server, message: message, operation: operation)
        }
        return reply
    }

    /// Several commands in one round trip (redisAppendCommandArgv for each, then redisGetReply for each). Error replies of individual commands come back as .error in the result array.
    public func pipeline(_ commands: [[String]]) throws -> [RedisReply] {
        // Checked before anything is queued: a command refused halfway would leave the earlier ones
        // in the output buffer, to be sent with (and answered for) the next borrower's command.
        guard commands.allSatisfy({ !$0.isEmpty }) else { throw Self.emptyCommand("redisAppendCommandArgv") }
        for arguments in commands {
            let operation = "redisAppendCommandArgv \(Self.name(of: arguments))"
            let status = try Self.withArgv(arguments, operation: operation) { argc, argv, argvlen in
                redisAppendCommandArgv(context, argc, argv, argvlen)
            }
            guard status == REDIS_OK else { throw contextError(operation) }
        }
        var replies: [RedisReply] = []
        replies.reserveCapacity(commands.count)
        for arguments in commands {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReply(context, &raw) == REDIS_OK, let raw else {
                throw contextError("redisGetReply \(Self.name(of: arguments))")
            }
            replies.append(Self.decodeAndFree(raw))
        }
        return replies
    }

    /// Runs a script by name (`EVALSHA`); on NOSCRIPT, sends it whole (`EVAL`, which caches it on the server).
    /// A top-level error reply is thrown, as by `command(_:)`.
    public func evaluate(_ script: RedisScript, keys: [String], arguments: [String]) throws -> RedisReply {
        let call = RedisScriptCall(script, keys: keys, arguments: arguments)
        do {
            return try command(call.byName)
        } catch let error as RedisError where error.kind == .server && error.message.hasPrefix("NOSCRIPT") {
            return try command(call.whole)
        }
    }

    /// Several script runs in one round trip, by name (`EVALSHA`); the runs the server answered NOSCRIPT
    /// go again whole (`EVAL`), in one more round trip. Error replies come back as `.error`, as in `pipeline(_:)`.
    public func evaluateAll(_ calls: [RedisScriptCall]) throws -> [RedisReply] {
        var replies = try pipeline(calls.map(\.byName))
        let missing = replies.indices.filter { replies[$0].isNoScript }
        guard !missing.isEmpty else { return replies }
        for (index, reply) in zip(missing, try pipeline(missing.map { calls[$0].whole })) {
            replies[index] = reply
        }
        return replies
    }

    /// Turns this connection into a subscriber of `channel` (SUBSCRIBE), keeping the command timeout for its writes
    /// and TCP keepalive. Blocks. Its reader waits with `waitForPush(within:)`, never in a blocking read.
    func subscribe(_ channel: String) throws {
        guard redisEnableKeepAlive(context) == REDIS_OK else { throw contextError("redisEnableKeepAlive") }
        try command(["SUBSCRIBE", channel])
    }

    /// What `waitForPush(within:)` found.
    enum Push {
        /// A whole reply the server pushed (a subscriber's message, the answer to its PING).
        case reply(RedisReply)
        /// Bytes of a reply still under way: the server is talking.
        case partial
        /// Nothing within the wait.
        case silence
    }

    /// The next reply the server pushes, or what arrived instead within `timeout`. Never blocks longer: it waits with
    /// `poll` and reads only what has arrived.
    func waitForPush(within timeout: Duration) throws -> Push {
        if let reply = try bufferedReply() { return .reply(reply) }
        var descriptor = pollfd(fd: context.pointee.fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = poll(&descriptor, 1, milliseconds)
        if ready < 0 && errno != EINTR {
            throw RedisError(kind: .connection, message: String(cString: strerror(errno)), operation: "poll (subscriber)")
        }
        guard ready > 0 else { return .silence }
        // Readable: data, or the end of the connection (then the read fails and the context records why).
        guard redisBufferRead(context) == REDIS_OK else { throw contextError("redisBufferRead (subscriber)") }
        return try bufferedReply().map(Push.reply) ?? .partial
    }

    /// Sends PING on a subscribed connection (answered with a `pong` push), as a heartbeat. Blocks at most the command timeout.
    func sendPing() throws {
        let status = try Self.withArgv(["PING"], operation: "redisAppendCommandArgv PING") { argc, argv, argvlen in
            redisAppendCommandArgv(context, argc, argv, argvlen)
        }
        guard status == REDIS_OK else { throw contextError("redisAppendCommandArgv PING") }
        var done: Int32 = 0
        while done == 0 {
            guard redisBufferWrite(context, &done) == REDIS_OK else { throw contextError("redisBufferWrite PING") }
        }
    }

    /// A reply already read from the socket and parsed, if any; reads nothing.
    private func bufferedReply() throws -> RedisReply? {
        var raw: UnsafeMutableRawPointer?
        guard redisGetReplyFromReader(context, &raw) == REDIS_OK else { throw contextError("redisGetReplyFromReader") }
        return raw.map(Self.decodeAndFree)
    }

    /// Shuts the socket down, so that a thread waiting in `waitForPush(within:)` returns with an error. Safe from any thread.
    func shutDownSocket() {
        _ = shutdown(context.pointee.fd, Int32(SHUT_RDWR))
    }

    /// The error hiredis recorded in the context (`err`/`errstr`), as a `RedisError`.
    private func contextError(_ operation: String) -> RedisError {
        let code = context.pointee.err
        let message = withUnsafeBytes(of: context.pointee.errstr) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        let kind: RedisError.Kind
        switch code {
        case REDIS_ERR_PROTOCOL:
            kind = .protocolError
        case REDIS_ERR_IO where Self.timeoutMessages.contains(message):
            // hiredis 0.14 reports socket timeouts as REDIS_ERR_IO with strerror(EAGAIN / ETIMEDOUT).
            kind = .timeout
        default:
            kind = .connection
        }
        return RedisError(kind: kind, message: message.isEmpty ? "hiredis error \(code)" : message, operation: operation)
    }

    /// strerror texts with which hiredis reports a timed-out socket.
    private static let timeoutMessages: Set<String> = Set([EAGAIN, EWOULDBLOCK, ETIMEDOUT].map { String(cString: strerror($0)) })

    /// The error for a command without arguments (nothing is sent).
    private static func emptyCommand(_ operation: String) -> RedisError {
        RedisError(kind: .protocolError, message: "a command needs at least one argument", operation: operation)
    }

    /// The command name for error messages (arguments may hold secrets, so only the first is used).
    private static func name(of arguments: [String]) -> String {
        arguments.first?.uppercased() ?? "(empty)"
    }

    /// Decodes a reply returned by hiredis and frees it with `freeReplyObject`.
    private static func decodeAndFree(_ raw: UnsafeMutableRawPointer) -> RedisReply {
        defer { freeReplyObject(raw) }
        return RedisReply(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// Calls `body` with hiredis argc/argv/argvlen pointing into one buffer holding every argument's UTF-8 bytes.
    private static func withArgv<R>(
        _ arguments: [String], operation: String,
        _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> R
    ) throws -> R {
        guard !arguments.isEmpty, let argc = Int32(exactly: arguments.count) else { throw emptyCommand(operation) }
        let lengths = arguments.map(\.utf8.count)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lengths.reduce(1, +))
        for argument in arguments {
            bytes.append(contentsOf: argument.utf8)
        }
        bytes.append(0)  // never empty, so there is always a base address, even for only empty arguments
        return bytes.withUnsafeBytes { buffer in
            let base = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
            var offset = 0
            var pointers: [UnsafePointer<CChar>?] = lengths.map { length in
                defer { offset += length }
                return UnsafePointer(base + offset)
            }
            return pointers.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { argvlen in
                    body(argc, argv.baseAddress!, argvlen.baseAddress!)
                }
            }
        }
    }
}

@available(*, unavailable)
extension RedisConnection: Sendable {}

extension timeval {
    /// A `timeval` from a non-negative duration, rounded down to microseconds.
    fileprivate init(_ duration: Duration) {
        let (seconds, attoseconds) = max(duration, .zero).components
        self.init(tv_sec: .init(seconds), tv_usec: .init(attoseconds / 1_000_000_000_000))
    }
}
