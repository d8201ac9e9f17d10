import Foundation

/// A league as the API shows it: the request's fields, its state and its week under way.
public struct LeagueView: Codable, Sendable, Equatable {
    /// The id.
    public var id: String
    /// The name players see.
    public var name: String
    /// Its scope as board ids.
    public var scope: [String]
    /// The zone whose ISO weeks are its weeks.
    public var timeZone: String
    /// The tiers, lowest first.
    public var tiers: [LeagueTier]
    /// The most players in a cohort.
    public var cohortSize: Int
    /// What cohorts rank by.
    public var metric: BoardMetric
    /// How equal scores rank.
    public var tieBreak: TieBreak
    /// Whether cohorts award medals.
    public var medals: Bool
    /// `active`, `paused` or `ended`.
    public var status: String
    /// When it was created.
    public var createdAt: String
    /// When it was paused (while it is).
    public var pausedAt: String?
    /// When it ended.
    public var endedAt: String?
    /// The week under way.
    public var week: LeagueWeek

    /// The view of `league` at `now`.
    public init(_ league: League, now: Date) {
        id = league.id
        name = league.name
        scope = league.scope.boards.map(\.id)
        timeZone = league.timeZone.configuredName
        tiers = league.tiers
        cohortSize = league.cohortSize
        metric = league.metric
        tieBreak = league.tieBreak
        medals = league.medals
        status = league.state
        createdAt = RFC3339.format(league.createdAt)
        pausedAt = league.pausedAt.map(RFC3339.format)
        endedAt = league.endedAt.map(RFC3339.format)
        week = LeagueWeek(league.week(containing: now))
    }
}

/// A league week: its name and bounds.
public struct LeagueWeek: Codable, Sendable, Equatable {
    /// The week's name (`2026-W48`), the period of its cohorts' boards.
    public var period: String
    /// Its first instant.
    public var startsAt: String
    /// The first instant after it.
    public var endsAt: String

    /// The view of `week`.
    public init(_ week: Period) {
        period = week.key
        startsAt = week.start.map(RFC3339.format) ?? ""
        endsAt = week.end.map(RFC3339.format) ?? ""
    }
}

/// Where a player stands in one league: their tier, and this week's cohort, rank and zone once they played.
public struct PlayerLeague: Codable, Sendable, Equatable {
    /// The league's id.
    public var league: String
    /// The league's name.
    public var name: String
    /// This week.
    public var week: LeagueWeek
    /// Seconds until the week ends.
    public var secondsLeft: Int
    /// The tier (its name): this week's when placed, else the one they would enter.
    public var tier: String
    /// The tier's title.
    public var tierTitle: String
    /// This week's cohort board, once placed (null before their first scoring completion of the week).
    public var board: String?
    /// Their rank in it (competition rank), once placed and ranked.
    public var rank: Int?
    /// Players in the cohort, once placed.
    public var players: Int?
    /// Their score in it, once placed.
    public var score: Int64?
    /// The zone their rank is in, once placed.
    public var zone: LeagueZone?

    /// Creates one.
    public init(
        league: League, week: Period, now: Date, tier: Int, board: String?, rank: Int?, players: Int?, score: Int64?
    ) {
        self.league = league.id
        name = league.name
        self.week = LeagueWeek(week)
        secondsLeft = max(0, Int((week.end ?? now).timeIntervalSince(now).rounded(.down)))
        self.tier = league.tiers[tier].name
        tierTitle = league.tiers[tier].title
        self.board = board
        self.rank = rank
        self.players = players
        self.score = score
        zone = rank.flatMap { rank in players.map { league.zone(rank: rank, players: $0, tier: tier) } }
    }
}
