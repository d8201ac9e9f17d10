import Foundation
import PodiumCore
import Postgres

/// What asking to pause, resume or end a league did.
public enum LeagueChange: Sendable, Equatable {
    /// Changed now.
    case changed
    /// It was so already (or, for pause and resume, it has ended): nothing changed.
    case unchanged
    /// PostgreSQL holds no such league.
    case missing
}

/// The leagues in PostgreSQL: their definitions (read into the contest registry every replica's game rules hold),
/// the placement of players in cohorts, and what each week's close did.
public struct LeagueStore: Sendable {
    let postgres: PostgresPool
    let contests: ContestStore

    /// Creates the store; `contests` refreshes the registry the game rules hold, which carries the leagues too.
    public init(postgres: PostgresPool, contests: ContestStore) {
        self.postgres = postgres
        self.contests = contests
    }

    /// Stores a new league; false when the id is taken (nothing changed). The registry is refreshed once it committed,
    /// and every other replica's is told to (`ChangeTopic.contests`).
    public func create(_ league: League) async throws -> Bool {
        let tiers = try PodiumJSON.string(league.tiers)
        let parameters: [(any PostgresBindable)?] = [
            league.id, league.name, league.scope.boards.map(\.id), league.timeZone.configuredName, tiers, league.cohortSize,
            league.metric.rawValue, league.tieBreak.rawValue, league.medals, league.createdAt,
        ]
        return try await contests.change { connection in
            let inserted = try connection.query("""
                INSERT INTO leagues (id, name, scope, time_zone, tiers, cohort_size, metric, tie_break, medals, created_at)
                VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING
                """, parameters).affectedRows == 1
            return (inserted, inserted)
        }
    }

    /// Pauses league `id` at `now` (no completion counts until it is resumed; its weeks still close).
    public func pause(id: String, now: Date) async throws -> LeagueChange {
        try await change(id: id, set: "paused_at = $2", where: "paused_at IS NULL AND ended_at IS NULL", now: now)
    }

    /// Resumes paused league `id`: completions count again from now on.
    public func resume(id: String) async throws -> LeagueChange {
        try await change(id: id, set: "paused_at = NULL", where: "paused_at IS NOT NULL AND ended_at IS NULL", now: nil)
    }

    /// Ends league `id` at `now`: completions played from then on count nowhere; the week under way still closes at its end.
    public func end(id: String, now: Date) async throws -> LeagueChange {
        try await change(id: id, set: "ended_at = $2, paused_at = NULL", where: "ended_at IS NULL", now: now)
    }

    /// One change to a league's row (`assignment` where `condition`, both SQL in which `$2` is `now` when given), with a
    /// new revision (`ContestStore.change`).
    private func change(id: String, set assignment: String, where condition: String, now: Date?) async throws -> LeagueChange {
        let update = """
            UPDATE leagues SET \(assignment), revision = nextval('contests_revision_seq') WHERE id = $1 AND \(condition)
            """
        return try await contests.change { connection -> (LeagueChange, changed: Bool) in
            guard try connection.query(update, now.map { [id, $0] } ?? [id]).affectedRows == 1 else {
                let exists = try !connection.query("SELECT 1 FROM leagues WHERE id = \(bind: id)").rows.isEmpty
                return (exists ? .unchanged : .missing, false)
            }
            return (.changed, true)
        }
    }

    /// The cohorts of `league`'s week `period`, by tier then number, with their players and whether each is closed.
    public func cohorts(of league: League, period: String) async throws -> [LeagueCohort] {
        try await postgres.query("""
            SELECT k.tier, k.cohort, k.members, p.closed_at IS NOT NULL AS closed
            FROM league_cohorts k
            LEFT JOIN board_periods p ON p.board = \(unescaped: Self.cohortBoard(of: league, tier: "k.tier", cohort: "k.cohort"))
                                     AND p.board_window = 'week' AND p.period = k.period
            WHERE k.league_id = \(bind: league.id) AND k.period = \(bind: period) ORDER BY k.tier, k.cohort
            """).rows.compactMap { row in
            let tier = try row.int("tier")
            guard league.tiers.indices.contains(tier) else { return nil }
            return LeagueCohort(
                board: BoardScope.league(league.id, tier: league.tiers[tier].name, cohort: try row.int("cohort")).id,
                tier: league.tiers[tier].name, cohort: try row.int("cohort"), players: try row.int("members"), closed: try row.bool("closed"))
        }
    }

