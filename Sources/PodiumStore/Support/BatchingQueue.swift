import Synchronization

/// Runs concurrent requests in shared batches (group commit), for the completion writer and Redis reads.
///
/// The first request starts a batch at once, so an idle service adds no delay. While
/// `maxConcurrentBatches` batches are in flight, new requests queue and leave together in the
/// next batch (at most `maxBatchSize`). Requests with the same `key` never share a batch: a later
/// one waits for the next, so it sees what the earlier one wrote.
final class BatchingQueue<Input: Sendable, Output: Sendable>: Sendable {
    /// Processes one batch; returns one result per input, in order.
    typealias Process = @Sendable ([Input]) async -> [Result<Output, any Error>]

    private struct Pending {
        let input: Input
        let continuation: CheckedContinuation<Output, any Error>
    }

    private struct State {
        var queue: [Pending] = []
        var running = 0
    }

    private let state = Mutex(State())
    private let maxBatchSize: Int
    private let maxConcurrentBatches: Int
    private let key: (@Sendable (Input) -> String)?
    private let process: Process

    /// Creates a queue; `key` (optional) names requests that must not share a batch.
    init(maxBatchSize: Int, maxConcurrentBatches: Int, key: (@Sendable (Input) -> String)? = nil, process: @escaping Process) {
        self.maxBatchSize = max(1, maxBatchSize)
        self.maxConcurrentBatches = max(1, maxConcurrentBatches)
        self.key = key
        self.process = process
    }

    /// Submits one request and waits for its result.
    func submit(_ input: Input) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            let startBatch = state.withLock { state in
                state.queue.append(Pending(input: input, continuation: continuation))
                guard state.running < maxConcurrentBatches else { return false }
                state.running += 1
                return true
            }
            if startBatch { Task { await self.drain() } }
        }
    }

    private func drain() async {
        while let batch = nextBatch() {
            let results = await process(batch.map(\.input))
            for (pending, result) in zip(batch, results) { pending.continuation.resume(with: result) }
            // A process that answered short must still answer everyone.
            for pending in batch.dropFirst(results.count) {
                pending.continuation.resume(throwing: BatchingQueueError.noResult)
            }
        }
    }

    private func nextBatch() -> [Pending]? {
        state.withLock { state in
            guard !state.queue.isEmpty else {
                state.running -= 1
                return nil
            }
            var keys = Set<String>()
            var batch: [Pending] = []
            var rest: [Pending] = []
            for pending in state.queue {
                let fresh = key.map { keys.insert($0(pending.input)).inserted } ?? true
                if batch.count < maxBatchSize, fresh { batch.append(pending) } else { rest.append(pending) }
            }
            state.queue = rest
            return batch
        }
    }
}

/// A batch processor returned fewer results than requests (a programming error, reported not hung).
enum BatchingQueueError: Error {
    /// No result was produced for this request.
    case noResult
}
