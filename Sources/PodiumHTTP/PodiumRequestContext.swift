import Hummingbird
import PodiumStore

/// The request context of every Podium route: the caller's role once authenticated.
public struct PodiumRequestContext: RequestContext {
    /// Hummingbird's storage.
    public var coreContext: CoreRequestContextStorage
    /// The role of the API key sent, nil without a valid key.
    public var role: Role?
    /// Whether leaderboard reads need no key (configuration).
    public var publicLeaderboards = false

    /// Creates a context for a new request.
    public init(source: Source) {
        coreContext = .init(source: source)
    }

    /// Bodies above 2 MiB get 413. A batch of 500 typical completions is about 150 KiB; one with every
    /// field at its longest (ids of 128 characters, 20 groups, a display name of 64 escaped emoji) about 1.4 MB.
    public var maxUploadSize: Int { 2 << 20 }

    /// Throws 401 without a key and 403 when the key's role does not allow `required`.
    public func require(_ required: Role) throws {
        guard let role else { throw APIError.unauthorized }
        guard role.allows(required) else { throw APIError.forbidden(required.rawValue) }
    }

    /// Like `require(.read)`, but passes anyone when leaderboards are public.
    public func requireLeaderboardRead() throws {
        if publicLeaderboards { return }
        try require(.read)
    }
}
