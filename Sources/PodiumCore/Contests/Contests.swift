import Foundation
import PodiumWire
import Synchronization

/// Which completions a contest counts: every one, one topic's, or those of a list of groups.
public enum ContestScope: Sendable, Hashable {
    /// Every completion.
    case global
    /// Completions of quizzes in one topic.
    case topic(String)
    /// Completions posted for at least one of these groups (sorted, distinct).
    case groups([String])

    /// The most groups a contest may list.
    public static let maximumGroups = 50

    /// The scope as board ids: `["global"]`, `["topic:math"]` or `["group:5c", "group:5d"]`.
    public var boards: [BoardScope] {
        switch self {
        case .global: [.global]
        case .topic(let topic): [.topic(topic)]
        case .groups(let groups): groups.map { .group($0) }
        }
    }

    /// Parses board ids: exactly `global`, exactly one topic, or 1...50 distinct groups; nil otherwise.
    public init?(boards ids: [String]) {
        let scopes = ids.compactMap(BoardScope.init(id:))
        guard scopes.count == ids.count, !scopes.isEmpty else { return nil }
        switch scopes[0] {
        case .global where scopes.count == 1: self = .global
        case .topic(let topic) where scopes.count == 1: self = .topic(topic)
        default:
            let groups = scopes.compactMap { scope -> String? in
                if case .group(let name) = scope { return name }
                return nil
            }
            guard groups.count == scopes.count, Set(groups).count == groups.count, groups.count <= Self.maximumGroups else { return nil }
            self = .groups(groups.sorted())
        }
    }

    /// Whether a completion in `topic` posted for `groups` counts.
    public func counts(topic: String, groups: [String]) -> Bool {
        switch self {
        case .global: true
        case .topic(let name): name == topic
        case .groups(let names): groups.contains { names.contains($0) }
        }
    }

    /// Of a completion's `groups`, those whose totals the contest keeps: all of them, or only its own for a group contest.
    public func totalledGroups(of groups: [String]) -> [String] {
        switch self {
        case .global, .topic: groups
        case .groups(let names): groups.filter { names.contains($0) }
        }
    }
}

/// When a contest runs: once, or on a recurring schedule.
public enum ContestSchedule: Sendable, Hashable {
    /// One run, `[start, end)`: a school term, an afternoon.
    case once(start: Date, end: Date)
    /// A run at each fire time of `cron` (read in its zone) from `from` until `until`, each lasting `duration`
    /// or until the next run starts, whichever is first.
    case recurring(cron: CronSchedule, duration: TimeInterval, from: Date?, until: Date?)

    /// The shortest and longest run a schedule may ask for: 1 minute to 366 days.
    public static let durations: ClosedRange<TimeInterval> = 60...(366 * 86_400)
}

/// A competition an admin created: a board whose periods are the runs of its schedule.
///
/// Its board id is `contest:<id>` and its one window is `contest`; runs are named by their start in UTC
/// (`20261127T1400Z`). Only completions played inside a run (and in scope, and by an entrant when entry is
/// `join`) count, under the same close-grace rules as calendar periods.
public struct Contest: Sendable, Hashable {
    /// The id, a scope name (`friday-quiz`).
    public let id: String
    /// The human title displays show.
    public let title: String
    /// Which completions count.
    public let scope: ContestScope
    /// When it runs.
    public let schedule: ContestSchedule
    /// The zone its runs are shown (and, when recurring, scheduled) in.
    public let timeZone: TimeZone
    /// Who takes part.
    public let entry: ContestEntry
    /// The most players who may join (`join` contests only).
    public let maxPlayers: Int?
    /// What it ranks by.
    public let metric: BoardMetric
    /// How equal scores rank.
    public let tieBreak: TieBreak
    /// Whether each run awards medals when it closes.
    public let medals: Bool
    /// When it was cancelled: from then on nothing counts and no medals are awarded; nil while it stands.
    public let cancelledAt: Date?

