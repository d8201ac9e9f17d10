import Foundation

/// The body of `POST /v1/admin/webhooks`.
public struct CreateWebhookRequest: Codable, Sendable {
    /// Receiver URL.
    public var url: String?
    /// Event types to receive.
    public var eventTypes: [String]?
    /// Shared secret for the signature (16-200 characters).
    public var secret: String?

    /// Creates a value from its fields.
    public init(url: String? = nil, eventTypes: [String]? = nil, secret: String? = nil) {
        self.url = url
        self.eventTypes = eventTypes
        self.secret = secret
    }
}

/// The answer to `GET /v1/admin/webhooks`.
public struct WebhookList: Codable, Sendable {
    /// Every webhook, newest first.
    public var webhooks: [Webhook]

    /// Creates a value from its fields.
    public init(webhooks: [Webhook]) {
        self.webhooks = webhooks
    }
}

/// The answer to `GET /v1/admin/webhooks/{id}/deliveries`.
public struct WebhookDeliveryList: Codable, Sendable {
    /// Deliveries, newest first.
    public var deliveries: [WebhookDelivery]

    /// Creates a value from its fields.
    public init(deliveries: [WebhookDelivery]) {
        self.deliveries = deliveries
    }
}

/// One event of the outbox, as the feed shows it.
public struct OutboxEvent: Sendable, Codable, Equatable {
    /// Stable id, unique across the outbox (receivers deduplicate on it).
    public var id: String
    /// What happened: an `EventType` raw value, as stored.
    public var type: String
    /// RFC 3339 time of the change it reports.
    public var occurredAt: String
    /// The event's data (a JSON object).
    public var data: JSONValue
    /// Position after this event: pass it as `after` to continue from here.
    public var cursor: String

    /// Creates a value from its fields.
    public init(id: String, type: String, occurredAt: String, data: JSONValue, cursor: String) {
        self.id = id
        self.type = type
        self.occurredAt = occurredAt
        self.data = data
        self.cursor = cursor
    }
}

/// A page of the outbox feed.
public struct EventPage: Sendable, Codable, Equatable {
    /// Events in outbox order.
    public var events: [OutboxEvent]
    /// Where the next poll continues: the last event's cursor when the page is full, else a position past
    /// every event the page considered (never before the `after` given).
    public var nextCursor: String

    /// Creates a value from its fields.
    public init(events: [OutboxEvent], nextCursor: String) {
        self.events = events
        self.nextCursor = nextCursor
    }
}

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

    /// Creates a value from its fields.
    public init(
        attempt: Int, replica: String, startedAt: String, durationMs: Int, statusCode: Int? = nil, error: String? = nil
    ) {
        self.attempt = attempt
        self.replica = replica
        self.startedAt = startedAt
        self.durationMs = durationMs
        self.statusCode = statusCode
        self.error = error
    }
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

    /// Creates a value from its fields.
    public init(
        id: Int64, webhookId: String, eventId: String, eventType: String, status: WebhookDeliveryStatus, attempts: Int,
        nextAttemptAt: String? = nil, lastStatusCode: Int? = nil, lastError: String? = nil, deliveredAt: String? = nil,
        history: [WebhookAttempt]
    ) {
        self.id = id
        self.webhookId = webhookId
        self.eventId = eventId
        self.eventType = eventType
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastStatusCode = lastStatusCode
        self.lastError = lastError
        self.deliveredAt = deliveredAt
        self.history = history
    }
}

/// How a webhook's test event went: one attempt, sent at once, outside the outbox (nothing is stored or retried).
public struct WebhookTestResult: Sendable, Codable, Equatable {
    /// The webhook.
    public var webhookId: String
    /// The test event's id (`evt_test_…`), sent as `Podium-Event-Id`.
    public var eventId: String
    /// Whether the receiver answered 2xx.
    public var delivered: Bool
    /// The receiver's status, when it answered.
    public var statusCode: Int?
    /// Why it failed, when it did.
    public var error: String?
    /// How long the attempt took.
    public var durationMs: Int

    /// Creates a result.
    public init(webhookId: String, eventId: String, delivered: Bool, statusCode: Int?, error: String?, durationMs: Int) {
        self.webhookId = webhookId
        self.eventId = eventId
        self.delivered = delivered
        self.statusCode = statusCode
        self.error = error
        self.durationMs = durationMs
    }
}

/// Any JSON value: event data passes through `Codable` unchanged.
public indirect enum JSONValue: Sendable, Codable, Equatable {
    /// null
    case null
    /// true or false
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// Decodes whatever JSON value comes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    /// Encodes the value as it came (whole numbers without a fraction).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value, abs(value) < 1e15 { try container.encode(Int64(value)) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
