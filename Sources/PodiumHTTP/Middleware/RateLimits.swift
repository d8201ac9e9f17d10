import Foundation
import HTTPTypes
import Hummingbird
import Metrics
import PodiumStore
import PodiumWire

/// Requests per minute each caller may make, shared by every replica.
///
/// The defaults are well above what a school's normal use needs: a quiz backend posting for a thousand pupils
/// who finish within a minute, twenty classroom screens polling every two seconds on one display key, a pupil's
/// app posting, reading its profile and polling a board.
public struct RateLimits: Sendable, Equatable {
    /// Per API key of each role.
    public var perRole: [Role: Int]
    /// Per player token subject.
    public var player: Int
    /// Failed authentications per client address (a guess at keys or tokens).
    public var failedAuthentications: Int

    /// Creates limits; the defaults suit a school.
    public init(
        perRole: [Role: Int] = [.ingest: 6000, .read: 6000, .display: 1200, .admin: 600], player: Int = 120,
        failedAuthentications: Int = 60
    ) {
        self.perRole = perRole
        self.player = player
        self.failedAuthentications = failedAuthentications
    }

    /// Parses `ingest=6000,read=6000,display=1200,admin=600,player=120,failed-auth=60` (any subset) over the defaults.
    public static func parse(_ text: String) -> RateLimits? {
        var limits = RateLimits()
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let value = Int(parts[1]), value > 0 else { return nil }
            switch parts[0] {
            case "player": limits.player = value
            case "failed-auth": limits.failedAuthentications = value
            default:
                guard let role = Role(rawValue: parts[0]) else { return nil }
                limits.perRole[role] = value
            }
        }
        return limits
    }

    /// The limits written as `parse` reads them.
    public var description: String {
        (Role.allCases.compactMap { role in perRole[role].map { "\(role.rawValue)=\($0)" } } + ["player=\(player)", "failed-auth=\(failedAuthentications)"])
            .joined(separator: ",")
    }

    /// The bucket and limit a caller's requests count against; nil for anonymous callers (public routes and 401s).
    func bucket(for caller: Caller) -> (String, RateLimit)? {
        switch caller {
        case .anonymous:
            return nil
        case .key(let grant):
            return ("key:\(grant.id)", RateLimit(name: grant.role.rawValue, requests: perRole[grant.role] ?? 600))
        case .player(let claims):
            return (RateLimiter.playerBucket(claims.userID), RateLimit(name: "player", requests: player))
        }
    }

    /// The limit on failed authentications from one address.
    var failedAuthentication: RateLimit { RateLimit(name: "failed-auth", requests: failedAuthentications) }
}

/// Counts each authenticated request against its caller's bucket: past the limit, 429 with `Retry-After`;
/// every counted answer carries `RateLimit` and `RateLimit-Policy` (draft-ietf-httpapi-ratelimit-headers).
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = PodiumRequestContext

    /// The shared buckets.
    let limiter: RateLimiter
    /// The limits per caller.
    let limits: RateLimits
    /// The clock the buckets run on.
    let now: @Sendable () -> Date

    /// Counts the request, then answers it or refuses it with 429.
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let (bucket, limit) = limits.bucket(for: context.caller) else { return try await next(request, context) }
        let decision = await limiter.take(bucket, limit: limit, now: now())
        guard decision.allowed else { throw Self.tooManyRequests(limit, decision) }
        do {
            var response = try await next(request, context)
            Self.describe(limit, decision, in: &response.headers)
            return response
        } catch let error as APIError {
            // Refusals count too, and say so.
            var headers = error.headers
            Self.describe(limit, decision, in: &headers)
            throw APIError(error.status, code: error.code, title: error.title, detail: error.detail, errors: error.errors, headers: headers)
        }
    }

    /// Writes the policy and the bucket's state.
    static func describe(_ limit: RateLimit, _ decision: RateDecision, in headers: inout HTTPFields) {
        headers[.rateLimitPolicy] = "\"\(limit.name)\";q=\(limit.requests);w=\(limit.windowSeconds)"
        headers[.rateLimit] = "\"\(limit.name)\";r=\(decision.remaining);t=\(decision.allowed ? decision.reset : decision.retryAfter)"
    }

    /// The 429 for a caller past `limit`.
    static func tooManyRequests(_ limit: RateLimit, _ decision: RateDecision) -> APIError {
        Counter(label: "podium_rate_limit_rejections_total", dimensions: [("limit", limit.name)]).increment()
        var headers = HTTPFields()
        headers[.retryAfter] = String(max(1, decision.retryAfter))
        describe(limit, decision, in: &headers)
        return APIError(
            .tooManyRequests, code: "rate-limited", title: "Too Many Requests",
            detail: "more than \(limit.requests) requests in \(limit.windowSeconds) s (\(limit.name)); retry after \(max(1, decision.retryAfter)) s",
            headers: headers)
    }
}

extension HTTPField.Name {
    /// `RateLimit`: the bucket's state.
    static let rateLimit = Self("RateLimit")!
    /// `RateLimit-Policy`: the limit.
    static let rateLimitPolicy = Self("RateLimit-Policy")!
}