    /// Creates a contest.
    public init(
        id: String, title: String, scope: ContestScope, schedule: ContestSchedule, timeZone: TimeZone, entry: ContestEntry = .open,
        maxPlayers: Int? = nil, metric: BoardMetric = .points, tieBreak: TieBreak = .shared, medals: Bool = true, cancelledAt: Date? = nil
    ) {
        self.id = id
        self.title = title
        self.scope = scope
        self.schedule = schedule
        self.timeZone = timeZone
        self.entry = entry
        self.maxPlayers = maxPlayers
        self.metric = metric
        self.tieBreak = tieBreak
        self.medals = medals
        self.cancelledAt = cancelledAt
    }

    /// The contest's board.
    public var board: BoardDefinition {
        BoardDefinition(
            scope: .contest(id), timeZone: timeZone, windows: [.contest], metric: metric,
            medalWindows: medals && cancelledAt == nil ? [.contest] : [], tieBreak: tieBreak, contest: self)
    }

    /// The run that contains `date`; nil between runs, before the first and after the last.
    public func run(containing date: Date) -> Period? {
        switch schedule {
        case .once(let start, let end):
            return start <= date && date < end ? .contestRun(start: start, end: end) : nil
        case .recurring:
            guard let start = latestStart(atOrBefore: date), let run = run(startingAt: start), run.contains(date) else { return nil }
            return run
        }
    }

    /// The run named `key` (its start in UTC, `20261127T1400Z`); nil when no run starts then.
    public func run(named key: String) -> Period? {
        guard let start = Period.contestRunStart(key) else { return nil }
        switch schedule {
        case .once(let first, let end):
            return Period.contestRunKey(first) == key ? .contestRun(start: first, end: end) : nil
        case .recurring:
            // Runs start on whole minutes, so the name's minute is the start itself.
            guard latestStart(atOrBefore: start) == start else { return nil }
            return run(startingAt: start)
        }
    }

    /// The run a board shows at `now`: the one under way, else the latest that started, else the first to come.
    public func currentRun(at now: Date) -> Period? {
        if let run = run(containing: now) { return run }
        switch schedule {
        case .once(let start, let end):
            return .contestRun(start: start, end: end)
        case .recurring:
            if let start = latestStart(atOrBefore: now), let run = run(startingAt: start) { return run }
            return runs(after: now, limit: 1).first
        }
    }

    /// Up to `limit` runs starting after `date`, earliest first.
    public func runs(after date: Date, limit: Int) -> [Period] {
        switch schedule {
        case .once(let start, let end):
            return start > date && limit > 0 ? [.contestRun(start: start, end: end)] : []
        case .recurring(let cron, _, let from, let until):
            var runs: [Period] = []
            var cursor = max(date, from.map { $0.addingTimeInterval(-1) } ?? date)
            while runs.count < limit, let start = cron.next(after: cursor), until.map({ start < $0 }) ?? true,
                  let run = run(startingAt: start) {
                runs.append(run)
                cursor = start
            }
            return runs
        }
    }

    /// The run starting at `start` (a start of the schedule): it lasts the duration, or until the next run starts.
    private func run(startingAt start: Date) -> Period? {
        switch schedule {
        case .once(let first, let end):
            return start == first ? .contestRun(start: first, end: end) : nil
        case .recurring(let cron, let duration, _, let until):
            // Only a run that starts cuts this one short: a fire time at or after `until` starts none.
            let next = cron.next(after: start).flatMap { next in until.map { next < $0 } ?? true ? next : nil }
            return .contestRun(start: start, end: min(start.addingTimeInterval(duration), next ?? .distantFuture))
        }
    }

    /// The latest run start at or before `date` within the schedule's bounds.
    private func latestStart(atOrBefore date: Date) -> Date? {
        guard case .recurring(let cron, _, let from, let until) = schedule else { return nil }
        // The last start before `until` (exclusive) is at or before the whole second just under it.
        let bound = until.map { min(date, $0.addingTimeInterval(-1)) } ?? date
        guard let start = cron.latest(atOrBefore: bound), from.map({ start >= $0 }) ?? true else { return nil }
        return start
    }
}

