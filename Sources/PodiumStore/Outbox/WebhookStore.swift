import Foundation
import PodiumCore
import Postgres

/// A registered webhook, as admins see it (never with its secret).
public struct Webhook: Sendable, Codable, Equatable {
    /// Id, `wh_…`.
    public var id: String
    /// Where events are POSTed.
    public var url: String
    /// Event types it receives.
    public var eventTypes: [String]
    /// False once disabled: no new deliveries are made for it.
    public var enabled: Bool
    /// RFC 3339 creation time.
    public var createdAt: String

    /// Creates a webhook value.
    public init(id: String, url: String, eventTypes: [String], enabled: Bool, createdAt: String) {
        self.id = id
        self.url = url
        self.eventTypes = eventTypes
        self.enabled = enabled
        self.createdAt = createdAt
    }
}

/// One attempt to deliver.
public struct WebhookAttempt: Sendable, Codable, Equatable {
    /// Attempt number.
    public var attempt: Int
    /// Replica that sent it.
    public var replica: String
    /// RFC 3339 start.
    public var startedAt: String
    /// How long the receiver took (or until the timeout).
    public var durationMs: Int
    /// HTTP status the receiver answered, if it answered.
    public var statusCode: Int?
    /// What went wrong, if anything.
    public var error: String?
}

/// Where one event's delivery to one webhook stands.
public enum WebhookDeliveryStatus: String, Sendable, Codable {
    /// Waiting for its next attempt.
    case pending
    /// A replica is sending it now.
    case sending
    /// The receiver took it.
    case delivered
    /// Out of attempts (an admin can resend it).
    case dead
}

