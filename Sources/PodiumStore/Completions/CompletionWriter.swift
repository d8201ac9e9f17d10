import Foundation
import Metrics
import PodiumCore
import Postgres

/// Lets concurrent completions share transactions and round trips (group commit).
///
/// Completions go through a `BatchingQueue`: under load many one-completion requests become a
/// few large transactions, which is what lets ingest approach PostgreSQL's own
/// one-transaction-per-completion rate. Two completions with the same id never share a batch.
public final class CompletionWriter: Sendable {
    private let queue: BatchingQueue<ValidCompletion, RecordOutcome>

    /// The most completions one transaction records, unless configured (`PODIUM_BATCH_SIZE`).
    public static let defaultMaxBatchSize = 128
    /// Ingest transactions in flight at once, unless configured (`PODIUM_BATCH_CONCURRENCY`): two fill this machine's
    /// cores, and fewer, larger batches cost less CPU per completion than more, smaller ones.
    public static let defaultMaxConcurrentBatches = 2

    /// Creates a writer over `store`; `now` stamps `recorded_at` and decides which periods are closed.
    public init(
        store: CompletionStore, maxBatchSize: Int = defaultMaxBatchSize, maxConcurrentBatches: Int = defaultMaxConcurrentBatches,
        now: @escaping @Sendable () -> Date
    ) {
        queue = BatchingQueue(maxBatchSize: maxBatchSize, maxConcurrentBatches: maxConcurrentBatches, key: \.id) { items in
            await Self.write(items, store: store, now: now)
        }
    }

    /// Records one completion, sharing a transaction with whatever else is waiting.
    public func record(_ item: ValidCompletion) async throws -> RecordOutcome {
        try await queue.submit(item)
    }

    /// Records several completions (a batch request); each gets its own result, in order.
    ///
    /// All are queued at once, so they share transactions with each other and with other requests.
    public func record(_ items: [ValidCompletion]) async -> [Result<RecordOutcome, any Error>] {
        let tasks = items.map { item in Task { try await self.record(item) } }
        var results: [Result<RecordOutcome, any Error>] = []
        results.reserveCapacity(tasks.count)
        for task in tasks { results.append(await task.result) }
        return results
    }

    /// Writes a batch. If PostgreSQL rejected the data, each completion is tried alone so one cannot
    /// sink the others; if PostgreSQL is unreachable or timed out, the whole batch fails at once
    /// (trying 128 completions one by one against a dead server would only stretch the outage).
    private static func write(
        _ items: [ValidCompletion], store: CompletionStore, now: @Sendable () -> Date
    ) async -> [Result<RecordOutcome, any Error>] {
        Recorder(label: "podium_group_commit_batch_size").record(items.count)
        do {
            return try await store.record(items, now: now()).map { .success($0) }
        } catch let error as PostgresError where items.count > 1 && error.kind == .query {
            var results: [Result<RecordOutcome, any Error>] = []
            for item in items { results += await write([item], store: store, now: now) }
            return results
        } catch {
            return items.map { _ in .failure(error) }
        }
    }
}
