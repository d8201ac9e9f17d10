import Logging
import NIOConcurrencyHelpers
import NIOPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A bounded pool of hiredis connections; every blocking hiredis call runs on the pool's own NIOThreadPool threads (one per slot), never on the cooperative pool or an event loop.
///
/// Creating a pool sets SIGPIPE to be ignored process-wide: hiredis writes with plain `write(2)`, and a write to a
/// connection the server closed must fail with EPIPE instead of killing the process.
public final class RedisPool: Sendable {
    /// Where the pool connects (a subscriber opens its own connection with the same settings).
    public let configuration: RedisConfiguration
    private let logger: Logger
    private let threads: NIOThreadPool
    private let state = Mutex(State())

    /// How many callers are waiting for a connection (tests use it to queue waiters in a known order).
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// Creates the pool and starts its threads; connections are opened lazily, on first use.
    public init(configuration: RedisConfiguration, logger: Logger) {
        _ = Self.ignoreSIGPIPE
        self.configuration = configuration
        self.logger = logger
        threads = NIOThreadPool(numberOfThreads: Self.size(of: configuration))
        threads.start()
    }

    deinit {
        // A pool dropped without close(): stop its idle threads.
        if !state.withLock(\.closed) {
            threads.shutdownGracefully { _ in }
        }
    }

    /// Borrows a connection and runs body on a blocking thread. A connection that saw an I/O / EOF / timeout error (context->err set) is discarded; the next borrow connects anew — this is how the pool recovers after a server restart.
    public func withConnection<T: Sendable>(_ body: @escaping @Sendable (RedisConnection) throws -> T) async throws -> T {
        let slot = try await acquire()
        let result: Result<T, any Error>
        do {
            result = .success(try await threads.runIfActive { [self] in
                try body(self.connection(in: slot))
            })
        } catch {
            result = .failure(error)
        }
        let closed = release(slot)
        if closed, case .failure(let error) = result, error is CancellationError, !Task.isCancelled {
            // The pool shut its threads down between acquire and run.
            throw Self.closedError("run command")
        }
        return try result.get()
    }

    /// Runs `body` like `withConnection(_:)`, but stops waiting for it once `deadline` has passed (waiting for a free
    /// connection included), throwing `.timeout`: for reads with a fallback, so that a server that hangs without
    /// closing its connections costs a caller the deadline, not the socket timeout or longer.
    ///
    /// A body that was already running on a connection when its deadline passed means the server hangs: the pool
    /// is then suspended for `configuration.readSuspension`, and deadline reads throw `.timeout` at once, without
    /// touching the server. After the suspension one read (the probe) asks the server while the others keep
    /// throwing; its answer ends the suspension, its missed deadline starts another. A caller that gave up while
    /// still waiting for a connection (a busy pool, not a hung server) suspends nothing and leaves the queue; a
    /// body that missed its deadline still runs to its end (or its socket timeout) on its pool thread. Without a
    /// deadline this is `withConnection(_:)`.
    public func withConnection<T: Sendable>(
        deadline: Duration?, _ body: @escaping @Sendable (RedisConnection) throws -> T
    ) async throws -> T {
        guard let deadline else { return try await withConnection(body) }
        let start = ContinuousClock.now
        guard let isProbe = state.withLock({ $0.admitDeadlineRead(at: start) }) else {
            throw RedisError(kind: .timeout, message: "Redis missed a read deadline less than \(configuration.readSuspension) ago",
                             operation: "read (suspended)")
        }
        let waiting = NIOLockedValueBox<CheckedContinuation<T, any Error>?>(nil)
        let running = NIOLockedValueBox(false)
        let worker = NIOLockedValueBox<Task<Void, Never>?>(nil)
        return try await withCheckedThrowingContinuation { continuation in
            waiting.withLockedValue { $0 = continuation }
            let timer = Task { [self] in
                guard (try? await Task.sleep(until: start + deadline)) != nil,
                      let late = waiting.withLockedValue({ $0.take() }) else { return }
                // Still queued for a connection: leave the queue. Running: the body ends on its own.
                worker.withLockedValue { $0 }?.cancel()
                let hung = running.withLockedValue { $0 }
                state.withLock { state in
                    if hung { state.suspendedUntil = .now + configuration.readSuspension }
                    if isProbe { state.endProbe(answered: false, suspendUntil: state.suspendedUntil) }
                }
                if hung { logger.debug("a Redis read missed its deadline", metadata: ["deadline": "\(deadline)"]) }
                late.resume(throwing: RedisError(kind: .timeout, message: "no answer within \(deadline)", operation: "read deadline"))
            }
            worker.withLockedValue { $0 = Task { [self] in
                let result: Result<T, any Error>
                do {
                    result = .success(try await withConnection { connection in
                        running.withLockedValue { $0 = true }
                        return try body(connection)
                    })
                } catch {
                    result = .failure(error)
                }
                guard let waiter = waiting.withLockedValue({ $0.take() }) else { return }
                timer.cancel()
                if isProbe { state.withLock { $0.endProbe(answered: true, suspendUntil: nil) } }
                waiter.resume(with: result)
            } }
        }
    }

