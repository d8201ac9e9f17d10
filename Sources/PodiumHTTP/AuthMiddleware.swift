import Foundation
import Hummingbird
import PodiumStore
import Synchronization

/// Resolves `Authorization: Bearer <key>` to a role and puts it in the context.
///
/// Lookups are cached for a few seconds (valid and invalid alike), so a poll storm costs no
/// database round trips; a revoked key stops working within `cacheLifetime`.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = PodiumRequestContext

    let keys: ApiKeyStore
    /// SHA-256 of the bootstrap admin key from the environment, if any.
    let bootstrapAdminHash: String?
    let publicLeaderboards: Bool
    let cache: KeyCache

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.publicLeaderboards = publicLeaderboards
        if let header = request.headers[.authorization] {
            guard header.count <= 512, header.lowercased().hasPrefix("bearer ") else { throw APIError.unauthorized }
            let secret = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
            let hash = ApiKeyStore.hash(secret)
            guard let role = try await role(forHash: hash, secret: secret) else { throw APIError.unauthorized }
            context.role = role
        }
        return try await next(request, context)
    }

    private func role(forHash hash: String, secret: String) async throws -> Role? {
        if hash == bootstrapAdminHash { return .admin }
        if let cached = cache.lookup(hash) { return cached }
        let role = try await keys.role(forSecret: secret)
        cache.store(hash, role)
        return role
    }
}

/// Recently checked key hashes and their roles (nil: invalid).
final class KeyCache: Sendable {
    private struct Entry {
        let role: Role?
        let expires: ContinuousClock.Instant
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let lifetime: Duration

    /// Creates a cache keeping answers for `lifetime`.
    init(lifetime: Duration = .seconds(5)) {
        self.lifetime = lifetime
    }

    /// The cached answer: `.some(role)` (role may be nil for an invalid key), or nil if unknown or expired.
    func lookup(_ hash: String) -> Role?? {
        entries.withLock { entries in
            guard let entry = entries[hash], entry.expires > .now else { return nil }
            return .some(entry.role)
        }
    }

    /// Remembers an answer; the cache is emptied when it holds too many (a flood of random keys).
    func store(_ hash: String, _ role: Role?) {
        entries.withLock { entries in
            if entries.count >= 10_000 { entries.removeAll(keepingCapacity: true) }
            entries[hash] = Entry(role: role, expires: .now + lifetime)
        }
    }

    /// Forgets everything (after a key is revoked through this replica).
    func clear() {
        entries.withLock { $0.removeAll() }
    }
}
