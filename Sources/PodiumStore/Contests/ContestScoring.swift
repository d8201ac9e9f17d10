import Foundation
import PodiumCore
import Postgres

/// What a completion batch's new completions do to contest runs beyond their board scores: the runs they score are
/// held open until the batch commits, and the groups they play for get their totals.
struct ContestScoring {
    /// Shared hold on the close lock of each contest run scored (sorted): a close of one of them waits for the batch's
    /// transaction, and its final snapshot then includes what the batch scored; nil when no run is scored.
    let holdRunsOpen: PeriodCloseLocks?
    /// The group totals the completions add to contest runs; nil when none played in a contest run with a group.
    let groupTotals: AddGroupScores?

    /// The statements of `fresh`, recorded at `recordedAt`.
    init(_ fresh: [CompletionPlan], recordedAt: Date) {
        let runs = Set(fresh.flatMap { plan in
            plan.open.filter { $0.board.contest != nil }.map { PeriodStore.closeLockKey(BoardPeriodKey($0)) }
        }).sorted()
        holdRunsOpen = runs.isEmpty ? nil : Self.holdOpen(runs)
        var rows: [ContestGroupRow] = []
        for plan in fresh {
            for (period, increment) in zip(plan.open, plan.increments) {
                guard let contest = period.board.contest else { continue }
                for group in contest.scope.totalledGroups(of: plan.item.groups) {
                    rows.append(ContestGroupRow(board: period.board.id, period: period.period.key, groupName: group, increment: increment))
                }
            }
        }
        groupTotals = rows.isEmpty ? nil : AddGroupScores(rows: rows, recordedAt: recordedAt)
    }

    /// Takes the close lock of each of `runs` (`PeriodStore.closeLockKey`s) shared, until the transaction ends, in byte
    /// order, as a close takes them (`PeriodClosing.closeNow`): a batch and a close of several runs cannot deadlock.
    static func holdOpen(_ runs: [String]) -> PeriodCloseLocks {
        PeriodCloseLocks(keys: runs, shared: true)
    }
}

/// Adds to each group's total in each contest run it played in; a run already closed takes no more.
struct AddGroupScores: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO contest_group_scores AS g (board, period, group_name, score, updated_at)
        SELECT x.board, x.period, x.group_name, sum(x.increment), \(\.recordedAt) FROM \(unnest: \.rows, ContestGroupRow.columns, as: "x")
        WHERE NOT EXISTS (SELECT 1 FROM board_periods c WHERE c.board = x.board AND c.board_window = 'contest' AND c.period = x.period
                                                          AND c.closed_at IS NOT NULL)
        GROUP BY x.board, x.period, x.group_name ORDER BY x.board, x.period, x.group_name
        ON CONFLICT (board, period, group_name) DO UPDATE SET score = g.score + EXCLUDED.score, updated_at = EXCLUDED.updated_at
        """
    typealias Row = NoRows
    /// What each completion adds to each of its groups in each run.
    let rows: [ContestGroupRow]
    let recordedAt: Date
}

/// What one completion adds to one group's total in one contest run.
struct ContestGroupRow: Sendable {
    /// The contest's board id.
    let board: String
    /// The run (its period key).
    let period: String
    /// The group.
    let groupName: String
    /// What the completion adds to the group's total.
    let increment: Int64

    /// The row's columns as `AddGroupScores` reads them.
    static let columns = PostgresColumns<ContestGroupRow>(
        .column("board", "text", { $0.board }), .column("period", "text", { $0.period }),
        .column("group_name", "text", { $0.groupName }), .column("increment", "bigint", { $0.increment }))
}
