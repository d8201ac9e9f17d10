import Foundation
import Hummingbird
import Logging
import PodiumCore
import PodiumStore
import Synchronization

/// Resolves `Authorization: Bearer <credential>` to a caller and puts it in the context.
///
/// The credential's shape picks how it is checked, and nothing malformed reaches PostgreSQL:
/// - the bootstrap admin key (from the environment) by its hash;
/// - an API key (`pdm_` and 40 base62 characters) in the replica's `KeyDirectory`;
/// - a JWT as a player token, verified locally with the configured keys;
/// - anything else is 401 at once.
/// Public routes are registered before this middleware, so they never see it.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = PodiumRequestContext

    /// Every valid API key.
    let directory: KeyDirectory
    /// SHA-256 of the bootstrap admin key from the environment, if any.
    let bootstrapAdminHash: String?
    /// Player token verification; nil when no signing key is configured.
    let playerTokens: PlayerTokens?
    /// Whether leaderboard reads need no credential.
    let publicLeaderboards: Bool
    /// Counts failed authentications per client address.
    let limiter: RateLimiter
    /// The limit on failed authentications.
    let limits: RateLimits
    /// The clock the rate limits run on.
    let now: @Sendable () -> Date

    /// Puts the caller in the context, or throws 401 (429 for an address that failed too often).
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.publicLeaderboards = publicLeaderboards
        if let header = request.headers[.authorization] {
            do {
                context.caller = try await caller(header)
                context.principal.caller = context.caller
            } catch let error as APIError where error.status == .unauthorized {
                // Failures from one address past the limit are answered 429. Valid credentials from it keep working: a
                // school behind one address must not be locked out by one pupil's guesses, and a key or token cannot be
                // guessed anyway; the limit bounds what failures cost (verification, log lines) and tells a client to stop.
                let limit = limits.failedAuthentication
                let decision = await limiter.take("address:\(context.clientAddress ?? "unknown")", limit: limit, now: now())
                throw decision.allowed ? error : RateLimitMiddleware.tooManyRequests(limit, decision)
            }
        }
        return try await next(request, context)
    }

    /// The credential of `Bearer <credential>` (the scheme in any case, spaces and tabs around the credential left
    /// out); nil for another scheme. Read byte by byte: it runs for every authenticated request.
    static func bearerCredential(_ header: String) -> String? {
        let bytes = header.utf8
        guard bytes.count >= 7, zip(bytes.prefix(6), "bearer".utf8).allSatisfy({ $0 | 0x20 == $1 }),
              bytes[bytes.index(bytes.startIndex, offsetBy: 6)] == UInt8(ascii: " ") else { return nil }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let rest = bytes.dropFirst(7).drop(while: isBlank)
        let end = rest.lastIndex { !isBlank($0) }.map { rest.index(after: $0) } ?? rest.startIndex
        return String(Substring(header.utf8[rest.startIndex..<end]))
    }

    private func caller(_ header: String) async throws -> Caller {
        // A player token with a JWKS key id and 20 groups stays well under 4 KiB.
        guard header.utf8.count <= 4096, let credential = Self.bearerCredential(header) else {
            throw APIError.unauthorized("send a credential as 'Authorization: Bearer <credential>'")
        }
        let wellFormedKey = ApiKeyStore.isWellFormed(credential)
        // Hashed once, and only when a key could match: the bootstrap key, or a well-formed API key.
        let hash = bootstrapAdminHash != nil || wellFormedKey ? ApiKeyStore.hash(credential) : nil
        if let bootstrapAdminHash, hash == bootstrapAdminHash {
            return .key(KeyGrant(id: KeyGrant.bootstrapID, role: .admin, scopes: []))
        }
        if wellFormedKey, let hash {
            guard let grant = try await directory.grant(forHash: hash) else {
                throw APIError.unauthorized("the API key is unknown or revoked")
            }
            if let expiresAt = grant.expiresAt, grant.hasExpired(at: now()) {
                throw APIError.unauthorized("the API key expired at \(RFC3339.format(expiresAt))")
            }
            return .key(grant)
        }
        if PlayerTokens.looksLikeJWT(credential) {
            guard let playerTokens else { throw APIError.unauthorized("player tokens are not enabled on this server") }
            return .player(try await playerTokens.verify(credential, now: now()))
        }
        throw APIError.unauthorized("the credential is neither an API key nor a player token")
    }
}

/// Every valid API key's grant, held by each replica and read again from PostgreSQL every few seconds.
///
/// One read answers every lookup, so a flood of made-up keys costs no database round trips, and a revoked
/// key stops working on every replica within `freshness` (at once on the replica that revoked it, and as soon as
/// the others hear of it: `expire()`, wired in `following(_:logger:clock:)`): a lookup past `freshness` waits for
/// the next read. Only when that read fails (PostgreSQL unreachable) does the last
/// copy keep answering, for up to `staleLimit` (stale-while-error), so displays keep showing Redis-served
/// boards through a database outage; past that, lookups fail with 503. Failed reads are retried at most once
/// a second.
final class KeyDirectory: Sendable {
    private struct State: Sendable {
        var grants: [String: KeyGrant] = [:] {
            didSet { ids = Set(grants.values.map(\.id)) }
        }
        /// The ids of `grants`' keys.
        var ids: Set<String> = []
        var loadedAt: ContinuousClock.Instant?
        var refreshing: Task<Void, Never>?
        /// When the last read failed; nil after a success.
        var failedAt: ContinuousClock.Instant?
        /// Set by `expire()` until the next read installs: the copy answers only while reads fail.
        var expired = false
        /// Bumped by `invalidate()` and `expire()`: a read begun before it may not install what it read.
        var generation = 0
    }

