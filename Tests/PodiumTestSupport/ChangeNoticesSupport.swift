import Foundation
import PodiumStore

/// What `eventually` throws when its condition did not come true in time.
public struct NeverHappened: Error, CustomStringConvertible {
    /// What was waited for.
    public let description: String
}

/// Polls `condition` every 20 ms until it holds, for at most `limit` (generous: a busy two-core machine may take
/// seconds for what takes milliseconds when idle); throws `NeverHappened` naming `what` when it does not.
public func eventually(
    _ what: String, within limit: Duration = .seconds(30), _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw NeverHappened(description: "\(what): not within \(limit)") }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// Runs `body` while the tasks of `services` run (each a service's `run()`), once `changes` listens; cancels the
/// tasks and waits for them to end on every path, so no listener or loop outlives the test.
public func whileRunning<T: Sendable>(
    _ services: [@Sendable () async throws -> Void], listening changes: ChangeNotices, _ body: () async throws -> T
) async throws -> T {
    let tasks = ([{ try await changes.run() }] + services).map { service in Task { try await service() } }
    func stop() async {
        for task in tasks { task.cancel() }
        for task in tasks { _ = await task.result }
    }
    do {
        try await eventually("the change listener connects") { changes.isListening }
        let result = try await body()
        await stop()
        return result
    } catch {
        await stop()
        throw error
    }
}
