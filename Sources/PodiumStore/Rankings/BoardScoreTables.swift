import Foundation
import PodiumCore
import PodiumWire
import Postgres

/// One (board period, player)'s share of a completion batch: on a `sum` board the score it adds and what the tie-breaks
/// read of the completions that added to it; on a `best` or `latest` board the one run of the batch that counts, whole.
struct ScoreRow: Sendable {
    /// The board id.
    let board: String
    /// The window (`all`, `day`, `week`, `month` or `contest`).
    let window: String
    /// The period key.
    let period: String
    /// The player.
    let userID: String
    /// How the board keeps a player's completions (`BoardScoreTables.aggregateCode`): `s` sums, `b` and `d` keep the
    /// best run (by the `run` and `earliest` keys), `l` the latest.
    let aggregate: String
    /// The board's tie-break, which orders runs on `b`, `d` and `l` boards.
    let tieBreak: TieBreak
    /// The score the batch adds (`s`), or the kept run's value.
    var increment: Int64 = 0
    /// The latest `completed_at` of the completions that added to the score, or the kept run's (nil while none did).
    var reachedAt: Date?
    /// The playing time of the completions that added to the score, or the kept run's.
    var durationMs: Int64 = 0
    /// How many of them came without a duration (for a run, 1 when it did).
    var untimedCompletions: Int64 = 0

    /// A row of `period`'s board for `userID`, before any completion.
    init(board: String, window: String, period: String, userID: String, definition: BoardDefinition) {
        (self.board, self.window, self.period, self.userID) = (board, window, period, userID)
        aggregate = BoardScoreTables.aggregateCode(of: definition)
        tieBreak = definition.tieBreak
    }

    /// The row's columns as `RecordBoardScores` binds them.
    static let columns = PostgresColumns<ScoreRow>(
        .column("board", "text", { $0.board }), .column("board_window", "text", { $0.window }),
        .column("period", "text", { $0.period }), .column("user_id", "text", { $0.userID }),
        .column("aggregate", "\"char\"", { $0.aggregate }),
        .column("increment", "bigint", { $0.increment }), .optional("reached_at", "timestamptz", { $0.reachedAt }),
        .column("duration_ms", "bigint", { $0.durationMs }), .column("untimed_completions", "bigint", { $0.untimedCompletions }))

    /// Adds one completion's `value` (`CompletionPlan.increments`): summed on a `sum` board, where only a completion that
    /// adds to the score counts for the tie-breaks; kept on a best or latest board when it beats the batch's run so far
    /// (`beats`, the order `BoardScoreTables.beats` gives in SQL).
    mutating func add(_ value: Int64, completedAt: Date, durationMs: Int?) {
        guard aggregate != "s" else {
            increment += value
            guard value > 0 else { return }
            reachedAt = max(reachedAt ?? completedAt, completedAt)
            if let durationMs { self.durationMs += Int64(durationMs) } else { untimedCompletions += 1 }
            return
        }
        let run = (score: value, reachedAt: completedAt, durationMs: Int64(durationMs ?? 0), untimed: Int64(durationMs == nil ? 1 : 0))
        if let held = reachedAt, !beats(run, held: (increment, held, self.durationMs, untimedCompletions)) { return }
        (increment, reachedAt, self.durationMs, untimedCompletions) = run
    }

    /// Whether `run` beats `held` (score, reached at, duration, untimed) on this row's board: a better place by the
    /// board's tie-break, or for `latest` a later run (at the same instant, the better place).
    private func beats(
        _ run: (score: Int64, reachedAt: Date, durationMs: Int64, untimed: Int64),
        held: (score: Int64, reachedAt: Date, durationMs: Int64, untimed: Int64)
    ) -> Bool {
        func place(_ r: (score: Int64, reachedAt: Date, durationMs: Int64, untimed: Int64)) -> RankingPlace {
            RankingPlace(score: r.score, key: tieBreak.key(reachedAt: r.reachedAt, durationMs: r.durationMs, untimedCompletions: r.untimed))
        }
        if aggregate == "l", run.reachedAt != held.reachedAt { return run.reachedAt > held.reachedAt }
        return place(run) < place(held)
    }
}