    private let load: @Sendable () async throws -> [String: KeyGrant]
    private let state = Mutex(State())
    private let freshness: Duration
    private let staleLimit: Duration
    private let clock: @Sendable () -> ContinuousClock.Instant
    private let readFailure: ThrottledLog

    /// Creates a directory reading grants with `load`; `clock` measures the copy's age (tests move it by hand).
    init(
        freshness: Duration = .seconds(5), staleLimit: Duration = .seconds(900), logger: Logger,
        clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        load: @escaping @Sendable () async throws -> [String: KeyGrant]
    ) {
        self.load = load
        self.freshness = freshness
        self.staleLimit = staleLimit
        readFailure = ThrottledLog(logger)
        self.clock = clock
    }

    /// The grant of the key whose secret hashes to `hash`, nil if no valid key has it.
    func grant(forHash hash: String) async throws -> KeyGrant? {
        try await lookup { $0.grants[hash] }
    }

    /// Whether the key with id `id` is still unrevoked, by the same copy (and its freshness) as every lookup: what an
    /// open live stream asks to learn that its key was revoked.
    func isUnrevoked(id: String) async throws -> Bool {
        try await lookup { $0.ids.contains(id) }
    }

    /// Whether a valid key's scopes name board `id` itself (not through a pattern such as `group:*`).
    func namesBoard(_ id: String) async throws -> Bool {
        try await lookup { state in state.grants.values.contains { grant in grant.scopes.contains { $0.text == id } } }
    }

    /// `read` of a copy fresh enough (read again first when it is not), or of the last one while reads fail.
    private func lookup<T: Sendable>(_ read: @escaping @Sendable (State) -> T) async throws -> T {
        let next = state.withLock { state -> LookupStep<T> in
            let now = clock()
            if let loadedAt = state.loadedAt, !state.expired, now - loadedAt < freshness { return .answer(read(state)) }
            // The last read failed: answer from the copy while it is young enough, retrying at most once a second.
            if let failedAt = state.failedAt, now - failedAt < .seconds(1) {
                if let loadedAt = state.loadedAt, now - loadedAt < staleLimit { return .answer(read(state)) }
                return .wait(nil)
            }
            if state.refreshing == nil {
                let generation = state.generation
                state.refreshing = Task { await self.refresh(generation: generation) }
            }
            if state.failedAt != nil, let loadedAt = state.loadedAt, now - loadedAt < staleLimit { return .answer(read(state)) }
            return .wait(state.refreshing)
        }
        switch next {
        case .answer(let answer):
            return answer
        case .wait(let refresh):
            await refresh?.value
        }
        // A key created or revoked (here, or elsewhere and heard of) while it waited: read again.
        if state.withLock({ ($0.loadedAt == nil || $0.expired) && $0.failedAt == nil }) { return try await lookup(read) }
        return try state.withLock { state in
            guard let loadedAt = state.loadedAt, clock() - loadedAt < (state.failedAt == nil ? freshness : staleLimit) else {
                throw APIError.unavailable("API keys cannot be checked: the database is unavailable; retry shortly")
            }
            return read(state)
        }
    }

    /// Forgets the copy, so the next lookup reads PostgreSQL (after a key is created or revoked through this replica);
    /// a read already under way cannot bring the forgotten copy back.
    func invalidate() {
        state.withLock { state in
            state.loadedAt = nil
            state.failedAt = nil
            state.refreshing = nil
            state.generation += 1
        }
    }

    /// Marks the copy out of date (another replica created or revoked a key, or notifications start or stop arriving):
    /// the next lookup waits for a new read, as when the copy is old; while reads fail, the copy keeps answering
    /// within `staleLimit` of its last read, as it would have anyway.
    func expire() {
        state.withLock { state in
            state.expired = true
            state.refreshing = nil
            state.generation += 1
        }
    }

    private func refresh(generation: Int) async {
        do {
            let grants = try await load()
            state.withLock { state in
                guard state.generation == generation else { return }
                state.grants = grants
                state.loadedAt = clock()
                state.expired = false
                state.failedAt = nil
                state.refreshing = nil
            }
        } catch {
            readFailure.log("API keys could not be read; the last copy is used", metadata: ["error": "\(error)"])
            state.withLock { state in
                guard state.generation == generation else { return }
                state.failedAt = clock()
                state.refreshing = nil
            }
        }
    }
}

/// What a `KeyDirectory` lookup does: answer from the copy, or wait for a read (nil: none may start yet).
private enum LookupStep<T> {
    case answer(T)
    case wait(Task<Void, Never>?)
}
