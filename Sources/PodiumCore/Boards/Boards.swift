import Foundation
import PodiumWire

/// A configured rule that gives boards matching `scope` their time zone, windows, metric, aggregate and medals.
///
/// `scope` is an exact board id (`global`, `topic:math`, `quiz:fractions-3`) or a wildcard for a kind
/// (`topic:*`, `group:*`, `quiz:*`). Exact ids win over wildcards.
public struct BoardRule: Sendable, Codable, Equatable {
    /// Board id or kind wildcard this rule applies to.
    public var scope: String
    /// IANA time zone periods are cut in.
    public var timeZone: String
    /// Windows the board keeps.
    public var windows: [LeaderboardWindow]
    /// Which value of a completion the board ranks by.
    public var metric: BoardMetric
    /// How a player's completions in a period become their score.
    public var aggregate: BoardAggregate
    /// Windows whose closed periods award medals.
    public var medalWindows: [LeaderboardWindow]
    /// How equal scores rank (on `sum` boards; best and latest boards always break ties by the run).
    public var tieBreak: TieBreak
    /// On a teams board (`team:<name>`): its teams, group names or name prefixes ending in `*` (`house-*`).
    public var teams: [String]?
    /// On a teams board: how a team's score comes from its group's board (the sum, or the average per player).
    public var teamScore: TeamScore?

    /// Creates a rule; defaults are UTC, all four windows, the sum of points, no medals, shared ranks for ties.
    public init(
        scope: String, timeZone: String = "UTC", windows: [LeaderboardWindow] = LeaderboardWindow.calendar,
        metric: BoardMetric = .points, aggregate: BoardAggregate = .sum, medalWindows: [LeaderboardWindow] = [],
        tieBreak: TieBreak = .shared, teams: [String]? = nil, teamScore: TeamScore? = nil
    ) {
        self.scope = scope
        self.timeZone = timeZone
        self.windows = windows
        self.metric = metric
        self.aggregate = aggregate
        self.medalWindows = medalWindows
        self.tieBreak = tieBreak
        self.teams = teams
        self.teamScore = teamScore
    }

