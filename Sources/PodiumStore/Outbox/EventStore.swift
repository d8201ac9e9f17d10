import Foundation
import PodiumCore
import Postgres

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

/// A page of the outbox feed.
public struct EventPage: Sendable, Codable, Equatable {
    /// Events in outbox order.
    public var events: [OutboxEvent]
    /// Where the next poll continues: the last event's cursor when the page is full, else a position past
    /// every event the page considered (never before the `after` given).
    public var nextCursor: String
}

/// Position in the outbox: the writing transaction's id and the event id (`<tx>-<id>`).
///
/// Ids come from a sequence, so a transaction that started earlier can commit later with
/// smaller ids than events already visible. Ordering by (transaction id, event id) and showing
/// only transactions older than every transaction still running (`pg_snapshot_xmin`) makes the
/// visible prefix final: nothing can later appear before a cursor already handed out.
public struct EventCursor: Sendable, Comparable {
    /// Transaction id (xid8) of the event.
    public let transaction: UInt64
    /// Event id.
    public let id: Int64

    /// Creates a cursor.
    public init(transaction: UInt64, id: Int64) {
        self.transaction = transaction
        self.id = id
    }

    /// Parses `<tx>-<id>`; nil for anything else.
    public init?(text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        // Digits only, at most 19 and 18 of them: every such text fits, so the document's pattern is exactly what is read.
        guard parts.count == 2, (1...19).contains(parts[0].count), (1...18).contains(parts[1].count),
              parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
              let transaction = UInt64(parts[0]), let id = Int64(parts[1]) else { return nil }
        self.init(transaction: transaction, id: id)
    }

    /// The cursor as text.
    public var text: String { "\(transaction)-\(id)" }

    /// Feed order: by transaction id, then event id.
    public static func < (lhs: EventCursor, rhs: EventCursor) -> Bool {
        (lhs.transaction, lhs.id) < (rhs.transaction, rhs.id)
    }
}

/// The outbox: events written in the transaction of the change they report, read as a gap-free feed.
public struct EventStore: Sendable {
    let postgres: PostgresPool
    /// Where feed pages are read: a standby's pages may be slightly behind, never out of order.
    let replica: ReadReplica

    /// Creates the store; feed pages come from `replica`'s pool when given.
    public init(postgres: PostgresPool, replica: ReadReplica? = nil) {
        self.postgres = postgres
        self.replica = replica ?? .primaryOnly(postgres)
    }

    /// The statement appending `events` (one type), in order, inside the caller's transaction.
    ///
    /// Payloads travel as one text (`JSONTexts`), each parsed into its own jsonb; an event without a subject player
    /// gets a NULL `user_id`.
    public static func append<Payload: EventPayload>(_ events: [Payload], occurredAt: Date) throws -> PostgresQuery {
        let payloads = JSONTexts.joined(try events.map { try $0.jsonString() })
        return """
            INSERT INTO events (type, user_id, occurred_at, payload)
            SELECT \(bind: Payload.type.rawValue), NULLIF(x.u, ''), \(bind: occurredAt), e.p::jsonb
            FROM unnest(\(bind: events.map { $0.subject ?? "" })::text[]) WITH ORDINALITY AS x(u, i)
            JOIN string_to_table(\(bind: payloads), \(bind: JSONTexts.separator)) WITH ORDINALITY AS e(p, i) USING (i)
            ORDER BY x.i
            """
    }

    /// Up to `limit` events after `cursor` (from the start when nil), optionally of one type.
    ///
    /// A short page has shown every matching event below the visibility horizon, so its next cursor is
    /// the horizon itself: a poll filtered to a rare type moves past the others instead of reading
    /// them again every time, and a first poll of an empty feed gets a cursor too.
    public func feed(after cursor: EventCursor?, limit: Int, type: String?) async throws -> EventPage {
        let (events, horizon) = try await replica.withConnection { connection in
            try Self.page(after: cursor, limit: limit, type: type, on: connection)
        }
        let next = if events.count == limit, let last = events.last { last.cursor } else { max(cursor ?? horizon, horizon).text }
        return EventPage(events: events, nextCursor: next)
    }

