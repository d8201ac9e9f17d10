import Foundation
import PodiumCore
import Postgres

/// What an API key may do.
public enum Role: String, Sendable, Codable, CaseIterable {
    /// Post completions, set preferences.
    case ingest
    /// Read leaderboards, profiles, events.
    case read
    /// Everything.
    case admin

    /// Whether a key with this role may act as `required`.
    public func allows(_ required: Role) -> Bool { self == .admin || self == required }
}

/// An API key as listed (never the secret itself).
public struct ApiKeyInfo: Sendable, Codable, Equatable {
    /// Key id.
    public var id: String
    /// What ops called it.
    public var name: String
    /// Its role.
    public var role: Role
    /// The first characters of the secret, to recognise it.
    public var prefix: String
    /// RFC 3339 creation time.
    public var createdAt: String
    /// RFC 3339 revocation time, nil while valid.
    public var revokedAt: String?
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

    /// A new random secret: `pdm_` and 40 characters of base62 from the system's secure generator.
    public static func newSecret() -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        var generator = SystemRandomNumberGenerator()
        return "pdm_" + String((0..<40).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    /// Creates a key with `role`.
    public func create(name: String, role: Role, now: Date) async throws -> CreatedApiKey {
        let secret = Self.newSecret()
        let id = UUID().uuidString.lowercased()
        try await postgres.query(
            "INSERT INTO api_keys (id, name, role, key_hash, prefix, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
            [id, name, role.rawValue, Self.hash(secret), String(secret.prefix(8)), now])
        let info = ApiKeyInfo(
            id: id, name: name, role: role, prefix: String(secret.prefix(8)), createdAt: RFC3339.format(now), revokedAt: nil)
        return CreatedApiKey(key: info, secret: secret)
    }

    /// Every key, newest first.
    public func list() async throws -> [ApiKeyInfo] {
        try await postgres.query("SELECT id, name, role, prefix, created_at, revoked_at FROM api_keys ORDER BY created_at DESC, id").rows.map {
            ApiKeyInfo(
                id: try $0.string("id"), name: try $0.string("name"), role: Role(rawValue: try $0.string("role")) ?? .read,
                prefix: try $0.string("prefix"),
                createdAt: RFC3339.format(try $0.date("created_at")), revokedAt: try $0.optionalDate("revoked_at").map(RFC3339.format))
        }
    }

    /// Revokes a key; false if no valid key has that id.
    public func revoke(id: String, now: Date) async throws -> Bool {
        try await postgres.query("UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL", [id, now]).affectedRows == 1
    }

    /// The role of a valid (unrevoked) key with this secret, or nil.
    public func role(forSecret secret: String) async throws -> Role? {
        let rows = try await postgres.query(
            "SELECT role FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL", [Self.hash(secret)]).rows
        return try rows.first.flatMap { Role(rawValue: try $0.string("role")) }
    }
}
