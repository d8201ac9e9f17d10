import Synchronization

/// A one-way gate between a test and the work it holds back: work waits at it until the test opens it.
public final class Latch: Sendable {
    private let opened = Mutex(false)

    /// A latch, shut.
    public init() {}

    /// Whether the latch is open.
    public var isOpen: Bool { opened.withLock { $0 } }

    /// Lets every waiting and later `wait` return.
    public func open() { opened.withLock { $0 = true } }

    /// Returns once the latch is open, or after `limit` at most, so that a failing test cannot leave work waiting
    /// for ever.
    public func wait(atMost limit: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + limit
        while !isOpen && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