    /// Up to `limit` events after `cursor` in feed order, and the horizon they were read below, read on `connection`.
    static func page(after cursor: EventCursor?, limit: Int, type: String?, on connection: PostgresConnection) throws
        -> (events: [OutboxEvent], horizon: EventCursor) {
        let rows = try connection.query(
            feedQuery(columns: "id, tx::text AS tx_text, type, occurred_at, payload::text AS payload"),
            feedParameters(after: cursor, limit: limit, type: type)).rows
        let decoder = JSONDecoder()
        let events = try rows.filter { $0["id"] != nil }.map { row in
            let cursor = try position(of: row)
            return OutboxEvent(
                id: "evt_\(cursor.id)", type: try row.string("type"), occurredAt: RFC3339.format(try row.date("occurred_at")),
                data: try decoder.decode(JSONValue.self, from: Data(try row.string("payload").utf8)), cursor: cursor.text)
        }
        return (events, EventCursor(transaction: UInt64(try rows[0].string("horizon_text")) ?? 0, id: 0))
    }

    /// The positions of up to `limit` events after `cursor` in feed order (webhook dispatch: no payloads).
    static func positions(after cursor: EventCursor?, limit: Int, on connection: PostgresConnection) throws -> [EventCursor] {
        try connection.query(
            feedQuery(columns: "id, tx::text AS tx_text"), feedParameters(after: cursor, limit: limit, type: nil)
        ).rows.filter { $0["id"] != nil }.map(position(of:))
    }

    /// The feed's one query: what is visible and in which order, selecting `columns`, and on every row
    /// (one row with NULL columns when no event is visible) the horizon, `horizon_text`.
    ///
    /// Only transactions older than every one still running are shown (`pg_snapshot_xmin`, computed once:
    /// the CTE is materialized, so the rows and the horizon handed out are the same value), so nothing
    /// can later appear behind a cursor. The order is by the `xid8` column itself: the transaction id is
    /// selected as text under another name, because ordering by text would put 1000 before 999.
    private static func feedQuery(columns: String) -> String {
        """
        WITH visible AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon)
        SELECT v.horizon::text AS horizon_text, e.* FROM visible v LEFT JOIN LATERAL (
            SELECT tx, \(columns) FROM events
            WHERE (tx, id) > ($1::xid8, $2::bigint) AND tx < v.horizon AND ($3::text IS NULL OR type = $3)
            ORDER BY events.tx, events.id LIMIT $4) e ON true
        ORDER BY e.tx, e.id
        """
    }

    private static func feedParameters(after cursor: EventCursor?, limit: Int, type: String?) -> [(any PostgresBindable)?] {
        [String(cursor?.transaction ?? 0), cursor?.id ?? 0, type, limit]
    }

    /// The cursor of a row with `tx_text` (the transaction id as text) and `id`.
    static func position(of row: PostgresRow) throws -> EventCursor {
        EventCursor(transaction: UInt64(try row.string("tx_text")) ?? 0, id: try row.int64("id"))
    }

    /// Drops the events of every month that ended by `cutoff`, a whole partition at a time, and the deliveries of those
    /// events; also deletes events before `cutoff` that sit in `events_default`. Returns how many events went.
    ///
    /// Events are therefore kept at least until `cutoff` and at most a month longer: the partition of a month goes once
    /// all of it is past the cutoff, with no row-by-row delete and nothing left for vacuum.
    public func prune(before cutoff: Date) async throws -> Int {
        try await MonthlyPartitions.events.prune(before: cutoff, on: postgres, leftovers: """
            WITH gone AS (DELETE FROM events_default WHERE occurred_at < \(bind: cutoff) RETURNING id),
            deliveries AS (DELETE FROM webhook_deliveries WHERE event_id IN (SELECT id FROM gone))
            SELECT count(*) AS n FROM gone
            """) { name, connection in
            try connection.query("""
                WITH deliveries AS (DELETE FROM webhook_deliveries d USING \(name) e WHERE d.event_id = e.id)
                SELECT count(*) AS n FROM \(name)
                """).rows.first?.int("n") ?? 0
        }
    }

    /// Makes the partitions of the month of `now` (UTC) and the two after it, where missing (moving their events out
    /// of `events_default`); returns how many it made. The prune job calls it every day, so writes always find their
    /// month's partition.
    public func prepareMonths(now: Date) async throws -> Int {
        try await MonthlyPartitions.events.prepare(now: now, on: postgres)
    }
}
