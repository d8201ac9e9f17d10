import Foundation
import PodiumCore
import PodiumWire
import Postgres

/// A delivery claimed for sending, with what to send.
public struct ClaimedDelivery: Sendable, Equatable {
    /// Delivery id.
    public let id: Int64
    /// Attempt number being made.
    public let attempt: Int
    /// Attempts allowed in all.
    public let attemptLimit: Int
    /// Receiver URL.
    public let url: String
    /// Shared secret for the signature.
    public let secret: String
    /// Event id as receivers see it.
    public let eventId: String
    /// Event type.
    public let eventType: String
    /// The JSON body to POST.
    public let body: String
}

/// Webhook registrations and deliveries in PostgreSQL.
///
/// Fan-out reads the outbox with the same gap-free ordering as the events feed, under a lock on
/// its cursor row, and creates one delivery per (webhook, event). Senders on every replica claim
/// due deliveries with `FOR UPDATE SKIP LOCKED` and a lease, so a delivery is sent by one replica
/// at a time; one whose sender died is taken over once the lease expires.
public struct WebhookStore: Sendable {
    /// Attempts per delivery before it is dead, unless `PODIUM_WEBHOOK_MAX_ATTEMPTS` says otherwise (the senders retry
    /// up to it; the console and the API show it).
    public static let defaultMaxAttempts = 8

    let postgres: PostgresPool

    /// Creates the store.
    public init(postgres: PostgresPool) {
        self.postgres = postgres
    }

    /// Registers a webhook.
    public func create(url: String, eventTypes: [String], secret: String, now: Date) async throws -> Webhook {
        let id = "wh_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        try await postgres.run(CreateWebhook(id: id, url: url, eventTypes: eventTypes, secret: secret, createdAt: now))
        return Webhook(id: id, url: url, eventTypes: eventTypes, enabled: true, createdAt: RFC3339.format(now))
    }

    /// Every webhook, newest first.
    public func list() async throws -> [Webhook] {
        try await postgres.run(AllWebhooks()).map(\.webhook)
    }

    /// Enables or disables a webhook; returns it, or nil when there is none with this id.
    public func setEnabled(id: String, enabled: Bool) async throws -> Webhook? {
        try await postgres.run(SetWebhookEnabled(id: id, enabled: enabled)).first?.webhook
    }

    /// Where and with what secret webhook `id` is sent to; nil when there is none.
    public func target(id: String) async throws -> (url: String, secret: String)? {
        try await postgres.run(WebhookTarget(id: id)).first.map { (url: $0.url, secret: $0.secret) }
    }

    /// Deletes a webhook with its deliveries; false when there is none with this id.
    public func delete(id: String) async throws -> Bool {
        try await postgres.runCounting(DeleteWebhook(id: id)) == 1
    }

    /// Fans out new outbox events into deliveries for the enabled webhooks subscribed to their type; returns how
    /// many events it read (`limit` means more may be waiting).
    ///
    /// One replica at a time (the cursor row is locked, others skip); at most `limit` events per call.
    public func dispatch(attemptLimit: Int, now: Date, limit: Int = 500) async throws -> Int {
        try await postgres.withTransaction { connection in
            guard let row = try connection.run(LockDispatchCursor()).first else { return 0 }
            let cursor = EventCursor(transactionText: row.txText, id: row.id)
            let positions = try EventStore.positions(after: cursor, limit: limit, on: connection)
            guard let last = positions.last else { return 0 }
            try connection.run(CreateDeliveries(eventIDs: positions.map(\.id), attemptLimit: attemptLimit, now: now))
            try connection.run(MoveDispatchCursor(transaction: String(last.transaction), eventID: last.id))
            return positions.count
        }
    }

    /// Claims up to `limit` due deliveries, each with a lease of `lease` seconds (attempts record the replica).
    ///
    /// Due means pending with its next attempt time passed, or sending with an expired lease (the sender died).
    public func claim(lease: TimeInterval, now: Date, limit: Int) async throws -> [ClaimedDelivery] {
        try await postgres.run(ClaimDeliveries(now: now, leaseExpiresAt: now.addingTimeInterval(lease), limit: limit)).map { row in
            ClaimedDelivery(
                id: row.id, attempt: row.attempts, attemptLimit: row.attemptLimit, url: row.url, secret: row.secret,
                eventId: "evt_\(row.eventId)", eventType: row.type, body: row.body)
        }
    }

