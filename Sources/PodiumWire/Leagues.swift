import Foundation

/// What a close does to one player of a cohort.
public enum LeagueMove: String, Sendable, Codable, CaseIterable {
    /// Up one tier.
    case promoted
    /// Down one tier.
    case relegated
    /// Same tier.
    case stayed
}

/// Where a rank sits in a cohort while the week runs: the move it would make if the week closed now.
public enum LeagueZone: String, Sendable, Codable {
    /// Would move up.
    case promotion
    /// Would move down.
    case relegation
    /// Would stay.
    case safe
}

/// A league cohort's page's `league`: where the cohort sits, and how many of it move up and down at the close.
public struct LeagueCohortPage: Sendable, Codable, Equatable {
    /// The league's id.
    public var league: String
    /// The league's name.
    public var name: String
    /// The tier's name.
    public var tier: String
    /// The tier's title.
    public var tierTitle: String
    /// The cohort's number in its tier's week.
    public var cohort: Int
    /// How many move up now (ranks 1 to this; `League.moves`, for the players on the board): 0 in the top tier.
    public var promotion: Int
    /// How many move down now (the last this many places): 0 in the bottom tier.
    public var relegation: Int

    /// Creates one.
    public init(
        league: String, name: String, tier: String, tierTitle: String, cohort: Int, promotion: Int, relegation: Int
    ) {
        self.league = league
        self.name = name
        self.tier = tier
        self.tierTitle = tierTitle
        self.cohort = cohort
        self.promotion = promotion
        self.relegation = relegation
    }
}

/// The body of `POST /v1/admin/leagues`: every field optional here, so `validated` can name each missing or wrong
/// one at once.
public struct LeagueRequest: Codable, Sendable {
    /// One tier as asked for: `up` and `down` default to the league's.
    public struct Tier: Codable, Sendable {
        /// The name in board ids (a scope name).
        public var name: String?
        /// The name players see; the name when left out.
        public var title: String?
        /// How many of each cohort move up (the league's `up` when left out; 0 in the top tier).
        public var up: Int?
        /// How many of each cohort move down (the league's `down` when left out; 0 in the bottom tier).
        public var down: Int?

        /// Creates a tier (tests and tools).
        public init(name: String? = nil, title: String? = nil, up: Int? = nil, down: Int? = nil) {
            self.name = name
            self.title = title
            self.up = up
            self.down = down
        }
    }

    /// The id (a scope name), which makes the cohorts' board ids `league:<id>:<tier>:<n>`.
    public var id: String?
    /// The name players see: 1...80 characters.
    public var name: String?
    /// Board ids: `["global"]`, `["topic:<name>"]` or `["group:<a>", ...]`.
    public var scope: [String]?
    /// The IANA zone whose ISO weeks are the league's weeks; UTC when left out.
    public var timeZone: String?
    /// The tiers, lowest first: 1...20.
    public var tiers: [Tier]?
    /// The most players in a cohort: 2...1000, 30 when left out.
    public var cohortSize: Int?
    /// How many of each cohort move up, for tiers that do not say: 7 when left out.
    public var up: Int?
    /// How many of each cohort move down, for tiers that do not say: 5 when left out.
    public var down: Int?
    /// What cohorts rank by; points when left out.
    public var metric: BoardMetric?
    /// How equal scores rank; shared when left out.
    public var tieBreak: TieBreak?
    /// Whether cohorts award medals at each close; true when left out.
    public var medals: Bool?

    /// The most tiers.
    public static let maximumTiers = 20
    /// The cohort sizes allowed.
    public static let cohortSizes = 2...1000
    /// The longest name or tier title.
    public static let maximumNameLength = 80

