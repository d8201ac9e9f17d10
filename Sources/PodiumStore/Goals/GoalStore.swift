import Foundation
import PodiumCore
import PodiumWire
import Postgres

/// The goals in PostgreSQL: their definitions (read into the contest registry every replica's game rules hold) and the
/// progress players and groups made (written by completion batches, `GoalProgressWrites`).
public struct GoalStore: Sendable {
    let postgres: PostgresPool
    let contests: ContestStore

    /// Creates the store; `contests` refreshes the registry the game rules hold, which carries the goals too.
    public init(postgres: PostgresPool, contests: ContestStore) {
        self.postgres = postgres
        self.contests = contests
    }

    /// Stores a new goal; false when the id is taken (nothing changed). The registry is refreshed once it committed, and
    /// every other replica's is told to (`ChangeTopic.contests`).
    public func create(_ goal: Goal) async throws -> Bool {
        let insert = AddGoal(goal: goal)
        return try await contests.change { connection in
            let inserted = try connection.runCounting(insert) == 1
            return (inserted, inserted)
        }
    }

    /// Pauses goal `id` at `now`: no completion counts until it is resumed.
    public func pause(id: String, now: Date) async throws -> DefinitionChange {
        try await contests.pause(.goals, id: id, now: now)
    }

    /// Resumes paused goal `id`: completions played from now on count again.
    public func resume(id: String) async throws -> DefinitionChange {
        try await contests.resume(.goals, id: id)
    }

    /// Ends goal `id` at `now`: completions played from then on count nowhere; its progress stays readable.
    public func end(id: String, now: Date) async throws -> DefinitionChange {
        try await contests.end(.goals, id: id, now: now)
    }

    /// The stored progress of `rows` (goal, period, subject); a row nobody added to yet is left out.
    public func progress(of rows: [GoalSubject]) async throws -> [GoalSubject: StoredGoalProgress] {
        guard !rows.isEmpty else { return [:] }
        let found = try await postgres.run(ReadGoalProgress(rows: rows))
        return Dictionary(found.map { row in
            (GoalSubject(goal: row.goalID, period: row.period, subject: row.subject),
             StoredGoalProgress(progress: row.progress, completedAt: row.completedAt))
        }) { first, _ in first }
    }

    /// The groups and topics `userID` plays: the groups of their latest 50 completions or of their class goal shares,
    /// and every topic they played. The profile shows the goals of these (and the global ones).
    public func scopes(of userID: String) async throws -> (groups: Set<String>, topics: Set<String>) {
        let rows = try await postgres.run(PlayerScopes(userID: userID))
        return (Set(rows.filter { $0.kind == "group" }.map(\.name)), Set(rows.filter { $0.kind == "topic" }.map(\.name)))
    }
}

/// One goal's progress row: the goal, its period and the player or group.
public struct GoalSubject: Sendable, Hashable, Comparable {
    /// The goal's id.
    public let goal: String
    /// The period's key.
    public let period: String
    /// The player (personal) or group (class).
    public let subject: String

    /// Creates one.
    public init(goal: String, period: String, subject: String) {
        self.goal = goal
        self.period = period
        self.subject = subject
    }

    /// The row `step` adds to.
    init(_ step: GoalStep) {
        self.init(goal: step.goal.id, period: step.period.key, subject: step.subject)
    }

    /// By goal, then period, then subject: the order rows are locked in.
    public static func < (left: GoalSubject, right: GoalSubject) -> Bool {
        (left.goal, left.period, left.subject) < (right.goal, right.period, right.subject)
    }

    /// The row's columns as `ReadGoalProgress` reads them.
    static let columns = PostgresColumns<GoalSubject>(
        .column("goal_id", "text", { $0.goal }), .column("period", "text", { $0.period }), .column("subject", "text", { $0.subject }))
}

/// A progress row as stored.
public struct StoredGoalProgress: Sendable, Equatable {
    /// How far it is.
    public let progress: Int64
    /// When the target was reached, if it was.
    public let completedAt: Date?
}

/// Stores a new goal unless its id is taken.
private struct AddGoal: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO goals (id, title, kind, scope, measure, target, goal_window, time_zone, created_at)
        VALUES (\(\.goal.id), \(\.goal.title), \(\.goal.kind.rawValue), \(\.scope), \(\.goal.measure.rawValue), \(\.goal.target),
                \(\.goal.window.rawValue), \(\.goal.timeZone.configuredName), \(\.goal.createdAt))
        ON CONFLICT (id) DO NOTHING
        """
    typealias Row = NoRows
    let goal: Goal

    /// The board ids of its scope.
    var scope: [String] { goal.scope.boards.map(\.id) }
}

/// The progress rows among some (goal, period, subject) keys.
private struct ReadGoalProgress: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT g.goal_id, g.period, g.subject, g.progress, g.completed_at
        FROM \(unnest: \.rows, GoalSubject.columns, as: "x")
        JOIN goal_progress g ON g.goal_id = x.goal_id AND g.period = x.period AND g.subject = x.subject
        """
    struct Row: Decodable, Sendable {
        let goalID: String
        let period: String
        let subject: String
        let progress: Int64
        let completedAt: Date?
    }
    let rows: [GoalSubject]
}

/// The groups of a player's latest 50 completions and of their class goal shares, and the topics they played.
private struct PlayerScopes: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT DISTINCT 'group' AS kind, name FROM (
            SELECT unnest(groups) AS name
            FROM (SELECT groups FROM completions WHERE user_id = \(\.userID) ORDER BY completed_at DESC LIMIT 50) latest
            UNION ALL
            SELECT subject FROM goal_shares WHERE user_id = \(\.userID)
        ) x
        UNION ALL
        SELECT 'topic', topic FROM user_topics WHERE user_id = \(\.userID)
        """
    struct Row: Decodable, Sendable {
        /// `group` or `topic`.
        let kind: String
        let name: String
    }
    let userID: String
}
