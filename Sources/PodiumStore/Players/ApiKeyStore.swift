import Foundation
import PodiumCore
import PodiumWire
import Postgres

/// What a valid key grants: its role and, for read and display keys, the boards it is limited to.
public struct KeyGrant: Sendable, Equatable {
    /// The id of the bootstrap admin key's grant (from the environment, in no table).
    public static let bootstrapID = "bootstrap"

    /// Key id (`bootstrap` for the bootstrap admin key), for logs and rate limits.
    public var id: String
    /// Its role.
    public var role: Role
    /// Board patterns the key is limited to; empty means every board.
    public var scopes: [BoardPattern]
    /// When the key stops working, if it expires.
    public var expiresAt: Date?

    /// Creates a grant.
    public init(id: String, role: Role, scopes: [BoardPattern], expiresAt: Date? = nil) {
        self.id = id
        self.role = role
        self.scopes = scopes
        self.expiresAt = expiresAt
    }

    /// Whether the key has expired at `now`.
    public func hasExpired(at now: Date) -> Bool {
        expiresAt.map { $0 <= now } ?? false
    }

    /// Whether the key may read `board` (an unscoped key reads every board).
    public func covers(_ board: BoardScope) -> Bool {
        scopes.isEmpty || BoardPattern.any(scopes, match: board)
    }
}

/// A newly created key: the only time its secret is shown.
public struct CreatedApiKey: Sendable, Codable, Equatable {
    /// The key as listed.
    public var key: ApiKeyInfo
    /// The bearer token to give the client.
    public var secret: String
}

/// API keys, stored as SHA-256 hashes of their secrets.
public struct ApiKeyStore: Sendable {
    let postgres: PostgresPool

    /// Creates the store.
    public init(postgres: PostgresPool) {
        self.postgres = postgres
    }

    /// SHA-256 of a secret, hex: what is stored and looked up.
    public static func hash(_ secret: String) -> String {
        Hashing.sha256Hex(secret)
    }

    /// The characters of a secret after `pdm_`.
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")

    /// A new random secret: `pdm_` and 40 characters of base62 from the system's secure generator.
    public static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return "pdm_" + String((0..<40).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    /// Whether `secret` has the shape `newSecret` gives (`pdm_` and 40 base62 characters): anything else cannot be a key,
    /// so it is refused without a lookup.
    public static func isWellFormed(_ secret: String) -> Bool {
        let bytes = Array(secret.utf8)
        guard bytes.count == 44, secret.hasPrefix("pdm_") else { return false }
        return bytes[4...].allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        }
    }

    /// Why `scopes` do not fit a key of `role`, nil when they do: a display key needs 1 to 20 board patterns,
    /// a read key may have up to 20, ingest and admin keys take none (scopes narrow reads).
    public static func scopeProblem(role: Role, scopes: [BoardPattern]) -> String? {
        if scopes.count > 20 { return "must hold at most 20 board patterns" }
        if role == .display && scopes.isEmpty { return "must name the boards a display key shows (at least one)" }
        if !role.takesScopes && !scopes.isEmpty { return "apply to read and display keys only" }
        return nil
    }

    /// Creates a key with `role`, limited to `scopes` (empty: every board), working until `expiresAt` when given; every
    /// replica is told when it commits.
    public func create(name: String, role: Role, scopes: [BoardPattern] = [], expiresAt: Date? = nil, now: Date) async throws -> CreatedApiKey {
        let secret = Self.newSecret()
        let id = UUID().uuidString.lowercased()
        let insert = AddKey(
            id: id, name: name, role: role, keyHash: Self.hash(secret), prefix: String(secret.prefix(8)), createdAt: now,
            scopes: scopes.map(\.text), expiresAt: expiresAt)
        // One round trip and one transaction: the other replicas hear of the key when it commits.
        _ = try await postgres.withConnection { try $0.pipeline([insert.query, NotifyChange(.keys).query]) }
        let info = ApiKeyInfo(
            id: id, name: name, role: role, scopes: scopes.map(\.text), prefix: String(secret.prefix(8)), createdAt: RFC3339.format(now), revokedAt: nil,
            expiresAt: expiresAt.map(RFC3339.format))
        return CreatedApiKey(key: info, secret: secret)
    }

