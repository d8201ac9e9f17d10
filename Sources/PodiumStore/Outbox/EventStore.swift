import Foundation
import PodiumCore
import PodiumWire
import Postgres

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

    /// The cursor of event `id` written by transaction `transactionText` (an xid8 as text; 0 when it is not one).
    init(transactionText: String, id: Int64) {
        self.init(transaction: UInt64(transactionText) ?? 0, id: id)
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

    /// The statement appending `events` (one type), in order, to run inside the caller's transaction.
    static func append<Payload: EventPayload>(_ events: [Payload], occurredAt: Date) throws -> AppendEvents {
        AppendEvents(
            type: Payload.type.rawValue, subjects: events.map { $0.subject ?? "" }, occurredAt: occurredAt,
            payloads: JSONTexts.joined(try events.map { try $0.jsonString() }))
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
        let rows = try connection.run(FeedEvents(bounds: FeedBounds(after: cursor, limit: limit, type: type)))
        let decoder = JSONDecoder()
        let events = try rows.compactMap(\.event).map { event in
            let cursor = EventCursor(transactionText: event.txText, id: event.id)
            return OutboxEvent(
                id: "evt_\(cursor.id)", type: event.type, occurredAt: RFC3339.format(event.occurredAt),
                data: try decoder.decode(JSONValue.self, from: Data(event.payload.utf8)), cursor: cursor.text)
        }
        return (events, EventCursor(transactionText: rows[0].horizonText, id: 0))
    }

    /// The positions of up to `limit` events after `cursor` in feed order (webhook dispatch: no payloads).
    static func positions(after cursor: EventCursor?, limit: Int, on connection: PostgresConnection) throws -> [EventCursor] {
        try connection.run(FeedPositions(bounds: FeedBounds(after: cursor, limit: limit, type: nil))).compactMap(\.event).map {
            EventCursor(transactionText: $0.txText, id: $0.id)
        }
    }

    /// Drops the events of every month that ended by `cutoff`, a whole partition at a time, and the deliveries of those
    /// events; also deletes events before `cutoff` that sit in `events_default`. Returns how many events went.
    ///
    /// Events are therefore kept at least until `cutoff` and at most a month longer: the partition of a month goes once
    /// all of it is past the cutoff, with no row-by-row delete and nothing left for vacuum.
    public func prune(before cutoff: Date) async throws -> Int {
        try await MonthlyPartitions.events.prune(before: cutoff, on: postgres, leftovers: PruneDefaultEvents(cutoff: cutoff)) {
            name, connection in
            try connection.run(ClearMonthDeliveries(partition: name)).first?.n ?? 0
        }
    }

    /// Makes the partitions of the month of `now` (UTC) and the two after it, where missing (moving their events out
    /// of `events_default`); returns how many it made. The prune job calls it every day, so writes always find their
    /// month's partition.
    public func prepareMonths(now: Date) async throws -> Int {
        try await MonthlyPartitions.events.prepare(now: now, on: postgres)
    }
}

