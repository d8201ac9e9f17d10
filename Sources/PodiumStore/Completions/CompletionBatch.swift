import Foundation
import Logging
import PodiumCore

/// How one item of an offline-sync batch came out.
public enum BatchItemOutcome: Sendable, Equatable {
    /// Recorded, or answered from what is stored (replay, conflict, too old).
    case recorded(RecordOutcome)
    /// PostgreSQL refused this completion alone (the writer retries a refused batch item by item):
    /// answered in its place while the others stand.
    case refused
}

/// The rules of an offline-sync batch (`POST /v1/completions/batch`), on top of `CompletionWriter`.
///
/// - Too old is only a fault in a completion never recorded (`ageErrors`, checked before anything is written).
/// - An id repeated in the batch: the first occurrence is recorded, later ones answer as a replay of it
///   (same body) or a conflict (another body), whatever the commit order. When the first was not
///   recorded (it conflicts with what is stored, or is too old), a later one with another body is
///   answered against what is stored, as if posted on its own (a second write pass).
public struct CompletionBatch: Sendable {
    let writer: CompletionWriter
    let store: CompletionStore
    let logger: Logger

    /// Creates the batch rules over `writer`, reading recorded ids from `store`.
    public init(writer: CompletionWriter, store: CompletionStore, logger: Logger) {
        self.writer = writer
        self.store = store
        self.logger = logger
    }

    /// For each item (in order), its age error if it is too old and was never recorded; nil otherwise.
    public func ageErrors(_ items: [ValidCompletion]) async throws -> [FieldError?] {
        let recorded = try await store.recordedIDs(among: items.filter { $0.replayOnly != nil }.map(\.id))
        return items.map { item in item.replayOnly.flatMap { recorded.contains(item.id) ? nil : $0 } }
    }

    /// Records `items` (ids may repeat) and returns one outcome per item, in order.
    ///
    /// Throws when the batch failed as a whole (PostgreSQL unreachable); a completion PostgreSQL refused
    /// on its own is `.refused`, the rest stand.
    public func record(_ items: [ValidCompletion]) async throws -> [BatchItemOutcome] {
        var firstIndex: [String: Int] = [:]
        for (index, item) in items.enumerated() where firstIndex[item.id] == nil { firstIndex[item.id] = index }
        let distinct = items.indices.filter { firstIndex[items[$0].id] == $0 }.map { items[$0] }
        var firstOutcomes: [String: BatchItemOutcome] = [:]
        for (item, result) in zip(distinct, await writer.record(distinct)) { firstOutcomes[item.id] = try outcome(result) }
        var outcomes: [BatchItemOutcome?] = items.indices.map { index in
            guard let first = firstOutcomes[items[index].id], let firstAt = firstIndex[items[index].id] else { return nil }
            guard firstAt != index else { return first }
            let sameBody = items[firstAt].fingerprint == items[index].fingerprint
            switch first {
            case .recorded(.created(let response)), .recorded(.replayed(let response)):
                return .recorded(sameBody ? .replayed(response) : .conflict)
            case .recorded(.conflict), .recorded(.tooOld), .refused:
                return sameBody ? first : nil
            }
        }
        let unanswered = outcomes.indices.filter { outcomes[$0] == nil }
        for (index, result) in zip(unanswered, await writer.record(unanswered.map { items[$0] })) {
            outcomes[index] = try outcome(result)
        }
        return outcomes.map { $0 ?? .refused }
    }

    /// A writer result as an item outcome: a statement PostgreSQL refused stays with its item; any other failure fails the batch.
    private func outcome(_ result: Result<RecordOutcome, any Error>) throws -> BatchItemOutcome {
        switch result {
        case .success(let outcome):
            return .recorded(outcome)
        case .failure(let error):
            guard case .rejected = StoreError(classifying: error) else { throw error }
            logger.error("completion refused by PostgreSQL", metadata: ["error": "\(error)"])
            return .refused
        }
    }
}
