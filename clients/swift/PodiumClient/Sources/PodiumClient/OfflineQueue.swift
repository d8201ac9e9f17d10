import Foundation
import OpenAPIRuntime
import PodiumAPI

/// What became of one queued completion in a sync.
public enum QueueOutcome: Sendable, Equatable {
    /// Podium recorded it now (201); it left the queue.
    case recorded
    /// Podium already had it (200): sent before, its answer lost. It left the queue.
    case replayed
    /// Podium refused it for good (400, 403, 409, 422), with its problem; it left the queue.
    case refused(Problem)
    /// It stays queued, for the next sync: why.
    case left(LeftReason)
}

/// Why a completion stays queued.
public enum LeftReason: Sendable, Equatable {
    /// No answer: no network, or Podium down.
    case offline
    /// The credential was refused (401) even after one fresh token, or may not post these completions (403, a whole
    /// batch): sign the player in again (or use a key that may), then sync.
    case authentication(Problem)
    /// 429: too many requests; sync again after the problem's `retryAfter`.
    case rateLimited(Problem?)
    /// 5xx, a proxy's page, an item Podium could not take now (a 500 item of a batch), or a whole batch refused.
    case unavailable(Problem?)
}

/// What one `OfflineQueue.sync` did: each completion it sent, in the queue's order, with what became of it.
public struct SyncReport: Sendable, Equatable {
    /// Each completion's id and outcome.
    public var items: [(id: String, outcome: QueueOutcome)]

    /// A report of these items.
    public init(items: [(id: String, outcome: QueueOutcome)] = []) {
        self.items = items
    }

    /// Ids recorded now (201).
    public var recorded: [String] { ids { $0 == .recorded } }
    /// Ids Podium already had (200).
    public var replayed: [String] { ids { $0 == .replayed } }
    /// Ids refused for good, with their problems.
    public var refused: [(id: String, problem: Problem)] {
        items.compactMap { if case .refused(let problem) = $0.outcome { ($0.id, problem) } else { nil } }
    }
    /// Ids that stay queued.
    public var left: [String] { ids { if case .left = $0 { true } else { false } } }

    private func ids(_ matching: (QueueOutcome) -> Bool) -> [String] { items.filter { matching($0.outcome) }.map(\.id) }

    /// Equal when the same ids have the same outcomes in the same order.
    public static func == (a: SyncReport, b: SyncReport) -> Bool {
        a.items.map(\.id) == b.items.map(\.id) && a.items.map(\.outcome) == b.items.map(\.outcome)
    }
}

/// Completions kept in a file until Podium takes them, then sent through the batch route (`mode=partial`, 500 at a
/// time). Recorded, replayed and refused completions leave the queue; the others stay for the next sync, each with
/// why (`SyncReport`), as does a completion added while a sync runs. Every completion keeps its id, so a batch sent
/// twice (its answer lost) counts once. Instants are stored with milliseconds, as the client sends them, so a
/// completion first tried with `Podium.record` and then queued is the same body and a replay, never a conflict.
public actor OfflineQueue {
    private let file: URL
    private let podium: Podium

    /// A queue kept in `file` (JSON), sent with `podium`.
    public init(file: URL, podium: Podium) {
        self.file = file
        self.podium = podium
    }

    /// Queues `completion`, written to the file at once. A missing `completedAt` is now, so that it counts when it
    /// was played, not when the queue is synced.
    public func add(_ completion: Completion) throws {
        var completion = completion
        if completion.completedAt == nil { completion.completedAt = Date() }
        try save(try pending() + [completion])
    }

    /// The queued completions, oldest first.
    public func pending() throws -> [Completion] {
        // No file is an empty queue; any other failure to read (a locked device's protected file) is thrown, never
        // taken for empty, which the next `add` would then write over.
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        let data = try Data(contentsOf: file)
        return data.isEmpty ? [] : try PodiumJSON.decoder.decode([Completion].self, from: data)
    }

    private func save(_ completions: [Completion]) throws {
        try PodiumJSON.encoder.encode(completions).write(to: file, options: .atomic)
    }

    /// Sends what is queued, each batch once, and reports each completion's outcome; Podium's answers are in the
    /// report, never thrown. Throws only when the queue's file cannot be read or written.
    public func sync() async throws -> SyncReport {
        let queued = try pending()
        var report = SyncReport()
        var first = 0
        sending: while first < queued.count {
            let chunk = Array(queued[first..<min(first + 500, queued.count)])
            first += chunk.count
            do {
                let results = try await podium.api.recordCompletionBatch(
                    query: .init(mode: .partial), body: .json(.init(completions: chunk))).ok.body.json.results
                report.items += zip(chunk, results).map { item, result in (item.id, Self.outcome(of: result)) }
            } catch {
                let reason: LeftReason
                switch PodiumError.classify(error) {
                case .authentication(let problem)?: reason = .authentication(problem)
                case .unavailable(let unavailable)?:
                    reason = unavailable.reason == .rateLimited ? .rateLimited(unavailable.problem)
                        : unavailable.reason == .offline ? .offline : .unavailable(unavailable.problem)
                // A whole batch refused: the credential may not post these (403), or the batch itself was refused;
                // nothing is dropped for what may be the app's configuration.
                case .refused(let problem)?: reason = problem.status == 403 ? .authentication(problem) : .unavailable(problem)
                case nil: throw error
                }
                // The rest cannot go through either: all of it stays, with the same reason.
                report.items += queued[(first - chunk.count)...].map { ($0.id, .left(reason)) }
                break sending
            }
        }
        // Read again: what was added while the batches were sent (this actor runs `add` at each await) stays.
        let settled = Set(report.items.filter { if case .left = $0.outcome { false } else { true } }.map(\.id))
        try save(try pending().filter { !settled.contains($0.id) })
        return report
    }

    /// A batch item's outcome.
    static func outcome(of result: Components.Schemas.BatchItemResult) -> QueueOutcome {
        let problem = result.problem.map { Problem($0) }
        switch result.status.rawValue {
        case 201: return .recorded
        case 200: return .replayed
        case 500: return .left(.unavailable(problem))  // refused for now: it stays
        default: return .refused(problem ?? Problem(type: "about:blank", title: "Refused", status: result.status.rawValue,
                                                     detail: "Podium refused this completion"))
        }
    }
}
