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

/// Token buckets shared by every replica through Redis, with a bucket per replica as the fallback while Redis is
/// unreachable.
///
/// A request does not pay a Redis round trip each: a replica takes a share of a bucket at once and spends it locally
/// for at most `leaseLifetime`; what is left then goes back to the bucket with the replica's next take from it. A
/// share starts at one request, doubles each time the replica spends it out within its lifetime and halves each time
/// it expires, up to `maxLeaseSize(of:)` (1% of the limit, at most 1,000): a busy key settles with Redis a few times
/// in 100 ms, a quiet one takes one request at a time. A replica holds one share per bucket and takes one at a time:
/// requests that find the share spent while a take is in flight wait for it and spend from what it brings (or share
/// its refusal), so concurrent requests on one replica never each take a share, and one replica alone is admitted
/// the whole bucket. Replicas together never pass a limit; a bucket can look emptier than it is, by the shares other
/// replicas hold, for at most `leaseLifetime`. Limits under 200 a minute always take one request at a time, exactly
/// as one shared bucket.
///
/// Time is the caller's clock, passed to the script, so buckets refill (and shares expire) by the same clock as
/// everything else; a bucket's key expires once it would be full again.
public final class RateLimiter: Sendable {
    /// How long a replica spends a share of a bucket before settling with Redis.
    public static let leaseLifetime: TimeInterval = 0.1

    private let redis: RedisClient
    private let batcher: RedisReadBatcher
    private let shares = Mutex(Shares())
    private let local = Mutex<[String: (tokens: Double, at: Date)]>([:])
    private let fallbackWarning: ThrottledLog

    /// Creates a limiter on `redis`.
    public init(redis: RedisClient, logger: Logger) {
        self.redis = redis
        batcher = RedisReadBatcher(redis: redis)
        fallbackWarning = ThrottledLog(logger)
    }

    /// The most requests of `limit` a replica takes from Redis at once.
    public static func maxLeaseSize(of limit: RateLimit) -> Int {
        max(1, min(1_000, limit.requests / 100))
    }

    /// Takes one request from `bucket` under `limit` at `now`: from this replica's share when it holds one, else
    /// from Redis (taking a new share), or, while another request of this replica takes one, from what that take brings.
    public func take(_ bucket: String, limit: RateLimit, now: Date) async -> RateDecision {
        while true {
            let next: Next = shares.withLock { shares in
                if let taking = shares.taking[bucket] { return .wait(taking) }
                switch Self.spend(from: &shares.leases, bucket, limit: limit, now: now) {
                case .spent(let decision):
                    return .done(decision)
                case .none(let returned, let size):
                    let taking = Task { await self.takeShare(bucket, limit: limit, now: now, size: size, returning: returned) }
                    shares.taking[bucket] = taking
                    return .took(taking)
                }
            }
            switch next {
            case .done(let decision):
                return decision
            case .took(let taking):
                return await taking.value
            case .wait(let taking):
                // Its refusal answers this request too (the bucket was empty while it waited); else spend from its share.
                let decision = await taking.value
                if !decision.allowed { return decision }
            }
        }
    }

    /// What a request does next: answer, wait for this replica's take in flight, or await the take it started.
    private enum Next {
        case done(RateDecision)
        case wait(Task<RateDecision, Never>)
        case took(Task<RateDecision, Never>)
    }

    /// This replica's shares, and the take in flight per bucket.
    private struct Shares {
        /// The share of each bucket this replica holds.
        var leases: [String: Lease] = [:]
        /// The take from Redis in flight for each bucket (at most one): it answers the request that started it.
        var taking: [String: Task<RateDecision, Never>] = [:]
    }

    /// Takes `size` requests of `bucket` from Redis, giving back `returned` of an expired share, spends one for the
    /// request that started the take and keeps the rest as this replica's share; the local fallback when Redis fails.
    private func takeShare(_ bucket: String, limit: RateLimit, now: Date, size: Int, returning returned: Int) async -> RateDecision {
        let reply: [Int64]
        do {
            let answer = try await batcher.evaluate(
                Self.script, keys: [Self.key(bucket)],
                arguments: [String(limit.requests), String(limit.windowSeconds * 1000), String(Int64(now.timeIntervalSince1970 * 1000)),
                            String(size), String(returned)])
            guard let parts = answer.array?.compactMap(\.integer), parts.count == 4 else {
                throw RedisError(kind: .protocolError, message: "unexpected rate limit reply", operation: "rate limit")
            }
            reply = parts
        } catch {
            shares.withLock { _ = $0.taking.removeValue(forKey: bucket) }
            fallbackWarning.log("rate limits fall back to this replica's own buckets: Redis failed", metadata: ["error": "\(error)"])
            return takeLocally(bucket, limit: limit, now: now)
        }
        let (granted, left) = (Int(reply[0]), Int(reply[1]))
        shares.withLock { shares in
            shares.taking[bucket] = nil
            // A flood of distinct buckets (made-up player ids) empties the table instead of growing it.
            if shares.leases.count >= 100_000 { shares.leases.removeAll(keepingCapacity: true) }
            shares.leases[bucket] = Lease(tokens: max(0, granted - 1), bucketTokens: left, takenAt: now, size: size)
        }
        return RateDecision(allowed: granted > 0, remaining: left + max(0, granted - 1), retryAfter: Int(reply[2]), reset: Int(reply[3]))
    }

    /// A share of a bucket this replica took from Redis and has not spent yet.
    private struct Lease {
        /// Requests left to spend.
        var tokens: Int
        /// What Redis said the bucket held after handing the share over.
        var bucketTokens: Int
        /// When it was taken.
        var takenAt: Date
        /// How many it asked for.
        var size: Int

        /// Whether it may still be spent at `now`.
        func isLive(at now: Date) -> Bool {
            now.timeIntervalSince(takenAt) < RateLimiter.leaseLifetime && now >= takenAt
        }
    }

    /// What spending from this replica's share came to.
    private enum Spending {
        /// One request spent from the share.
        case spent(RateDecision)
        /// No share to spend from: take `nextSize` from Redis, giving back `returned` of an expired one.
        case none(returned: Int, nextSize: Int)
    }

    /// Spends one request of `bucket`'s share, or says what to take next: twice the share when it was spent out within
    /// its lifetime, half when it expired (giving back what it had left).
    private static func spend(from leases: inout [String: Lease], _ bucket: String, limit: RateLimit, now: Date) -> Spending {
        guard var lease = leases[bucket] else { return .none(returned: 0, nextSize: 1) }
        guard lease.isLive(at: now) else {
            leases[bucket] = nil
            return .none(returned: lease.tokens, nextSize: max(1, lease.size / 2))
        }
        guard lease.tokens > 0 else { return .none(returned: 0, nextSize: min(maxLeaseSize(of: limit), lease.size * 2)) }
        lease.tokens -= 1
        leases[bucket] = lease
        let remaining = lease.bucketTokens + lease.tokens
        let perSecond = Double(limit.requests) / Double(limit.windowSeconds)
        return .spent(RateDecision(
            allowed: true, remaining: remaining, retryAfter: 0,
            reset: Int((Double(max(0, limit.requests - remaining)) / perSecond).rounded(.up))))
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
        shares.withLock { _ = $0.leases.removeValue(forKey: bucket) }
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

    /// A token bucket in one hash: `t` tokens left at `ts` (milliseconds). ARGV: capacity, window in ms, now in ms,
    /// how many to take at most, how many an expired share gives back. Returns how many it took (0: refused), tokens
    /// left, seconds until the next token (when it took none), seconds until full.
    static let script = RedisScript.bundled("rate-limit")
}
