import Foundation
import PodiumCore
import PodiumWire
import Postgres

/// A teams board's standings, worked out from PostgreSQL's rows of its groups' boards whenever they are read: a team's
/// score is the sum of its group's board in the same window and period, or that sum per player who scored there
/// (`TeamScore.average`). Nothing is kept of a team but its group's board, so the standings are exact on every replica,
/// after a rebuild, and after an erasure; a player in two teams' groups counts for both.
///
/// Entries name a team by its group's board id (`group:5a`) and show the group's name.
enum TeamStandings {
    /// A page of `board`'s standings in `window`'s period `period`, best first, ties sharing a rank and listed by name.
    static func page(
        teams: TeamSelection, window: LeaderboardWindow, period: String, offset: Int, limit: Int,
        on postgres: PostgresPool
    ) async throws -> RankedEntries {
        let rows = try await postgres.run(TeamScores(teams, window: window, period: period, offset: offset, limit: limit))
        return RankedEntries(players: rows.first?.teams ?? 0, offset: offset, entries: entries(rows), live: true, found: true)
    }

    /// Every team's entry in `window`'s period `period`, best first, read on `connection` (a close's final snapshot).
    static func all(teams: TeamSelection, window: LeaderboardWindow, period: String, on connection: PostgresConnection) throws -> [LeaderboardEntry] {
        entries(try connection.run(TeamScores(teams, window: window, period: period, offset: 0, limit: Int(Int32.max))))
    }

    /// The entries of `rows`.
    private static func entries(_ rows: [TeamScores.Row]) -> [LeaderboardEntry] {
        rows.compactMap { row -> LeaderboardEntry? in
            guard let team = row.team, let rank = row.rank, let score = row.score else { return nil }
            return LeaderboardEntry(rank: rank, userId: BoardScope.group(team).id, displayName: team, score: score)
        }
    }
}

extension TeamPattern {
    /// The group board's id of a single group; nil for a prefix.
    var groupBoard: String? {
        if case .group(let name) = self { return BoardScope.group(name).id }
        return nil
    }

    /// A `LIKE` pattern matching the group boards of a prefix (`_` escaped); nil for a single group.
    var likePattern: String? {
        if case .prefix(let start) = self { return BoardScope.group(start).id.replacingOccurrences(of: "_", with: "\\_") + "%" }
        return nil
    }
}

/// The teams of a teams board ranked by score in one period, a page of them: each with its score, players and
/// competition rank, and the number of teams in every row (one row without a team when there are none, for the count).
///
/// The teams' group boards are found in the list of boards (`boards`, which every batch adds its boards to), then each
/// one's rows are summed through its index: matching the prefixes against every score row instead read all of them for
/// each teams board (a week's close of 100 teams boards over 1,000,000 players took 22 s).
private struct TeamScores: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        WITH members AS (
            SELECT b.board FROM boards b WHERE b.board = ANY(\(\.groups)::text[]) OR b.board LIKE ANY(\(\.prefixes)::text[])
        ),
        totals AS (
            SELECT substr(m.board, 7) AS team, t.total, t.players
            FROM members m
            CROSS JOIN LATERAL (
                SELECT sum(s.score) AS total, count(*) AS players FROM board_scores s
                WHERE s.board = m.board AND s.board_window = \(\.window) AND s.period = \(\.period)
            ) t
            WHERE t.players > 0
        ),
        scored AS (
            SELECT team, players, CASE WHEN \(\.average) THEN round(total::numeric / players)::bigint ELSE total END AS score
            FROM totals
        ),
        ranked AS (
            SELECT team, players, score, rank() OVER (ORDER BY score DESC) AS rank, count(*) OVER () AS teams FROM scored
        )
        SELECT r.team, r.players, r.score, r.rank, n.teams
        FROM (SELECT count(*) AS teams FROM scored) n
        LEFT JOIN LATERAL (SELECT * FROM ranked ORDER BY score DESC, team OFFSET \(\.offset) LIMIT \(\.limit)) r ON true
        """
    /// A ranked team, or (all nil but `teams`) the one row of a period without any.
    struct Row: Decodable, Sendable {
        let team: String?
        let players: Int?
        let score: Int64?
        let rank: Int?
        let teams: Int
    }
    let window: String
    let period: String
    /// The single groups' board ids.
    let groups: [String]
    /// `LIKE` patterns of the prefixes' group boards.
    let prefixes: [String]
    /// Whether a team scores its average per player rather than its sum.
    let average: Bool
    let offset: Int
    let limit: Int

    /// The page of `teams` from `offset`, at most `limit`.
    init(_ teams: TeamSelection, window: LeaderboardWindow, period: String, offset: Int, limit: Int) {
        self.window = window.rawValue
        self.period = period
        groups = teams.patterns.compactMap(\.groupBoard)
        prefixes = teams.patterns.compactMap(\.likePattern)
        average = teams.score == .average
        self.offset = offset
        self.limit = limit
    }
}
