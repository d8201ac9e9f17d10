import Foundation
import Logging
import PodiumCore
import PodiumWire

/// How one item of an offline-sync batch came out.
public enum BatchItemOutcome: Sendable, Equatable {
    /// Recorded, or answered from what is stored (replay, conflict, too old).
    case recorded(RecordOutcome)
    /// PostgreSQL refused this completion alone (the writer retries a refused batch item by item):
    /// answered in its place while the others stand.
    case refused
}

/// How a batch treats its refused items (`?mode=`).
public enum BatchMode: String, Sendable {
    /// One refused item rejects the whole batch, and nothing is recorded (the default).
    case all
    /// Every acceptable item is recorded; each refused one gets its own answer.
    case partial
}

/// Why an item of a batch was refused before anything was written.
public enum BatchRefusal: Sendable {
    /// Its fields are invalid, or it is too old and was never recorded.
    case invalid([FieldError])
    /// The caller may not write it: the error the caller's check threw.
    case notAllowed(any Error)
    /// It breaks the plausibility rules.
    case implausible([PlausibilityRules.Violation])
}

/// What a batch came to, item by item (in the order sent), or as a whole.
public enum BatchAnswer: Sendable {
    /// `.all` mode and some items were refused: nothing was written. The refusals of the first kind found, all items'
    /// together (invalid fields before implausible ones).
    case rejected(BatchRefusal)
    /// Each item's fate: refused, or how it was recorded.
    case items([BatchItemAnswer])
}

/// One item's fate in a batch.
public enum BatchItemAnswer: Sendable {
    /// Refused before anything was written.
    case refused(BatchRefusal)
    /// Recorded, or answered from what is stored, or refused by PostgreSQL alone.
    case written(ValidCompletion, BatchItemOutcome)
}

/// The rules of an offline-sync batch (`POST /v1/completions/batch`), on top of `CompletionWriter`; the HTTP layer
/// only maps `BatchAnswer` to its answer.
///
/// - The batch's recorded ids are read at most once, for the age check and the plausibility rules (none for a key's batch
///   with no item too old).
/// - Too old is only a fault in a completion never recorded (checked before anything is written).
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

    /// Checks `checked` (each item's validation at `receivedAt`, in the order sent) under `mode`, then records what it
    /// accepts.
    ///
    /// `mayWrite` is the caller's own check of each valid item (a player token writes its own player's completions
    /// only); `plausibility` is given for a caller whose completions must be plausible (player tokens). In `.all` mode a
    /// failing `mayWrite` throws its error, as a request with one completion would. `prefix(index)` names an item in
    /// field paths (`completions[3].`).
    public func run(
        _ checked: [Result<ValidCompletion, ValidationFailure>], receivedAt: Date, mode: BatchMode, mayWrite: (ValidCompletion) throws -> Void,
        plausibility: PlausibilityRules?, prefix: (Int) -> String
    ) async throws -> BatchAnswer {
        let valid = checked.enumerated().compactMap { index, result in (try? result.get()).map { (index: index, item: $0) } }
        // Read only what is asked of it: the ids of too-old items, and every id when plausibility is judged.
        let asked = plausibility == nil ? valid.filter { $0.item.replayOnly != nil } : valid
        let recorded = try await store.recordedIDs(among: asked.map(\.item), now: receivedAt)
        var refused: [Int: BatchRefusal] = [:]
        for (index, result) in checked.enumerated() {
            switch result {
            case .failure(let failure): refused[index] = .invalid(failure.errors)
            case .success(let item):
                if let error = item.replayOnly, !recorded.contains(item.id) { refused[index] = .invalid([error]) }
            }
        }
        if mode == .all, !refused.isEmpty {
            let errors = refused.sorted { $0.key < $1.key }.flatMap { entry -> [FieldError] in
                guard case .invalid(let errors) = entry.value else { return [] }
                return errors
            }
            return .rejected(.invalid(errors))
        }
        for (index, item) in valid where refused[index] == nil {
            do { try mayWrite(item) } catch let error where mode == .partial { refused[index] = .notAllowed(error) }
        }
        if let plausibility {
            let judged = valid.filter { refused[$0.index] == nil }
            let violations = try await Self.violations(
                judged.map { ($0.item, prefix($0.index)) }, now: receivedAt, recorded: recorded, rules: plausibility, store: store)
            if mode == .all, !violations.isEmpty { return .rejected(.implausible(violations)) }
            for (index, _) in judged {
                let own = violations.filter { $0.error.field.hasPrefix(prefix(index)) }
                if !own.isEmpty { refused[index] = .implausible(own) }
            }
        }
        let accepted = valid.filter { refused[$0.index] == nil }
        var written: [Int: BatchItemAnswer] = [:]
        for (entry, outcome) in zip(accepted, try await record(accepted.map(\.item))) { written[entry.index] = .written(entry.item, outcome) }
        return .items(checked.indices.map { refused[$0].map(BatchItemAnswer.refused) ?? written[$0] ?? .refused(.invalid([])) })
    }

    /// The plausibility rules `items` break (each named by its field prefix), given the player's stored completions
    /// around them. Recorded ids (`recorded`, or read at `now` when nil) are replays and pass; of an id repeated in the batch
    /// only the first occurrence is judged (the others answer as its replay).
    public static func violations(
        _ items: [(ValidCompletion, String)], now: Date, recorded: Set<String>? = nil, rules: PlausibilityRules, store: CompletionStore
    ) async throws -> [PlausibilityRules.Violation] {
        guard let player = items.first?.0.userID else { return [] }
        var stored = recorded ?? []
        if recorded == nil { stored = try await store.recordedIDs(among: items.map(\.0), now: now) }
        var seen = Set<String>()
        let fresh = items.filter { !stored.contains($0.0.id) && seen.insert($0.0.id).inserted }
        let times = fresh.map(\.0.completedAt)
        guard let first = times.min(), let last = times.max() else { return [] }
        let around = try await store.entries(userID: player, from: first.addingTimeInterval(-rules.lookaround), to: last.addingTimeInterval(rules.lookaround))
        return rules.violations(fresh.map { item, prefix in
            (PlausibilityRules.Entry(id: item.id, quizID: item.quizID, completedAt: item.completedAt), item.durationMS, item.total, prefix)
        }, stored: around)
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