    /// The oldest week of `league` before `period` with a cohort still open; nil when every earlier week is closed.
    public func oldestOpenWeek(of league: League, before period: String) async throws -> String? {
        try await postgres.query("""
            SELECT min(k.period) AS period FROM league_cohorts k
            LEFT JOIN board_periods p ON p.board = \(unescaped: Self.cohortBoard(of: league, tier: "k.tier", cohort: "k.cohort"))
                                     AND p.board_window = 'week' AND p.period = k.period
            WHERE k.league_id = \(bind: league.id) AND k.period < \(bind: period) AND p.closed_at IS NULL
            """).rows.first?["period"]
    }

    /// The tiers `userID` holds in each league they played (their tier for the next week they play), by league id.
    public func tiers(of userID: String) async throws -> [String: Int] {
        var tiers: [String: Int] = [:]
        for row in try await postgres.query("SELECT league_id, tier FROM league_players WHERE user_id = \(bind: userID)").rows {
            tiers[try row.string("league_id")] = try row.int("tier")
        }
        return tiers
    }

    /// Where `userID` plays in each league's week: the placements in `weeks` (league id to week), by league id.
    public func placements(of userID: String, weeks: [String: String]) async throws -> [String: LeaguePlacement] {
        guard !weeks.isEmpty else { return [:] }
        let ids = weeks.keys.sorted()
        var placements: [String: LeaguePlacement] = [:]
        for row in try await postgres.query("""
            SELECT e.league_id, e.tier, e.cohort FROM league_entries e
            JOIN unnest(\(bind: ids)::text[], \(bind: ids.map { weeks[$0] ?? "" })::text[]) AS x(league_id, period) USING (league_id, period)
            WHERE e.user_id = \(bind: userID)
            """).rows {
            placements[try row.string("league_id")] = LeaguePlacement(tier: try row.int("tier"), cohort: try row.int("cohort"))
        }
        return placements
    }

    /// What each close of `league` did to `userID`, newest week first (at most `limit`).
    public func results(of userID: String, league: League, limit: Int) async throws -> [LeagueResult] {
        try await postgres.query("""
            SELECT league_id, period, user_id, tier, cohort, rank, score, outcome, next_tier FROM league_results
            WHERE user_id = \(bind: userID) AND league_id = \(bind: league.id) ORDER BY period DESC LIMIT \(bind: limit)
            """).rows.compactMap { try LeagueResult(row: $0, league: league) }
    }