/// The two tables of board scores: one row per (board, player) for the all-time score and the current day, week and
/// month (`board_current_scores`), and one row per (board, window, period, player) for everything else
/// (`board_period_scores`: periods a newer one rolled over, late completions, contest runs). Readers see both through
/// the `board_scores` view (migration 018); what the view cannot do fast (a batch's write, an erasure, a walk over
/// every row in key order) is here.
enum BoardScoreTables {
    /// The calendar windows a current row holds a period of.
    static let timedWindows = ["day", "week", "month"]

    /// The rows of periods not closed, as an SQL condition on the `board_scores` row aliased `s`: closed periods are
    /// read from their final snapshots, so their sorted sets are not rebuilt.
    ///
    /// `NOT IN` over the (few) closed periods is planned as one hashed subplan; the equivalent
    /// `NOT EXISTS` let the planner pick a scan of `board_periods` per score row, which made a
    /// 1,000,000-player rebuild take 67 s instead of about 15.
    static let openPeriods = openPeriods(board: "s.board", window: "s.board_window", period: "s.period")

    /// The same over the given columns (SQL expressions).
    static func openPeriods(board: String, window: String, period: String) -> String {
        "(\(board), \(window), \(period)) NOT IN (SELECT board, board_window, period FROM board_periods WHERE closed_at IS NOT NULL)"
    }

    /// The current row's timed windows as rows of (window, period), for `VALUES` over the row aliased `h`.
    static let heldPeriods = timedWindows.map { "('\($0)', h.\($0)_period)" }.joined(separator: ", ")

    /// The current row's timed windows as rows of (window, period, score, reached_at, duration_ms,
    /// untimed_completions), for `VALUES` over the row aliased `h`.
    fileprivate static let heldWindows = timedWindows.map { window in
        "('\(window)', h.\(window)_period, h.\(window)_score, h.\(window)_reached_at, h.\(window)_duration_ms, h.\(window)_untimed_completions)"
    }.joined(separator: ", ")

    /// The same over the written row aliased `k` (spelled out once, at start-up, not per batch).
    fileprivate static let keptWindows = heldWindows.replacingOccurrences(of: "h.", with: "k.")

    /// The current row's timed-window columns, in the order `currentSums` gives their values.
    fileprivate static let currentColumns = timedWindows.map { window in
        "\(window)_period, \(window)_score, \(window)_reached_at, \(window)_duration_ms, \(window)_untimed_completions"
    }.joined(separator: ", ")

    /// The score answers show for a stored `score` on a board of `metric` (both SQL expressions): the score itself, or
    /// on a `duration` board the run's milliseconds (`BoardMetric.shownValue`).
    static func shownScore(metric: String, score: String) -> String {
        "(CASE WHEN \(metric) = 'duration' THEN (\(BoardMetric.slowestRunCentiseconds) - \(score)) * 10 ELSE \(score) END)"
    }

    /// How a board keeps a player's completions, as the `aggregate` column holds it: `s` sums; `b` keeps the best run by
    /// the `run` key; `d` the best run of a duration board, by the `earliest` key (its score is the run's time); `l`
    /// the latest run.
    static func aggregateCode(of board: BoardDefinition) -> String {
        switch board.aggregate {
        case .sum: "s"
        case .best: board.metric == .duration ? "d" : "b"
        case .latest: "l"
        }
    }

