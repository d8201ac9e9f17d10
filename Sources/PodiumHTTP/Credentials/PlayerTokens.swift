import Foundation
import JWTKit
import PodiumCore

/// How player tokens are checked: the quiz backend's signing keys and the limits on what it signs.
public struct PlayerTokenSettings: Sendable {
    /// HS256 shared secrets by key id (`kid`), each at least 32 bytes; several at once let a secret rotate.
    public var hmacSecrets: [String: String]
    /// A JWKS document (JSON) of ES256 and RS256 public keys, each with `kid` and `alg`.
    public var jwks: String?
    /// The longest lifetime (`exp` − `iat`) a token may have.
    public var maxLifetime: TimeInterval
    /// When set, a token must name this audience in `aud`.
    public var audience: String?

    /// Creates settings; with no secrets and no JWKS, player tokens are off.
    public init(hmacSecrets: [String: String] = [:], jwks: String? = nil, maxLifetime: TimeInterval = 3600, audience: String? = nil) {
        self.hmacSecrets = hmacSecrets
        self.jwks = jwks
        self.maxLifetime = maxLifetime
        self.audience = audience
    }

    /// Whether any key is configured.
    public var isEnabled: Bool { !hmacSecrets.isEmpty || jwks != nil }
}

/// A player token's settings that cannot work (a short secret, a JWKS key without `kid` or of another kind).
public struct PlayerTokenConfigurationError: Error, CustomStringConvertible {
    /// What is wrong.
    public let description: String
}

/// Verifies player tokens: JWTs signed by the quiz backend for one player.
///
/// A token must name a configured key id, be signed with that key's algorithm, carry `sub` (a valid user id),
/// `exp` and `iat`, not outlive `maxLifetime`, and name the configured audience, if one is. Nothing here touches
/// PostgreSQL: a replica checks tokens on its own, even while the database is down.
public final class PlayerTokens: Sendable {
    private let keys: JWTKeyCollection
    /// Key id → the algorithm its key signs with (`HS256`, `ES256`, `RS256`).
    private let algorithms: [String: String]
    private let settings: PlayerTokenSettings

    /// Loads the keys; throws `PlayerTokenConfigurationError` on a key that cannot be used.
    public init(settings: PlayerTokenSettings) async throws {
        let keys = JWTKeyCollection()
        var algorithms: [String: String] = [:]
        for (kid, secret) in settings.hmacSecrets.sorted(by: { $0.key < $1.key }) {
            // HS256 needs a secret at least as long as its hash (RFC 7518 §3.2); jwt-kit asserts it.
            guard secret.utf8.count >= 32 else {
                throw PlayerTokenConfigurationError(description: "the HS256 secret of key id \(kid) is shorter than 32 bytes")
            }
            await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
            algorithms[kid] = "HS256"
        }
        if let jwks = settings.jwks {
            for (kid, algorithm) in try Self.publicKeyIDs(jwks) {
                guard algorithms[kid] == nil else { throw PlayerTokenConfigurationError(description: "key id \(kid) is configured twice") }
                algorithms[kid] = algorithm
            }
            do {
                try await keys.add(jwksJSON: jwks)
            } catch {
                throw PlayerTokenConfigurationError(description: "the JWKS could not be loaded: \(error)")
            }
        }
        // Without a default key, a token whose kid is unknown matches no key instead of the first one added.
        _ = await keys.clearDefault()
        self.keys = keys
        self.algorithms = algorithms
        self.settings = settings
    }

