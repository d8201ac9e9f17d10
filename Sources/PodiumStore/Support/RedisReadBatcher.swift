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

/// Sends the commands of concurrent reads to Redis together: one pipeline per batch (on a cluster, one per primary),
/// as `RedisReadBatcher` does for scripts. On a cluster, where a read looks players up in hashes beside its board's
/// script, the lookups of a display wall's many reads share round trips instead of costing a pool hand-off and a
/// blocking-thread hop each. A batch waits at most the read deadline (`RedisConfiguration.readDeadline`).
struct RedisCommandBatcher: Sendable {
    private let queue: BatchingQueue<[[String]], [RedisReply]>

    /// Creates a batcher over `redis`.
    init(redis: RedisClient, maxBatchSize: Int = 64, maxConcurrentBatches: Int = 4) {
        queue = BatchingQueue(maxBatchSize: maxBatchSize, maxConcurrentBatches: maxConcurrentBatches) { reads in
            do {
                let replies = try await redis.pipeline(reads.flatMap { $0 }, deadline: redis.configuration.readDeadline)
                var offset = 0
                return reads.map { read in
                    defer { offset += read.count }
                    return .success(Array(replies[offset..<offset + read.count]))
                }
            } catch {
                return reads.map { _ in .failure(error) }
            }
        }
    }

    /// Runs one read's `commands` (each with a key) in the next batch; their replies in order, error replies as `.error`.
    func pipeline(_ commands: [[String]]) async throws -> [RedisReply] {
        guard !commands.isEmpty else { return [] }
        return try await queue.submit(commands)
    }
}