    /// Records how an attempt went: delivered on a 2xx, else pending again after `retryDelay`, or dead after the last attempt.
    ///
    /// Only the attempt that holds the delivery may finish it; a late answer after a takeover is recorded in history only.
    public func finish(
        _ delivery: ClaimedDelivery, replica: String, startedAt: Date, durationMs: Int, statusCode: Int?, error: String?,
        retryDelay: TimeInterval, now: Date
    ) async throws {
        let delivered = statusCode.map { (200..<300).contains($0) } ?? false
        let status: WebhookDeliveryStatus = delivered ? .delivered : (delivery.attempt >= delivery.attemptLimit ? .dead : .pending)
        let problem = error ?? (delivered ? nil : "receiver answered \(statusCode ?? 0)")
        try await postgres.withTransaction { connection in
            try connection.run(RecordDeliveryAttempt(
                deliveryID: delivery.id, attempt: delivery.attempt, replica: replica, startedAt: startedAt, durationMs: durationMs,
                statusCode: statusCode, error: problem))
            try connection.run(FinishDelivery(
                id: delivery.id, attempt: delivery.attempt, status: status.rawValue, statusCode: statusCode, error: problem,
                retryAt: now.addingTimeInterval(retryDelay), now: now))
        }
    }

    /// Deliveries of a webhook, newest first, with their attempts; nil when there is no such webhook.
    public func deliveries(webhookID: String, limit: Int) async throws -> [WebhookDelivery]? {
        guard !(try await postgres.run(WebhookExists(id: webhookID)).isEmpty) else { return nil }
        let rows = try await postgres.run(Deliveries(webhookID: webhookID, limit: limit))
        let decoder = PodiumJSON.decoder()
        return try rows.map { row in
            WebhookDelivery(
                id: row.id, webhookId: row.webhookId, eventId: "evt_\(row.eventId)", eventType: row.type, status: row.status,
                attempts: row.attempts, nextAttemptAt: row.nextAttemptAt.map(RFC3339.format), lastStatusCode: row.lastStatusCode,
                lastError: row.lastError, deliveredAt: row.deliveredAt.map(RFC3339.format),
                history: try decoder.decode([WebhookAttempt].self, from: Data(row.history.utf8)))
        }
    }

    /// Sends a dead delivery again with a fresh set of `attemptLimit` attempts; false unless it exists and is dead.
    public func resend(deliveryID: Int64, attemptLimit: Int, now: Date) async throws -> Bool {
        let update = ResendDelivery(id: deliveryID, attemptLimit: attemptLimit, now: now)
        // The senders are told when it commits, so one sends it now.
        return try await postgres.withConnection { try $0.pipeline([update.query, NotifyChange(.outbox).query]) }[0].affectedRows == 1
    }

    /// When a sender should look again if nothing new comes: the earliest next attempt of a pending delivery, or lease
    /// expiry of one being sent; nil when there is none.
    public func nextDue() async throws -> Date? {
        try await postgres.run(NextDeliveryDue()).first?.at
    }
}