    /// Decodes a rule; every key but `scope` may be left out.
    ///
    /// Without `medal_windows`, a global, topic, quiz or teams board keeps the spec's medals (week and month, those
    /// of them it keeps) and a group board has none; `"medal_windows": []` turns medals off.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let scope = try container.decode(String.self, forKey: .scope)
        self.scope = scope
        timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone) ?? "UTC"
        windows = try container.decodeIfPresent([LeaderboardWindow].self, forKey: .windows) ?? LeaderboardWindow.calendar
        metric = try container.decodeIfPresent(BoardMetric.self, forKey: .metric) ?? .points
        aggregate = try container.decodeIfPresent(BoardAggregate.self, forKey: .aggregate) ?? .sum
        let awardsByDefault = scope == "global" || ["topic:", "quiz:", "team:"].contains { scope.hasPrefix($0) }
        medalWindows = try container.decodeIfPresent([LeaderboardWindow].self, forKey: .medalWindows)
            ?? (awardsByDefault ? [.week, .month].filter(windows.contains) : [])
        tieBreak = try container.decodeIfPresent(TieBreak.self, forKey: .tieBreak) ?? .shared
        teams = try container.decodeIfPresent([String].self, forKey: .teams)
        teamScore = try container.decodeIfPresent(TeamScore.self, forKey: .teamScore)
    }

    /// The keys of a rule in a rules file (snake case there).
    private enum CodingKeys: String, CodingKey {
        case scope, timeZone, windows, metric, aggregate, medalWindows, tieBreak, teams, teamScore
    }

    /// Encodes the rule as a rules file writes it; a best or latest board's `tie_break` is left out, since such a board
    /// always breaks ties by the run (and a rules file naming one is refused).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scope, forKey: .scope)
        try container.encode(timeZone, forKey: .timeZone)
        try container.encode(windows, forKey: .windows)
        try container.encode(metric, forKey: .metric)
        try container.encode(aggregate, forKey: .aggregate)
        try container.encode(medalWindows, forKey: .medalWindows)
        if aggregate == .sum { try container.encode(tieBreak, forKey: .tieBreak) }
        try container.encodeIfPresent(teams, forKey: .teams)
        try container.encodeIfPresent(teamScore, forKey: .teamScore)
    }

    /// The spec's defaults: every scope kind gets all four windows in UTC; global and topic boards award medals weekly and monthly.
    public static let defaults: [BoardRule] = [
        BoardRule(scope: "global", medalWindows: [.week, .month]),
        BoardRule(scope: "topic:*", medalWindows: [.week, .month]),
        BoardRule(scope: "group:*"),
    ]

    /// Whether this rule names `scope` exactly.
    func matchesExactly(_ scope: BoardScope) -> Bool { self.scope == scope.id }

    /// Whether this rule is the wildcard for `scope`'s kind.
    func matchesKind(_ scope: BoardScope) -> Bool {
        switch scope {
        case .global: self.scope == "global"
        case .topic: self.scope == "topic:*"
        case .group: self.scope == "group:*"
        case .quiz: self.scope == "quiz:*"
        case .team, .contest, .league: false
        }
    }

    /// Problems with a teams board's rule, or with team fields on another board's; empty when there are none.
    var teamErrors: [String] {
        guard scope.hasPrefix("team:") else {
            return teams != nil || teamScore != nil ? ["board \(scope): teams and team_score belong to teams boards (team:<name>)"] : []
        }
        var errors: [String] = []
        if (teams ?? []).isEmpty { errors.append("board \(scope): a teams board lists its teams (group names, or prefixes like house-*)") }
        for team in teams ?? [] where TeamPattern(team) == nil {
            errors.append("board \(scope): team \(team) is not a group name or a group name prefix ending in *")
        }
        if metric != .points || aggregate != .sum || tieBreak != .shared {
            errors.append("board \(scope): a teams board ranks its groups' boards' scores; set metric, aggregate and tie_break on group:*")
        }
        return errors
    }

    /// The tie-break the rule's boards rank by: the rule's own on a `sum` board; on a best or latest board the run's
    /// (faster, then earlier), or the earliest for a duration, whose score already is the run's time.
    var effectiveTieBreak: TieBreak {
        switch aggregate {
        case .sum: tieBreak
        case .best, .latest: metric == .duration ? .earliest : .run
        }
    }

    /// Problems with the rule's metric, aggregate and tie-break together; empty when they go together.
    var rankingErrors: [String] {
        var errors: [String] = []
        switch (metric, aggregate) {
        case (.completions, .best), (.completions, .latest):
            errors.append("board \(scope): completions are counted, so they go with aggregate sum only")
        case (.accuracy, .sum):
            errors.append("board \(scope): accuracy is a single run's, so it goes with aggregate best or latest")
        case (.duration, .sum), (.duration, .latest):
            errors.append("board \(scope): duration ranks the fastest perfect run, so it goes with aggregate best only")
        default:
            break
        }
        if aggregate != .sum && tieBreak != .shared {
            errors.append("board \(scope): best and latest boards break ties by the run (faster, then earlier); leave tie_break out")
        }
        if aggregate == .sum && tieBreak == .run {
            errors.append("board \(scope): tie_break run belongs to best and latest boards")
        }
        return errors
    }
}

/// A resolved board: a scope with its rule applied.
public struct BoardDefinition: Sendable, Hashable {
    /// The scope, e.g. `topic:math`.
    public let scope: BoardScope
    /// Zone its periods are cut in.
    public let timeZone: TimeZone
    /// Windows it keeps.
    public let windows: [LeaderboardWindow]
    /// Which value of a completion it ranks by.
    public let metric: BoardMetric
    /// How a player's completions in a period become their score.
    public let aggregate: BoardAggregate
    /// Windows that award medals when a period closes.
    public let medalWindows: [LeaderboardWindow]
    /// How equal scores rank.
    public let tieBreak: TieBreak
    /// The contest behind a reference: definitions are copied with every board period, and a contest is large.
    private let contestBox: ContestBox?
    /// The league cohort this board is, for a cohort's board; nil for others.
    public let cohort: LeagueCohortBoard?
    /// On a teams board: its teams and how each scores; nil for others.
    public let teams: TeamSelection?

    /// The contest, for a contest board (whose periods are the contest's runs); nil for a calendar board.
    public var contest: Contest? { contestBox?.contest }

