import Logging
import Postgres
import ServiceLifecycle
import Synchronization

/// Where reads that may be slightly behind go: profiles, history, the events feed, snapshots and leaderboard pages
/// read from PostgreSQL. With a streaming standby (`PODIUM_DATABASE_READ_URL`) they go to it while it is at most
/// `maxLag` behind the primary; otherwise, and when it does not answer, to the primary. Anything that must see its
/// own writes, and every write, uses the primary's pool directly.
///
/// As a service it measures the lag every `interval`: it reads the primary's WAL position, then the position the
/// standby has replayed. Once the standby has replayed what the primary had written at some sampled instant, it
/// shows every transaction committed before that instant, so its lag is at most the time since then
/// (`ReplicationLag`). That is one statement a second on each server, and only when a standby is named.
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
        /// Whether reads go to the standby now: measured in time and answering.
        var usable = false
        /// The lag last measured; nil before the first measurement or when the standby did not answer.
        var measured: Duration?
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
    public var pool: PostgresPool {
        guard let standby, state.withLock({ $0.usable }) else { return primary }
        return standby
    }

    /// Runs `read` on `pool`; when the standby fails to answer (a connection error), reads go to the primary until a
    /// measurement finds the standby again, and `read` runs there.
    public func read<T: Sendable>(_ read: (PostgresPool) async throws -> T) async throws -> T {
        let chosen = pool
        do {
            return try await read(chosen)
        } catch let error as PostgresError where error.kind == .connection && chosen !== primary {
            state.withLock { $0.usable = false; $0.measured = nil }
            logger.warning("the read standby does not answer; reading from the primary", metadata: ["error": "\(error)"])
            return try await read(primary)
        }
    }

    /// One statement on `pool` (see `read`).
    public func query(_ sql: String, _ parameters: [(any PostgresBindable)?] = []) async throws -> PostgresResult {
        try await read { try await $0.query(sql, parameters) }
    }

    /// One statement on `pool` (see `read`).
    public func query(_ query: PostgresQuery) async throws -> PostgresResult {
        try await read { try await $0.query(query) }
    }

    /// `body` on a connection of `pool` (see `read`).
    public func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await read { try await $0.withConnection(body) }
    }

    /// Reads that go to `primary` only: no standby, nothing to measure.
    public static func primaryOnly(_ primary: PostgresPool) -> ReadReplica {
        ReadReplica(primary: primary, standby: nil, maxLag: .zero, logger: Logger(label: "podium"))
    }

    /// For metrics: the lag last measured in seconds (nil without a standby, or when it did not answer) and whether
    /// reads go to the standby.
    public var figures: (lagSeconds: Double?, usingStandby: Bool) {
        state.withLock { state in (state.measured.map { $0.inSeconds }, standby != nil && state.usable) }
    }

    /// Measures the lag once and decides where reads go.
    public func measure() async {
        guard let standby else { return }
        do {
            let sampledAt = ContinuousClock.now
            let written = try await primary.query("SELECT pg_current_wal_lsn()::text AS lsn").rows.first?.string("lsn")
            let row = try await standby.query("""
                SELECT pg_is_in_recovery() AS recovering, COALESCE(pg_last_wal_replay_lsn(), '0/0')::text AS lsn
                """).rows.first
            guard let written, let row, let primaryPosition = WALPosition(written),
                  let replayed = WALPosition(try row.string("lsn"))
            else { throw PostgresError(kind: .query, message: "no WAL position", operation: "ReadReplica.measure") }
            let recovering = try row.bool("recovering")
            let now = ContinuousClock.now
            let (maxLag, window) = (maxLag, maxLag + interval * 2)
            state.withLock { state in
                state.lag.record(primaryPosition, at: sampledAt, keepingFor: window)
                // A standby that left recovery was promoted: it is a primary and behind nothing. One behind every
                // sample kept is at least as far behind as the oldest (and, after a start, of unknown lag).
                let lag = recovering ? state.lag.staleness(replayed: replayed, now: now) : .zero
                state.measured = lag ?? state.lag.samples.first.map { now - $0.at }
                state.usable = lag.map { $0 <= maxLag } ?? false
            }
        } catch {
            let wasUsable = state.withLock { state in
                defer { state.usable = false; state.measured = nil }
                return state.usable
            }
            if wasUsable {
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

/// A position in PostgreSQL's write-ahead log (`pg_lsn`), as a number.
struct WALPosition: Comparable, Sendable {
    let value: UInt64

    /// Reads PostgreSQL's text form, two hexadecimal numbers `high/low` (`16/B374D848`).
    init?(_ text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let high = UInt64(parts[0], radix: 16), let low = UInt64(parts[1], radix: 16),
              high <= UInt64(UInt32.max), low <= UInt64(UInt32.max)
        else { return nil }
        value = high << 32 | low
    }

    static func < (lhs: WALPosition, rhs: WALPosition) -> Bool { lhs.value < rhs.value }
}

/// How far a standby is behind, from the primary's WAL positions sampled over time.
///
/// The primary's position at an instant is past every transaction committed before it; a standby that replayed up
/// to that position shows all of them. Its staleness is therefore at most the time since the newest sample it has
/// replayed past, measured to within the sampling interval.
struct ReplicationLag {
    /// The primary's positions, oldest first, with when each was read.
    private(set) var samples: [(at: ContinuousClock.Instant, position: WALPosition)] = []

    /// Keeps the primary's `position` read at `instant`, and forgets samples older than `window`.
    mutating func record(_ position: WALPosition, at instant: ContinuousClock.Instant, keepingFor window: Duration) {
        samples.append((instant, position))
        samples.removeAll { instant - $0.at > window }
    }

    /// How far a standby that replayed up to `replayed` is behind at `now`: the time since the newest sample at or
    /// before `replayed`; nil when it is behind every sample kept (at least as far behind as the oldest, or, right
    /// after a start, not known yet).
    func staleness(replayed: WALPosition, now: ContinuousClock.Instant) -> Duration? {
        samples.last(where: { $0.position <= replayed }).map { now - $0.at }
    }
}
