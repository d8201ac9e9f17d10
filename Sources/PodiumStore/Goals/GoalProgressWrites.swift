import Foundation
import PodiumCore
import PodiumWire
import Postgres

/// What a batch's new completions add to goals: one progress row per goal, period and subject (summed over the batch),
/// and, for class goals, one share per player, written in the batch's second round trip; then each completion's answer
/// and the `goal.completed` events from what the rows came to.
///
/// A progress row's upsert marks the target reached in the same statement that takes the progress over it, under the
/// row's lock, so one transaction and only one (on any replica) reaches a target: the one whose answer says so and
/// whose events hold `goal.completed`.
struct GoalProgressWrites {
    /// Each completion's steps, by index of the batch's plans, in the order played.
    let steps: [[GoalStep]]
    /// The batch's completions, as `steps`.
    private let plans: [CompletionPlan]

    /// The goal steps of `plans` (a batch's new completions, in lock order) recorded at `now` under `rules`.
    init(_ plans: [CompletionPlan], rules: GameRules, now: Date) {
        self.plans = plans
        let registry = rules.boards.contests
        steps = plans.map { plan in
            let item = plan.item
            return registry.goalSteps(
                userID: item.userID, topic: item.topic, groups: item.groups, points: plan.points, correct: item.correct, total: item.total,
                completedAt: item.completedAt, now: now, grace: rules.closeGrace)
        }
    }

    /// The two statements (progress, then class shares); none when no completion counts toward a goal.
    func statements(recordedAt: Date) -> [any PostgresStatement] {
        var rows: [GoalSubject: GoalProgressRow] = [:]
        var shares: [GoalShareRow.Key: Int64] = [:]
        for (plan, steps) in zip(plans, steps) {
            for step in steps {
                let key = GoalSubject(step)
                rows[key, default: GoalProgressRow(key: key, target: step.goal.target)].progress += step.amount
                if step.goal.kind == .class {
                    shares[GoalShareRow.Key(row: key, userID: plan.item.userID), default: 0] += step.amount
                }
            }
        }
        guard !rows.isEmpty else { return [] }
        return [
            UpsertGoalProgress(rows: rows.values.sorted { $0.key < $1.key }, recordedAt: recordedAt),
            AddGoalShares(shares: shares.map { GoalShareRow(key: $0.key, amount: $0.value) }.sorted { $0.key < $1.key }),
        ]
    }

    /// What the statements came to: each completion's goals (by index of the plans) and the targets this batch reached.
    func outcome(of rows: [UpsertGoalProgress.Row], recordedAt: Date) -> (advances: [[GoalAdvance]], reached: [GoalCompletedEvent]) {
        // Each row's progress before the batch: after, less what the whole batch added.
        var progress: [GoalSubject: Int64] = [:]
        var reachedNow = Set<GoalSubject>()
        for row in rows {
            let key = GoalSubject(goal: row.goalID, period: row.period, subject: row.subject)
            progress[key] = row.progress
            if row.reachedNow { reachedNow.insert(key) }
        }
        for step in steps.joined() { progress[GoalSubject(step), default: 0] -= step.amount }
        var events: [GoalCompletedEvent] = []
        let advances = zip(plans, steps).map { plan, steps in
            steps.map { step -> GoalAdvance in
                let key = GoalSubject(step)
                let before = progress[key] ?? 0
                let after = before + step.amount
                progress[key] = after
                let reached = reachedNow.contains(key) && before < step.goal.target && after >= step.goal.target
                let goal = step.goal
                if reached {
                    events.append(GoalCompletedEvent(
                        goal: goal.id, title: goal.title, kind: goal.kind, userId: goal.kind == .personal ? step.subject : nil,
                        group: goal.kind == .class ? step.subject : nil, period: step.period.key, window: goal.window, target: goal.target,
                        progress: after, completionId: goal.kind == .personal ? plan.item.id : nil, completedAt: RFC3339.format(recordedAt)))
                }
                return GoalAdvance(
                    goal: goal.id, title: goal.title, group: goal.kind == .class ? step.subject : nil, period: step.period.key,
                    progress: after, target: goal.target, completed: reached)
            }
        }
        return (advances, events)
    }
}