    /// Every key, newest first.
    public func list() async throws -> [ApiKeyInfo] {
        try await postgres.run(Keys()).map {
            ApiKeyInfo(
                id: $0.id, name: $0.name, role: Role(rawValue: $0.role) ?? .read, scopes: Self.patterns($0.scopes).map(\.text), prefix: $0.prefix,
                createdAt: RFC3339.format($0.createdAt), revokedAt: $0.revokedAt.map(RFC3339.format),
                expiresAt: $0.expiresAt.map(RFC3339.format))
        }
    }

    /// Revokes a key; false if no valid key has that id. Every replica is told when it commits (`ChangeTopic.keys`).
    public func revoke(id: String, now: Date) async throws -> Bool {
        let update = RevokeKey(id: id, revokedAt: now)
        return try await postgres.withConnection { try $0.pipeline([update.query, NotifyChange(.keys).query]) }[0].affectedRows == 1
    }

    /// Every unrevoked key's grant by the hash of its secret: one read that lets a replica answer every
    /// lookup, unknown keys included, without asking PostgreSQL per request. Keys that expire are among them, with
    /// their expiry, which each request checks against the replica's clock (`KeyGrant.hasExpired`).
    public func validGrants() async throws -> [String: KeyGrant] {
        var grants: [String: KeyGrant] = [:]
        for row in try await postgres.run(UnrevokedKeys()) {
            let texts = row.scopes.split(separator: " ")
            let scopes = Self.patterns(row.scopes)
            // Fail closed: a role or a scope this version cannot read would otherwise grant more, not less.
            guard let role = Role(rawValue: row.role), scopes.count == texts.count else { continue }
            grants[row.keyHash] = KeyGrant(id: row.id, role: role, scopes: scopes, expiresAt: row.expiresAt)
        }
        return grants
    }

    /// Patterns from their space-separated texts (validated when stored).
    private static func patterns(_ joined: String) -> [BoardPattern] {
        joined.split(separator: " ").compactMap { BoardPattern(String($0)) }
    }
}

/// Stores a new key: the hash of its secret, never the secret.
private struct AddKey: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO api_keys (id, name, role, key_hash, prefix, created_at, scopes, expires_at)
        VALUES (\(\.id), \(\.name), \(\.role.rawValue), \(\.keyHash), \(\.prefix), \(\.createdAt), \(\.scopes), \(\.expiresAt))
        """
    typealias Row = NoRows
    let id: String
    let name: String
    let role: Role
    /// SHA-256 of the secret, hex.
    let keyHash: String
    /// The secret's first characters.
    let prefix: String
    let createdAt: Date
    /// Board patterns' texts; empty for every board.
    let scopes: [String]
    /// Nil: the key does not expire.
    let expiresAt: Date?
}

/// Every key as listed, newest first.
private struct Keys: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT id, name, role, array_to_string(scopes, ' ') AS scopes, prefix, created_at, revoked_at, expires_at
        FROM api_keys ORDER BY created_at DESC, id
        """
    struct Row: Decodable, Sendable {
        let id: String
        let name: String
        /// The role's name (a name this version does not know lists as `read`).
        let role: String
        /// The board patterns, space-separated.
        let scopes: String
        let prefix: String
        let createdAt: Date
        let revokedAt: Date?
        let expiresAt: Date?
    }
}

/// Revokes a key that is not revoked yet.
private struct RevokeKey: PostgresStatement {
    static let sql: PostgresSQL<Self> = "UPDATE api_keys SET revoked_at = \(\.revokedAt) WHERE id = \(\.id) AND revoked_at IS NULL"
    typealias Row = NoRows
    let id: String
    let revokedAt: Date
}

/// The grant of every unrevoked key, by the hash of its secret (expiring keys too, with their expiry).
private struct UnrevokedKeys: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT id, role, key_hash, array_to_string(scopes, ' ') AS scopes, expires_at FROM api_keys WHERE revoked_at IS NULL
        """
    struct Row: Decodable, Sendable {
        let id: String
        /// The role's name, checked by the caller (an unknown one grants nothing).
        let role: String
        let keyHash: String
        /// The board patterns, space-separated.
        let scopes: String
        let expiresAt: Date?
    }
}

extension Role {
    /// Whether a key with this role may act as `required`.
    public func allows(_ required: Role) -> Bool { self == .admin || self == required }

    /// Whether keys of this role carry board scopes: display keys must, read keys may, ingest and admin keys do not
    /// (scopes narrow reads; an admin key is for ops, an ingest key for the quiz backend).
    public var takesScopes: Bool { self == .read || self == .display }
}
