import Hummingbird
import PodiumCore
import PodiumStore
import PodiumWire

/// Who sent a request, as the auth middleware established it.
public enum Caller: Sendable, Equatable {
    /// No credential (or a public route, which ignores credentials).
    case anonymous
    /// A valid API key.
    case key(KeyGrant)
    /// A verified player token.
    case player(PlayerClaims)
}

/// The request context of every Podium route: who the caller is once authenticated.
///
/// The `require…` methods are the whole access model; each route calls the one that fits it, first,
/// before reading a body. They throw 401 without a credential and 403 when the credential does not reach.
public struct PodiumRequestContext: RequestContext {
    /// Hummingbird's storage.
    public var coreContext: CoreRequestContextStorage
    /// The caller.
    public var caller: Caller = .anonymous
    /// Whether leaderboard reads need no credential (configuration).
    public var publicLeaderboards = false
    /// Who the caller turned out to be, for the access log (shared with the observer outside the auth middleware).
    let principal = RequestPrincipal()
    /// The client's IP address (the peer's: behind a proxy, the proxy's), for limits on failed authentication.
    public let clientAddress: String?

    /// Creates a context for a new request.
    public init(source: Source) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress
    }

    /// Bodies above 2 MiB get 413. A batch of 500 typical completions is about 150 KiB; one with every
    /// field at its longest (ids of 128 characters, 20 groups, a display name of 64 escaped emoji) about 1.4 MB.
    public var maxUploadSize: Int { 2 << 20 }

    /// The API key's grant, if the caller sent one.
    public var keyGrant: KeyGrant? {
        if case .key(let grant) = caller { return grant }
        return nil
    }

    /// Throws unless the caller holds an API key whose role allows `required` (admin allows everything).
    ///
    /// Scoped keys pass for the role; what they may read is narrowed by the board and profile checks.
    public func require(_ required: Role) throws {
        switch caller {
        case .anonymous: throw APIError.unauthorized
        case .player: throw APIError.denied("a player token cannot do this; it needs a key with the \(required.rawValue) role")
        case .key(let grant):
            guard grant.role.allows(required) else { throw APIError.forbidden(required.rawValue) }
        }
    }

    /// Throws unless the caller may see whole-service data such as the events feed: an unscoped read or admin key.
    public func requireUnscopedRead() throws {
        try require(.read)
        if let grant = keyGrant, !grant.scopes.isEmpty {
            throw APIError.denied("a key limited to boards cannot read this")
        }
    }

    /// How much of a board a read shows.
    public enum BoardRead: Sendable {
        /// A page of the board (JSON or CSV, ETag and 304 alike): what a display shows.
        case page
        /// Anything that picks players or history out of a board: around-me, compare, snapshots, the board list.
        case ranking
    }

    /// Throws unless the caller may read boards this way at all: 401 without a credential, 403 for an ingest key,
    /// and for a display key on anything but a page. Routes call it first, before they parse the board.
    public func requireBoardReader(_ read: BoardRead) throws {
        if publicLeaderboards { return }
        switch caller {
        case .anonymous:
            throw APIError.unauthorized
        case .player:
            return
        case .key(let grant):
            switch grant.role {
            case .read, .admin: return
            case .display where read == .page: return
            case .display: throw APIError.denied("a display key reads leaderboard pages only")
            case .ingest: throw APIError.forbidden(Role.read.rawValue)
            }
        }
    }

    /// Throws unless the caller may read `board` this way: public leaderboards let anyone read; read and admin
    /// keys read the boards their scopes cover, display keys only pages of theirs; player tokens read global,
    /// topic and their own groups' boards. Callers who may read one of `shared` may read `board` too (a contest's
    /// scope: a contest is readable by whoever may read one of the boards it draws on).
    public func requireBoardRead(_ board: BoardScope, _ read: BoardRead, sharedWith shared: [BoardScope] = []) throws {
        try requireBoardReader(read)
        if publicLeaderboards { return }
        switch caller {
        case .anonymous:
            throw APIError.unauthorized
        case .player(let claims):
            guard claims.maySee(board) || shared.contains(where: claims.maySee) else { throw APIError.denied("a player token reads only global, topic and its own groups' boards") }
        case .key(let grant):
            guard grant.covers(board) || shared.contains(where: grant.covers) else { throw APIError.denied("this key is limited to \(grant.scopes.map(\.text).joined(separator: ", "))") }
        }
    }

    /// Throws unless the caller may list boards; returns which boards it sees (nil: all).
    public func requireBoardList() throws -> ((BoardScope) -> Bool)? {
        if publicLeaderboards { return nil }
        switch caller {
        case .anonymous:
            throw APIError.unauthorized
        case .player(let claims):
            return { claims.maySee($0) }
        case .key(let grant):
            switch grant.role {
            case .read, .admin: return grant.scopes.isEmpty ? nil : { grant.covers($0) }
            case .display: throw APIError.denied("a display key reads leaderboard pages only")
            case .ingest: throw APIError.forbidden(Role.read.rawValue)
            }
        }
    }

    /// Throws unless the caller may read players at all: a read or admin key, or a player token (for itself).
    /// Routes call it first, before they parse the player id.
    public func requirePlayerReader() throws {
        switch caller {
        case .anonymous: throw APIError.unauthorized
        case .player: return
        case .key(let grant): guard grant.role.allows(.read) else { throw APIError.forbidden(Role.read.rawValue) }
        }
    }

    /// Whether a player's answer may show what it holds on `boardID` (ranks, medals, rank history):
    /// a scoped key sees its boards only.
    public func mayShowBoard(_ boardID: String) -> Bool {
        guard let grant = keyGrant, !grant.scopes.isEmpty else { return true }
        return BoardScope(id: boardID).map(grant.covers) ?? false
    }

    /// Throws unless the caller may read player `userID`'s profile and history.
    ///
    /// `appears` answers whether the player has a score on a board the patterns match; it is asked only for
    /// scoped keys (a teacher sees the pupils on their classes' boards).
    public func requirePlayerRead(_ userID: String, appears: ([BoardPattern]) async throws -> Bool) async throws {
        switch caller {
        case .anonymous:
            throw APIError.unauthorized
        case .player(let claims):
            guard claims.userID == userID else { throw APIError.denied("a player token reads only its own player") }
        case .key(let grant):
            guard grant.role.allows(.read) else { throw APIError.forbidden(Role.read.rawValue) }
            // Not found rather than forbidden: a scoped key learns nothing about players outside its boards.
            if !grant.scopes.isEmpty, try await !appears(grant.scopes) { throw APIError.notFound("no user \(userID)") }
        }
    }

    /// Throws unless the caller may post completions or set preferences at all: an ingest or admin key, or a player
    /// token (which `requirePlayerWrite` then holds to its own player). Routes call it before reading the body.
    public func requireWriter() throws {
        switch caller {
        case .anonymous: throw APIError.unauthorized
        case .player: return
        case .key(let grant): guard grant.role.allows(.ingest) else { throw APIError.forbidden(Role.ingest.rawValue) }
        }
    }

    /// Throws unless the caller may write for player `userID` (completions, preferences) in `groups`:
    /// ingest and admin keys for anyone, a player token for its own player and vouched groups only.
    public func requirePlayerWrite(_ userID: String, groups: [String] = []) throws {
        switch caller {
        case .anonymous:
            throw APIError.unauthorized
        case .player(let claims):
            guard claims.userID == userID else { throw APIError.denied("a player token writes only for its own player (\(claims.userID))") }
            if let outside = groups.first(where: { !claims.groups.contains($0) }) {
                throw APIError.denied("the player token does not vouch for group \(outside)")
            }
        case .key(let grant):
            guard grant.role.allows(.ingest) else { throw APIError.forbidden(Role.ingest.rawValue) }
        }
    }

    /// Whether the caller is a player token (whose completions go through the plausibility rules).
    public var isPlayer: Bool {
        if case .player = caller { return true }
        return false
    }
}
