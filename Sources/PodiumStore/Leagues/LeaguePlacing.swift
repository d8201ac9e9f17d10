import Foundation
import PodiumCore
import Postgres

/// The league cohorts a completion batch's new completions score in: each player's cohort of the week, placing a
/// player new to the week in a cohort of their tier with room (`league_place` in migration 025).
///
/// A completion counts in a league when the league counts it (`League.counts`), its scope does, and it adds to the
/// league's metric. Played in a week still open, it places its player (if not placed yet) and scores on the cohort's
/// board; played in a week already closed, it places no one and is reported as having missed the player's cohort there.
///
/// Placing is one statement of its own, before the batch's transaction (`place`): the placement locks are held for that
/// statement only, never through the batch's Redis round trip. A completion already recorded (a replay) places no one;
/// a batch that fails after placing leaves the place taken, as an erased player's is.
enum LeaguePlacing {
    /// The placements of `items`' players in the league weeks their completions count in, placing those new to a week
    /// still open, in one statement on `connection` (none when no completion counts in a league); new places are stamped
    /// `now`, to the millisecond.
    static func place(
        _ items: [ValidCompletion], rules: GameRules, now: Date, on connection: PostgresConnection
    ) throws -> LeaguePlacements {
        let wanted = items.flatMap { item in
            weeks(of: item, points: rules.points.points(difficulty: item.difficulty, correct: item.correct, total: item.total), rules: rules)
                .map { league, week in
                    Candidate(
                        league: league.id, period: week.key, userID: item.userID, size: league.cohortSize,
                        placing: !week.isClosed(at: now, grace: rules.closeGrace), completionID: item.id, completedAt: item.completedAt)
                }
        }
        guard !wanted.isEmpty else { return LeaguePlacements(cohorts: [:]) }
        var cohorts: [LeaguePlacements.Key: LeaguePlacement] = [:]
        for row in try connection.run(PlaceInCohorts(candidates: wanted, placedAt: RFC3339.wholeMilliseconds(now))) {
            cohorts[LeaguePlacements.Key(league: row.leagueID, period: row.period, userID: row.userID)] =
                LeaguePlacement(tier: row.tier, cohort: row.cohort)
        }
        return LeaguePlacements(cohorts: cohorts)
    }

    /// `fresh` with each completion's cohort week of `placements` added to its periods: open while the week takes
    /// scores at `now`, else missed.
    static func apply(_ placements: LeaguePlacements, to fresh: [CompletionPlan], rules: GameRules, now: Date) -> [CompletionPlan] {
        guard !placements.cohorts.isEmpty else { return fresh }
        return fresh.map { plan in
            var plan = plan
            for (league, week) in weeks(of: plan.item, points: plan.points, rules: rules) {
                guard let placement = placements.cohorts[.init(league: league.id, period: week.key, userID: plan.item.userID)],
                      league.tiers.indices.contains(placement.tier) else { continue }
                let board = league.cohortBoard(tier: placement.tier, cohort: placement.cohort)
                plan = plan.adding(BoardPeriod(board: board, period: week), open: !week.isClosed(at: now, grace: rules.closeGrace))
            }
            return plan
        }
    }

    /// The leagues `item`, worth `points`, counts in (by id), each with the week it was played in.
    private static func weeks(of item: ValidCompletion, points: Int, rules: GameRules) -> [(League, Period)] {
        rules.boards.contests.leaguesCounting(topic: item.topic, groups: item.groups, completedAt: item.completedAt)
            .filter { ($0.metric.value(points: points, correct: item.correct, total: item.total, durationMs: item.durationMS) ?? 0) > 0 }
            .map { ($0, $0.week(containing: item.completedAt)) }
    }

    /// A completion's player in a league's week, as `place` sends it.
    fileprivate struct Candidate: Sendable {
        let league: String
        let period: String
        let userID: String
        /// The league's cohort size.
        let size: Int
        /// Whether the completion may place its player (played in the week while it is open).
        let placing: Bool
        /// The completion, so one already recorded places no one.
        let completionID: String
        let completedAt: Date

        static let columns = PostgresColumns<Candidate>(
            .column("league_id", "text", { $0.league }), .column("period", "text", { $0.period }), .column("user_id", "text", { $0.userID }),
            .column("size", "int", { $0.size }), .column("may_place", "bool", { $0.placing }),
            .column("completion_id", "text", { $0.completionID }), .column("completed_at", "timestamptz", { $0.completedAt }))
    }
}

/// Where a batch's players play in the league weeks its completions count in.
struct LeaguePlacements: Sendable {
    /// A player in a league's week.
    struct Key: Hashable, Sendable {
        /// The league.
        let league: String
        /// The week.
        let period: String
        /// The player.
        let userID: String
    }

    /// Each placed player's cohort.
    let cohorts: [Key: LeaguePlacement]
}

/// Each candidate's cohort of the league week, placing a player new to a week still open (`league_place`, which takes
/// the placement locks for this statement only) unless the completion is recorded already.
private struct PlaceInCohorts: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        WITH x AS (SELECT * FROM \(unnest: \.candidates, LeaguePlacing.Candidate.columns, as: "x")),
        w AS (SELECT x.league_id, x.period, x.user_id, max(x.size) AS size,
                     bool_or(x.may_place AND NOT EXISTS (SELECT 1 FROM completions c WHERE c.id = x.completion_id
                                                                                    AND c.completed_at = x.completed_at)) AS may_place
              FROM x GROUP BY x.league_id, x.period, x.user_id),
        a AS (SELECT array_agg(league_id ORDER BY league_id, period, user_id) AS leagues,
                     array_agg(period ORDER BY league_id, period, user_id) AS periods,
                     array_agg(user_id ORDER BY league_id, period, user_id) AS users,
                     array_agg(size ORDER BY league_id, period, user_id) AS sizes,
                     array_agg(may_place ORDER BY league_id, period, user_id) AS may_place FROM w)
        SELECT r.league_id, r.period, r.user_id, r.tier, r.cohort
        FROM a, league_place(a.leagues, a.periods, a.users, a.sizes, a.may_place, \(\.placedAt)) AS r
        """
    struct Row: Decodable, Sendable {
        let leagueID: String
        let period: String
        let userID: String
        let tier: Int
        let cohort: Int
    }
    let candidates: [LeaguePlacing.Candidate]
    /// When new places are taken, to the millisecond.
    let placedAt: Date
}
