import Foundation
import Postgres

/// What asking to pause, resume or end a league or a goal did.
public enum DefinitionChange: Sendable, Equatable {
    /// Changed now.
    case changed
    /// It was so already (or, for pause and resume, it has ended): nothing changed.
    case unchanged
    /// PostgreSQL holds no such league or goal.
    case missing
}

/// The definitions an admin pauses, resumes and ends: each a table whose rows have `paused_at`, `ended_at` and a
/// `revision` drawn from the contests' sequence (so a change reaches every replica's registry).
public enum PausableDefinitions: String, Sendable {
    /// `leagues`.
    case leagues
    /// `goals`.
    case goals
}

extension ContestStore {
    /// Pauses row `id` of `table` at `now`, unless it is paused or ended.
    public func pause(_ table: PausableDefinitions, id: String, now: Date) async throws -> DefinitionChange {
        try await change(PauseDefinition(table: table, id: id, pausedAt: now), of: table, id: id)
    }

    /// Resumes row `id` of `table`, if it is paused and not ended.
    public func resume(_ table: PausableDefinitions, id: String) async throws -> DefinitionChange {
        try await change(ResumeDefinition(table: table, id: id), of: table, id: id)
    }

    /// Ends row `id` of `table` at `now` (no longer paused), unless it has ended.
    public func end(_ table: PausableDefinitions, id: String, now: Date) async throws -> DefinitionChange {
        try await change(EndDefinition(table: table, id: id, endedAt: now), of: table, id: id)
    }

    /// One change to row `id` of `table`, `update` (which takes a new revision), under `change`.
    private func change<Update: PostgresRunnable>(_ update: Update, of table: PausableDefinitions, id: String) async throws -> DefinitionChange {
        try await change { connection -> (DefinitionChange, changed: Bool) in
            guard try connection.runCounting(update) == 1 else {
                let exists = try !connection.run(DefinitionExists(table: table, id: id)).isEmpty
                return (exists ? .unchanged : .missing, false)
            }
            return (.changed, true)
        }
    }
}

// A table's name cannot be bound: each statement names its table from `PausableDefinitions`, never from outside.

/// Pauses a row that is neither paused nor ended, with a new revision.
private struct PauseDefinition: PostgresRunnable {
    var text: PostgresSQL<Self> {
        """
        UPDATE \(unescaped: table.rawValue) SET paused_at = \(\.pausedAt), revision = nextval('contests_revision_seq')
        WHERE id = \(\.id) AND paused_at IS NULL AND ended_at IS NULL
        """
    }
    typealias Row = NoRows
    let table: PausableDefinitions
    let id: String
    let pausedAt: Date
}

/// Resumes a paused row that has not ended, with a new revision.
private struct ResumeDefinition: PostgresRunnable {
    var text: PostgresSQL<Self> {
        """
        UPDATE \(unescaped: table.rawValue) SET paused_at = NULL, revision = nextval('contests_revision_seq')
        WHERE id = \(\.id) AND paused_at IS NOT NULL AND ended_at IS NULL
        """
    }
    typealias Row = NoRows
    let table: PausableDefinitions
    let id: String
}

/// Ends a row that has not ended (no longer paused), with a new revision.
private struct EndDefinition: PostgresRunnable {
    var text: PostgresSQL<Self> {
        """
        UPDATE \(unescaped: table.rawValue) SET ended_at = \(\.endedAt), paused_at = NULL, revision = nextval('contests_revision_seq')
        WHERE id = \(\.id) AND ended_at IS NULL
        """
    }
    typealias Row = NoRows
    let table: PausableDefinitions
    let id: String
    let endedAt: Date
}

/// A row when the definition exists.
private struct DefinitionExists: PostgresRunnable {
    var text: PostgresSQL<Self> { "SELECT 1 FROM \(unescaped: table.rawValue) WHERE id = \(\.id)" }
    typealias Row = NoRows
    let table: PausableDefinitions
    let id: String
}
