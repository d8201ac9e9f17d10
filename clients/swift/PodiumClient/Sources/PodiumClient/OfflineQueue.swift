import Foundation
import OpenAPIRuntime
import PodiumAPI

/// What one `OfflineQueue.sync` did.
public struct SyncReport: Sendable, Equatable {
    /// Ids recorded now (201).
    public var recorded: [String] = []
    /// Ids Podium already had (200): sent before, their answer lost.
    public var replayed: [String] = []
    /// Ids dropped because a resend cannot help (400, 403, 409, 422), with their status.
    public var refused: [(id: String, status: Int)] = []
    /// Still queued: Podium could not be reached, or refused an item for now (500).
    public var left = 0

    /// A report; the defaults describe a sync that did nothing.
    public init(recorded: [String] = [], replayed: [String] = [], refused: [(id: String, status: Int)] = [], left: Int = 0) {
        self.recorded = recorded
        self.replayed = replayed
        self.refused = refused
        self.left = left
    }

    /// Equal when every list and the count are.
    public static func == (a: SyncReport, b: SyncReport) -> Bool {
        a.recorded == b.recorded && a.replayed == b.replayed && a.left == b.left
            && a.refused.map { "\($0.id) \($0.status)" } == b.refused.map { "\($0.id) \($0.status)" }
    }
}

/// Completions kept in a file until Podium takes them, then sent through the batch route (`mode=partial`, 500 at a
/// time). Recorded and replayed completions leave the queue; refused ones leave it and are reported; the rest stay for
/// the next sync, as does a completion added while a sync runs. Every completion keeps its id, so a batch sent twice
/// (its answer lost) counts once. Instants are stored with milliseconds, as the client sends them, so a completion
/// first tried with `Podium.record` and then queued is the same body and a replay, never a conflict.
public actor OfflineQueue {
    private let file: URL
    private let podium: Podium

    /// A queue kept in `file` (JSON), sent with `podium`.
    public init(file: URL, podium: Podium) {
        self.file = file
        self.podium = podium
    }

    /// Queues `completion`, written to the file at once.
    public func add(_ completion: Components.Schemas.CompletionRequest) throws {
        try save(try pending() + [completion])
    }

    /// The queued completions, oldest first.
    public func pending() throws -> [Components.Schemas.CompletionRequest] {
        // No file is an empty queue; any other failure to read (a locked device's protected file) is thrown, never
        // taken for empty, which the next `add` would then write over.
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        let data = try Data(contentsOf: file)
        return data.isEmpty ? [] : try PodiumJSON.decoder.decode([Components.Schemas.CompletionRequest].self, from: data)
    }

    private func save(_ completions: [Components.Schemas.CompletionRequest]) throws {
        try PodiumJSON.encoder.encode(completions).write(to: file, options: .atomic)
    }

    /// Sends what is queued.
    public func sync() async throws -> SyncReport {
        let queued = try pending()
        var report = SyncReport()
        var settled = Set<String>()
        var first = 0
        while first < queued.count {
            let chunk = Array(queued[first..<min(first + 500, queued.count)])
            let results: [Components.Schemas.BatchItemResult]
            do {
                guard case .ok(let answer) = try await podium.api.recordCompletionBatch(
                    query: .init(mode: .partial), body: .json(.init(completions: chunk)))
                else { break }
                results = try answer.body.json.results
            } catch is ClientError {
                break
            }
            for (item, result) in zip(chunk, results) {
                switch result.status.rawValue {
                case 201: report.recorded.append(item.id)
                case 200: report.replayed.append(item.id)
                case 500: continue  // refused for now: it stays
                default: report.refused.append((item.id, result.status.rawValue))
                }
                settled.insert(item.id)
            }
            first += chunk.count
        }
        // Read again: what was added while the batches were sent (this actor runs `add` at each await) stays.
        let left = try pending().filter { !settled.contains($0.id) }
        try save(left)
        report.left = left.count
        return report
    }
}