/// What a batch adds to one progress row.
struct GoalProgressRow: Sendable {
    let key: GoalSubject
    /// The goal's target.
    let target: Int64
    /// What the batch adds.
    var progress: Int64 = 0

    /// The row's columns as `UpsertGoalProgress` reads them.
    static let columns = PostgresColumns<GoalProgressRow>(
        .column("goal_id", "text", { $0.key.goal }), .column("period", "text", { $0.key.period }),
        .column("subject", "text", { $0.key.subject }), .column("progress", "bigint", { $0.progress }),
        .column("target", "bigint", { $0.target }))
}

/// What one player of a batch adds to a class goal's row.
struct GoalShareRow: Sendable {
    /// The row and the player.
    struct Key: Hashable, Comparable, Sendable {
        let row: GoalSubject
        let userID: String

        static func < (left: Key, right: Key) -> Bool {
            (left.row, left.userID) < (right.row, right.userID)
        }
    }

    let key: Key
    let amount: Int64

    /// The row's columns as `AddGoalShares` reads them.
    static let columns = PostgresColumns<GoalShareRow>(
        .column("goal_id", "text", { $0.key.row.goal }), .column("period", "text", { $0.key.row.period }),
        .column("subject", "text", { $0.key.row.subject }), .column("user_id", "text", { $0.key.userID }),
        .column("amount", "bigint", { $0.amount }))
}

/// Adds a batch's progress to each goal row (sorted, so concurrent batches lock alike) and marks the target reached in
/// the statement that takes the progress over it, with this transaction's id; returns each row after the batch and
/// whether this transaction reached it.
struct UpsertGoalProgress: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO goal_progress AS g (goal_id, period, subject, progress, target, completed_at, completed_in)
        SELECT x.goal_id, x.period, x.subject, x.progress, x.target,
               CASE WHEN x.progress >= x.target THEN \(\.recordedAt)::timestamptz END,
               CASE WHEN x.progress >= x.target THEN pg_current_xact_id() END
        FROM \(unnest: \.rows, GoalProgressRow.columns, as: "x")
        ORDER BY x.goal_id, x.period, x.subject
        ON CONFLICT (goal_id, period, subject) DO UPDATE SET
            progress = g.progress + EXCLUDED.progress,
            completed_at = CASE WHEN g.completed_at IS NULL AND g.progress + EXCLUDED.progress >= EXCLUDED.target
                                THEN \(\.recordedAt)::timestamptz ELSE g.completed_at END,
            completed_in = CASE WHEN g.completed_at IS NULL AND g.progress + EXCLUDED.progress >= EXCLUDED.target
                                THEN pg_current_xact_id() ELSE g.completed_in END
        RETURNING goal_id, period, subject, progress, COALESCE(completed_in = pg_current_xact_id(), false) AS reached_now
        """

    /// A row after the batch.
    struct Row: Decodable, Sendable {
        let goalID: String
        let period: String
        let subject: String
        let progress: Int64
        /// Whether this transaction reached the target.
        let reachedNow: Bool
    }

    /// The rows, sorted.
    let rows: [GoalProgressRow]
    let recordedAt: Date
}

/// Adds each player's share of a class goal's row (sorted, so concurrent batches lock alike).
private struct AddGoalShares: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO goal_shares AS s (goal_id, period, subject, user_id, amount)
        SELECT x.goal_id, x.period, x.subject, x.user_id, x.amount FROM \(unnest: \.shares, GoalShareRow.columns, as: "x")
        ORDER BY x.goal_id, x.period, x.subject, x.user_id
        ON CONFLICT (goal_id, period, subject, user_id) DO UPDATE SET amount = s.amount + EXCLUDED.amount
        """
    typealias Row = NoRows
    let shares: [GoalShareRow]
}
