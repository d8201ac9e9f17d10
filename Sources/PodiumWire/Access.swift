import Foundation

/// The body of `POST /v1/admin/api-keys`.
public struct CreateKeyRequest: Codable, Sendable {
    /// What the key is for.
    public var name: String?
    /// `ingest`, `read`, `admin` or `display`.
    public var role: String?
    /// Board patterns a read key is limited to, or a display key shows (required for display keys).
    public var scopes: [String]?
    /// When the key stops working (RFC 3339, in the future); absent: it works until revoked.
    public var expiresAt: String?

    /// Creates a value from its fields.
    public init(name: String? = nil, role: String? = nil, scopes: [String]? = nil, expiresAt: String? = nil) {
        self.name = name
        self.role = role
        self.scopes = scopes
        self.expiresAt = expiresAt
    }
}

/// The answer to `POST /v1/admin/api-keys`: the only time the secret is shown.
public struct CreatedKeyAnswer: Codable, Sendable {
    /// The key as listed.
    public var key: ApiKeyInfo
    /// The bearer token to give the client.
    public var secret: String
    /// For a display key, the display page of its first single board with the key in the address's fragment, ready to
    /// open on the classroom screen; absent for other keys, and when the scopes are only patterns such as `group:*`.
    public var displayUrl: String?

    /// Creates a value from its fields.
    public init(key: ApiKeyInfo, secret: String, displayUrl: String? = nil) {
        self.key = key
        self.secret = secret
        self.displayUrl = displayUrl
    }
}

/// The answer to `GET /v1/admin/audit`.
public struct AuditPage: Codable, Sendable {
    /// Entries, newest first.
    public var entries: [AuditEntry]
    /// Send it back as `cursor` for the next page; absent on the last page.
    public var nextCursor: String?

    /// Creates a value from its fields.
    public init(entries: [AuditEntry], nextCursor: String? = nil) {
        self.entries = entries
        self.nextCursor = nextCursor
    }
}

/// The answer to `GET /v1/admin/api-keys`.
public struct KeyList: Codable, Sendable {
    /// Every key, newest first (secrets are never shown again).
    public var keys: [ApiKeyInfo]

    /// Creates a value from its fields.
    public init(keys: [ApiKeyInfo]) {
        self.keys = keys
    }
}

/// One admin action of the audit trail.
public struct AuditEntry: Sendable, Codable, Equatable {
    /// Its place in the trail (later entries have larger ids).
    public var id: Int64
    /// RFC 3339 time it was answered.
    public var at: String
    /// The id of the API key that did it, or `bootstrap` for the bootstrap admin key.
    public var actor: String
    /// The key's name (nil for the bootstrap key, or a key since deleted from the table).
    public var actorName: String?
    /// The route, `POST /v1/admin/jobs/{name}/pause`.
    public var action: String
    /// The path it was sent to, `/v1/admin/jobs/prune/pause` (an erased player's id as `sha256:` and 16 hex digits).
    public var target: String
    /// The HTTP status it was answered with.
    public var status: Int
    /// The request's id (`X-Request-Id`), to find its log lines.
    public var requestId: String
    /// What the action changed when its path does not say (`display key <id>, expires <time>`); absent otherwise.
    public var detail: String?

    /// Creates a value from its fields.
    public init(
        id: Int64, at: String, actor: String, actorName: String? = nil, action: String, target: String, status: Int,
        requestId: String, detail: String? = nil
    ) {
        self.id = id
        self.at = at
        self.actor = actor
        self.actorName = actorName
        self.action = action
        self.target = target
        self.status = status
        self.requestId = requestId
        self.detail = detail
    }
}

/// What an API key may do.
public enum Role: String, Sendable, Codable, CaseIterable {
    /// Post completions, set preferences.
    case ingest
    /// Read leaderboards, profiles, events.
    case read
    /// Everything.
    case admin
    /// Leaderboard pages of its scoped boards only: safe in a classroom display's URL.
    case display
}

/// An API key as listed (never the secret itself).
public struct ApiKeyInfo: Sendable, Codable, Equatable {
    /// Key id.
    public var id: String
    /// What ops called it.
    public var name: String
    /// Its role.
    public var role: Role
    /// Board patterns it is limited to (`global`, `topic:<name>`, `topic:*`, `group:<name>`, `group:*`,
    /// `contest:<id>`); empty: every board.
    public var scopes: [String]
    /// The first characters of the secret, to recognise it.
    public var prefix: String
    /// RFC 3339 creation time.
    public var createdAt: String
    /// RFC 3339 revocation time, nil while valid.
    public var revokedAt: String?
    /// RFC 3339 time the key stops working; nil when it does not expire.
    public var expiresAt: String?

    /// Creates a value from its fields.
    public init(
        id: String, name: String, role: Role, scopes: [String], prefix: String, createdAt: String,
        revokedAt: String? = nil, expiresAt: String? = nil
    ) {
        self.id = id
        self.name = name
        self.role = role
        self.scopes = scopes
        self.prefix = prefix
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.expiresAt = expiresAt
    }
}
