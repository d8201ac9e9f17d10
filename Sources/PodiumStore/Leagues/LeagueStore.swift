import Foundation
import PodiumCore
import PodiumWire
import Postgres

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
        let insert = AddLeague(league: league, tiers: try PodiumJSON.string(league.tiers))
        return try await contests.change { connection in
            let inserted = try connection.runCounting(insert) == 1
            return (inserted, inserted)
        }
    }

    /// Pauses league `id` at `now` (no completion counts until it is resumed; its weeks still close).
    public func pause(id: String, now: Date) async throws -> DefinitionChange {
        try await contests.pause(.leagues, id: id, now: now)
    }

    /// Resumes paused league `id`: completions count again from now on.
    public func resume(id: String) async throws -> DefinitionChange {
        try await contests.resume(.leagues, id: id)
    }

    /// Ends league `id` at `now`: completions played from then on count nowhere; the week under way still closes at its end.
    public func end(id: String, now: Date) async throws -> DefinitionChange {
        try await contests.end(.leagues, id: id, now: now)
    }

    /// The cohorts of `league`'s week `period`, by tier then number, with their players and whether each is closed.
    public func cohorts(of league: League, period: String) async throws -> [LeagueCohort] {
        let statement = WeekCohorts(leagueID: league.id, period: period, boardPrefixes: Self.cohortBoardPrefixes(of: league))
        return try await postgres.run(statement).compactMap { row in
            guard league.tiers.indices.contains(row.tier) else { return nil }
            return LeagueCohort(
                board: BoardScope.league(league.id, tier: league.tiers[row.tier].name, cohort: row.cohort).id,
                tier: league.tiers[row.tier].name, cohort: row.cohort, players: row.members, closed: row.closed)
        }
    }

    /// The oldest week of `league` before `period` with a cohort still open; nil when every earlier week is closed.
    public func oldestOpenWeek(of league: League, before period: String) async throws -> String? {
        try await postgres.run(
            OldestOpenWeek(leagueID: league.id, before: period, boardPrefixes: Self.cohortBoardPrefixes(of: league))
        ).first?.period
    }

    /// The tiers `userID` holds in each league they played (their tier for the next week they play), by league id.
    public func tiers(of userID: String) async throws -> [String: Int] {
        var tiers: [String: Int] = [:]
        for row in try await postgres.run(HeldTiers(userID: userID)) {
            tiers[row.leagueID] = row.tier
        }
        return tiers
    }

    /// Where `userID` plays in each league's week: the placements in `weeks` (league id to week), by league id.
    public func placements(of userID: String, weeks: [String: String]) async throws -> [String: LeaguePlacement] {
        guard !weeks.isEmpty else { return [:] }
        let ids = weeks.keys.sorted()
        var placements: [String: LeaguePlacement] = [:]
        for row in try await postgres.run(WeekPlacements(leagueIDs: ids, periods: ids.map { weeks[$0] ?? "" }, userID: userID)) {
            placements[row.leagueID] = LeaguePlacement(tier: row.tier, cohort: row.cohort)
        }
        return placements
    }

    /// What each close of `league` did to `userID`, newest week first (at most `limit`).
    public func results(of userID: String, league: League, limit: Int) async throws -> [LeagueResult] {
        try await postgres.run(PlayerLeagueResults(userID: userID, leagueID: league.id, limit: limit)).compactMap {
            LeagueResult($0, league: league)
        }
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
        for row in try await postgres.run(WeekResults(leagueID: league.id, period: period)) {
            if let result = LeagueResult(row, league: league) { results[result.board, default: []].append(result) }
        }
        // Open cohorts: each player's place on the live standings, as the close would rank them.
        var standings: [String: [LeagueStanding]] = [:]
        if cohorts.contains(where: { !$0.closed }) {
            let statement = LiveStandings(
                leagueID: league.id, period: period, boardPrefixes: Self.cohortBoardPrefixes(of: league), tieBreak: league.tieBreak.rawValue)
            for row in try await postgres.run(statement) {
                standings[row.cohort.board, default: []].append(row.standing)
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

    /// What the board ids of `league`'s cohorts start with, by tier index: `league:<id>:<tier>:`, each followed by the
    /// cohort's number in `BoardScope.league`'s id (see `cohortBoard`).
    static func cohortBoardPrefixes(of league: League) -> [String] {
        league.tiers.map { "league:\(league.id):\($0.name):" }
    }

    /// SQL of the board id of a cohort whose tier index and number the SQL expressions `tier` and `cohort` hold, with
    /// `prefixes` the placeholder of its league's `cohortBoardPrefixes` (NULL for a tier the league does not have).
    static func cohortBoard(prefixes: String, tier: String, cohort: String) -> String {
        "((\(prefixes)::text[])[\(tier) + 1] || \(cohort))"
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

/// Stores a new league unless its id is taken.
private struct AddLeague: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO leagues (id, name, scope, time_zone, tiers, cohort_size, metric, tie_break, medals, created_at)
        VALUES (\(\.league.id), \(\.league.name), \(\.scope), \(\.league.timeZone.configuredName), \(\.tiers)::jsonb, \(\.league.cohortSize),
                \(\.league.metric.rawValue), \(\.league.tieBreak.rawValue), \(\.league.medals), \(\.league.createdAt))
        ON CONFLICT (id) DO NOTHING
        """
    typealias Row = NoRows
    let league: League
    /// Its tiers, lowest first, as JSON.
    let tiers: String

    /// The board ids of its scope.
    var scope: [String] { league.scope.boards.map(\.id) }
}

/// The cohorts of a league's week, by tier then number, with their players and whether each is closed.
private struct WeekCohorts: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT k.tier, k.cohort, k.members, p.closed_at IS NOT NULL AS closed
        FROM league_cohorts k
        LEFT JOIN board_periods p ON p.board = \(\.boardPrefixes, in: { LeagueStore.cohortBoard(prefixes: $0, tier: "k.tier", cohort: "k.cohort") })
                                 AND p.board_window = 'week' AND p.period = k.period
        WHERE k.league_id = \(\.leagueID) AND k.period = \(\.period) ORDER BY k.tier, k.cohort
        """
    struct Row: Decodable, Sendable {
        /// The tier's index.
        let tier: Int
        let cohort: Int
        /// Places taken.
        let members: Int
        let closed: Bool
    }
    let leagueID: String
    let period: String
    /// `LeagueStore.cohortBoardPrefixes` of the league.
    let boardPrefixes: [String]
}

/// The oldest week of a league before a week with a cohort still open (NULL when every earlier week is closed).
private struct OldestOpenWeek: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT min(k.period) AS period FROM league_cohorts k
        LEFT JOIN board_periods p ON p.board = \(\.boardPrefixes, in: { LeagueStore.cohortBoard(prefixes: $0, tier: "k.tier", cohort: "k.cohort") })
                                 AND p.board_window = 'week' AND p.period = k.period
        WHERE k.league_id = \(\.leagueID) AND k.period < \(\.before) AND p.closed_at IS NULL
        """
    struct Row: Decodable, Sendable { let period: String? }
    let leagueID: String
    let before: String
    /// `LeagueStore.cohortBoardPrefixes` of the league.
    let boardPrefixes: [String]
}

/// The tier a player holds in each league they played.
private struct HeldTiers: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT league_id, tier FROM league_players WHERE user_id = \(\.userID)"
    struct Row: Decodable, Sendable {
        let leagueID: String
        let tier: Int
    }
    let userID: String
}

/// A player's cohort in each of some leagues' weeks (`leagueIDs` and `periods` pairwise), where placed.
private struct WeekPlacements: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT e.league_id, e.tier, e.cohort FROM league_entries e
        JOIN unnest(\(\.leagueIDs)::text[], \(\.periods)::text[]) AS x(league_id, period) USING (league_id, period)
        WHERE e.user_id = \(\.userID)
        """
    struct Row: Decodable, Sendable {
        let leagueID: String
        let tier: Int
        let cohort: Int
    }
    let leagueIDs: [String]
    let periods: [String]
    let userID: String
}

/// A `league_results` row (see `LeagueResult`).
private struct LeagueResultRow: Decodable, Sendable {
    let leagueID: String
    let period: String
    let userID: String
    /// The tier played in, by index.
    let tier: Int
    let cohort: Int
    let rank: Int
    let score: Int64
    /// A `LeagueMove` raw value.
    let outcome: String
    /// The tier for the next week, by index.
    let nextTier: Int
}

/// What each close of a league did to a player, newest week first.
private struct PlayerLeagueResults: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT league_id, period, user_id, tier, cohort, rank, score, outcome, next_tier FROM league_results
        WHERE user_id = \(\.userID) AND league_id = \(\.leagueID) ORDER BY period DESC LIMIT \(\.limit)
        """
    typealias Row = LeagueResultRow
    let userID: String
    let leagueID: String
    let limit: Int
}

/// What the close of a league's week did to its closed cohorts' players, by tier, cohort and rank.
private struct WeekResults: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT league_id, period, user_id, tier, cohort, rank, score, outcome, next_tier FROM league_results
        WHERE league_id = \(\.leagueID) AND period = \(\.period) ORDER BY tier, cohort, rank, user_id
        """
    typealias Row = LeagueResultRow
    let leagueID: String
    let period: String
}

/// Each placed player's live standing in their cohort of a league's week, ranked as the close would rank them, with
/// the tier they hold.
private struct LiveStandings: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT s.board, s.user_id, s.score, p.tier AS earned, p.period AS earned_in,
               rank() OVER (PARTITION BY s.board ORDER BY s.score DESC, \(\.tieBreak, in: { TieBreakSQL.key(policy: $0, row: "s") })) AS rank
        FROM league_entries e
        JOIN board_scores s ON s.user_id = e.user_id AND s.board_window = 'week' AND s.period = e.period
             AND s.board = \(\.boardPrefixes, in: { LeagueStore.cohortBoard(prefixes: $0, tier: "e.tier", cohort: "e.cohort") })
        JOIN users u ON u.user_id = e.user_id
        LEFT JOIN league_players p ON p.league_id = e.league_id AND p.user_id = e.user_id
        WHERE e.league_id = \(\.leagueID) AND e.period = \(\.period)
        ORDER BY s.board, rank, u.handle
        """

    typealias Row = CohortStanding<Board>

    /// The cohort's board.
    struct Board: Decodable, Sendable { let board: String }

    let leagueID: String
    let period: String
    /// `LeagueStore.cohortBoardPrefixes` of the league.
    let boardPrefixes: [String]
    /// The league's tie-break policy.
    let tieBreak: String
}

extension LeagueResult {
    /// A `league_results` row of `league`; nil when its tiers or move are not the league's.
    fileprivate init?(_ row: LeagueResultRow, league: League) {
        guard league.tiers.indices.contains(row.tier), league.tiers.indices.contains(row.nextTier),
              let move = LeagueMove(rawValue: row.outcome) else { return nil }
        self.init(
            userId: row.userID, period: row.period, board: BoardScope.league(league.id, tier: league.tiers[row.tier].name, cohort: row.cohort).id,
            tier: league.tiers[row.tier].name, rank: row.rank, score: row.score, move: move, nextTier: league.tiers[row.nextTier].name,
            medals: league.medals)
    }
}

extension LeagueTierSummary {
    /// Counts `cohort` and its results in.
    public mutating func add(_ cohort: LeagueCohort, moves: [LeagueResult]) {
        cohorts += 1
        players += cohort.players
        promoted += moves.filter { $0.move == .promoted }.count
        relegated += moves.filter { $0.move == .relegated }.count
        stayed += moves.filter { $0.move == .stayed }.count
        medals += moves.filter { $0.medal != nil }.count
    }
}
