import Logging
import NIOConcurrencyHelpers
import NIOPosix
import ServiceLifecycle

/// A bounded pool of libpq connections.
///
/// Every blocking libpq call runs on the pool's own `NIOThreadPool`, one thread
/// per connection slot, never on a Swift concurrency cooperative thread or an
/// event loop. Callers beyond `poolSize` wait in FIFO order, up to
/// `acquireTimeout`. Connections open lazily, are checked before reuse and are
/// replaced after a connection-kind failure, which is how the pool recovers
/// from a server restart.
public final class PostgresPool: Sendable {
    /// The settings the pool opens its connections with (a ``PostgresListener`` opens its own with them).
    public let configuration: PostgresConfiguration
    private let logger: Logger
    private let threadPool: NIOThreadPool
    private let state = NIOLockedValueBox(State())

    /// Creates the pool and starts its threads; connections open on first use.
    public init(configuration: PostgresConfiguration, logger: Logger) {
        precondition(configuration.poolSize > 0, "PostgresConfiguration.poolSize must be positive")
        self.configuration = configuration
        self.logger = logger
        self.threadPool = NIOThreadPool(numberOfThreads: configuration.poolSize)
        threadPool.start()
    }

    /// How many callers are waiting for a connection (tests use it to queue waiters in a known order).
    var waiterCount: Int { state.withLockedValue { $0.waiters.count } }

    deinit {
        // close() was never awaited: stop the threads; idle connections finish in their own deinit.
        if !state.withLockedValue({ $0.isClosed }) {
            threadPool.shutdownGracefully { _ in }
        }
    }

    /// The pool's size, the slots borrowed now and the callers waiting for one, for metrics.
    public var usage: (size: Int, inUse: Int, waiters: Int) {
        state.withLockedValue { (configuration.poolSize, $0.open - $0.idle.count, $0.waiters.count) }
    }

    /// Connections currently open or borrowed (including ones being opened), for metrics and tests.
    public var openConnections: Int {
        state.withLockedValue { $0.open }
    }

