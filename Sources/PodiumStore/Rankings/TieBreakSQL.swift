import PodiumCore
import PodiumWire

/// The tie-break key (`TieBreak.key`) in SQL, for the ranking statements that order `board_scores` rows as Redis does:
/// pages read from PostgreSQL, final snapshots, medals, league standings. One text, so PostgreSQL and Redis agree.
///
/// Each function returns trusted SQL built from constants and the aliases and expressions it is given; a statement
/// splices it with `\(unescaped:)`, or around a bound policy field with `\(\.policy, in: { TieBreakSQL.key(policy: $0, row: "s") })`.
enum TieBreakSQL {
    /// The same key in SQL for the `board_scores` row aliased `row`, with `policy` an SQL text expression naming the
    /// policy: what PostgreSQL reads rank by (before any completion, `reached_at` is null; `updated_at` stands in).
    static func key(policy: String, row: String) -> String {
        let timed = "GREATEST(0, \(row).duration_ms)"
        return """
        (CASE \(policy) WHEN 'earliest' THEN \(earliestKey(reachedAt: "COALESCE(\(row).reached_at, \(row).updated_at)")) \
        WHEN 'fastest' THEN CASE WHEN \(row).untimed_completions > 0 \
        THEN LEAST(\(TieBreak.largestKey), \(TieBreak.firstUntimedKey) + (LEAST(\(row).untimed_completions, \(TieBreak.largestUntimedCount)) - 1) * \(1 << TieBreak.timedSecondsBits) \
        + LEAST(\((1 << TieBreak.timedSecondsBits) - 1), \(timed) / 1000)) \
        ELSE LEAST(\(TieBreak.firstUntimedKey - 1), \(timed)) END \
        WHEN 'run' THEN \(runKey(reachedAt: "COALESCE(\(row).reached_at, \(row).updated_at)", durationMs: "\(row).duration_ms", untimed: "\(row).untimed_completions")) \
        ELSE 0 END)
        """
    }

    /// The `earliest` key of a score reached at the SQL expression `reachedAt`: whole seconds since `TieBreak.epoch`.
    static func earliestKey(reachedAt: String) -> String {
        "LEAST(\(TieBreak.largestKey), GREATEST(0, floor(extract(epoch FROM \(reachedAt)) - \(Int64(TieBreak.epoch.timeIntervalSince1970)))))::bigint"
    }

    /// The `run` key of one run, from SQL expressions for its `completed_at`, `duration_ms` and whether it came untimed
    /// (`untimed` > 0): its deciseconds (the slowest for an untimed run), then the minutes since `TieBreak.epoch`.
    static func runKey(reachedAt: String, durationMs: String, untimed: String) -> String {
        let slowest = TieBreak.slowestRunDeciseconds
        let minutes = "LEAST(\((1 << TieBreak.runReachBits) - 1), GREATEST(0, floor((extract(epoch FROM \(reachedAt)) - \(Int64(TieBreak.epoch.timeIntervalSince1970))) / 60)))::bigint"
        return "((CASE WHEN \(untimed) > 0 THEN \(slowest) ELSE LEAST(\(slowest), GREATEST(0, \(durationMs)) / 100) END) * \(Int64(1) << TieBreak.runReachBits) + \(minutes))"
    }

    /// SQL true when the `board_scores` row aliased `row` ranks above the one aliased `other` under `policy`: a higher
    /// score, or the same score and a lower key.
    static func ranksAbove(policy: String, row: String, other: String) -> String {
        "(\(row).score > \(other).score OR (\(row).score = \(other).score AND \(key(policy: policy, row: row)) < \(key(policy: policy, row: other))))"
    }
}