    /// SQL true when the run `new` beats the run `old` on a board kept as `aggregate` (an SQL expression of
    /// `aggregateCode`): a better place by its key, or on `l` a later run (at the same instant, the better place).
    /// Each argument lists its run's score, reached_at, duration_ms and untimed_completions expressions.
    static func beats(_ new: [String], _ old: [String], aggregate: String) -> String {
        func runKey(_ run: [String]) -> String { TieBreakSQL.runKey(reachedAt: run[1], durationMs: run[2], untimed: run[3]) }
        func earliestKey(_ run: [String]) -> String { TieBreakSQL.earliestKey(reachedAt: run[1]) }
        return "(CASE \(aggregate) WHEN 'd' THEN (\(new[0]), -\(earliestKey(new))) > (\(old[0]), -\(earliestKey(old))) "
            + "WHEN 'l' THEN (\(new[1]), \(new[0]), -\(runKey(new))) > (\(old[1]), \(old[0]), -\(runKey(old))) "
            + "ELSE (\(new[0]), -\(runKey(new))) > (\(old[0]), -\(runKey(old))) END)"
    }

    /// The four columns of a run (score, reached_at, duration_ms, untimed_completions) named `prefix` plus each, for
    /// `beats`: `c.day_` gives `c.day_score`…; `s.` gives `s.score`….
    static func run(_ prefix: String) -> [String] {
        ["score", "reached_at", "duration_ms", "untimed_completions"].map { prefix + $0 }
    }

    /// An upsert's SET of one run column (`column` of `run`): `sum` on a `s` row or where either side has no run yet
    /// (`oldScore`, `newScore` NULL), else the winner's by `beats`.
    static func merged(_ column: Int, new: [String], old: [String], sum: String) -> String {
        "CASE WHEN EXCLUDED.aggregate = 's' OR \(old[0]) IS NULL OR \(new[0]) IS NULL THEN \(sum) "
            + "WHEN \(beats(new, old, aggregate: "EXCLUDED.aggregate")) THEN \(new[column]) ELSE \(old[column]) END"
    }

    /// The order that puts the best run of a group first, over rows with columns score, reached_at, duration_ms,
    /// untimed_completions and aggregate (`moved`'s choice among a held row and the batch's row of one period).
    static let runOrder = """
        CASE WHEN aggregate = 'l' THEN reached_at END DESC NULLS LAST, score DESC, \
        CASE WHEN aggregate = 'd' THEN \(TieBreakSQL.earliestKey(reachedAt: "reached_at")) \
        ELSE \(TieBreakSQL.runKey(reachedAt: "reached_at", durationMs: "duration_ms", untimed: "untimed_completions")) END
        """

    /// `moved`'s value of run column `column` for a group of rows of one (board period, player): their sum on `s`
    /// boards, the best run's (`runOrder`) on the others.
    static func grouped(_ column: String, sum: String) -> String {
        "CASE WHEN min(aggregate) = 's' THEN \(sum) ELSE (array_agg(\(column) ORDER BY \(runOrder)))[1] END"
    }

    /// Each timed window's newest period and what the batch adds to it (NULL period: the batch has none to keep).
    fileprivate static let currentSums = timedWindows.map { window in
        let only = "FILTER (WHERE board_window = '\(window)')"
        return "max(period) \(only), sum(increment) \(only), max(reached_at) \(only), COALESCE(sum(duration_ms) \(only), 0), "
            + "COALESCE(sum(untimed_completions) \(only), 0)"
    }.joined(separator: ", ")

    /// Each timed window after the batch: unchanged without a period of it, added to in the same period, replaced by a
    /// newer one (the older one has moved to the period rows).
    fileprivate static let currentMerges = timedWindows.map { window in
        let (new, old) = ("EXCLUDED.\(window)", "c.\(window)")
        let (newRun, oldRun) = (run("\(new)_"), run("\(old)_"))
        func merged(_ column: String, same: String) -> String {
            "\(window)_\(column) = CASE WHEN \(new)_period IS NULL THEN \(old)_\(column) WHEN \(new)_period = \(old)_period THEN \(same) "
                + "ELSE \(new)_\(column) END"
        }
        return [
            merged("score", same: BoardScoreTables.merged(0, new: newRun, old: oldRun, sum: "\(old)_score + \(new)_score")),
            merged("reached_at", same: BoardScoreTables.merged(
                1, new: newRun, old: oldRun, sum: "GREATEST(\(old)_reached_at, \(new)_reached_at)")),
            merged("duration_ms", same: BoardScoreTables.merged(2, new: newRun, old: oldRun, sum: "\(old)_duration_ms + \(new)_duration_ms")),
            merged("untimed_completions", same: BoardScoreTables.merged(
                3, new: newRun, old: oldRun, sum: "\(old)_untimed_completions + \(new)_untimed_completions")),
            "\(window)_period = COALESCE(\(new)_period, \(old)_period)",
        ].joined(separator: ",\n        ")
    }.joined(separator: ",\n        ")

