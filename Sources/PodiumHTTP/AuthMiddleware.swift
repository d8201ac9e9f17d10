import Foundation
import Hummingbird
import Logging
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

    let directory: KeyDirectory
    /// SHA-256 of the bootstrap admin key from the environment, if any.
    let bootstrapAdminHash: String?
    /// Player token verification; nil when no signing key is configured.
    let playerTokens: PlayerTokens?
    let publicLeaderboards: Bool
    /// Counts failed authentications per client address.
    let limiter: RateLimiter
    let limits: RateLimits
    let now: @Sendable () -> Date

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.publicLeaderboards = publicLeaderboards
        if let header = request.headers[.authorization] {
            do {
                context.caller = try await caller(header)
            } catch let error as APIError where error.status == .unauthorized {
                // Guessing credentials from one address is slowed down; its valid credentials keep working.
                let limit = limits.failedAuthentication
                let decision = await limiter.take("address:\(context.clientAddress ?? "unknown")", limit: limit, now: now())
                throw decision.allowed ? error : RateLimitMiddleware.tooManyRequests(limit, decision)
            }
        }
        return try await next(request, context)
    }

    private func caller(_ header: String) async throws -> Caller {
        // A player token with a JWKS key id and 20 groups stays well under 4 KiB.
        guard header.utf8.count <= 4096, header.lowercased().hasPrefix("bearer ") else {
            throw APIError.unauthorized("send a credential as 'Authorization: Bearer <credential>'")
        }
        let credential = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        if let bootstrapAdminHash, ApiKeyStore.hash(credential) == bootstrapAdminHash {
            return .key(KeyGrant(id: "bootstrap", role: .admin, scopes: []))
        }
        if ApiKeyStore.isWellFormed(credential) {
            guard let grant = try await directory.grant(forHash: ApiKeyStore.hash(credential)) else {
                throw APIError.unauthorized("the API key is unknown or revoked")
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
/// key stops working on every replica within `freshness` (at once on the replica that revoked it).
/// While PostgreSQL is unreachable the last copy keeps answering for up to `staleLimit` (stale-while-error),
/// so displays keep showing Redis-served boards through a database outage; past that, lookups fail with 503.
final class KeyDirectory: Sendable {
    private struct State {
        var grants: [String: KeyGrant] = [:]
        var loadedAt: ContinuousClock.Instant?
        var refreshing: Task<Void, Never>?
    }

    private let load: @Sendable () async throws -> [String: KeyGrant]
    private let state = Mutex(State())
    private let freshness: Duration
    private let staleLimit: Duration
    private let logger: Logger
    private let clock: @Sendable () -> ContinuousClock.Instant

    /// Creates a directory reading grants with `load`; `clock` measures the copy's age (tests move it by hand).
    init(
        freshness: Duration = .seconds(5), staleLimit: Duration = .seconds(900), logger: Logger,
        clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        load: @escaping @Sendable () async throws -> [String: KeyGrant]
    ) {
        self.load = load
        self.freshness = freshness
        self.staleLimit = staleLimit
        self.logger = logger
        self.clock = clock
    }

    /// The grant of the key whose secret hashes to `hash`, nil if no valid key has it.
    ///
    /// A copy older than `freshness` is answered from while a refresh runs in the background; only a
    /// missing copy, or one older than `staleLimit`, makes the caller wait for PostgreSQL.
    func grant(forHash hash: String) async throws -> KeyGrant? {
        let (grants, age, refresh) = state.withLock { state -> ([String: KeyGrant], Duration?, Task<Void, Never>?) in
            let age = state.loadedAt.map { clock() - $0 }
            if let age, age < freshness { return (state.grants, age, nil) }
            if state.refreshing == nil {
                state.refreshing = Task { await self.refresh() }
            }
            return (state.grants, age, state.refreshing)
        }
        if let age, age < staleLimit { return grants[hash] }
        await refresh?.value
        return try state.withLock { state in
            guard let loadedAt = state.loadedAt, clock() - loadedAt < staleLimit else {
                throw APIError.unavailable("API keys cannot be checked: the database is unavailable; retry shortly")
            }
            return state.grants[hash]
        }
    }

    /// Forgets the copy, so the next lookup reads PostgreSQL (after a key is created or revoked through this replica).
    func invalidate() {
        state.withLock { $0.loadedAt = nil }
    }

    private func refresh() async {
        do {
            let grants = try await load()
            state.withLock { state in
                state.grants = grants
                state.loadedAt = clock()
                state.refreshing = nil
            }
        } catch {
            logger.warning("API keys could not be read; the last copy is used", metadata: ["error": "\(error)"])
            state.withLock { $0.refreshing = nil }
        }
    }
}
