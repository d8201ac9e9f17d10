import Foundation
import PodiumCore
import Postgres
import Synchronization

/// Lets concurrent completions share transactions and round trips (group commit).
///
/// The first completion to arrive starts a batch at once, so an idle service adds no delay.
/// While up to `maxConcurrentBatches` batches are in flight, new arrivals queue and leave
/// together in the next batch (at most `maxBatchSize`). Under load that turns many
/// one-completion transactions into a few large ones, which is what lets ingest keep up
/// with, and pass, PostgreSQL's own one-transaction-per-completion rate.
public final class CompletionWriter: Sendable {
    private struct Pending {
        let item: ValidCompletion
        let continuation: CheckedContinuation<RecordOutcome, any Error>
    }

    private struct State {
        var queue: [Pending] = []
        var running = 0
    }

    private let state = Mutex(State())
    private let store: CompletionStore
    private let maxBatchSize: Int
    private let maxConcurrentBatches: Int
    private let now: @Sendable () -> Date

    /// Creates a writer over `store`; `now` stamps `recorded_at` and decides which periods are closed.
    public init(store: CompletionStore, maxBatchSize: Int = 128, maxConcurrentBatches: Int = 4, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.maxBatchSize = max(1, maxBatchSize)
        self.maxConcurrentBatches = max(1, maxConcurrentBatches)
        self.now = now
    }

    /// Records one completion, sharing a transaction with whatever else is waiting.
    public func record(_ item: ValidCompletion) async throws -> RecordOutcome {
        try await withCheckedThrowingContinuation { continuation in
            let startBatch = state.withLock { state in
                state.queue.append(Pending(item: item, continuation: continuation))
                guard state.running < maxConcurrentBatches else { return false }
                state.running += 1
                return true
            }
            if startBatch { Task { await self.drain() } }
        }
    }

    /// Records several completions (a batch request); each gets its own result, in order.
    public func record(_ items: [ValidCompletion]) async -> [Result<RecordOutcome, any Error>] {
        await withTaskGroup(of: (Int, Result<RecordOutcome, any Error>).self) { group in
            for (index, item) in items.enumerated() {
                group.addTask {
                    do { return (index, .success(try await self.record(item))) } catch { return (index, .failure(error)) }
                }
            }
            var results = [Result<RecordOutcome, any Error>?](repeating: nil, count: items.count)
            for await (index, result) in group { results[index] = result }
            return results.compactMap { $0 }
        }
    }

    private func drain() async {
        while let batch = nextBatch() {
            await write(batch)
        }
    }

    /// Takes the next batch off the queue; a second completion with an id already in the batch waits for the next one.
    private func nextBatch() -> [Pending]? {
        state.withLock { state in
            guard !state.queue.isEmpty else {
                state.running -= 1
                return nil
            }
            var ids = Set<String>()
            var batch: [Pending] = []
            var rest: [Pending] = []
            for pending in state.queue {
                if batch.count < maxBatchSize, ids.insert(pending.item.id).inserted { batch.append(pending) } else { rest.append(pending) }
            }
            state.queue = rest
            return batch
        }
    }

    /// Writes a batch. If PostgreSQL rejected the data, each completion is tried alone so one cannot
    /// sink the others; if PostgreSQL is unreachable or timed out, the whole batch fails at once
    /// (trying 128 completions one by one against a dead server would only stretch the outage).
    private func write(_ batch: [Pending]) async {
        do {
            let outcomes = try await store.record(batch.map(\.item), now: now())
            for (pending, outcome) in zip(batch, outcomes) { pending.continuation.resume(returning: outcome) }
        } catch let error as PostgresError where batch.count > 1 && error.kind == .query {
            for pending in batch { await write([pending]) }
        } catch {
            for pending in batch { pending.continuation.resume(throwing: error) }
        }
    }
}