/// One event's delivery to one webhook, with its attempts.
public struct WebhookDelivery: Sendable, Codable, Equatable {
    /// Delivery id.
    public var id: Int64
    /// Webhook id.
    public var webhookId: String
    /// The event's id, as receivers see it (`evt_…`).
    public var eventId: String
    /// Event type.
    public var eventType: String
    /// Where the delivery stands.
    public var status: WebhookDeliveryStatus
    /// Attempts made.
    public var attempts: Int
    /// RFC 3339 time of the next attempt, while pending.
    public var nextAttemptAt: String?
    /// Status code of the last answer.
    public var lastStatusCode: Int?
    /// Last error.
    public var lastError: String?
    /// RFC 3339 delivery time.
    public var deliveredAt: String?
    /// Every attempt, first to last.
    public var history: [WebhookAttempt]
}

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
    let postgres: PostgresPool

    /// Creates the store.
    public init(postgres: PostgresPool) {
        self.postgres = postgres
    }

    /// Registers a webhook.
    public func create(url: String, eventTypes: [String], secret: String, now: Date) async throws -> Webhook {
        let id = "wh_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        try await postgres.query("""
            INSERT INTO webhooks (id, url, event_types, secret, created_at) VALUES ($1, $2, $3, $4, $5)
            """, [id, url, eventTypes, secret, now])
        return Webhook(id: id, url: url, eventTypes: eventTypes, enabled: true, createdAt: RFC3339.format(now))
    }

    /// Every webhook, newest first.
    public func list() async throws -> [Webhook] {
        try await postgres.query("SELECT \(Self.columns) FROM webhooks ORDER BY created_at DESC, id").rows.map(Self.webhook)
    }

    /// Enables or disables a webhook; returns it, or nil when there is none with this id.
    public func setEnabled(id: String, enabled: Bool) async throws -> Webhook? {
        try await postgres.query("UPDATE webhooks SET enabled = $2 WHERE id = $1 RETURNING \(Self.columns)", [id, enabled])
            .rows.first.map(Self.webhook)
    }

    private static let columns = "id, url, array_to_string(event_types, ',') AS types, enabled, created_at"

    private static func webhook(_ row: PostgresRow) throws -> Webhook {
        Webhook(id: try row.string("id"), url: try row.string("url"), eventTypes: try row.string("types").split(separator: ",").map(String.init),
                enabled: try row.bool("enabled"), createdAt: RFC3339.format(try row.date("created_at")))
    }

    /// Where and with what secret webhook `id` is sent to; nil when there is none.
    public func target(id: String) async throws -> (url: String, secret: String)? {
        try await postgres.query("SELECT url, secret FROM webhooks WHERE id = $1", [id]).rows.first.map {
            (url: try $0.string("url"), secret: try $0.string("secret"))
        }
    }

    /// Deletes a webhook with its deliveries; false when there is none with this id.
    public func delete(id: String) async throws -> Bool {
        try await postgres.query("DELETE FROM webhooks WHERE id = $1", [id]).affectedRows == 1
    }

    /// Fans out new outbox events into deliveries for the enabled webhooks subscribed to their type; returns how
    /// many events it read (`limit` means more may be waiting).
    ///
    /// One replica at a time (the cursor row is locked, others skip); at most `limit` events per call.
    public func dispatch(attemptLimit: Int, now: Date, limit: Int = 500) async throws -> Int {
        try await postgres.withTransaction { connection in
            guard let row = try connection.query(
                "SELECT tx::text AS tx_text, event_id AS id FROM webhook_dispatch WHERE name = 'outbox' FOR UPDATE SKIP LOCKED").rows.first
            else { return 0 }
            let cursor = try EventStore.position(of: row)
            let positions = try EventStore.positions(after: cursor, limit: limit, on: connection)
            guard let last = positions.last else { return 0 }
            // FOR KEY SHARE: an event erased, or a webhook deleted, after this statement's snapshot is
            // skipped rather than failing the foreign keys.
            try connection.query("""
                INSERT INTO webhook_deliveries (webhook_id, event_id, status, attempt_limit, next_attempt_at, created_at)
                SELECT w.id, e.id, 'pending', $2, $3, $3
                FROM events e JOIN webhooks w ON w.enabled AND e.type = ANY(w.event_types)
                WHERE e.id = ANY($1)
                ORDER BY e.tx, e.id, w.id
                FOR KEY SHARE OF e, w
                ON CONFLICT DO NOTHING
                """, [positions.map(\.id), attemptLimit, now])
            try connection.query("UPDATE webhook_dispatch SET tx = $1::xid8, event_id = $2 WHERE name = 'outbox'",
                                 [String(last.transaction), last.id])
            return positions.count
        }
    }

    /// Claims up to `limit` due deliveries, each with a lease of `lease` seconds (attempts record the replica).
    ///
    /// Due means pending with its next attempt time passed, or sending with an expired lease (the sender died).
    public func claim(lease: TimeInterval, now: Date, limit: Int) async throws -> [ClaimedDelivery] {
        try await postgres.query("""
            UPDATE webhook_deliveries d SET status = 'sending', attempts = d.attempts + 1, lease_expires_at = $2
            FROM (SELECT id FROM webhook_deliveries
                  WHERE (status = 'pending' AND next_attempt_at <= $1) OR (status = 'sending' AND lease_expires_at < $1)
                  ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED) due,
                 webhooks w, events e
            WHERE d.id = due.id AND w.id = d.webhook_id AND e.id = d.event_id
            RETURNING d.id, d.attempts, d.attempt_limit, w.url, w.secret, e.id AS event_id, e.type,
                      json_build_object('id', 'evt_' || e.id, 'type', e.type,
                                        'occurred_at', \(SQLText.rfc3339("e.occurred_at")),
                                        'data', e.payload)::text AS body
            """, [now, now.addingTimeInterval(lease), limit]).rows.map { row in
            ClaimedDelivery(
                id: try row.int64("id"), attempt: try row.int("attempts"), attemptLimit: try row.int("attempt_limit"),
                url: try row.string("url"), secret: try row.string("secret"), eventId: "evt_\(try row.int64("event_id"))",
                eventType: try row.string("type"), body: try row.string("body"))
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
            try connection.query("""
                INSERT INTO webhook_attempts (delivery_id, attempt, replica, started_at, duration_ms, status_code, error)
                VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING
                """, [delivery.id, delivery.attempt, replica, startedAt, durationMs, statusCode, problem])
            try connection.query("""
                UPDATE webhook_deliveries SET status = $3, last_status_code = $4, last_error = $5, lease_expires_at = NULL,
                       next_attempt_at = CASE WHEN $3 = 'pending' THEN $6::timestamptz END,
                       delivered_at = CASE WHEN $3 = 'delivered' THEN $7::timestamptz END
                WHERE id = $1 AND attempts = $2 AND status = 'sending'
                """, [delivery.id, delivery.attempt, status.rawValue, statusCode, problem, now.addingTimeInterval(retryDelay), now])
        }
    }

    /// Deliveries of a webhook, newest first, with their attempts; nil when there is no such webhook.
    public func deliveries(webhookID: String, limit: Int) async throws -> [WebhookDelivery]? {
        guard !(try await postgres.query("SELECT 1 FROM webhooks WHERE id = $1", [webhookID]).rows.isEmpty) else { return nil }
        let rows = try await postgres.query("""
            SELECT d.id, d.webhook_id, d.event_id, e.type, d.status, d.attempts, d.next_attempt_at, d.last_status_code, d.last_error,
                   d.delivered_at,
                   COALESCE((SELECT json_agg(json_build_object('attempt', a.attempt, 'replica', a.replica,
                                 'started_at', \(SQLText.rfc3339("a.started_at")),
                                 'duration_ms', a.duration_ms, 'status_code', a.status_code, 'error', a.error) ORDER BY a.attempt)
                             FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]')::text AS history
            FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
            WHERE d.webhook_id = $1 ORDER BY d.id DESC LIMIT $2
            """, [webhookID, limit]).rows
        let decoder = PodiumJSON.decoder()
        return try rows.map { row in
            WebhookDelivery(
                id: try row.int64("id"), webhookId: try row.string("webhook_id"), eventId: "evt_\(try row.int64("event_id"))",
                eventType: try row.string("type"), status: try row.value("status"), attempts: try row.int("attempts"),
                nextAttemptAt: try row.optionalDate("next_attempt_at").map(RFC3339.format), lastStatusCode: try row.optionalInt("last_status_code"),
                lastError: row["last_error"], deliveredAt: try row.optionalDate("delivered_at").map(RFC3339.format),
                history: try decoder.decode([WebhookAttempt].self, from: Data(try row.string("history").utf8)))
        }
    }

    /// Sends a dead delivery again with a fresh set of `attemptLimit` attempts; false unless it exists and is dead.
    public func resend(deliveryID: Int64, attemptLimit: Int, now: Date) async throws -> Bool {
        let update: PostgresQuery = """
            UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = \(bind: now), attempt_limit = attempts + \(bind: attemptLimit)
            WHERE id = \(bind: deliveryID) AND status = 'dead'
            """
        // The senders are told when it commits, so one sends it now.
        return try await postgres.withConnection { try $0.pipeline([update, ChangeNotices.notify(.outbox)]) }[0].affectedRows == 1
    }

    /// When a sender should look again if nothing new comes: the earliest next attempt of a pending delivery, or lease
    /// expiry of one being sent; nil when there is none.
    public func nextDue() async throws -> Date? {
        try await postgres.query("""
            SELECT min(CASE WHEN status = 'pending' THEN next_attempt_at ELSE lease_expires_at END) AS at
            FROM webhook_deliveries WHERE status IN ('pending', 'sending')
            """).rows.first?.optionalDate("at")
    }
}
