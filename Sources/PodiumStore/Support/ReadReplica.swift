import Logging
import Postgres
import ServiceLifecycle
import Synchronization

/// Where reads that may be slightly behind go: players' profiles, history and topic statistics, the events feed, and
/// snapshots and rank history. With a streaming standby (`PODIUM_DATABASE_READ_URL`) they go to it while it is at
/// most `maxLag` behind the primary; otherwise, and when it does not answer, to the primary. Anything that must see
/// its own writes, feeds a write or a cache, and every write, uses the primary's pool directly.
///
/// As a service it measures the standby every `interval`: it reads the primary's WAL position, then the position the
/// standby has replayed. Once the standby has replayed what the primary had written at a sampled instant, it shows
/// every transaction committed before that instant (`ReplicationLag`). The standby is as fresh as the newest such
/// instant, and takes reads only while that instant is at most `maxLag` ago: a measurement that stalls (a busy
/// primary pool) makes the standby age out rather than keep reads on it. That is one statement per interval on each
/// server, and only when a standby is named.
public final class ReadReplica: Service, Sendable {
    /// The primary's pool (the truth).
    public let primary: PostgresPool
    /// The standby's pool, if one is named.
    public let standby: PostgresPool?
    /// How far behind the standby may be and still take reads.
    public let maxLag: Duration
    private let interval: Duration
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var lag = ReplicationLag()
        /// The standby shows every transaction committed before this instant; nil until a measurement found it
        /// caught up with a sampled position.
        var freshAsOf: ContinuousClock.Instant?
        /// Whether the standby answered the last measurement (and no read met a broken connection since).
        var answering = false
    }

    /// Reads go to `standby` (if any) while it is at most `maxLag` behind `primary`, measured every `interval`.
    public init(primary: PostgresPool, standby: PostgresPool?, maxLag: Duration, interval: Duration = .seconds(1), logger: Logger) {
        self.primary = primary
        self.standby = standby
        self.maxLag = maxLag
        self.interval = interval
        self.logger = logger
    }

    /// The pool for a read that may be slightly behind.
    public var pool: PostgresPool { pool(at: .now) }

    /// The pool for such a read at `now`.
    func pool(at now: ContinuousClock.Instant) -> PostgresPool {
        guard let standby, usable(at: now) else { return primary }
        return standby
    }

    /// Whether the standby answers and is within `maxLag` at `now`.
    private func usable(at now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in
            guard standby != nil, state.answering, let asOf = state.freshAsOf else { return false }
            return now - asOf <= maxLag
        }
    }

    /// Runs `read` on `pool`; when the standby fails to answer (a connection error), reads go to the primary until a
    /// measurement finds the standby again, and `read` runs there.
    public func read<T: Sendable>(_ read: (PostgresPool) async throws -> T) async throws -> T {
        let chosen = pool
        do {
            return try await read(chosen)
        } catch let error as PostgresError where error.kind == .connection && chosen !== primary {
            state.withLock { $0.answering = false }
            logger.warning("the read standby does not answer; reading from the primary", metadata: ["error": "\(error)"])
            return try await read(primary)
        }
    }

    /// Runs `statement` on `pool` (see `read`) and returns its rows.
    @discardableResult
    public func run<Statement: PostgresRunnable>(_ statement: Statement) async throws -> [Statement.Row] {
        try await read { try await $0.run(statement) }
    }

    /// `body` on a connection of `pool` (see `read`).
    public func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await read { try await $0.withConnection(body) }
    }

    /// Reads that go to `primary` only: no standby, nothing to measure.
    public static func primaryOnly(_ primary: PostgresPool) -> ReadReplica {
        ReadReplica(primary: primary, standby: nil, maxLag: .zero, logger: Logger(label: "podium"))
    }

    /// For metrics: how far behind the standby is at most, in seconds (nil without a standby, or before it was first
    /// found caught up with a sampled position), and whether reads go to it now.
    public var figures: (lagSeconds: Double?, usingStandby: Bool) {
        let now = ContinuousClock.now
        let asOf = state.withLock { $0.freshAsOf }
        return (standby == nil ? nil : asOf.map { (now - $0).inSeconds }, usable(at: now))
    }

    /// Measures the standby once.
    public func measure() async {
        guard let standby else { return }
        do {
            let sampledAt = ContinuousClock.now
            let written = try await primary.run(WrittenPosition()).first?.lsn
            let row = try await standby.run(ReplayedPosition()).first
            guard let written, let row, let primaryPosition = WALPosition(written), let replayed = WALPosition(row.lsn)
            else { throw PostgresError(kind: .query, message: "no WAL position", operation: "ReadReplica.measure") }
            let recovering = row.recovering
            let window = maxLag + interval * 2
            state.withLock { state in
                state.lag.record(primaryPosition, at: sampledAt, keepingFor: window)
                // A standby that left recovery was promoted: it is a primary, as fresh as the moment it answered.
                let asOf = recovering ? state.lag.freshAsOf(replayed: replayed) : sampledAt
                if let asOf { state.freshAsOf = max(state.freshAsOf ?? asOf, asOf) }
                state.answering = true
            }
        } catch {
            let wasAnswering = state.withLock { state in
                defer { state.answering = false }
                return state.answering
            }
            if wasAnswering {
                logger.warning("cannot measure the read standby's lag; reading from the primary", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Measures every `interval` until graceful shutdown; without a standby it only waits for the shutdown.
    public func run() async throws {
        guard standby != nil else {
            try? await gracefulShutdown()
            return
        }
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            await measure()
            try? await cancelWhenGracefulShutdown { [interval] in try await Task.sleep(for: interval) }
        }
    }
}

/// Where the primary's write-ahead log ends now (`pg_lsn` as text).
private struct WrittenPosition: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT pg_current_wal_lsn()::text AS lsn"
    struct Row: Decodable, Sendable { let lsn: String }
}

/// Whether a standby is still in recovery, and how far it has replayed the log (`0/0` before it replayed any).
private struct ReplayedPosition: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT pg_is_in_recovery() AS recovering, COALESCE(pg_last_wal_replay_lsn(), '0/0')::text AS lsn
        """
    struct Row: Decodable, Sendable {
        /// Still a standby (false once promoted).
        let recovering: Bool
        /// The replayed position.
        let lsn: String
    }
}

/// A position in PostgreSQL's write-ahead log (`pg_lsn`), as a number.
struct WALPosition: Comparable, Sendable {
    /// The position in bytes from the log's start.
    let value: UInt64

    /// Reads PostgreSQL's text form, two hexadecimal numbers `high/low` (`16/B374D848`).
    init?(_ text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let high = UInt64(parts[0], radix: 16), let low = UInt64(parts[1], radix: 16),
              high <= UInt64(UInt32.max), low <= UInt64(UInt32.max)
        else { return nil }
        value = high << 32 | low
    }

    /// Earlier in the log.
    static func < (lhs: WALPosition, rhs: WALPosition) -> Bool { lhs.value < rhs.value }
}

/// How fresh a standby is, from the primary's WAL positions sampled over time.
///
/// The primary's position at an instant is past every transaction committed before it; a standby that replayed up
/// to that position shows all of them, so it is at least as fresh as that instant, to within the sampling interval.
struct ReplicationLag {
    /// The primary's positions, oldest first, with when each was read.
    private(set) var samples: [(at: ContinuousClock.Instant, position: WALPosition)] = []

    /// Keeps the primary's `position` read at `instant`, and forgets samples older than `window`.
    mutating func record(_ position: WALPosition, at instant: ContinuousClock.Instant, keepingFor window: Duration) {
        samples.append((instant, position))
        samples.removeAll { instant - $0.at > window }
    }

    /// The newest sampled instant a standby that replayed up to `replayed` shows everything before; nil when it is
    /// behind every sample kept.
    func freshAsOf(replayed: WALPosition) -> ContinuousClock.Instant? {
        samples.last(where: { $0.position <= replayed })?.at
    }
}