    /// The all-time columns after the batch, as `kept`'s SET: summed, or the better run.
    fileprivate static let allTimeMerges: String = {
        let (new, old) = (run("EXCLUDED.all_"), run("c.all_"))
        return [
            "all_score = \(merged(0, new: new, old: old, sum: "COALESCE(c.all_score + EXCLUDED.all_score, c.all_score, EXCLUDED.all_score)"))",
            "all_reached_at = \(merged(1, new: new, old: old, sum: "GREATEST(c.all_reached_at, EXCLUDED.all_reached_at)"))",
            "all_duration_ms = \(merged(2, new: new, old: old, sum: "c.all_duration_ms + EXCLUDED.all_duration_ms"))",
            "all_untimed_completions = \(merged(3, new: new, old: old, sum: "c.all_untimed_completions + EXCLUDED.all_untimed_completions"))",
        ].joined(separator: ",\n        ")
    }()

    /// A period row's columns after the batch, as `moved`'s SET: summed, or the better run.
    fileprivate static let periodMerges: String = {
        let (new, old) = (run("EXCLUDED."), run("s."))
        return [
            "score = \(merged(0, new: new, old: old, sum: "s.score + EXCLUDED.score"))",
            "reached_at = \(merged(1, new: new, old: old, sum: "GREATEST(s.reached_at, EXCLUDED.reached_at)"))",
            "duration_ms = \(merged(2, new: new, old: old, sum: "s.duration_ms + EXCLUDED.duration_ms"))",
            "untimed_completions = \(merged(3, new: new, old: old, sum: "s.untimed_completions + EXCLUDED.untimed_completions"))",
        ].joined(separator: ",\n                ")
    }()
}

