import Synchronization

/// Lets at most `limit` operations run at once; the others wait their turn, first come, first served.
///
/// Leaderboard reads served from PostgreSQL while Redis is unavailable go through one, so that
/// polling displays cannot take every pooled connection from completions and from the rebuild
/// that brings Redis back.
final class ConcurrencyLimit: Sendable {
    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let limit: Int

    /// Creates a limit of `limit` (at least 1) operations at once.
    init(_ limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `operation` once fewer than `limit` others are running.
    func run<T>(_ operation: () async throws -> T) async rethrows -> T {
        await withCheckedContinuation { continuation in
            let admitted = state.withLock { state in
                guard state.running < limit else {
                    state.waiting.append(continuation)
                    return false
                }
                state.running += 1
                return true
            }
            if admitted { continuation.resume() }
        }
        defer {
            // The place passes straight to the next in line, so `running` stays counted for it.
            let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard !state.waiting.isEmpty else {
                    state.running -= 1
                    return nil
                }
                return state.waiting.removeFirst()
            }
            next?.resume()
        }
        return try await operation()
    }
}