    /// Runs several Lua scripts in one round trip like `evaluateAll(_:)`, within `deadline` (see `withConnection(deadline:_:)`).
    public func evaluateAll(_ calls: [RedisScriptCall], deadline: Duration?) async throws -> [RedisReply] {
        try await withConnection(deadline: deadline) { try $0.evaluateAll(calls) }
    }

    /// Runs one command on a pooled connection; see `RedisConnection.command(_:)`.
    @discardableResult
    public func command(_ arguments: [String]) async throws -> RedisReply {
        try await withConnection { try $0.command(arguments) }
    }

    /// Runs several commands in one round trip on a pooled connection, within `deadline` when given (see
    /// `withConnection(deadline:_:)`); see `RedisConnection.pipeline(_:)`.
    public func pipeline(_ commands: [[String]], deadline: Duration? = nil) async throws -> [RedisReply] {
        try await withConnection(deadline: deadline) { try $0.pipeline(commands) }
    }

    /// Runs a Lua script on a pooled connection; see `RedisConnection.evaluate(_:keys:arguments:)`.
    public func evaluate(_ script: RedisScript, keys: [String], arguments: [String]) async throws -> RedisReply {
        try await withConnection { try $0.evaluate(script, keys: keys, arguments: arguments) }
    }

    /// Runs several Lua scripts in one round trip on a pooled connection; see `RedisConnection.evaluateAll(_:)`.
    public func evaluateAll(_ calls: [RedisScriptCall]) async throws -> [RedisReply] {
        try await withConnection { try $0.evaluateAll(calls) }
    }

    /// PING; throws if the server does not answer PONG.
    public func ping() async throws {
        let reply = try await command(["PING"])
        guard reply == .string("PONG") else {
            throw RedisError(kind: .protocolError, message: "expected PONG, got \(reply)", operation: "redisCommandArgv PING")
        }
    }

    /// Fails waiting borrowers with `.poolClosed`, closes idle connections, waits for running commands, then stops the threads.
    /// Later calls throw `.poolClosed`. Calling it again does nothing.
    public func close() async {
        let closing = state.withLock { state -> (waiters: [Waiter], idle: [Slot])? in
            guard !state.closed else { return nil }
            state.closed = true
            defer {
                state.waiters = []
                state.idle = []
            }
            state.slots -= state.idle.count
            state.connections -= state.idle.count
            return (state.waiters, state.idle)
        }
        guard let closing else { return }
        for waiter in closing.waiters {
            waiter.timeout.cancel()
            waiter.continuation.resume(throwing: Self.closedError("acquire connection"))
        }
        for slot in closing.idle {
            slot.connection = nil
        }
        do {
            try await threads.shutdownGracefully()
        } catch {
            logger.error("Redis pool threads did not shut down", metadata: ["error": "\(error)"])
        }
        logger.debug("Redis pool closed")
    }

    /// The pool's size, the slots borrowed now and the callers waiting for one, for metrics.
    public var usage: (size: Int, inUse: Int, waiters: Int) {
        let size = Self.size(of: configuration)
        return state.withLock { (size, $0.slots - $0.idle.count, $0.waiters.count) }
    }

    /// Connections currently open to the server (idle or borrowed).
    public var openConnections: Int {
        state.withLock(\.connections)
    }

    // MARK: - Borrowing