/// Deletes every board score of one player and returns the board period of each, for the erasure's Redis part.
struct ErasedBoardScores: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        WITH current AS (DELETE FROM board_current_scores WHERE user_id = \(\.userID) RETURNING *),
        past AS (DELETE FROM board_period_scores WHERE user_id = \(\.userID) RETURNING board, board_window, period)
        SELECT h.board, w.board_window, w.period
        FROM current h
        CROSS JOIN LATERAL (VALUES ('all', CASE WHEN h.all_score IS NOT NULL THEN 'all' END), \(unescaped: BoardScoreTables.heldPeriods))
            AS w(board_window, period)
        WHERE w.period IS NOT NULL
        UNION ALL
        SELECT * FROM past
        """

    /// A board period the player had a score on.
    struct Row: Decodable, Sendable {
        let board: String
        let boardWindow: String
        let period: String

        /// The Redis key of its ranking.
        var rankingKey: String {
            RankingKeys.board(board, LeaderboardWindow(rawValue: boardWindow) ?? .all, period)
        }
    }

    /// The player.
    let userID: String
}

/// Adds a completion batch's `scores` (at most one per board period and player) as recorded at `recordedAt`, and returns
/// the row of each (board period, player) the batch scored, after the batch, as `board_scores` shows it.
///
/// A timed period already closed takes no more scores (its rows are left out, and so missing from the result). Of
/// the rest, the all-time score and each window's newest period go to the current row, unless that row already
/// holds a newer period of the window; the period a newer one replaces moves to the period rows, and so do the
/// batch's older periods and contest runs. The players' users rows are locked by then (`UpsertPlayers`):
/// no other batch changes their rows between this statement's read of them and its writes.
struct RecordBoardScores: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        WITH x AS (
            SELECT x.* FROM \(unnest: \.scores, ScoreRow.columns, as: "x")
            WHERE x.board_window = 'all' OR NOT EXISTS (SELECT 1 FROM board_periods c WHERE c.board = x.board AND c.board_window = x.board_window
                                                                                 AND c.period = x.period AND c.closed_at IS NOT NULL)
        ),
        held AS (
            SELECT h.board, h.user_id, h.aggregate, w.*
            FROM board_current_scores h
            CROSS JOIN LATERAL (VALUES \(unescaped: BoardScoreTables.heldWindows)) AS w(board_window, period, score, reached_at, duration_ms, untimed_completions)
            WHERE (h.board, h.user_id) IN (SELECT board, user_id FROM x) AND w.period IS NOT NULL
        ),
        newest AS (
            SELECT board, user_id, board_window, max(period) AS period FROM x WHERE board_window <> 'all' AND board_window <> 'contest'
            GROUP BY board, user_id, board_window
        ),
        placed AS (
            SELECT x.*, (x.board_window = 'all'
                         OR (n.period IS NOT NULL AND x.period = n.period AND (h.period IS NULL OR x.period >= h.period))) AS current
            FROM x LEFT JOIN newest n USING (board, user_id, board_window) LEFT JOIN held h USING (board, user_id, board_window)
        ),
        moved AS (
            INSERT INTO board_period_scores AS s (board, board_window, period, user_id, score, updated_at, reached_at, duration_ms,
                                                  untimed_completions, aggregate)
            SELECT board, board_window, period, user_id, \(unescaped: BoardScoreTables.grouped("score", sum: "sum(score)")), \(\.recordedAt),
                   \(unescaped: BoardScoreTables.grouped("reached_at", sum: "max(reached_at)")),
                   \(unescaped: BoardScoreTables.grouped("duration_ms", sum: "sum(duration_ms)")),
                   \(unescaped: BoardScoreTables.grouped("untimed_completions", sum: "sum(untimed_completions)")), min(aggregate)
            FROM (SELECT board, board_window, period, user_id, increment AS score, reached_at, duration_ms, untimed_completions, aggregate
                  FROM placed WHERE NOT current
                  UNION ALL
                  SELECT h.board, h.board_window, h.period, h.user_id, h.score, h.reached_at, h.duration_ms, h.untimed_completions, h.aggregate
                  FROM held h JOIN newest n USING (board, user_id, board_window) WHERE n.period > h.period) m
            GROUP BY board, board_window, period, user_id ORDER BY board, board_window, period, user_id
            ON CONFLICT (board, board_window, period, user_id) DO UPDATE SET
                \(unescaped: BoardScoreTables.periodMerges), updated_at = EXCLUDED.updated_at, aggregate = EXCLUDED.aggregate
            RETURNING board, board_window, period, user_id, score, reached_at, updated_at, duration_ms, untimed_completions
        ),
        kept AS (
            INSERT INTO board_current_scores AS c (board, user_id, aggregate, updated_at, all_score, all_reached_at, all_duration_ms,
                                                   all_untimed_completions, \(unescaped: BoardScoreTables.currentColumns))
            SELECT board, user_id, min(aggregate), \(\.recordedAt), sum(increment) FILTER (WHERE board_window = 'all'),
                   max(reached_at) FILTER (WHERE board_window = 'all'),
                   COALESCE(sum(duration_ms) FILTER (WHERE board_window = 'all'), 0),
                   COALESCE(sum(untimed_completions) FILTER (WHERE board_window = 'all'), 0), \(unescaped: BoardScoreTables.currentSums)
            FROM placed WHERE current GROUP BY board, user_id ORDER BY board, user_id
            ON CONFLICT (board, user_id) DO UPDATE SET
                updated_at = EXCLUDED.updated_at, aggregate = EXCLUDED.aggregate,
                \(unescaped: BoardScoreTables.allTimeMerges),
                \(unescaped: BoardScoreTables.currentMerges)
            RETURNING *
        )
        SELECT r.* FROM (
            SELECT k.board, w.board_window, w.period, k.user_id, w.score, w.reached_at, k.updated_at, w.duration_ms, w.untimed_completions
            FROM kept k
            CROSS JOIN LATERAL (VALUES ('all', 'all', k.all_score, k.all_reached_at, k.all_duration_ms, k.all_untimed_completions),
                                       \(unescaped: BoardScoreTables.keptWindows))
                               AS w(board_window, period, score, reached_at, duration_ms, untimed_completions)
            UNION ALL
            SELECT * FROM moved
        ) r
        WHERE (r.board, r.board_window, r.period, r.user_id) IN (SELECT board, board_window, period, user_id FROM x)
        """

    /// One (board period, player)'s row after the batch.
    typealias Row = PlacedRow<BoardScoreKey>

    /// The batch's share of each (board period, player).
    let scores: [ScoreRow]
    /// When the batch was recorded.
    let recordedAt: Date
}