    /// Borrows a connection and runs `body` on a blocking thread.
    ///
    /// If the body throws a connection-kind error, the connection is discarded
    /// (and a new one is opened next time). A connection returned inside an
    /// open transaction is rolled back first, so the next borrower starts clean.
    /// The connection must not escape `body`: it goes back to the pool afterwards.
    public func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        let lease = try await acquire()
        let outcome: Result<T, any Error>
        do {
            outcome = try await threadPool.runIfActive { [self] in
                var connection = lease.connection
                if let existing = connection, !existing.isAlive() {
                    logger.info("replacing a PostgreSQL connection the server closed")
                    existing.finish()
                    connection = nil
                }
                let result = Result {
                    let active = try connection ?? PostgresConnection.connect(configuration: configuration, logger: logger)
                    connection = active
                    return try body(active)
                }
                release(connection, after: result)
                return result
            }
        } catch {
            // The work never ran (task cancelled or threads stopped): the lease is still ours.
            release(lease.connection, after: Result<T, any Error>.failure(error))
            throw error
        }
        return try outcome.get()
    }

    /// BEGIN … COMMIT around `body` (ROLLBACK on throw, rethrowing the body's error).
    ///
    /// `isolation` is one of "READ UNCOMMITTED", "READ COMMITTED", "REPEATABLE READ"
    /// or "SERIALIZABLE" (any case); nil means the server default (READ COMMITTED).
    /// If the body swallowed a statement error, the transaction is rolled back and
    /// an error thrown, because PostgreSQL would silently turn COMMIT into ROLLBACK.
    public func withTransaction<T: Sendable>(
        isolation: String? = nil,
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        let begin = try Self.beginStatement(isolation: isolation)
        return try await withConnection { connection in
            try connection.transaction(begin: begin) { try body(connection) }
        }
    }

    /// Convenience: one statement on a pooled connection.
    @discardableResult
    public func query(_ sql: String, _ parameters: [(any PostgresBindable)?] = []) async throws -> PostgresResult {
        try await withConnection { try $0.query(sql, parameters) }
    }

    /// Checks the server answers (SELECT 1), for readiness probes; throws on failure.
    public func ping() async throws {
        try await query("SELECT 1")
    }

    /// Closes all idle connections; later calls throw ``PostgresError/Kind/poolClosed``.
    ///
    /// Waiting callers fail at once; borrowed connections are closed as they
    /// return, and this waits for them before stopping the pool's threads.
    public func close() async {
        let (idle, waiters, wasClosed) = state.withLockedValue { state in
            let taken = (state.idle, state.waiters, state.isClosed)
            state.isClosed = true
            state.open -= state.idle.count
            state.idle = []
            state.waiters = []
            return taken
        }
        for waiter in waiters { waiter.continuation.resume(throwing: Self.closedError) }
        if !idle.isEmpty {
            try? await threadPool.runIfActive { idle.forEach { $0.connection.finish() } }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLockedValue { state in
                if state.open == 0 { return true }
                state.closeWaiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
        if !wasClosed {
            try? await threadPool.shutdownGracefully()
            logger.debug("PostgreSQL pool closed")
        }
    }

    /// Borrows one connection for several steps with awaits between them, e.g. a transaction around a call to
    /// another server; each `PostgresSession.run` step runs on a blocking thread.
    ///
    /// Afterwards the connection goes back as with `withConnection`: rolled back if still in a transaction,
    /// discarded after a connection-kind error. The session must not escape `body`.
    public func withSession<T: Sendable>(_ body: @Sendable (PostgresSession) async throws -> T) async throws -> T {
        let lease = try await acquire()
        let session = PostgresSession(connection: lease.connection, pool: self)
        let result: Result<T, any Error>
        do {
            result = .success(try await body(session))
        } catch {
            result = .failure(error)
        }
        let owned = session.state.withLockedValue { $0.connection }
        do {
            try await threadPool.runIfActive { [self] in release(owned?.connection, after: result) }
        } catch {
            release(owned?.connection, after: result)
        }
        return try result.get()
    }

    /// Runs one session step on a pool thread, opening the session's connection first if needed.
    ///
    /// Before the first step, a borrowed connection the server closed is replaced. After it, a lost
    /// connection fails the step: reconnecting would run the rest of a transaction as separate
    /// autocommitted statements.
    fileprivate func run<T: Sendable>(
        in session: PostgresSession, _ work: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        try await threadPool.runIfActive { [self] in
            let (existing, started) = try session.state.withLockedValue { state in
                guard !state.stepRunning else {
                    throw PostgresError(kind: .query, message: "a session runs one step at a time", operation: "PostgresSession.run")
                }
                state.stepRunning = true
                return (state.connection?.connection, state.started)
            }
            defer { session.state.withLockedValue { $0.stepRunning = false } }
            var connection = existing
            if let current = connection, !current.isInTransaction, !current.isAlive() {
                guard !started else {
                    throw PostgresError(kind: .connection, message: "the server closed the session's connection", operation: "PostgresSession.run")
                }
                logger.info("replacing a PostgreSQL connection the server closed")
                session.state.withLockedValue { $0.connection = nil }
                current.finish()
                connection = nil
            }
            let active = try connection ?? PostgresConnection.connect(configuration: configuration, logger: logger)
            session.state.withLockedValue { state in
                state.connection = OwnedConnection(connection: active)
                state.started = true
            }
            return try work(active)
        }
    }

    /// Takes an idle connection or a free slot, waiting FIFO if none is free.
    private func acquire() async throws -> Lease {
        let immediate = try state.withLockedValue { state throws -> Lease? in
            guard !state.isClosed else { throw Self.closedError }
            return state.takeFree(limit: configuration.poolSize)
        }
        if let immediate { return immediate }

        let id = state.withLockedValue { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        let timeout = Task { [self] in
            guard (try? await Task.sleep(for: configuration.acquireTimeout)) != nil else { return }
            fail(waiter: id, with: PostgresError(
                kind: .timeout,
                message: "no connection free within \(configuration.acquireTimeout) (pool size \(configuration.poolSize))",
                operation: "acquire connection"))
        }
        defer { timeout.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Lease, any Error>) in
                let ready: Result<Lease, any Error>? = state.withLockedValue { state in
                    if state.isClosed { return .failure(Self.closedError) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if let free = state.takeFree(limit: configuration.poolSize) { return .success(free) }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            fail(waiter: id, with: CancellationError())
        }
    }

    /// Removes a waiting caller, if still waiting, and resumes it with `error`.
    private func fail(waiter id: Int, with error: any Error) {
        let waiter = state.withLockedValue { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: error)
    }

    /// Returns a borrowed slot: to the first waiter, to the idle list, or closes the connection.
    ///
    /// Called on a pool thread after the work ran (or on the caller's task if it
    /// never ran). The connection is kept only if the work did not fail with a
    /// connection error and the session is idle outside any transaction.
    private func release(_ connection: PostgresConnection?, after result: Result<some Any, any Error>) {
        var reusable = connection
        if let connection {
            if case .failure(let error as PostgresError) = result, error.kind == .connection {
                reusable = nil
            } else {
                if connection.isInTransaction {
                    logger.warning("PostgreSQL connection returned inside a transaction; rolling back")
                }
                if !connection.rollbackIfInTransaction() { reusable = nil }
            }
            if reusable == nil {
                logger.debug("discarding PostgreSQL connection")
                connection.finish()
            }
        }
        let action = state.withLockedValue { state -> ReleaseAction in
            if state.isClosed {
                state.open -= 1
                defer { if state.open == 0 { state.closeWaiters = [] } }
                return .close(state.open == 0 ? state.closeWaiters : [])
            }
            if !state.waiters.isEmpty { return .handOver(state.waiters.removeFirst()) }
            if let reusable { state.idle.append(OwnedConnection(connection: reusable)) } else { state.open -= 1 }
            return .keep
        }
        switch action {
        case .handOver(let waiter):
            waiter.continuation.resume(returning: reusable.map { .existing(OwnedConnection(connection: $0)) } ?? .new)
        case .keep:
            break
        case .close(let closeWaiters):
            reusable?.finish()
            for continuation in closeWaiters { continuation.resume() }
        }
    }

    /// The BEGIN statement for an isolation level name, rejecting anything else (it is spliced into SQL).
    private static func beginStatement(isolation: String?) throws -> String {
        guard let isolation else { return "BEGIN" }
        let level = isolation.uppercased()
        guard ["READ UNCOMMITTED", "READ COMMITTED", "REPEATABLE READ", "SERIALIZABLE"].contains(level) else {
            throw PostgresError(kind: .query, message: "unknown isolation level \"\(isolation)\"", operation: "BEGIN")
        }
        return "BEGIN ISOLATION LEVEL \(level)"
    }

    private static let closedError = PostgresError(kind: .poolClosed, message: "the pool is closed", operation: "acquire connection")
}

/// A connection moving between the pool's state and one borrower.
///
/// `@unchecked Sendable`: a connection is reachable from exactly one owner at a
/// time (the idle list, a waiter's continuation or a running closure), so it is
/// transferred between threads, never shared.
struct OwnedConnection: @unchecked Sendable {
    /// The owned connection.
    let connection: PostgresConnection
}

/// A borrowed pool slot: an open idle connection, or the right to open a new one.
enum Lease: Sendable {
    /// An idle connection, to be checked before use.
    case existing(OwnedConnection)
    /// A free slot; the borrower opens the connection on a pool thread.
    case new

    /// The connection, if the slot has one.
    var connection: PostgresConnection? {
        if case .existing(let owned) = self { owned.connection } else { nil }
    }
}

/// What `release` does once the pool's state is updated.
private enum ReleaseAction {
    /// Give the slot (and connection, if reusable) to the oldest waiter.
    case handOver(Waiter)
    /// Nothing more: the connection went to the idle list or the slot was freed.
    case keep
    /// The pool is closed: finish the connection and wake these close() calls.
    case close([CheckedContinuation<Void, Never>])
}

/// A caller waiting for a connection slot.
private struct Waiter: Sendable {
    /// Identifies the waiter for its timeout and cancellation.
    let id: Int
    /// Resumed with a slot, or with an error on timeout, cancellation or close.
    let continuation: CheckedContinuation<Lease, any Error>
}

/// The pool's bookkeeping, guarded by its lock.
private struct State: Sendable {
    /// Open connections nobody borrows, most recently returned last.
    var idle: [OwnedConnection] = []
    /// Slots in use: idle plus borrowed connections plus borrowers about to open one.
    var open = 0
    /// Callers waiting for a slot, oldest first.
    var waiters: [Waiter] = []
    /// The id of the most recent waiter.
    var nextWaiterID = 0
    /// Set by close(); nothing is lent out afterwards.
    var isClosed = false
    /// close() calls waiting for the last borrowed slot to return.
    var closeWaiters: [CheckedContinuation<Void, Never>] = []

    /// Takes the most recently used idle connection, else a new slot below `limit`, else nil.
    mutating func takeFree(limit: Int) -> Lease? {
        if let connection = idle.popLast() { return .existing(connection) }
        guard open < limit else { return nil }
        open += 1
        return .new
    }
}

/// One connection borrowed from a pool by `PostgresPool.withSession`.
///
/// Steps run one after another (each is awaited before the next starts), so the connection is
/// used by one thread at a time, as with `OwnedConnection`; a step started while another runs fails.
public final class PostgresSession: Sendable {
    /// The session's connection and progress.
    fileprivate struct State {
        /// The connection, nil until the first step opens one (when the pool lent a free slot).
        var connection: OwnedConnection?
        /// Whether a step has run on `connection`: from then on it is never replaced.
        var started = false
        /// Whether a step is running now.
        var stepRunning = false
    }

    fileprivate let state: NIOLockedValueBox<State>
    private let pool: PostgresPool

    fileprivate init(connection: PostgresConnection?, pool: PostgresPool) {
        self.state = NIOLockedValueBox(State(connection: connection.map { OwnedConnection(connection: $0) }))
        self.pool = pool
    }

    /// Runs `work` on the session's connection, on a blocking thread.
    public func run<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await pool.run(in: self, work)
    }

    /// Runs one step of a transaction whose statements open and commit it themselves (BEGIN and COMMIT
    /// pipelined with other statements, to save round trips): if the step throws, the transaction is
    /// rolled back before the error is rethrown, so the next step or the pool finds an idle connection.
    public func runInTransaction<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await run { connection in
            do {
                return try work(connection)
            } catch {
                connection.rollbackIfInTransaction()
                throw error
            }
        }
    }
}

extension PostgresPool: Service {
    /// Serves until the service group shuts down gracefully, then closes the pool: first in a group, it is the last to
    /// stop, after everything that uses it. When the group is cancelled instead (its shutdown ran past its limit), the
    /// pool stays open for whatever still winds down beside it (a cancelled job recording its outcome); the process
    /// ends next.
    public func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            return
        }
        await close()
    }
}