/// Registers a webhook.
private struct CreateWebhook: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO webhooks (id, url, event_types, secret, created_at)
        VALUES (\(\.id), \(\.url), \(\.eventTypes), \(\.secret), \(\.createdAt))
        """
    typealias Row = NoRows
    let id: String
    let url: String
    let eventTypes: [String]
    let secret: String
    let createdAt: Date
}

/// A webhook's columns as admins see them (never its secret), as the webhook statements select them.
private struct WebhookColumns: Decodable, Sendable {
    /// The select list.
    static let sql = "id, url, array_to_string(event_types, ',') AS types, enabled, created_at"

    let id: String
    let url: String
    /// The event types, joined by commas.
    let types: String
    let enabled: Bool
    let createdAt: Date

    /// The webhook.
    var webhook: Webhook {
        Webhook(
            id: id, url: url, eventTypes: types.split(separator: ",").map(String.init), enabled: enabled,
            createdAt: RFC3339.format(createdAt))
    }
}

/// Every webhook, newest first.
private struct AllWebhooks: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT \(unescaped: WebhookColumns.sql) FROM webhooks ORDER BY created_at DESC, id"
    typealias Row = WebhookColumns
}

/// Enables or disables one webhook; returns it.
private struct SetWebhookEnabled: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        UPDATE webhooks SET enabled = \(\.enabled) WHERE id = \(\.id) RETURNING \(unescaped: WebhookColumns.sql)
        """
    typealias Row = WebhookColumns
    let id: String
    let enabled: Bool
}

/// Where and with what secret one webhook is sent to.
private struct WebhookTarget: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT url, secret FROM webhooks WHERE id = \(\.id)"
    struct Row: Decodable, Sendable {
        let url: String
        let secret: String
    }
    let id: String
}

/// Deletes one webhook (its deliveries cascade).
private struct DeleteWebhook: PostgresStatement {
    static let sql: PostgresSQL<Self> = "DELETE FROM webhooks WHERE id = \(\.id)"
    typealias Row = NoRows
    let id: String
}

/// Locks the fan-out's cursor (the position in the outbox of the last event fanned out), unless another replica holds it.
private struct LockDispatchCursor: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT tx::text AS tx_text, event_id AS id FROM webhook_dispatch WHERE name = 'outbox' FOR UPDATE SKIP LOCKED
        """
    struct Row: Decodable, Sendable {
        /// The event's transaction id (an xid8, as text).
        let txText: String
        /// The event's id.
        let id: Int64
    }
}

/// Creates a pending delivery of each of some events to each enabled webhook subscribed to its type.
///
/// FOR KEY SHARE: an event erased, or a webhook deleted, after this statement's snapshot is skipped rather than failing
/// the foreign keys.
private struct CreateDeliveries: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO webhook_deliveries (webhook_id, event_id, status, attempt_limit, next_attempt_at, created_at)
        SELECT w.id, e.id, 'pending', \(\.attemptLimit), \(\.now), \(\.now)
        FROM events e JOIN webhooks w ON w.enabled AND e.type = ANY(w.event_types)
        WHERE e.id = ANY(\(\.eventIDs))
        ORDER BY e.tx, e.id, w.id
        FOR KEY SHARE OF e, w
        ON CONFLICT DO NOTHING
        """
    typealias Row = NoRows
    let eventIDs: [Int64]
    let attemptLimit: Int
    let now: Date
}

/// Moves the fan-out's cursor to the last event fanned out.
private struct MoveDispatchCursor: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        UPDATE webhook_dispatch SET tx = \(\.transaction)::xid8, event_id = \(\.eventID) WHERE name = 'outbox'
        """
    typealias Row = NoRows
    /// The event's transaction id, as text.
    let transaction: String
    let eventID: Int64
}

/// Claims up to `limit` due deliveries (pending with the next attempt time passed, or sending with an expired lease),
/// skipping those another replica is claiming: each is sending on its next attempt, under a lease; returns what to send.
private struct ClaimDeliveries: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        UPDATE webhook_deliveries d SET status = 'sending', attempts = d.attempts + 1, lease_expires_at = \(\.leaseExpiresAt)
        FROM (SELECT id FROM webhook_deliveries
              WHERE (status = 'pending' AND next_attempt_at <= \(\.now)) OR (status = 'sending' AND lease_expires_at < \(\.now))
              ORDER BY next_attempt_at LIMIT \(\.limit) FOR UPDATE SKIP LOCKED) due,
             webhooks w, events e
        WHERE d.id = due.id AND w.id = d.webhook_id AND e.id = d.event_id
        RETURNING d.id, d.attempts, d.attempt_limit, w.url, w.secret, e.id AS event_id, e.type,
                  json_build_object('id', 'evt_' || e.id, 'type', e.type,
                                    'occurred_at', \(unescaped: SQLText.rfc3339("e.occurred_at")),
                                    'data', e.payload)::text AS body
        """
    struct Row: Decodable, Sendable {
        let id: Int64
        /// The attempt being made.
        let attempts: Int
        let attemptLimit: Int
        let url: String
        let secret: String
        let eventId: Int64
        let type: String
        /// The JSON body to POST.
        let body: String
    }
    let now: Date
    let leaseExpiresAt: Date
    let limit: Int
}

