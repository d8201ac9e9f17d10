import Synchronization
import Testing

@testable import PodiumStore

@Suite("Batching queue (group commit)", .timeLimit(.minutes(5)))
struct BatchingQueueTests {
    /// Records every batch the queue hands to its processor.
    final class Recorder: Sendable {
        let batches = Mutex<[[String]]>([])
    }

    @Test func concurrentRequestsShareBatchesAndSameKeysNeverDo() async throws {
        let recorder = Recorder()
        let queue = BatchingQueue<String, String>(maxBatchSize: 10, maxConcurrentBatches: 1, key: { $0 }) { inputs in
            recorder.batches.withLock { $0.append(inputs) }
            try? await Task.sleep(for: .milliseconds(20))
            return inputs.map { .success($0.uppercased()) }
        }
        let inputs = (0..<30).map { "k\($0 % 15)" }
        let outputs = try await withThrowingTaskGroup(of: (String, String).self) { group in
            for input in inputs { group.addTask { (input, try await queue.submit(input)) } }
            return try await group.reduce(into: [(String, String)]()) { $0.append($1) }
        }
        #expect(outputs.allSatisfy { $0.1 == $0.0.uppercased() })
        let batches = recorder.batches.withLock { $0 }
        #expect(batches.flatMap { $0 }.count == 30)
        #expect(batches.allSatisfy { $0.count <= 10 && Set($0).count == $0.count })
        // With one batch in flight at a time, 30 requests cannot take 30 batches.
        #expect(batches.count < 30)
    }

    @Test func aProcessorThatAnswersNobodyStillReleasesEveryCaller() async throws {
        let queue = BatchingQueue<Int, Int>(maxBatchSize: 4, maxConcurrentBatches: 1) { _ in [] }
        let errors = await withTaskGroup(of: BatchingQueueError?.self) { group in
            for value in 0..<8 {
                group.addTask {
                    do {
                        _ = try await queue.submit(value)
                        return nil
                    } catch {
                        return error as? BatchingQueueError
                    }
                }
            }
            return await group.reduce(into: [BatchingQueueError?]()) { $0.append($1) }
        }
        #expect(errors.count == 8)
        #expect(errors.allSatisfy { $0 == .noResult })
    }
}