    /// What the close of `league`'s week `week` did to its closed cohorts and would do to its open ones (from their
    /// live standings), summed by tier, with the players of the first `limit` cohorts (of tier `tier` only, when given);
    /// `closesAt` is the week's end plus the close grace.
    public func weekReport(
        _ league: League, week: Period, closesAt: Date, tier: Int?, limit: Int, outcome: PeriodCloseOutcome
    ) async throws -> LeagueWeekReport {
        let period = week.key
        let cohorts = try await cohorts(of: league, period: period)
        var results: [String: [LeagueResult]] = [:]
        for row in try await postgres.query("""
            SELECT league_id, period, user_id, tier, cohort, rank, score, outcome, next_tier FROM league_results
            WHERE league_id = \(bind: league.id) AND period = \(bind: period) ORDER BY tier, cohort, rank, user_id
            """).rows {
            if let result = try LeagueResult(row: row, league: league) { results[result.board, default: []].append(result) }
        }
        // Open cohorts: each player's place on the live standings, as the close would rank them.
        var standings: [String: [LeagueStanding]] = [:]
        if cohorts.contains(where: { !$0.closed }) {
            for row in try await postgres.query("""
                SELECT s.board, s.user_id, s.score, p.tier AS earned, p.period AS earned_in,
                       rank() OVER (PARTITION BY s.board ORDER BY s.score DESC, \(unescaped: TieBreakSQL.key(policy: "'\(league.tieBreak.rawValue)'", row: "s"))) AS rank
                FROM league_entries e
                JOIN board_scores s ON s.user_id = e.user_id AND s.board_window = 'week' AND s.period = e.period
                     AND s.board = \(unescaped: Self.cohortBoard(of: league, tier: "e.tier", cohort: "e.cohort"))
                JOIN users u ON u.user_id = e.user_id
                LEFT JOIN league_players p ON p.league_id = e.league_id AND p.user_id = e.user_id
                WHERE e.league_id = \(bind: league.id) AND e.period = \(bind: period)
                ORDER BY s.board, rank, u.handle
                """).rows {
                standings[try row.string("board"), default: []].append(try LeagueStanding(row: row))
            }
        }
        var summaries = league.tiers.map { LeagueTierSummary(tier: $0.name, title: $0.title) }
        var detailed: [LeagueCohortResults] = []
        for cohort in cohorts {
            guard let index = league.tierIndex(named: cohort.tier) else { continue }
            let moves = cohort.closed ? results[cohort.board] ?? [] : standings[cohort.board].map {
                LeagueSettling.results(of: $0, league: league, tier: index, board: cohort.board, period: period)
            } ?? []
            summaries[index].add(cohort, moves: moves)
            if (tier.map { $0 == index } ?? true) && detailed.count < limit {
                detailed.append(LeagueCohortResults(cohort: cohort, results: moves))
            }
        }
        return LeagueWeekReport(
            league: league.id, period: period, startsAt: week.start.map(RFC3339.format) ?? "", endsAt: week.end.map(RFC3339.format) ?? "",
            closesAt: RFC3339.format(closesAt), outcome: outcome, cohorts: cohorts.count, closedCohorts: cohorts.filter(\.closed).count,
            players: cohorts.reduce(0) { $0 + $1.players }, tiers: summaries, cohortResults: detailed)
    }

    /// SQL of the board id of `league`'s cohort whose tier index and number the SQL expressions `tier` and `cohort` hold:
    /// `BoardScope.league`'s id, `league:<id>:<tier>:<n>` (league ids and tier names are scope names: nothing to quote).
    static func cohortBoard(of league: League, tier: String, cohort: String) -> String {
        let names = league.tiers.map { "'\($0.name)'" }.joined(separator: ", ")
        return "('league:\(league.id):' || (ARRAY[\(names)]::text[])[\(tier) + 1] || ':' || \(cohort))"
    }
}

/// A player's cohort in one league's week: its tier (an index of the league's tiers) and number.
public struct LeaguePlacement: Sendable, Hashable {
    /// The tier, 0 the lowest.
    public var tier: Int
    /// The cohort's number in its tier's week, from 1.
    public var cohort: Int

    /// Creates a placement.
    public init(tier: Int, cohort: Int) {
        self.tier = tier
        self.cohort = cohort
    }
}

/// One cohort of a league's week as the console lists it.
public struct LeagueCohort: Sendable, Codable, Equatable {
    /// Its board id (`league:weekly:gold:3`).
    public var board: String
    /// Its tier's name.
    public var tier: String
    /// Its number in the tier's week.
    public var cohort: Int
    /// Places taken.
    public var players: Int
    /// Whether its week is closed.
    public var closed: Bool
}

