import Redis

/// Sends concurrent leaderboard reads to Redis together, one pipeline per batch.
///
/// A display wall or a classroom of phones asking for around-me pages at once would otherwise
/// cost one pool hand-off, one blocking-thread hop and one round trip each. Every read here has a fallback, so a
/// batch waits at most the pool's read deadline (`RedisConfiguration.readDeadline`) for Redis.
struct RedisReadBatcher: Sendable {
    private let queue: BatchingQueue<RedisScriptCall, RedisReply>

    /// Creates a batcher over `redis`.
    init(redis: RedisClient, maxBatchSize: Int = 64, maxConcurrentBatches: Int = 4) {
        queue = BatchingQueue(maxBatchSize: maxBatchSize, maxConcurrentBatches: maxConcurrentBatches) { calls in
            do {
                return try await redis.evaluateAll(calls, deadline: redis.configuration.readDeadline).map { .success($0) }
            } catch {
                return calls.map { _ in .failure(error) }
            }
        }
    }

    /// Runs `script` by name (sent whole only when the server lacks it); an error reply is thrown as `.server`.
    func evaluate(_ script: RedisScript, keys: [String], arguments: [String]) async throws -> RedisReply {
        let reply = try await queue.submit(RedisScriptCall(script, keys: keys, arguments: arguments))
        if case .error(let message) = reply { throw RedisError(kind: .server, message: message, operation: "EVALSHA (batched)") }
        return reply
    }
}