    /// Creates a definition.
    init(
        scope: BoardScope, timeZone: TimeZone, windows: [LeaderboardWindow], metric: BoardMetric, aggregate: BoardAggregate = .sum,
        medalWindows: [LeaderboardWindow], tieBreak: TieBreak, contest: Contest?, cohort: LeagueCohortBoard? = nil,
        teams: TeamSelection? = nil
    ) {
        self.teams = teams
        self.scope = scope
        self.timeZone = timeZone
        self.windows = windows
        self.metric = metric
        self.aggregate = aggregate
        self.medalWindows = medalWindows
        self.tieBreak = tieBreak
        contestBox = contest.map(ContestBox.init)
        self.cohort = cohort
    }

    /// The title displays show: a contest's title, or a cohort's league, tier and number; nil for calendar boards.
    public var title: String? {
        contest?.title ?? cohort.map { "\($0.league.name) · \($0.league.tiers[$0.tier].title) · Cohort \($0.number)" }
    }

    /// The board's id, as used in URLs and storage.
    public var id: String { scope.id }

    /// The board of a contest, league or tier that does not exist: no windows, so every window of it is not found.
    static func missing(_ scope: BoardScope) -> BoardDefinition {
        BoardDefinition(scope: scope, timeZone: .gmt, windows: [], metric: .points, medalWindows: [], tieBreak: .shared, contest: nil)
    }

    /// The period of `window` named `name`; nil when there is none.
    public func period(of window: LeaderboardWindow, named name: String) -> Period? {
        guard window == .contest else { return Period.named(name, window: window, timeZone: timeZone) }
        return contest?.run(named: name)
    }

    /// The period of `window` a board shows at `now`: the calendar period containing it, or the contest's current run
    /// (`Contest.currentRun`); nil only for a contest without runs.
    public func currentPeriod(of window: LeaderboardWindow, at now: Date) -> Period? {
        guard window == .contest else { return Period.containing(now, window: window, timeZone: timeZone) }
        return contest?.currentRun(at: now)
    }
}

/// The configured boards: resolves any scope to its definition.
public struct BoardCatalog: Sendable {
    /// Rules in configuration order.
    public let rules: [BoardRule]
    /// The contests, which PostgreSQL holds (shared by every copy of this catalog).
    public let contests: ContestRegistry

    /// Whether any rule turns quiz boards on (most configurations have none, and skip the lookup per completion).
    private let quizRules: Bool
    /// The teams boards' rules (most configurations have none).
    private let teamRules: [BoardRule]

    /// Creates a catalog; `validationErrors` reports unknown zones or scopes.
    public init(rules: [BoardRule] = BoardRule.defaults, contests: ContestRegistry = ContestRegistry()) {
        self.rules = rules
        self.contests = contests
        quizRules = rules.contains { $0.scope.hasPrefix("quiz:") }
        teamRules = rules.filter { $0.scope.hasPrefix("team:") }
    }

    /// Problems with the configured rules (unknown time zone, bad scope, no windows), empty when valid.
    public func validationErrors() -> [String] {
        rules.flatMap { rule -> [String] in
            var errors: [String] = []
            if !NameRules.isValidTimeZone(rule.timeZone) { errors.append("board \(rule.scope): unknown time zone \(rule.timeZone)") }
            let wildcard = ["topic:*", "group:*", "quiz:*"].contains(rule.scope)
            if !wildcard && BoardScope(id: rule.scope) == nil { errors.append("board \(rule.scope): not a board id or wildcard") }
            if rule.windows.isEmpty { errors.append("board \(rule.scope): no windows") }
            if rule.windows.contains(.contest) { errors.append("board \(rule.scope): the contest window belongs to contests only") }
            if rule.scope.hasPrefix("contest:") { errors.append("board \(rule.scope): contests are created through the API, not the rules file") }
            errors += rule.teamErrors + teamZoneErrors(rule)
            if Set(rule.windows).count != rule.windows.count { errors.append("board \(rule.scope): a window is listed twice") }
            return errors + rule.rankingErrors
        }
    }