/// Up to `limit` rows of one window in periods not closed (`BoardScoreTables.openPeriods`) after the position
/// (`board`, `period`, `userID`), in that order, with the player's handle, as `board_scores` shows them; with
/// `updatedSince`, only rows updated since then.
///
/// The view's rows come from two tables, so the view cannot be walked in key order by an index; this merges the
/// window's rows of both, each table's first `limit` read in order through an index (`board_current_scores_<window>`,
/// the primary keys), closed periods left out before the `LIMIT`: a page costs what it reads, where one sort of every
/// row after the position made a rebuild quadratic (the 1,000,000 players' quiz boards took 47 s, 59 s of PostgreSQL's
/// CPU; a rebuild's second pass over the rows of its last minutes, all of them when they were just written, did the same).
/// Which rows of which table a window has decides the text, one of a few fixed ones: all time reads the current rows,
/// a day, week or month the current and the period rows, a contest the period rows.
struct OpenBoardScorePage: PostgresStatement {
    /// How many rows a page holds at most.
    static let limit = 20_000

    /// The handle of the row aliased `alias`'s player, read by key for each row: a join would let the planner scan every
    /// player for one page.
    private static func handle(_ alias: String) -> String {
        "(SELECT u.handle FROM users u WHERE u.user_id = \(alias).user_id) AS handle"
    }

    /// All time: the current rows (its one period, `all`, is never a period row).
    static let sql: PostgresSQL<Self> = """
        SELECT c.board, 'all'::text AS board_window, 'all'::text AS period, c.user_id, c.all_score AS score,
               c.all_reached_at AS reached_at, c.updated_at, c.all_duration_ms AS duration_ms,
               c.all_untimed_completions AS untimed_completions, \(unescaped: handle("c"))
        FROM board_current_scores c WHERE c.all_score IS NOT NULL AND (c.board, c.user_id) > (\(\.board), \(\.userID)) AND \(\.afterPeriod) = 'all'
            AND c.updated_at >= \(\.since) AND \(unescaped: BoardScoreTables.openPeriods(board: "c.board", window: "'all'", period: "'all'"))
        ORDER BY c.board, c.user_id LIMIT \(unescaped: String(limit))
        """