/// What a week's close did (or, in a dry run, would do) to one player.
public struct LeagueResult: Sendable, Codable, Equatable {
    /// The player.
    public var userId: String
    /// The week.
    public var period: String
    /// The cohort's board id.
    public var board: String
    /// The tier played in (its name).
    public var tier: String
    /// Final competition rank in the cohort.
    public var rank: Int
    /// Final score.
    public var score: Int64
    /// The move.
    public var move: LeagueMove
    /// The tier for the next week (its name).
    public var nextTier: String
    /// The medal the cohort's close awards (or awarded) the player, in a league that awards medals.
    public var medal: Medal?
    /// The player's display name, where an admin reads the report.
    public var displayName: String?

    /// Creates a result; `medals` tells whether the league awards them (`Medal.awarded` by rank and score).
    public init(
        userId: String, period: String, board: String, tier: String, rank: Int, score: Int64, move: LeagueMove, nextTier: String,
        medals: Bool
    ) {
        self.userId = userId
        self.period = period
        self.board = board
        self.tier = tier
        self.rank = rank
        self.score = score
        self.move = move
        self.nextTier = nextTier
        medal = medals ? Medal.awarded(rank: rank, score: score) : nil
    }

    /// A `league_results` row of `league`; nil when its tiers or move are not the league's.
    init?(row: PostgresRow, league: League) throws {
        let (tier, next) = (try row.int("tier"), try row.int("next_tier"))
        guard league.tiers.indices.contains(tier), league.tiers.indices.contains(next),
              let move = LeagueMove(rawValue: try row.string("outcome")) else { return nil }
        self.init(
            userId: try row.string("user_id"), period: try row.string("period"),
            board: BoardScope.league(league.id, tier: league.tiers[tier].name, cohort: try row.int("cohort")).id,
            tier: league.tiers[tier].name, rank: try row.int("rank"), score: try row.int64("score"), move: move,
            nextTier: league.tiers[next].name, medals: league.medals)
    }
}

/// What a league week's close did or would do, by tier, with the players of some of its cohorts.
public struct LeagueWeekReport: Sendable, Codable, Equatable {
    /// The league's id.
    public var league: String
    /// The week.
    public var period: String
    /// Its first instant.
    public var startsAt: String
    /// The first instant after it.
    public var endsAt: String
    /// Its end plus the close grace: the close may come from then on.
    public var closesAt: String
    /// `dry-run` (nothing was written) or `closed` (every cohort is closed now).
    public var outcome: PeriodCloseOutcome
    /// The week's cohorts.
    public var cohorts: Int
    /// Of those, how many are closed.
    public var closedCohorts: Int
    /// Players placed in the week.
    public var players: Int
    /// The moves by tier, lowest first.
    public var tiers: [LeagueTierSummary]
    /// The cohorts asked for, each with its players' results in rank order.
    public var cohortResults: [LeagueCohortResults]
}

/// One tier's part of a week's close.
public struct LeagueTierSummary: Sendable, Codable, Equatable {
    /// The tier's name.
    public var tier: String
    /// Its title.
    public var title: String
    /// Its cohorts this week.
    public var cohorts = 0
    /// Players placed in them.
    public var players = 0
    /// Players who move (or moved) up.
    public var promoted = 0
    /// Players who move (or moved) down.
    public var relegated = 0
    /// Players who stay (or stayed).
    public var stayed = 0
    /// Medals awarded (or to be).
    public var medals = 0

    /// An empty summary of a tier.
    init(tier: String, title: String) {
        self.tier = tier
        self.title = title
    }

    /// Counts `cohort` and its results in.
    mutating func add(_ cohort: LeagueCohort, moves: [LeagueResult]) {
        cohorts += 1
        players += cohort.players
        promoted += moves.filter { $0.move == .promoted }.count
        relegated += moves.filter { $0.move == .relegated }.count
        stayed += moves.filter { $0.move == .stayed }.count
        medals += moves.filter { $0.medal != nil }.count
    }
}

/// One cohort of a week's report with its players' results.
public struct LeagueCohortResults: Sendable, Codable, Equatable {
    /// The cohort.
    public var cohort: LeagueCohort
    /// Its players' results in rank order.
    public var results: [LeagueResult]
}
