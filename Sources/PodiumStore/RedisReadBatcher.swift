import Redis
import Synchronization

/// Sends concurrent leaderboard reads to Redis together, one pipeline per batch.
///
/// A display wall or a classroom of phones asking for around-me pages at once would otherwise
/// cost one pool hand-off, one blocking-thread hop and one round trip each. Like the completion
/// writer, the first read leaves at once; reads arriving while `maxConcurrentBatches` pipelines
/// are in flight wait and leave together in the next one.
final class RedisReadBatcher: Sendable {
    private struct Pending {
        let command: [String]
        let continuation: CheckedContinuation<RedisReply, any Error>
    }

    private struct State {
        var queue: [Pending] = []
        var running = 0
    }

    private let state = Mutex(State())
    private let redis: RedisPool
    private let maxBatchSize: Int
    private let maxConcurrentBatches: Int

    /// Creates a batcher over `redis`.
    init(redis: RedisPool, maxBatchSize: Int = 64, maxConcurrentBatches: Int = 4) {
        self.redis = redis
        self.maxBatchSize = maxBatchSize
        self.maxConcurrentBatches = maxConcurrentBatches
    }

    /// Runs `script` (as `EVAL`, so a pipeline needs no prior `SCRIPT LOAD`); an error reply is thrown as `.server`.
    func evaluate(_ script: RedisScript, keys: [String], arguments: [String]) async throws -> RedisReply {
        let command = ["EVAL", script.source, String(keys.count)] + keys + arguments
        let reply = try await withCheckedThrowingContinuation { continuation in
            let start = state.withLock { state in
                state.queue.append(Pending(command: command, continuation: continuation))
                guard state.running < maxConcurrentBatches else { return false }
                state.running += 1
                return true
            }
            if start { Task { await self.drain() } }
        }
        if case .error(let message) = reply { throw RedisError(kind: .server, message: message, operation: "EVAL (batched)") }
        return reply
    }

    private func drain() async {
        while let batch = next() {
            do {
                let replies = try await redis.pipeline(batch.map(\.command))
                for (pending, reply) in zip(batch, replies) { pending.continuation.resume(returning: reply) }
            } catch {
                for pending in batch { pending.continuation.resume(throwing: error) }
            }
        }
    }

    private func next() -> [Pending]? {
        state.withLock { state in
            guard !state.queue.isEmpty else {
                state.running -= 1
                return nil
            }
            let batch = Array(state.queue.prefix(maxBatchSize))
            state.queue.removeFirst(batch.count)
            return batch
        }
    }
}