    /// The key ids and algorithms a JWKS document lists; every key needs `kid` and `alg` ES256 or RS256.
    static func publicKeyIDs(_ jwks: String) throws -> [(String, String)] {
        guard let document = try? JSONSerialization.jsonObject(with: Data(jwks.utf8)) as? [String: Any],
              let list = document["keys"] as? [[String: Any]]
        else { throw PlayerTokenConfigurationError(description: "the JWKS is not a JSON object with a keys array") }
        return try list.map { key in
            guard let kid = key["kid"] as? String, !kid.isEmpty else {
                throw PlayerTokenConfigurationError(description: "every JWKS key needs a kid")
            }
            guard let algorithm = key["alg"] as? String, ["ES256", "RS256"].contains(algorithm) else {
                throw PlayerTokenConfigurationError(description: "JWKS key \(kid) needs alg ES256 or RS256")
            }
            return (kid, algorithm)
        }
    }

    /// Whether `token` has a JWT's shape (three base64url parts); only such tokens are verified as player tokens.
    public static func looksLikeJWT(_ token: String) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 3 && parts.allSatisfy { part in
            !part.isEmpty && part.utf8.allSatisfy { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
        }
    }

    /// The player a token speaks for, or `APIError.unauthorized` saying why it is refused.
    public func verify(_ token: String, now: Date) async throws -> PlayerClaims {
        let header: JWTHeader
        do {
            header = try DefaultJWTParser().parse([UInt8](token.utf8), as: HeaderOnly.self).header
        } catch {
            throw APIError.unauthorized("the player token is not a well-formed JWT")
        }
        guard let kid = header.kid, let algorithm = algorithms[kid] else {
            throw APIError.unauthorized("the player token's key id is not one Podium knows")
        }
        guard header.alg == algorithm else {
            throw APIError.unauthorized("the player token's key id \(kid) signs with \(algorithm), not \(header.alg ?? "none")")
        }
        let payload: PlayerTokenPayload
        do {
            payload = try await keys.verify(token, as: PlayerTokenPayload.self)
        } catch {
            throw APIError.unauthorized("the player token's signature or claims are invalid")
        }
        guard payload.exp.value > now else { throw APIError.unauthorized("the player token has expired") }
        // Without iat a token's lifetime could not be bounded: a leaked long-lived one would work in its last hour.
        guard let issued = payload.iat?.value else { throw APIError.unauthorized("the player token has no iat") }
        guard issued <= now.addingTimeInterval(60) else { throw APIError.unauthorized("the player token was issued in the future") }
        guard payload.exp.value.timeIntervalSince(issued) <= settings.maxLifetime else {
            throw APIError.unauthorized("the player token lives longer than \(Int(settings.maxLifetime)) seconds")
        }
        if let expected = settings.audience, !(payload.aud?.value.contains(expected) ?? false) {
            throw APIError.unauthorized("the player token is for another audience")
        }
        guard NameRules.isValidUserID(payload.sub.value) else {
            throw APIError.unauthorized("the player token's sub is not a valid user id")
        }
        let groups = payload.groups ?? []
        guard groups.count <= 20, groups.allSatisfy(NameRules.isValidScopeName) else {
            throw APIError.unauthorized("the player token's groups are not valid group names")
        }
        return PlayerClaims(userID: payload.sub.value, groups: Set(groups), expiresAt: payload.exp.value)
    }
}

/// A payload that decodes from any claims: only the header is wanted.
private struct HeaderOnly: JWTPayload {
    /// Nothing: `PlayerTokens.verify` checks the claims against its own clock.
    func verify(using _: some JWTAlgorithm) throws {}
}

/// The claims Podium reads from a player token; times are checked by `PlayerTokens.verify` against its clock.
struct PlayerTokenPayload: JWTPayload {
    /// The Podium user id.
    var sub: SubjectClaim
    /// Expiry (required).
    var exp: ExpirationClaim
    /// Issue time (required; optional here so its absence is refused with a clear reason).
    var iat: IssuedAtClaim?
    /// Audience.
    var aud: AudienceClaim?
    /// Groups the backend vouches for.
    var groups: [String]?

    /// Nothing: `PlayerTokens.verify` checks the claims against its own clock.
    func verify(using _: some JWTAlgorithm) throws {}
}
