import Foundation
import Logging
import Redis
import Synchronization

/// How many requests one bucket allows: `requests` per `window`, refilled evenly (a token bucket).
public struct RateLimit: Sendable, Equatable {
    /// What the limit is named in `RateLimit-Policy` (the role, `player` or `failed-auth`).
    public var name: String
    /// Requests allowed per window, and the most allowed in a burst.
    public var requests: Int
    /// The window, in seconds.
    public var windowSeconds: Int

    /// Creates a limit.
    public init(name: String, requests: Int, windowSeconds: Int = 60) {
        self.name = name
        self.requests = requests
        self.windowSeconds = windowSeconds
    }
}

/// The answer to one request against a bucket.
public struct RateDecision: Sendable, Equatable {
    /// Whether the request may go on.
    public var allowed: Bool
    /// Requests left in the bucket now.
    public var remaining: Int
    /// Seconds until one more request is allowed (0 when allowed).
    public var retryAfter: Int
    /// Seconds until the bucket is full again.
    public var reset: Int

    /// Creates a decision.
    public init(allowed: Bool, remaining: Int, retryAfter: Int, reset: Int) {
        self.allowed = allowed
        self.remaining = remaining
        self.retryAfter = retryAfter
        self.reset = reset
    }
}

/// Token buckets shared by every replica through Redis, one round trip per request (batched with other
/// requests' Redis reads), with a bucket per replica as the fallback while Redis is unreachable.
///
/// Time is the caller's clock, passed to the script, so buckets refill by the same clock as everything else;
/// a bucket's key expires once it would be full again.
public final class RateLimiter: Sendable {
    private let redis: RedisPool
    private let batcher: RedisReadBatcher
    private let local = Mutex<[String: (tokens: Double, at: Date)]>([:])
    private let fallbackWarning: ThrottledLog

    /// Creates a limiter on `redis`.
    public init(redis: RedisPool, logger: Logger) {
        self.redis = redis
        batcher = RedisReadBatcher(redis: redis)
        fallbackWarning = ThrottledLog(logger)
    }

    /// Takes one request from `bucket` under `limit` at `now`.
    public func take(_ bucket: String, limit: RateLimit, now: Date) async -> RateDecision {
        let windowMilliseconds = limit.windowSeconds * 1000
        do {
            let reply = try await batcher.evaluate(
                Self.script, keys: [Self.key(bucket)],
                arguments: [String(limit.requests), String(windowMilliseconds), String(Int64(now.timeIntervalSince1970 * 1000))])
            guard let parts = reply.array?.compactMap(\.integer), parts.count == 4 else {
                throw RedisError(kind: .protocolError, message: "unexpected rate limit reply", operation: "rate limit")
            }
            return RateDecision(allowed: parts[0] == 1, remaining: Int(parts[1]), retryAfter: Int(parts[2]), reset: Int(parts[3]))
        } catch {
            fallbackWarning.log("rate limits fall back to this replica's own buckets: Redis failed", metadata: ["error": "\(error)"])
            return takeLocally(bucket, limit: limit, now: now)
        }
    }

    /// The bucket of a player token's requests: it names the player, so erasing the player removes it (`forget`).
    public static func playerBucket(_ userID: String) -> String {
        "player:\(userID)"
    }

    /// Removes `bucket` from Redis and from this replica's fallback buckets; true when Redis held it.
    ///
    /// With Redis unreachable the Redis key stays until it expires by itself, once the bucket would be full again
    /// (within its window, a minute for every Podium limit); the failure is logged, not thrown.
    public func forget(_ bucket: String) async -> Bool {
        local.withLock { _ = $0.removeValue(forKey: bucket) }
        do {
            return try await redis.command(["DEL", Self.key(bucket)]).integer == 1
        } catch {
            fallbackWarning.log("a rate limit bucket was not removed from Redis: it expires within its window", metadata: ["error": "\(error)"])
            return false
        }
    }

    /// The Redis key of `bucket`.
    static func key(_ bucket: String) -> String {
        "podium:rate:\(bucket)"
    }

    /// The same bucket kept in this process.
    private func takeLocally(_ bucket: String, limit: RateLimit, now: Date) -> RateDecision {
        let capacity = Double(limit.requests)
        let perSecond = capacity / Double(limit.windowSeconds)
        return local.withLock { buckets in
            // A flood of distinct buckets (made-up addresses) empties the table instead of growing it.
            if buckets.count >= 100_000 { buckets.removeAll(keepingCapacity: true) }
            let previous = buckets[bucket] ?? (capacity, now)
            var tokens = min(capacity, previous.tokens + max(0, now.timeIntervalSince(previous.at)) * perSecond)
            let allowed = tokens >= 1
            if allowed { tokens -= 1 }
            buckets[bucket] = (tokens, max(now, previous.at))
            return RateDecision(
                allowed: allowed, remaining: Int(tokens), retryAfter: allowed ? 0 : Int(((1 - tokens) / perSecond).rounded(.up)),
                reset: Int(((capacity - tokens) / perSecond).rounded(.up)))
        }
    }

    /// A token bucket in one hash: `t` tokens left at `ts` (milliseconds). ARGV: capacity, window in ms, now in ms.
    /// Returns allowed (1/0), tokens left, seconds until the next token, seconds until full.
    static let script = RedisScript.bundled("rate-limit")
}