    /// Creates a request (tests and tools; the API decodes it).
    public init(
        id: String? = nil, name: String? = nil, scope: [String]? = nil, timeZone: String? = nil, tiers: [Tier]? = nil,
        cohortSize: Int? = nil, up: Int? = nil, down: Int? = nil, metric: BoardMetric? = nil, tieBreak: TieBreak? = nil,
        medals: Bool? = nil
    ) {
        self.id = id
        self.name = name
        self.scope = scope
        self.timeZone = timeZone
        self.tiers = tiers
        self.cohortSize = cohortSize
        self.up = up
        self.down = down
        self.metric = metric
        self.tieBreak = tieBreak
        self.medals = medals
    }
}

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

    /// Creates a value from its fields.
    public init(
        id: String, name: String, scope: [String], timeZone: String, tiers: [LeagueTier], cohortSize: Int,
        metric: BoardMetric, tieBreak: TieBreak, medals: Bool, status: String, createdAt: String,
        pausedAt: String? = nil, endedAt: String? = nil, week: LeagueWeek
    ) {
        self.id = id
        self.name = name
        self.scope = scope
        self.timeZone = timeZone
        self.tiers = tiers
        self.cohortSize = cohortSize
        self.metric = metric
        self.tieBreak = tieBreak
        self.medals = medals
        self.status = status
        self.createdAt = createdAt
        self.pausedAt = pausedAt
        self.endedAt = endedAt
        self.week = week
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

    /// Creates a value from its fields.
    public init(period: String, startsAt: String, endsAt: String) {
        self.period = period
        self.startsAt = startsAt
        self.endsAt = endsAt
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

    /// Creates a value from its fields.
    public init(
        league: String, name: String, week: LeagueWeek, secondsLeft: Int, tier: String, tierTitle: String,
        board: String? = nil, rank: Int? = nil, players: Int? = nil, score: Int64? = nil, zone: LeagueZone? = nil
    ) {
        self.league = league
        self.name = name
        self.week = week
        self.secondsLeft = secondsLeft
        self.tier = tier
        self.tierTitle = tierTitle
        self.board = board
        self.rank = rank
        self.players = players
        self.score = score
        self.zone = zone
    }
}

/// The answer to `GET /v1/leagues`.
public struct LeagueList: Codable, Sendable {
    /// The leagues, by id.
    public var leagues: [LeagueView]

    /// Creates a value from its fields.
    public init(leagues: [LeagueView]) {
        self.leagues = leagues
    }
}

/// The answer to `GET /v1/users/{id}/leagues`.
public struct PlayerLeagueList: Codable, Sendable {
    /// The player's leagues, by id.
    public var leagues: [PlayerLeague]

    /// Creates a value from its fields.
    public init(leagues: [PlayerLeague]) {
        self.leagues = leagues
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

    /// Creates a value from its fields.
    public init(board: String, tier: String, cohort: Int, players: Int, closed: Bool) {
        self.board = board
        self.tier = tier
        self.cohort = cohort
        self.players = players
        self.closed = closed
    }
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

    /// Creates a value from its fields.
    public init(
        userId: String, period: String, board: String, tier: String, rank: Int, score: Int64, move: LeagueMove,
        nextTier: String, medal: Medal? = nil, displayName: String? = nil
    ) {
        self.userId = userId
        self.period = period
        self.board = board
        self.tier = tier
        self.rank = rank
        self.score = score
        self.move = move
        self.nextTier = nextTier
        self.medal = medal
        self.displayName = displayName
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

    /// Creates a value from its fields.
    public init(
        league: String, period: String, startsAt: String, endsAt: String, closesAt: String, outcome: PeriodCloseOutcome,
        cohorts: Int, closedCohorts: Int, players: Int, tiers: [LeagueTierSummary], cohortResults: [LeagueCohortResults]
    ) {
        self.league = league
        self.period = period
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.closesAt = closesAt
        self.outcome = outcome
        self.cohorts = cohorts
        self.closedCohorts = closedCohorts
        self.players = players
        self.tiers = tiers
        self.cohortResults = cohortResults
    }
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
    public init(tier: String, title: String) {
        self.tier = tier
        self.title = title
    }
}

/// One cohort of a week's report with its players' results.
public struct LeagueCohortResults: Sendable, Codable, Equatable {
    /// The cohort.
    public var cohort: LeagueCohort
    /// Its players' results in rank order.
    public var results: [LeagueResult]

    /// Creates a value from its fields.
    public init(cohort: LeagueCohort, results: [LeagueResult]) {
        self.cohort = cohort
        self.results = results
    }
}

/// One tier of a league, and how many of each of its cohorts move at a close.
public struct LeagueTier: Sendable, Hashable, Codable {
    /// The tier's name in board ids (a scope name: `gold`).
    public var name: String
    /// The name players see (`Gold`).
    public var title: String
    /// How many of each cohort move up a tier at the close (0 in the top tier).
    public var up: Int
    /// How many of each cohort move down a tier at the close (0 in the bottom tier).
    public var down: Int

    /// Creates a tier.
    public init(name: String, title: String, up: Int, down: Int) {
        self.name = name
        self.title = title
        self.up = up
        self.down = down
    }
}