/// Records one attempt of a delivery (once: a second record of the same attempt is dropped).
private struct RecordDeliveryAttempt: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO webhook_attempts (delivery_id, attempt, replica, started_at, duration_ms, status_code, error)
        VALUES (\(\.deliveryID), \(\.attempt), \(\.replica), \(\.startedAt), \(\.durationMs), \(\.statusCode), \(\.error))
        ON CONFLICT DO NOTHING
        """
    typealias Row = NoRows
    let deliveryID: Int64
    let attempt: Int
    let replica: String
    let startedAt: Date
    let durationMs: Int
    let statusCode: Int?
    let error: String?
}

/// Ends a delivery's attempt (delivered, dead, or pending again at `retryAt`), while that attempt still holds it.
private struct FinishDelivery: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        UPDATE webhook_deliveries SET status = \(\.status), last_status_code = \(\.statusCode), last_error = \(\.error),
               lease_expires_at = NULL,
               next_attempt_at = CASE WHEN \(\.status) = 'pending' THEN \(\.retryAt)::timestamptz END,
               delivered_at = CASE WHEN \(\.status) = 'delivered' THEN \(\.now)::timestamptz END
        WHERE id = \(\.id) AND attempts = \(\.attempt) AND status = 'sending'
        """
    typealias Row = NoRows
    let id: Int64
    let attempt: Int
    /// A `WebhookDeliveryStatus`.
    let status: String
    let statusCode: Int?
    let error: String?
    /// The next attempt's time, when the delivery is pending again.
    let retryAt: Date
    let now: Date
}

/// Whether one webhook exists (a row when it does).
private struct WebhookExists: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT 1 FROM webhooks WHERE id = \(\.id)"
    typealias Row = NoRows
    let id: String
}

/// One webhook's deliveries, newest first, with their attempts as a JSON array.
private struct Deliveries: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT d.id, d.webhook_id, d.event_id, e.type, d.status, d.attempts, d.next_attempt_at, d.last_status_code, d.last_error,
               d.delivered_at,
               COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'replica', a.replica,
                             'started_at', \(unescaped: SQLText.rfc3339("a.started_at")),
                             'duration_ms', a.duration_ms, 'status_code', a.status_code, 'error', a.error) ORDER BY a.attempt)
                         FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]')::text AS history
        FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
        WHERE d.webhook_id = \(\.webhookID) ORDER BY d.id DESC LIMIT \(\.limit)
        """
    struct Row: Decodable, Sendable {
        let id: Int64
        let webhookId: String
        let eventId: Int64
        let type: String
        let status: WebhookDeliveryStatus
        let attempts: Int
        let nextAttemptAt: Date?
        let lastStatusCode: Int?
        let lastError: String?
        let deliveredAt: Date?
        /// The attempts as a JSON array.
        let history: String
    }
    let webhookID: String
    let limit: Int
}

/// Makes a dead delivery pending again now, with `attemptLimit` more attempts.
private struct ResendDelivery: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = \(\.now), attempt_limit = attempts + \(\.attemptLimit)
        WHERE id = \(\.id) AND status = 'dead'
        """
    typealias Row = NoRows
    let id: Int64
    let attemptLimit: Int
    let now: Date
}

/// The earliest next attempt of a pending delivery or lease expiry of one being sent; NULL when there is none.
private struct NextDeliveryDue: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT min(CASE WHEN status = 'pending' THEN next_attempt_at ELSE lease_expires_at END) AS at
        FROM webhook_deliveries WHERE status IN ('pending', 'sending')
        """
    struct Row: Decodable, Sendable { let at: Date? }
}