/// Appends events of one type, in order: the subjects (player ids, '' for none: NULL) as one array, the payloads as
/// one text (`JSONTexts`), each parsed into its own jsonb.
struct AppendEvents: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO events (type, user_id, occurred_at, payload)
        SELECT \(\.type), NULLIF(x.u, ''), \(\.occurredAt), e.p::jsonb
        FROM unnest(\(\.subjects)::text[]) WITH ORDINALITY AS x(u, i)
        JOIN string_to_table(\(\.payloads), \(\.separator)) WITH ORDINALITY AS e(p, i) USING (i)
        ORDER BY x.i
        """
    typealias Row = NoRows
    /// An `EventType` raw value.
    let type: String
    /// Each event's subject player, '' for none.
    let subjects: [String]
    let occurredAt: Date
    /// The payloads' JSON texts, joined by `separator`.
    let payloads: String
    let separator = JSONTexts.separator
}

/// Which events a feed statement reads: those after a cursor, optionally of one type, at most `limit`.
private struct FeedBounds: Sendable {
    /// The cursor's transaction id, as text (read as `xid8`); "0" from the start.
    let transaction: String
    /// The cursor's event id; 0 from the start.
    let id: Int64
    /// The one event type to read, or nil for all.
    let type: String?
    let limit: Int

    /// The events after `cursor` (from the start when nil).
    init(after cursor: EventCursor?, limit: Int, type: String?) {
        (transaction, id, self.type, self.limit) = (String(cursor?.transaction ?? 0), cursor?.id ?? 0, type, limit)
    }
}

/// The feed's one query (``FeedEvents``, ``FeedPositions``): what is visible and in which order, each statement
/// selecting its own columns, and on every row (one row with NULL columns when no event is visible) the horizon.
///
/// Only transactions older than every one still running are shown (`pg_snapshot_xmin`, computed once:
/// the CTE is materialized, so the rows and the horizon handed out are the same value), so nothing
/// can later appear behind a cursor. The order is by the `xid8` column itself: the transaction id is
/// selected as text under another name, because ordering by text would put 1000 before 999.
private protocol FeedStatement: PostgresStatement {
    /// Which events.
    var bounds: FeedBounds { get }
}

extension FeedStatement {
    /// The feed's text selecting `columns` (constant text) of each event.
    static func feed(columns: String) -> PostgresSQL<Self> {
        """
        WITH visible AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon)
        SELECT v.horizon::text AS horizon_text, e.* FROM visible v LEFT JOIN LATERAL (
            SELECT tx, \(unescaped: columns) FROM events
            WHERE (tx, id) > (\(\.bounds.transaction)::xid8, \(\.bounds.id)::bigint) AND tx < v.horizon
              AND (\(\.bounds.type)::text IS NULL OR type = \(\.bounds.type))
            ORDER BY events.tx, events.id LIMIT \(\.bounds.limit)) e ON true
        ORDER BY e.tx, e.id
        """
    }
}

/// A row of the feed: the horizon, and the event unless none is visible.
private struct FeedRow<Event: Decodable & Sendable>: Decodable, Sendable {
    /// The horizon the events were read below (an xid8, as text).
    let horizonText: String
    /// The event's columns; nil on the one row of a feed with no visible event.
    let event: Event?

    private enum CodingKeys: CodingKey { case horizonText, id }

    /// Reads the horizon, and the event when the row has one (its id is not NULL).
    init(from decoder: any Decoder) throws {
        let columns = try decoder.container(keyedBy: CodingKeys.self)
        horizonText = try columns.decode(String.self, forKey: .horizonText)
        event = try columns.decodeNil(forKey: .id) ? nil : try Event(from: decoder)
    }
}

/// Events of the feed with their payloads, for a page.
private struct FeedEvents: FeedStatement {
    static let sql = feed(columns: "id, tx::text AS tx_text, type, occurred_at, payload::text AS payload")
    typealias Row = FeedRow<Event>
    struct Event: Decodable, Sendable {
        let id: Int64
        /// The writing transaction's id (an xid8, as text).
        let txText: String
        let type: String
        let occurredAt: Date
        /// The event's data, JSON text.
        let payload: String
    }
    let bounds: FeedBounds
}

/// The positions of events of the feed, for webhook dispatch.
private struct FeedPositions: FeedStatement {
    static let sql = feed(columns: "id, tx::text AS tx_text")
    typealias Row = FeedRow<Event>
    struct Event: Decodable, Sendable {
        let id: Int64
        /// The writing transaction's id (an xid8, as text).
        let txText: String
    }
    let bounds: FeedBounds
}

/// Deletes the events before `cutoff` left in `events_default` (no partition for their month yet) with their
/// deliveries; answers how many events went.
private struct PruneDefaultEvents: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        WITH gone AS (DELETE FROM events_default WHERE occurred_at < \(\.cutoff) RETURNING id),
        deliveries AS (DELETE FROM webhook_deliveries WHERE event_id IN (SELECT id FROM gone))
        SELECT count(*) AS n FROM gone
        """
    typealias Row = RemovedRows
    let cutoff: Date
}

/// Deletes the deliveries of one monthly partition's events, before the partition is dropped; answers how many events
/// it holds.
///
/// A table's name cannot be bound, so each partition has its own text naming it: `partition` is a name
/// `MonthlyPartitions` read from the catalog (`events_YYYY_MM`), never a value from outside.
private struct ClearMonthDeliveries: PostgresRunnable {
    var text: PostgresSQL<Self> {
        """
        WITH deliveries AS (DELETE FROM webhook_deliveries d USING \(unescaped: partition) e WHERE d.event_id = e.id)
        SELECT count(*) AS n FROM \(unescaped: partition)
        """
    }
    struct Row: Decodable, Sendable { let n: Int }
    /// The partition, `events_YYYY_MM`.
    let partition: String
}