    /// Takes an idle slot, a new empty slot if below the pool size, or waits (FIFO) for one to be released.
    private func acquire() async throws -> Slot {
        switch state.withLock({ $0.take(limit: Self.size(of: configuration)) }) {
        case .slot(let slot): return slot
        case .closed: throw Self.closedError("acquire connection")
        case .exhausted: break
        }
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Slot, any Error>) in
                let timeout = Task { [configuration] in
                    do {
                        try await Task.sleep(for: configuration.acquireTimeout)
                    } catch {
                        return  // cancelled: the waiter got a slot or gave up
                    }
                    let error = RedisError(
                        kind: .timeout, message: "no connection became free within \(configuration.acquireTimeout)",
                        operation: "acquire connection"
                    )
                    self.removeWaiter(id, failingWith: error)
                }
                let immediate = state.withLock { state -> Result<Slot, any Error>? in
                    switch state.take(limit: Self.size(of: configuration)) {
                    case .slot(let slot): return .success(slot)
                    case .closed: return .failure(Self.closedError("acquire connection"))
                    case .exhausted: break
                    }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters.append(Waiter(id: id, continuation: continuation, timeout: timeout))
                    return nil
                }
                if let immediate {
                    timeout.cancel()
                    continuation.resume(with: immediate)
                }
            }
        } onCancel: {
            removeWaiter(id, failingWith: CancellationError())
        }
    }

    /// Fails the waiter `id` with `error` if it is still waiting.
    private func removeWaiter(_ id: Int, failingWith error: any Error) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        guard let waiter else { return }
        waiter.timeout.cancel()
        waiter.continuation.resume(throwing: error)
    }

    /// The slot's connection, connecting first if the slot is empty or its connection was closed. Runs on a pool thread.
    private func connection(in slot: Slot) throws -> RedisConnection {
        if let connection = slot.connection {
            if connection.isOpen { return connection }
            slot.connection = nil
            state.withLock { $0.connections -= 1 }
            logger.info("replacing a Redis connection the server closed")
        }
        let connection = try RedisConnection.connect(configuration)
        slot.connection = connection
        state.withLock { $0.connections += 1 }
        logger.debug("Redis connection opened", metadata: ["redis.host": "\(configuration.host)", "redis.port": "\(configuration.port)"])
        return connection
    }

    /// Returns a borrowed slot: drops a broken connection, hands the slot to the oldest waiter or keeps it idle.
    /// Returns whether the pool is closed.
    private func release(_ slot: Slot) -> Bool {
        let broken = slot.connection?.isBroken ?? false
        if broken {
            slot.connection = nil
            logger.warning("Discarding broken Redis connection")
        }
        let hasConnection = slot.connection != nil
        let (waiter, closed) = state.withLock { state -> (Waiter?, Bool) in
            if broken { state.connections -= 1 }
            if state.closed {
                state.slots -= 1
                if hasConnection { state.connections -= 1 }
                return (nil, true)
            }
            if !state.waiters.isEmpty {
                return (state.waiters.removeFirst(), false)
            }
            if hasConnection {
                state.idle.append(slot)
            } else {
                state.slots -= 1
            }
            return (nil, false)
        }
        if closed {
            slot.connection = nil
        }
        if let waiter {
            waiter.timeout.cancel()
            waiter.continuation.resume(returning: slot)
        }
        return closed
    }

    // MARK: - Helpers

    /// The number of connections and threads: the configured pool size, at least 1.
    private static func size(of configuration: RedisConfiguration) -> Int {
        max(1, configuration.poolSize)
    }

    /// The error for any use of a closed pool.
    private static func closedError(_ operation: String) -> RedisError {
        RedisError(kind: .poolClosed, message: "the Redis pool is closed", operation: operation)
    }

    /// Ignores SIGPIPE once per process (see the type's documentation).
    static let ignoreSIGPIPE: Void = {
        _ = signal(SIGPIPE, SIG_IGN)
    }()
}

/// A pool place for one connection: empty until its first borrower connects. Owned by one borrower at a time.
private final class Slot: @unchecked Sendable {
    /// The open connection, or nil until the next borrower connects.
    var connection: RedisConnection?
}

/// A borrower waiting for a slot.
private struct Waiter {
    /// Identifies the waiter for timeout and cancellation.
    let id: Int
    /// Resumed with a slot, or with a timeout, cancellation or pool-closed error.
    let continuation: CheckedContinuation<Slot, any Error>
    /// Fails the waiter after the acquire timeout; cancelled when the waiter leaves the queue.
    let timeout: Task<Void, Never>
}

/// The pool's bookkeeping, guarded by its mutex.
private struct State {
    /// Slots that exist: borrowed plus idle.
    var slots = 0
    /// Open hiredis connections.
    var connections = 0
    /// Slots holding an open connection, free to borrow.
    var idle: [Slot] = []
    /// Borrowers waiting for a slot, oldest first.
    var waiters: [Waiter] = []
    /// The last waiter id handed out.
    var nextWaiterID = 0
    /// Set by close(); no more borrowing.
    var closed = false
    /// Until when deadline reads go straight to their fallback (set when one missed its deadline on a connection).
    var suspendedUntil: ContinuousClock.Instant?
    /// Whether the one read that asks the server after a suspension is under way.
    var probing = false

    /// Whether a deadline read may ask the server at `now`: nil (no: suspended, or another read probes), false (yes,
    /// as usual), true (yes, as the probe after a suspension).
    mutating func admitDeadlineRead(at now: ContinuousClock.Instant) -> Bool? {
        guard let until = suspendedUntil else { return false }
        guard now >= until, !probing else { return nil }
        probing = true
        return true
    }

    /// Ends the probe: an answer ends the suspension; otherwise it stays as `suspendUntil` says.
    mutating func endProbe(answered: Bool, suspendUntil: ContinuousClock.Instant?) {
        probing = false
        suspendedUntil = answered ? nil : suspendUntil
    }

    /// What `take` found.
    enum Taken {
        /// A slot to borrow (empty if new).
        case slot(Slot)
        /// All slots are borrowed.
        case exhausted
        /// The pool is closed.
        case closed
    }

    /// Takes an idle slot, or a new empty one while fewer than `limit` exist.
    mutating func take(limit: Int) -> Taken {
        if closed { return .closed }
        if let slot = idle.popLast() { return .slot(slot) }
        guard slots < limit else { return .exhausted }
        slots += 1
        return .slot(Slot())
    }
}
