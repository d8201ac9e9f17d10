import Foundation
import PodiumCore
import Postgres

/// The league cohorts a completion batch's new completions score in: each player's cohort of the week, placing a
/// player new to the week in a cohort of their tier with room (`league_place` in migration 025).
///
/// A completion counts in a league when the league counts it (`League.counts`), its scope does, and it adds to the
/// league's metric. Played in a week still open, it places its player (if not placed yet) and scores on the cohort's
/// board; played in a week already closed, it places no one and is reported as having missed the player's cohort there.
enum LeaguePlacing {
    /// `fresh` with each completion's cohort week added to its periods, in one round trip on `connection` (none when no
    /// completion counts in a league); new placements are stamped `placedAt`.
    static func place(
        _ fresh: [CompletionPlan], rules: GameRules, now: Date, placedAt: Date, on connection: PostgresConnection
    ) throws -> [CompletionPlan] {
        var wanted: [Candidate] = []
        var indexOf: [Candidate.Key: Int] = [:]
        // Each completion's league weeks, in league order.
        let counted = fresh.map { plan in
            rules.boards.contests.leaguesCounting(topic: plan.item.topic, groups: plan.item.groups, completedAt: plan.item.completedAt)
                .filter { $0.metric.increment(points: plan.points) > 0 }
                .map { league in (league: league, week: league.week(containing: plan.item.completedAt)) }
        }
        for (plan, weeks) in zip(fresh, counted) {
            for (league, week) in weeks {
                let key = Candidate.Key(league: league.id, period: week.key, userID: plan.item.userID)
                let placing = !week.isClosed(at: now, grace: rules.closeGrace)
                if let index = indexOf[key] {
                    wanted[index].placing = wanted[index].placing || placing
                } else {
                    indexOf[key] = wanted.count
                    wanted.append(Candidate(key: key, size: league.cohortSize, placing: placing))
                }
            }
        }
        guard !wanted.isEmpty else { return fresh }
        var placements: [Candidate.Key: LeaguePlacement] = [:]
        for row in try connection.query("""
            SELECT league_id, period, user_id, tier, cohort FROM league_place(
                \(bind: wanted.map(\.key.league))::text[], \(bind: wanted.map(\.key.period))::text[], \(bind: wanted.map(\.key.userID))::text[],
                \(bind: wanted.map(\.size))::int[], \(bind: wanted.map(\.placing))::bool[], \(bind: placedAt))
            """).rows {
            let key = Candidate.Key(league: try row.string("league_id"), period: try row.string("period"), userID: try row.string("user_id"))
            placements[key] = LeaguePlacement(tier: try row.int("tier"), cohort: try row.int("cohort"))
        }
        return zip(fresh, counted).map { plan, weeks in
            var plan = plan
            for (league, week) in weeks {
                guard let placement = placements[Candidate.Key(league: league.id, period: week.key, userID: plan.item.userID)],
                      league.tiers.indices.contains(placement.tier) else { continue }
                let board = league.cohortBoard(tier: placement.tier, cohort: placement.cohort)
                plan = plan.adding(BoardPeriod(board: board, period: week), open: !week.isClosed(at: now, grace: rules.closeGrace))
            }
            return plan
        }
    }

    /// A player's entry in a league's week that a batch asks about.
    struct Candidate {
        /// The league, week and player.
        struct Key: Hashable {
            let league: String
            let period: String
            let userID: String
        }

        let key: Key
        /// The league's cohort size.
        let size: Int
        /// Whether the entry may be made (a completion of the batch played in the week while it is open).
        var placing: Bool
    }
}