    /// The definition of `scope`: its exact rule, else its kind's wildcard, else the defaults' rule for its kind.
    ///
    /// A quiz or teams board no rule names has no windows (they are kept only where a rule turns them on). A contest's board comes from the contest, a league cohort's from the league; a contest, league or tier that does
    /// not exist has a board without windows (so every window of it is not found).
    public func definition(for scope: BoardScope) -> BoardDefinition {
        if case .contest(let id) = scope {
            return contests.board(id) ?? .missing(scope)
        }
        if case .league(let id, let tier, let cohort) = scope {
            guard let league = contests.league(id), let index = league.tierIndex(named: tier), cohort <= League.maximumCohorts else {
                return .missing(scope)
            }
            return league.cohortBoard(tier: index, cohort: cohort)
        }
        guard let rule = rule(for: scope) else { return .missing(scope) }
        return BoardDefinition(
            scope: scope,
            timeZone: TimeZone(identifier: rule.timeZone) ?? .gmt,
            windows: rule.windows,
            metric: rule.metric,
            aggregate: rule.aggregate,
            medalWindows: rule.medalWindows,
            tieBreak: rule.effectiveTieBreak,
            contest: nil,
            teams: rule.teams.map { TeamSelection(patterns: $0.compactMap(TeamPattern.init), score: rule.teamScore ?? .sum) }
        )
    }

    /// How `scope`'s equal scores rank: `definition(for:).tieBreak`, without making the whole definition (rebuilds
    /// and reconciles ask it for every row they read).
    public func tieBreak(of scope: BoardScope) -> TieBreak {
        if case .contest(let id) = scope { return contests.board(id)?.tieBreak ?? .shared }
        if case .league(let id, _, _) = scope { return contests.league(id)?.tieBreak ?? .shared }
        return rule(for: scope)?.effectiveTieBreak ?? .shared
    }

    /// Which value `scope` ranks: `definition(for:).metric`, without making the whole definition (reads ask it per answer).
    public func metric(of scope: BoardScope) -> BoardMetric {
        if case .contest(let id) = scope { return contests.board(id)?.metric ?? .points }
        if case .league(let id, _, _) = scope { return contests.league(id)?.metric ?? .points }
        return rule(for: scope)?.metric ?? .points
    }

    /// How `scope` keeps a player's completions: `definition(for:).aggregate`, without making the whole definition
    /// (contests and leagues sum).
    public func aggregate(of scope: BoardScope) -> BoardAggregate {
        switch scope {
        case .contest, .league: .sum
        default: rule(for: scope)?.aggregate ?? .sum
        }
    }

    /// The teams boards that rank group `group` among their teams.
    public func teamBoards(ofGroup group: String) -> [BoardDefinition] {
        teamRules.filter { rule in (rule.teams ?? []).contains { TeamPattern($0)?.includes(group) == true } }
            .map { definition(for: .team(String($0.scope.dropFirst("team:".count)))) }
    }

    /// A teams board's rule against its groups' boards: each of its windows must be one its groups' boards keep, in
    /// the same zone, so a team's period is its group's period.
    private func teamZoneErrors(_ rule: BoardRule) -> [String] {
        guard rule.scope.hasPrefix("team:") else { return [] }
        let groups = (rule.teams ?? []).compactMap(TeamPattern.init).map { pattern -> BoardScope in
            if case .group(let name) = pattern { return .group(name) }
            return .group("any-group-of-the-prefix")
        }
        return groups.compactMap { group -> String? in
            let kept = definition(for: group)
            if kept.metric == .duration { return "board \(rule.scope): its groups' boards rank durations, which teams cannot add up" }
            guard kept.timeZone.identifier != TimeZone(identifier: rule.timeZone)?.identifier || !Set(rule.windows).isSubset(of: kept.windows)
            else { return nil }
            return "board \(rule.scope): its windows and time zone must be ones its groups' boards keep (\(group.id): "
                + "\(kept.windows.map(\.rawValue).joined(separator: ", ")) in \(kept.timeZone.identifier))"
        }.first.map { [$0] } ?? []
    }

    /// Whether completions of quiz `quizID` count on its quiz board: a rule names it or `quiz:*`.
    public func countsQuiz(_ quizID: String) -> Bool {
        quizRules && rule(for: .quiz(quizID)) != nil
    }

