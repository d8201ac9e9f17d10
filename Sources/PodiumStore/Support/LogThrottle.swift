import Logging
import Redis
import Synchronization

/// When to write a repeated log message: the first at once, then at most one per `interval`,
/// carrying how many were left out since the last.
public struct LogThrottle: Sendable {
    /// Shortest time between two written messages.
    public let interval: Duration
    private var lastWritten: ContinuousClock.Instant?
    private var leftOut = 0

    /// Creates a throttle writing at most one message per `interval`.
    public init(interval: Duration) {
        self.interval = interval
    }

    /// Whether a message occurring `now` is written: the number left out before it, or nil to leave it out.
    public mutating func admit(now: ContinuousClock.Instant) -> Int? {
        if let lastWritten, now - lastWritten < interval {
            leftOut += 1
            return nil
        }
        defer { (lastWritten, leftOut) = (now, 0) }
        return leftOut
    }
}

/// The warning for reads served from PostgreSQL because Redis failed, throttled: under an outage every
/// poll falls back, and one line per read would flood the log.
final class FallbackWarning: Sendable {
    private let throttle: Mutex<LogThrottle>
    private let logger: Logger

    /// Creates the warning, written at most once per `interval` on `logger`.
    init(logger: Logger, interval: Duration = .seconds(10)) {
        self.logger = logger
        self.throttle = Mutex(LogThrottle(interval: interval))
    }

    /// Notes one `read` (`leaderboard read`, `player ranks`…) served from PostgreSQL after `error`.
    func note(_ read: String, error: RedisError) {
        guard let leftOut = throttle.withLock({ $0.admit(now: .now) }) else { return }
        logger.warning("reads served from PostgreSQL: Redis failed", metadata: [
            "read": "\(read)", "error": "\(error)", "unlogged_since_last": "\(leftOut)",
        ])
    }
}
