import Foundation
import PodiumCore
import PodiumWire
import Postgres
import Redis

/// What `/metrics` reports of the whole service at one moment: the pools, whether the servers answer, and the
/// figures only PostgreSQL knows (periods, outbox, webhooks), read fresh at each scrape.
public struct OperationalFigures: Sendable {
    /// A pool's size, its slots in use and its waiting callers.
    public struct PoolUsage: Sendable, Equatable {
        /// Connections it may open.
        public var size: Int
        /// Slots borrowed now.
        public var inUse: Int
        /// Callers waiting for a slot.
        public var waiters: Int
    }

    /// One board window's periods.
    public struct WindowFigures: Sendable, Equatable {
        /// The end of its newest closed period; nil before the first close.
        public var lastClosedEnd: Date?
        /// Periods whose close time passed over `PodiumStorage.overdueMargin` ago and that are still open.
        public var overdue: Int
    }

    /// One webhook's delivery backlog.
    public struct WebhookFigures: Sendable, Equatable {
        /// Deliveries waiting (pending or being sent).
        public var pending: Int
        /// Deliveries that used up their attempts.
        public var dead: Int
        /// Age of its oldest waiting delivery, in seconds; 0 when none waits.
        public var oldestUndeliveredAge: Double

        /// A webhook with nothing waiting and nothing dead (one deleted since the last scrape reads so).
        public static let idle = WebhookFigures(pending: 0, dead: 0, oldestUndeliveredAge: 0)
    }

    /// The PostgreSQL pool.
    public var postgresPool: PoolUsage
    /// The Redis pool.
    public var redisPool: PoolUsage
    /// Whether PostgreSQL answered a ping.
    public var postgresUp: Bool
    /// Whether Redis answered a ping.
    public var redisUp: Bool
    /// Per window (day, week, month); empty when PostgreSQL did not answer.
    public var windows: [LeaderboardWindow: WindowFigures]
    /// The newest event id (the outbox head); nil when PostgreSQL did not answer.
    public var outboxHead: Int64?
    /// Events written but not yet fanned out into webhook deliveries (by id, so an estimate while transactions overlap).
    public var dispatchLag: Int64?
    /// Per webhook id; empty when PostgreSQL did not answer.
    public var webhooks: [String: WebhookFigures]
}

/// Asks the servers whether they answer and reads the figures `/readyz` and `/metrics` report.
public struct ServiceProbe: Sendable {
    let postgres: PostgresPool
    let redis: RedisClient
    let rules: GameRules

    /// Creates the probe over the two pools; `rules` gives the close grace the overdue periods are counted with.
    public init(postgres: PostgresPool, redis: RedisClient, rules: GameRules) {
        self.postgres = postgres
        self.redis = redis
        self.rules = rules
    }

    /// How long past its close time an open period counts as overdue: the `close-periods` job runs every minute.
    static let overdueMargin: TimeInterval = 60

    /// Checks PostgreSQL answers (readiness); throws its error when it does not.
    public func pingPostgreSQL() async throws {
        try await postgres.ping()
    }

    /// Checks Redis answers (readiness); throws its error when it does not.
    public func pingRedis() async throws {
        try await redis.ping()
    }

    /// The figures at `now`. Never throws: a server that does not answer reads as down, with its figures left out.
    public func figures(now: Date) async -> OperationalFigures {
        async let postgresUp = answers { try await pingPostgreSQL() }
        async let redisUp = answers { try await pingRedis() }
        let pools = (postgres.usage, redis.usage)
        var figures = OperationalFigures(
            postgresPool: .init(size: pools.0.size, inUse: pools.0.inUse, waiters: pools.0.waiters),
            redisPool: .init(size: pools.1.size, inUse: pools.1.inUse, waiters: pools.1.waiters),
            postgresUp: await postgresUp, redisUp: await redisUp, windows: [:], outboxHead: nil, dispatchLag: nil, webhooks: [:])
        guard figures.postgresUp else { return figures }
        do {
            let overdueBefore = now.addingTimeInterval(-rules.closeGrace - Self.overdueMargin)
            let windows = LeaderboardWindow.allCases.filter { $0 != .all }.map(\.rawValue)
            for row in try await postgres.run(WindowPeriods(overdueBefore: overdueBefore, windows: windows)) {
                guard let window = LeaderboardWindow(rawValue: row.boardWindow) else { continue }
                figures.windows[window] = .init(lastClosedEnd: row.lastClosedEnd, overdue: row.overdue)
            }
            let outbox = try await postgres.run(OutboxPosition())[0]
            figures.outboxHead = outbox.head
            figures.dispatchLag = max(0, outbox.head - (outbox.dispatched ?? outbox.head))
            for row in try await postgres.run(WebhookBacklogs(now: now)) {
                figures.webhooks[row.id] = .init(pending: row.pending, dead: row.dead, oldestUndeliveredAge: max(0, row.oldestAge))
            }
        } catch {
            // PostgreSQL went away mid-scrape: report what was read.
        }
        return figures
    }

    private func answers(_ ping: () async throws -> Void) async -> Bool {
        do {
            try await ping()
            return true
        } catch {
            return false
        }
    }
}

/// Per board window: the end of its newest closed period, and how many of its periods are open past `overdueBefore`.
private struct WindowPeriods: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT w.board_window,
               (SELECT max(ends_at) FROM board_periods p
                WHERE p.board_window = w.board_window AND p.closed_at IS NOT NULL) AS last_closed_end,
               (SELECT count(*) FROM board_periods p
                WHERE p.board_window = w.board_window AND p.closed_at IS NULL AND p.ends_at <= \(\.overdueBefore)) AS overdue
        FROM unnest(\(\.windows)::text[]) AS w(board_window)
        """
    struct Row: Decodable, Sendable {
        let boardWindow: String
        /// Nil before the window's first close.
        let lastClosedEnd: Date?
        let overdue: Int
    }
    /// Periods that ended before this instant and are still open are overdue.
    let overdueBefore: Date
    /// The windows' names.
    let windows: [String]
}

/// The newest event id (0 without events), and the last event fanned out into deliveries (nil before the first).
private struct OutboxPosition: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT COALESCE((SELECT max(id) FROM events), 0) AS head,
               (SELECT event_id FROM webhook_dispatch WHERE name = 'outbox') AS dispatched
        """
    struct Row: Decodable, Sendable {
        let head: Int64
        let dispatched: Int64?
    }
}

/// Per webhook: its waiting and dead deliveries, and how long (seconds, at `now`) its oldest waiting one has waited.
private struct WebhookBacklogs: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT w.id,
               count(d.id) FILTER (WHERE d.status IN ('pending', 'sending')) AS pending,
               count(d.id) FILTER (WHERE d.status = 'dead') AS dead,
               COALESCE(extract(epoch FROM \(\.now)::timestamptz
                        - min(d.created_at) FILTER (WHERE d.status IN ('pending', 'sending'))), 0)::float8 AS oldest_age
        FROM webhooks w LEFT JOIN webhook_deliveries d ON d.webhook_id = w.id AND d.status <> 'delivered'
        GROUP BY w.id
        """
    struct Row: Decodable, Sendable {
        let id: String
        let pending: Int
        let dead: Int
        let oldestAge: Double
    }
    let now: Date
}
