import Foundation
import PodiumWire

/// A league: weekly cohorts of players of one tier, whose best move up a tier and worst down at each close.
///
/// Its weeks are ISO weeks (Monday 00:00 to Monday 00:00) in its zone, so a week with a daylight-saving change
/// lasts 167 or 169 hours. Each cohort is a board, `league:<id>:<tier>:<n>`, with one window, `week`.
public struct League: Sendable, Hashable {
    /// The id, a scope name (`weekly`).
    public let id: String
    /// The name players see.
    public let name: String
    /// Which completions count.
    public let scope: ContestScope
    /// The zone its weeks are cut in.
    public let timeZone: TimeZone
    /// The tiers, lowest first.
    public let tiers: [LeagueTier]
    /// The most players in one cohort.
    public let cohortSize: Int
    /// What cohorts rank by.
    public let metric: BoardMetric
    /// How equal scores rank, in medals and moves alike.
    public let tieBreak: TieBreak
    /// Whether each cohort awards medals when its week closes.
    public let medals: Bool
    /// When it was created, to the millisecond: completions played before count nowhere, from this instant on they count.
    public let createdAt: Date
    /// When it was paused: while set, no completion counts (the weeks still close).
    public let pausedAt: Date?
    /// When it ended: completions played from then on count nowhere.
    public let endedAt: Date?

    /// Creates a league.
    public init(
        id: String, name: String, scope: ContestScope, timeZone: TimeZone, tiers: [LeagueTier], cohortSize: Int = League.defaultCohortSize,
        metric: BoardMetric = .points, tieBreak: TieBreak = .shared, medals: Bool = true, createdAt: Date, pausedAt: Date? = nil,
        endedAt: Date? = nil
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
        // At the millisecond the API shows and PostgreSQL stores, so a completion played at the instant an answer reports
        // counts as that answer says, on every replica.
        self.createdAt = RFC3339.wholeMilliseconds(createdAt)
        self.pausedAt = pausedAt.map(RFC3339.wholeMilliseconds)
        self.endedAt = endedAt.map(RFC3339.wholeMilliseconds)
    }

    /// Cohorts hold 30 players unless the league says otherwise.
    public static let defaultCohortSize = 30
    /// How many of a cohort move up from a tier when neither the tier nor the league says.
    public static let defaultUp = 7
    /// How many of a cohort move down from a tier when neither the tier nor the league says.
    public static let defaultDown = 5
    /// The most cohorts a tier's week may have (a board id naming a higher one names no board).
    public static let maximumCohorts = 10_000_000

    /// The league's state: `active`, `paused` or `ended`.
    public var state: String { endedAt != nil ? "ended" : pausedAt != nil ? "paused" : "active" }

    /// The week containing `date`.
    public func week(containing date: Date) -> Period {
        Period.containing(date, window: .week, timeZone: timeZone)
    }

    /// Whether a completion played at `completedAt` and recorded while the league is as it is now counts: played from
    /// the league's creation on, before its end, and the league not paused.
    public func counts(completedAt: Date) -> Bool {
        pausedAt == nil && completedAt >= createdAt && endedAt.map { completedAt < $0 } ?? true
    }

    /// The index of the tier named `name`; nil when there is none.
    public func tierIndex(named name: String) -> Int? {
        tiers.firstIndex { $0.name == name }
    }

    /// The board of cohort `cohort` of tier `tier` (an index of `tiers`).
    public func cohortBoard(tier: Int, cohort: Int) -> BoardDefinition {
        BoardDefinition(
            scope: .league(id, tier: tiers[tier].name, cohort: cohort), timeZone: timeZone, windows: [.week], metric: metric,
            medalWindows: medals ? [.week] : [], tieBreak: tieBreak, contest: nil,
            cohort: LeagueCohortBoard(league: self, tier: tier, number: cohort))
    }

    /// How many of a cohort of `players` in tier `tier` move up and down: the tier's `up` and `down` for a full cohort,
    /// in proportion for one not full (up rounded up, down rounded down: a cohort of 10 of 30 with 7 up and 5 down sends
    /// 3 up and 1 down), none up from the top tier nor down from the bottom one. A cohort left small, because the
    /// week's last arrivals opened it, so moves no more of its players than a full one would.
    public func moves(players: Int, tier: Int) -> (up: Int, down: Int) {
        let rules = tiers[tier]
        let filled = max(0, min(players, cohortSize))
        // Counts are held to the cohort size (a request's are checked; a stored one is clamped, so no product overflows).
        let up = tier == tiers.count - 1 ? 0 : (min(max(rules.up, 0), cohortSize) * filled + cohortSize - 1) / cohortSize
        let down = tier == 0 ? 0 : min(max(rules.down, 0), cohortSize) * filled / cohortSize
        return (up, down)
    }

    /// The move of the player ranked `rank` (competition rank, 1 best) among `players` in a cohort of tier `tier`.
    ///
    /// Moves go by rank (`moves(players:tier:)` says how many), so a tie on a line goes the players' way: every player
    /// ranked within the first `up` moves up (a shared rank may take more than `up`), and only those ranked below the
    /// last `players - down` move down. Promotion wins when a small cohort puts a player in both zones.
    public func move(rank: Int, players: Int, tier: Int) -> LeagueMove {
        let (up, down) = moves(players: players, tier: tier)
        if rank <= up { return .promoted }
        if down > 0 && rank > players - down { return .relegated }
        return .stayed
    }

    /// The zone of `rank` among `players` in tier `tier`: the move it would make if the week closed now.
    public func zone(rank: Int, players: Int, tier: Int) -> LeagueZone {
        switch move(rank: rank, players: players, tier: tier) {
        case .promoted: .promotion
        case .relegated: .relegation
        case .stayed: .safe
        }
    }

    /// The tier a `move` from `tier` leads to.
    public func tier(after move: LeagueMove, from tier: Int) -> Int {
        switch move {
        case .promoted: min(tier + 1, tiers.count - 1)
        case .relegated: max(tier - 1, 0)
        case .stayed: tier
        }
    }
}

/// A league cohort's board's place in its league, held by reference (definitions are copied with every board period):
/// compared by its value, hashed by its league, tier and number.
public final class LeagueCohortBoard: Sendable, Hashable {
    /// The league.
    public let league: League
    /// The tier, an index of the league's tiers.
    public let tier: Int
    /// The cohort's number in its tier's week.
    public let number: Int

    /// Creates one.
    init(league: League, tier: Int, number: Int) {
        self.league = league
        self.tier = tier
        self.number = number
    }

    /// What a page of the cohort says of it, with `players` on the board: league, tier, number and the zones.
    public func page(players: Int) -> LeagueCohortPage {
        let (up, down) = league.moves(players: players, tier: tier)
        return LeagueCohortPage(
            league: league.id, name: league.name, tier: league.tiers[tier].name, tierTitle: league.tiers[tier].title, cohort: number,
            promotion: up, relegation: down)
    }

    /// Equal when league, tier and number are.
    public static func == (left: LeagueCohortBoard, right: LeagueCohortBoard) -> Bool {
        left.league == right.league && left.tier == right.tier && left.number == right.number
    }

    /// Hashes league id, tier and number.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(league.id)
        hasher.combine(tier)
        hasher.combine(number)
    }
}