/// The contests, leagues and goals every part of a replica sees, kept in step with PostgreSQL by revision (leagues and
/// goals draw their revisions from the contests' sequence, so one number tells whether any is behind).
///
/// PostgreSQL holds the contests; a replica loads them at start, after each change it makes, when a completion
/// batch finds a newer revision in the database (so a contest created on any replica counts from the first
/// completion recorded after it), and in the background when any replica tells of a change (`ContestRefreshService`:
/// at least every `ChangeNotices.safetyNet`, and every second while notifications do not arrive).
public final class ContestRegistry: Sendable {
    private struct State {
        var revision: Int64 = 0
        /// Each contest's board, made once per read, in id order.
        var boards: [BoardDefinition] = []
        var byID: [String: BoardDefinition] = [:]
        /// The leagues, in id order, and by id.
        var leagues: [League] = []
        var leaguesByID: [String: League] = [:]
        /// The goals, in id order, and by id.
        var goals: [Goal] = []
        var goalsByID: [String: Goal] = [:]
    }

    private let state = Mutex(State())

    /// Creates an empty registry (revision 0).
    public init() {}

    /// The revision of the contests held: the highest `revision` of the `contests` table when they were read.
    public var revision: Int64 { state.withLock { $0.revision } }

    /// Replaces the contests with `contests`, the leagues with `leagues` and the goals with `goals`, read at `revision`;
    /// an older read than the one held is ignored.
    public func replace(with contests: [Contest], leagues: [League], goals: [Goal] = [], revision: Int64) {
        let boards = contests.sorted { $0.id < $1.id }.map(\.board)
        let leagues = leagues.sorted { $0.id < $1.id }
        let goals = goals.sorted { $0.id < $1.id }
        state.withLock { state in
            guard revision >= state.revision else { return }
            state.revision = revision
            state.boards = boards
            state.byID = Dictionary(uniqueKeysWithValues: boards.compactMap { board in board.contest.map { ($0.id, board) } })
            state.leagues = leagues
            state.leaguesByID = Dictionary(uniqueKeysWithValues: leagues.map { ($0.id, $0) })
            state.goals = goals
            state.goalsByID = Dictionary(uniqueKeysWithValues: goals.map { ($0.id, $0) })
        }
    }

    /// The goal `id`, ended or not; nil if there is none.
    public func goal(_ id: String) -> Goal? {
        state.withLock { $0.goalsByID[id] }
    }

    /// Every goal, by id.
    public var goals: [Goal] {
        state.withLock { $0.goals }
    }

    /// The league `id`, ended or not; nil if there is none.
    public func league(_ id: String) -> League? {
        state.withLock { $0.leaguesByID[id] }
    }

    /// Every league, by id.
    public var leagues: [League] {
        state.withLock { $0.leagues }
    }

    /// The leagues a completion in `topic` for `groups`, played at `completedAt`, counts in now (`League.counts`), by id.
    public func leaguesCounting(topic: String, groups: [String], completedAt: Date) -> [League] {
        leagues.filter { $0.counts(completedAt: completedAt) && $0.scope.counts(topic: topic, groups: groups) }
    }

    /// The board of contest `id`, cancelled or not; nil if there is none.
    public func board(_ id: String) -> BoardDefinition? {
        state.withLock { $0.byID[id] }
    }

    /// The contest `id`, cancelled or not; nil if there is none.
    public func contest(_ id: String) -> Contest? {
        board(id)?.contest
    }

    /// Every contest, by id.
    public var all: [Contest] {
        state.withLock { $0.boards }.compactMap(\.contest)
    }

    /// The boards of the contests not cancelled whose scope counts a completion in `topic` for `groups`, by id.
    public func boardsCounting(topic: String, groups: [String]) -> [BoardDefinition] {
        state.withLock { $0.boards }.filter { board in
            guard let contest = board.contest else { return false }
            return contest.cancelledAt == nil && contest.scope.counts(topic: topic, groups: groups)
        }
    }
}
