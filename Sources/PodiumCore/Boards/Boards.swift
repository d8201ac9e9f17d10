import Foundation
import PodiumWire

/// A configured rule that gives boards matching `scope` their time zone, windows, metric and medals.
///
/// `scope` is an exact board id (`global`, `topic:math`) or a wildcard for a kind
/// (`topic:*`, `group:*`). Exact ids win over wildcards.
public struct BoardRule: Sendable, Codable, Equatable {
    /// Board id or kind wildcard this rule applies to.
    public var scope: String
    /// IANA time zone periods are cut in.
    public var timeZone: String
    /// Windows the board keeps.
    public var windows: [LeaderboardWindow]
    /// What the board ranks by.
    public var metric: BoardMetric
    /// Windows whose closed periods award medals.
    public var medalWindows: [LeaderboardWindow]
    /// How equal scores rank.
    public var tieBreak: TieBreak

    /// Creates a rule; defaults are UTC, all four windows, points, no medals, shared ranks for ties.
    public init(
        scope: String, timeZone: String = "UTC", windows: [LeaderboardWindow] = LeaderboardWindow.calendar,
        metric: BoardMetric = .points, medalWindows: [LeaderboardWindow] = [], tieBreak: TieBreak = .shared
    ) {
        self.scope = scope
        self.timeZone = timeZone
        self.windows = windows
        self.metric = metric
        self.medalWindows = medalWindows
        self.tieBreak = tieBreak
    }

    /// Decodes a rule; every key but `scope` may be left out.
    ///
    /// Without `medal_windows`, a global or topic board keeps the spec's medals (week and month, those
    /// of them it keeps) and a group board has none; `"medal_windows": []` turns medals off.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        scope = try container.decode(String.self, forKey: .scope)
        timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone) ?? "UTC"
        windows = try container.decodeIfPresent([LeaderboardWindow].self, forKey: .windows) ?? LeaderboardWindow.calendar
        metric = try container.decodeIfPresent(BoardMetric.self, forKey: .metric) ?? .points
        let awardsByDefault = scope == "global" || scope.hasPrefix("topic:")
        medalWindows = try container.decodeIfPresent([LeaderboardWindow].self, forKey: .medalWindows)
            ?? (awardsByDefault ? [.week, .month].filter(windows.contains) : [])
        tieBreak = try container.decodeIfPresent(TieBreak.self, forKey: .tieBreak) ?? .shared
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
        case .contest, .league: false
        }
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
    /// What it ranks by.
    public let metric: BoardMetric
    /// Windows that award medals when a period closes.
    public let medalWindows: [LeaderboardWindow]
    /// How equal scores rank.
    public let tieBreak: TieBreak
    /// The contest behind a reference: definitions are copied with every board period, and a contest is large.
    private let contestBox: ContestBox?
    /// The league cohort this board is, for a cohort's board; nil for others.
    public let cohort: LeagueCohortBoard?

    /// The contest, for a contest board (whose periods are the contest's runs); nil for a calendar board.
    public var contest: Contest? { contestBox?.contest }

    /// Creates a definition.
    init(
        scope: BoardScope, timeZone: TimeZone, windows: [LeaderboardWindow], metric: BoardMetric, medalWindows: [LeaderboardWindow],
        tieBreak: TieBreak, contest: Contest?, cohort: LeagueCohortBoard? = nil
    ) {
        self.scope = scope
        self.timeZone = timeZone
        self.windows = windows
        self.metric = metric
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

    /// Creates a catalog; `validationErrors` reports unknown zones or scopes.
    public init(rules: [BoardRule] = BoardRule.defaults, contests: ContestRegistry = ContestRegistry()) {
        self.rules = rules
        self.contests = contests
    }

    /// Problems with the configured rules (unknown time zone, bad scope, no windows), empty when valid.
    public func validationErrors() -> [String] {
        rules.flatMap { rule -> [String] in
            var errors: [String] = []
            if !NameRules.isValidTimeZone(rule.timeZone) { errors.append("board \(rule.scope): unknown time zone \(rule.timeZone)") }
            let wildcard = ["topic:*", "group:*"].contains(rule.scope)
            if !wildcard && BoardScope(id: rule.scope) == nil { errors.append("board \(rule.scope): not a board id or wildcard") }
            if rule.windows.isEmpty { errors.append("board \(rule.scope): no windows") }
            if rule.windows.contains(.contest) { errors.append("board \(rule.scope): the contest window belongs to contests only") }
            if rule.scope.hasPrefix("contest:") { errors.append("board \(rule.scope): contests are created through the API, not the rules file") }
            if Set(rule.windows).count != rule.windows.count { errors.append("board \(rule.scope): a window is listed twice") }
            return errors
        }
    }

    /// The definition of `scope`: its exact rule, else its kind's wildcard, else the defaults' rule for its kind.
    ///
    /// A contest's board comes from the contest, a league cohort's from the league; a contest, league or tier that does
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
        let rule = rule(for: scope)
        return BoardDefinition(
            scope: scope,
            timeZone: TimeZone(identifier: rule.timeZone) ?? .gmt,
            windows: rule.windows,
            metric: rule.metric,
            medalWindows: rule.medalWindows,
            tieBreak: rule.tieBreak,
            contest: nil
        )
    }

    /// How `scope`'s equal scores rank: `definition(for:).tieBreak`, without making the whole definition (rebuilds
    /// and reconciles ask it for every row they read).
    public func tieBreak(of scope: BoardScope) -> TieBreak {
        if case .contest(let id) = scope { return contests.board(id)?.tieBreak ?? .shared }
        if case .league(let id, _, _) = scope { return contests.league(id)?.tieBreak ?? .shared }
        return rule(for: scope).tieBreak
    }

    /// The rule for a calendar board: its exact rule, else its kind's wildcard, else the defaults' rule for its kind.
    private func rule(for scope: BoardScope) -> BoardRule {
        rules.first { $0.matchesExactly(scope) }
            ?? rules.first { $0.matchesKind(scope) }
            ?? BoardRule.defaults.first { $0.matchesKind(scope) }
            ?? BoardRule(scope: scope.id)
    }
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
    /// How much one completion worth `points` adds to a board of this metric.
    public func increment(points: Int) -> Int64 {
        switch self {
        case .points: Int64(points)
        case .completions: 1
        }
    }
}
