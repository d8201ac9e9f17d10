import Foundation
import PodiumCore
import PodiumWire
import Postgres

/// What the trail records of one action, before it has an id.
public struct AuditRecord: Sendable, Equatable {
    /// When it was answered.
    public var at: Date
    /// The key id, or `bootstrap`.
    public var actor: String
    /// The route template with its method.
    public var action: String
    /// The path.
    public var target: String
    /// The status.
    public var status: Int
    /// The request id.
    public var requestID: String
    /// What the action changed, when its path does not say.
    public var detail: String?

    /// Creates a record.
    public init(at: Date, actor: String, action: String, target: String, status: Int, requestID: String, detail: String? = nil) {
        self.detail = detail
        self.at = at
        self.actor = actor
        self.action = action
        self.target = target
        self.status = status
        self.requestID = requestID
    }
}

/// The audit trail of admin actions, in PostgreSQL (`admin_audit`).
public struct AuditStore: Sendable {
    let postgres: PostgresPool

    /// Creates the store.
    public init(postgres: PostgresPool) {
        self.postgres = postgres
    }

    /// Appends `record`.
    public func record(_ record: AuditRecord) async throws {
        try await postgres.run(RecordAction(record: record))
    }

    /// Entries newest first, before entry `before` when given; only `actor`'s when given, only those whose action or
    /// target contains `search` (any case) when given. At most `limit`.
    public func entries(before: Int64?, actor: String?, search: String?, limit: Int) async throws -> [AuditEntry] {
        let pattern = search.map { "%" + SQLText.escapedLike($0) + "%" }
        return try await postgres.run(TrailPage(before: before, actor: actor, pattern: pattern, limit: limit)).map { row in
            AuditEntry(
                id: row.id, at: RFC3339.format(row.at), actor: row.actor, actorName: row.actorName, action: row.action,
                target: row.target, status: row.status, requestId: row.requestID, detail: row.detail)
        }
    }

    /// How an erased player's id is kept in the trail: `sha256:` and the first 16 hex digits of its SHA-256, enough to
    /// confirm that a known id was erased, not to read it back.
    public static func erasedPlayer(_ id: String) -> String {
        "sha256:" + Hashing.sha256Hex(id).prefix(16)
    }
}

/// Appends one action to the trail.
private struct RecordAction: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO admin_audit (at, actor, action, target, status, request_id, detail)
        VALUES (\(\.record.at), \(\.record.actor), \(\.record.action), \(\.record.target), \(\.record.status),
                \(\.record.requestID), \(\.record.detail))
        """
    typealias Row = NoRows
    let record: AuditRecord
}

/// A page of the trail, newest first, with each actor's key name: before an entry, of one actor, matching a LIKE
/// pattern, each when given.
private struct TrailPage: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT a.id, a.at, a.actor, k.name AS actor_name, a.action, a.target, a.status, a.request_id, a.detail
        FROM admin_audit a LEFT JOIN api_keys k ON k.id = a.actor
        WHERE (\(\.before)::bigint IS NULL OR a.id < \(\.before)) AND (\(\.actor)::text IS NULL OR a.actor = \(\.actor))
          AND (\(\.pattern)::text IS NULL
               OR a.action ILIKE \(\.pattern) OR a.target ILIKE \(\.pattern) OR a.detail ILIKE \(\.pattern))
        ORDER BY a.id DESC LIMIT \(\.limit)
        """
    struct Row: Decodable, Sendable {
        let id: Int64
        let at: Date
        let actor: String
        /// The key's name; nil for the bootstrap key or a key no longer in the table.
        let actorName: String?
        let action: String
        let target: String
        let status: Int
        let requestID: String
        let detail: String?
    }
    /// Only entries with a smaller id.
    let before: Int64?
    /// Only this key id's entries.
    let actor: String?
    /// Only entries whose action, target or detail match (ILIKE).
    let pattern: String?
    let limit: Int
}
