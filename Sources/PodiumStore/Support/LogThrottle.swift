import Logging
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

/// A log message that may repeat many times a second (Redis down, a webhook endpoint failing), written at most
/// once per `interval` with `suppressed`: how many were left out since the last one written.
public final class ThrottledLog: Sendable {
    private let throttle: Mutex<LogThrottle>
    private let logger: Logger
    private let level: Logger.Level

    /// Creates the message's throttle, writing at `level` on `logger` at most once per `interval`.
    public init(_ logger: Logger, level: Logger.Level = .warning, interval: Duration = .seconds(10)) {
        self.logger = logger
        self.level = level
        self.throttle = Mutex(LogThrottle(interval: interval))
    }

    /// Writes `message` unless one was written less than the interval ago (then only counts it).
    public func log(_ message: @autoclosure () -> Logger.Message, metadata: @autoclosure () -> Logger.Metadata = [:]) {
        guard let suppressed = throttle.withLock({ $0.admit(now: .now) }) else { return }
        var metadata = metadata()
        metadata["suppressed"] = .stringConvertible(suppressed)
        logger.log(level: level, message(), metadata: metadata)
    }
}
