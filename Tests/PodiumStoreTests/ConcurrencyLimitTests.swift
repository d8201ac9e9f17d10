import Synchronization
import Testing

@testable import PodiumStore

@Suite("Concurrency limit (PostgreSQL fallback reads)", .timeLimit(.minutes(5)))
struct ConcurrencyLimitTests {
    /// How many operations run now, and the most that ever ran at once.
    final class Gauge: Sendable {
        let running = Mutex(0)
        let peak = Mutex(0)
    }

    /// Runs `count` operations through `limit` at once; returns the values they returned and the peak. Until `overlap`
    /// operations have run at once, each waits for them (30 s at most in all) instead of trusting its start to come in
    /// time; then each lasts 150 ms more, a chance for a limit that lets too many in to show it.
    func runMany(_ count: Int, overlap: Int = 2, through limit: ConcurrencyLimit) async throws -> (values: [Int], peak: Int) {
        let gauge = Gauge()
        let deadline = ContinuousClock.now + .seconds(30)
        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for value in 0..<count {
                group.addTask {
                    try await limit.run {
                        let now = gauge.running.withLock { $0 += 1; return $0 }
                        gauge.peak.withLock { $0 = max($0, now) }
                        while gauge.peak.withLock({ $0 }) < overlap && ContinuousClock.now < deadline {
                            try await Task.sleep(for: .milliseconds(5))
                        }
                        try await Task.sleep(for: .milliseconds(150))
                        gauge.running.withLock { $0 -= 1 }
                        return value
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        return (values.sorted(), gauge.peak.withLock { $0 })
    }

    @Test("at most the limit run at once, every operation runs, and a failure gives its place back")
    func limitsRunningOperations() async throws {
        let limit = ConcurrencyLimit(2)
        let first = try await runMany(8, through: limit)
        #expect(first.values == Array(0..<8))
        #expect(first.peak == 2)

        struct Planned: Error {}
        await #expect(throws: Planned.self) { try await limit.run { throw Planned() } }
        #expect(try await runMany(4, through: limit).peak == 2, "both places are free again")
    }
}