    /// The rule for a calendar board: its exact rule, else its kind's wildcard, else the defaults' rule for its kind;
    /// nil for a quiz board no rule names.
    private func rule(for scope: BoardScope) -> BoardRule? {
        rules.first { $0.matchesExactly(scope) }
            ?? rules.first { $0.matchesKind(scope) }
            ?? BoardRule.defaults.first { $0.matchesKind(scope) }
            ?? ([.quiz, .team].contains(scope.kind) ? nil : BoardRule(scope: scope.id))
    }
}

/// One entry of a teams board's `teams`: a group's name, or a prefix of group names (`house-*`).
public enum TeamPattern: Sendable, Hashable {
    /// The group of this name.
    case group(String)
    /// Every group whose name starts with this.
    case prefix(String)

    /// Parses `text`: a group name, or a non-empty start of one followed by `*`; nil for anything else.
    public init?(_ text: String) {
        if text.hasSuffix("*") {
            let start = String(text.dropLast())
            guard NameRules.isValidScopeName(start) else { return nil }
            self = .prefix(start)
        } else {
            guard NameRules.isValidScopeName(text) else { return nil }
            self = .group(text)
        }
    }

    /// Whether group `name` is one of the teams this names.
    public func includes(_ name: String) -> Bool {
        switch self {
        case .group(let group): group == name
        case .prefix(let start): name.hasPrefix(start)
        }
    }
}

/// A teams board's teams and how each scores.
public struct TeamSelection: Sendable, Hashable {
    /// Which groups are teams.
    public let patterns: [TeamPattern]
    /// How a team's score comes from its group's board.
    public let score: TeamScore

    /// Creates a selection.
    public init(patterns: [TeamPattern], score: TeamScore) {
        self.patterns = patterns
        self.score = score
    }

    /// Whether group `name` is one of the teams.
    public func includes(_ name: String) -> Bool { patterns.contains { $0.includes(name) } }
}

/// One board period a completion falls in.
public struct BoardPeriod: Sendable, Hashable {
    /// The board.
    public let board: BoardDefinition
    /// The period of one of its windows.
    public let period: Period

    /// Creates a board period.
    public init(board: BoardDefinition, period: Period) {
        self.board = board
        self.period = period
    }
}

/// A contest held by reference, compared by its value and hashed by its id (equal contests have equal ids): sets of
/// board periods hash boards often, and a contest's whole value is long to hash.
private final class ContestBox: Sendable, Hashable {
    let contest: Contest

    init(_ contest: Contest) {
        self.contest = contest
    }

    static func == (left: ContestBox, right: ContestBox) -> Bool { left.contest == right.contest }

    func hash(into hasher: inout Hasher) { hasher.combine(contest.id) }
}

extension BoardMetric {
    /// The slowest perfect run a `duration` board ranks, in centiseconds (about 5 h 50 min); slower ones do not count.
    public static let slowestRunCentiseconds: Int64 = (1 << 21) - 1

    /// What one completion worth `points` with `correct` of `total` right in `durationMs` gives a board of this metric:
    /// the amount a `sum` board adds, the run a `best` or `latest` board compares; nil when it does not count (a
    /// `duration` board takes perfect, timed runs only).
    ///
    /// Every board ranks higher stored scores first, so a duration is stored as `slowestRunCentiseconds` less the run's
    /// centiseconds (`shownValue` turns it back into milliseconds).
    public func value(points: Int, correct: Int, total: Int, durationMs: Int?) -> Int64? {
        switch self {
        case .points: return Int64(points)
        case .completions: return 1
        case .correct: return Int64(correct)
        case .accuracy: return total > 0 ? Int64(correct) * 10_000 / Int64(total) : 0
        case .duration:
            guard total > 0, correct == total, let durationMs, durationMs >= 0 else { return nil }
            let centiseconds = Int64(durationMs) / 10
            return centiseconds > Self.slowestRunCentiseconds ? nil : Self.slowestRunCentiseconds - centiseconds
        }
    }

    /// The value a stored score shows in answers: the score itself, or for `duration` the run's milliseconds.
    public func shownValue(_ stored: Int64) -> Int64 {
        self == .duration ? (Self.slowestRunCentiseconds - stored) * 10 : stored
    }
}