    /// A calendar window (`day`, `week`, `month`): its current rows, whose columns the window names, and its period rows,
    /// each table's first `limit` in key order, merged.
    private static func calendar(_ window: String) -> PostgresSQL<Self> {
        """
        SELECT s.* FROM (
            (SELECT c.board, '\(unescaped: window)'::text AS board_window, c.\(unescaped: window)_period AS period, c.user_id, c.\(unescaped: window)_score AS score,
                    c.\(unescaped: window)_reached_at AS reached_at, c.updated_at, c.\(unescaped: window)_duration_ms AS duration_ms,
                    c.\(unescaped: window)_untimed_completions AS untimed_completions, \(unescaped: handle("c"))
             FROM board_current_scores c WHERE c.\(unescaped: window)_period IS NOT NULL AND (c.board, c.\(unescaped: window)_period, c.user_id) > (\(\.board), \(\.afterPeriod), \(\.userID))
                 AND c.updated_at >= \(\.since) AND \(unescaped: BoardScoreTables.openPeriods(board: "c.board", window: "'\(window)'", period: "c.\(window)_period"))
             ORDER BY c.board, c.\(unescaped: window)_period, c.user_id LIMIT \(unescaped: String(limit)))
            UNION ALL
            (SELECT p.board, p.board_window, p.period, p.user_id, p.score, p.reached_at, p.updated_at, p.duration_ms, p.untimed_completions,
                    \(unescaped: handle("p"))
             FROM board_period_scores p WHERE p.board_window = '\(unescaped: window)' AND (p.board, p.board_window, p.period, p.user_id) > (\(\.board), '\(unescaped: window)', \(\.afterPeriod), \(\.userID))
                 AND p.updated_at >= \(\.since) AND \(unescaped: BoardScoreTables.openPeriods(board: "p.board", window: "p.board_window", period: "p.period"))
             ORDER BY p.board, p.board_window, p.period, p.user_id LIMIT \(unescaped: String(limit)))
        ) s
        ORDER BY s.board, s.period, s.user_id LIMIT \(unescaped: String(limit))
        """
    }

    /// Contest runs: the period rows only.
    static let contest: PostgresSQL<Self> = """
        SELECT p.board, p.board_window, p.period, p.user_id, p.score, p.reached_at, p.updated_at, p.duration_ms, p.untimed_completions,
               \(unescaped: handle("p"))
        FROM board_period_scores p WHERE p.board_window = 'contest' AND (p.board, p.board_window, p.period, p.user_id) > (\(\.board), 'contest', \(\.afterPeriod), \(\.userID))
            AND p.updated_at >= \(\.since) AND \(unescaped: BoardScoreTables.openPeriods(board: "p.board", window: "p.board_window", period: "p.period"))
        ORDER BY p.board, p.board_window, p.period, p.user_id LIMIT \(unescaped: String(limit))
        """

    /// The calendar windows' texts, each spelled out once, at start-up.
    static let day = calendar("day"), week = calendar("week"), month = calendar("month")

    /// The text of the window's shape.
    var text: PostgresSQL<Self> {
        switch window {
        case .all: Self.sql
        case .day: Self.day
        case .week: Self.week
        case .month: Self.month
        case .contest: Self.contest
        }
    }

    /// One (board period, player)'s row with the player's handle.
    typealias Row = PlacedRow<Columns>

    /// The row's columns besides the place.
    struct Columns: Decodable, Sendable {
        let board: String
        let boardWindow: String
        let period: String
        let userID: String
        /// The player's handle, whose member the boards hold.
        let handle: Int64
    }

    /// The window read.
    let window: LeaderboardWindow
    /// The position's board ("" before the first).
    let board: String
    /// The position's period.
    let period: String
    /// The position's player.
    let userID: String
    /// When given, only rows updated since then.
    let updatedSince: Date?

    /// The page after `after` (all empty: from the start).
    init(_ window: LeaderboardWindow, after: (board: String, period: String, userID: String), updatedSince: Date? = nil) {
        self.window = window
        (board, period, userID) = after
        self.updatedSince = updatedSince
    }

    /// The position's period as bound: all time's one period is `all` whatever the position says.
    var afterPeriod: String { window == .all ? "all" : period }

    /// The earliest update a row may have: `updatedSince`, or any (every row was written after 1970).
    var since: Date { updatedSince ?? Date(timeIntervalSince1970: 0) }
}
