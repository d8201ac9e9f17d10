import Redis

/// Sends concurrent leaderboard reads to Redis together, one pipeline per batch.
///
/// A display wall or a classroom of phones asking for around-me pages at once would otherwise
/// cost one pool hand-off, one blocking-thread hop and one round trip each.
struct RedisReadBatcher: Sendable {
    private let queue: BatchingQueue<[String], RedisReply>

    /// Creates a batcher over `redis`.
    init(redis: RedisPool, maxBatchSize: Int = 64, maxConcurrentBatches: Int = 4) {
        queue = BatchingQueue(maxBatchSize: maxBatchSize, maxConcurrentBatches: maxConcurrentBatches) { commands in
            do {
                return try await redis.pipeline(commands).map { .success($0) }
            } catch {
                return commands.map { _ in .failure(error) }
            }
        }
    }

    /// Runs `script` (as `EVAL`, so a pipeline needs no prior `SCRIPT LOAD`); an error reply is thrown as `.server`.
    func evaluate(_ script: RedisScript, keys: [String], arguments: [String]) async throws -> RedisReply {
        let reply = try await queue.submit(["EVAL", script.source, String(keys.count)] + keys + arguments)
        if case .error(let message) = reply { throw RedisError(kind: .server, message: message, operation: "EVAL (batched)") }
        return reply
    }
}
