import Foundation
import PodiumCore
import PodiumWire
import Postgres

/// What asking to join a contest did.
public enum JoinOutcome: Sendable, Equatable {
    /// Joined now (HTTP 201).
    case joined
    /// Had joined already: nothing changed (HTTP 200).
    case alreadyJoined
    /// The contest has `max_players` entrants already: nothing changed.
    case full
    /// The contest's entry is `open`: there is nothing to join.
    case open
    /// The contest was cancelled.
    case cancelled
    /// PostgreSQL holds no such contest.
    case missing
}

/// The contests in PostgreSQL, and the registry every replica's game rules read them from.
public struct ContestStore: Sendable {
    let postgres: PostgresPool
    let registry: ContestRegistry

    /// Creates the store; `registry` is the one the game rules hold (`rules.boards.contests`).
    public init(postgres: PostgresPool, registry: ContestRegistry) {
        self.postgres = postgres
        self.registry = registry
    }

    /// Reads every contest into the registry when PostgreSQL holds a newer revision than it; returns whether it did.
    ///
    /// A plain read of the revision first (it runs on every change notice and as a safety net, and rarely finds a
    /// change when it is not told of one); then one snapshot
    /// (repeatable read) for the revision and the rows, so the registry holds exactly that revision.
    @discardableResult
    public func refresh() async throws -> Bool {
        let registry = registry
        guard try await postgres.run(ContestRevision())[0].revision > registry.revision else { return false }
        return try await postgres.withTransaction(isolation: "REPEATABLE READ") { connection in
            let revision = try connection.run(ContestRevision())[0].revision
            guard revision > registry.revision else { return false }
            try RegistryLoad.load(into: registry, revision: revision, on: connection)
            return true
        }
    }

    /// Changes to contests and leagues take this lock first, one at a time: their revisions then commit in the order
    /// they were drawn, so a replica that has read revision N has seen every change up to N.
    static let changeLock = "LOCK TABLE contests IN SHARE ROW EXCLUSIVE MODE"

    /// Runs `body`, a change to the contests or leagues, in a transaction under `changeLock`; when it says it changed
    /// something, every replica is told (`ChangeTopic.contests`) as it commits. This replica's registry is refreshed
    /// after it. Returns what `body` returned.
    func change<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> (T, changed: Bool)) async throws -> T {
        let result = try await postgres.withTransaction { connection in
            try connection.execute(Self.changeLock)
            let (result, changed) = try body(connection)
            if changed { try connection.run(NotifyChange(.contests)) }
            return result
        }
        try await refresh()
        return result
    }

    /// Stores a new contest; false when the id is taken (nothing changed). The registry is refreshed once it committed,
    /// and every other replica's is told to (`ChangeTopic.contests`).
    public func create(_ contest: Contest, now: Date) async throws -> Bool {
        let insert = AddContest(contest: contest, createdAt: now)
        return try await change { connection in
            let inserted = try connection.runCounting(insert) == 1
            return (inserted, inserted)
        }
    }

    /// Marks contest `id` cancelled at `now` (nothing counts from then on and no run awards medals); false when it was
    /// already. The registry is refreshed once it committed, and every other replica's is told to.
    public func cancel(id: String, now: Date) async throws -> Bool {
        try await change { connection in
            let changed = try connection.runCounting(CancelContest(id: id, cancelledAt: now)) == 1
            return (changed, changed)
        }
    }

    /// How many players joined each of `ids`.
    public func entrantCounts(_ ids: [String]) async throws -> [String: Int] {
        guard !ids.isEmpty else { return [:] }
        var counts: [String: Int] = [:]
        for row in try await postgres.run(EntrantCounts(contestIDs: ids)) {
            counts[row.contestID] = row.n
        }
        return counts
    }

    /// When each of `contests`' current runs at `now` was closed, by contest id (runs not closed are left out).
    public func currentRunClosings(_ contests: [Contest], now: Date) async throws -> [String: Date] {
        let runs = contests.compactMap { contest in contest.currentRun(at: now).map { (contest.id, BoardPeriod(board: contest.board, period: $0)) } }
        guard !runs.isEmpty else { return [:] }
        let closings = try await postgres.withConnection { try PeriodClosings.of(runs.map(\.1), on: $0) }
        return Dictionary(uniqueKeysWithValues: runs.compactMap { id, run in closings[BoardPeriodKey(run)].map { (id, $0) } })
    }

    /// Makes `userID` an entrant of contest `contestID`, unless it is full, open to all, or cancelled.
    ///
    /// Joins of one contest take the contest's row lock in turn, so concurrent joins cannot pass `max_players`.
    public func join(contestID: String, userID: String, now: Date) async throws -> JoinOutcome {
        try await postgres.withTransaction { connection in
            guard let contest = try connection.run(LockedContest(id: contestID)).first else { return .missing }
            if contest.cancelledAt != nil { return .cancelled }
            if contest.entry != ContestEntry.join.rawValue { return .open }
            let state = try connection.run(ContestEntrants(contestID: contestID, userID: userID))[0]
            if state.present == true { return .alreadyJoined }
            if let maximum = contest.maxPlayers, state.n >= maximum { return .full }
            try connection.run(AddEntrant(contestID: contestID, userID: userID, joinedAt: now))
            return .joined
        }
    }

    /// Removes `userID` from `contestID`'s entrants (scores already earned stay); false when it was not one.
    public func leave(contestID: String, userID: String) async throws -> Bool {
        try await postgres.runCounting(RemoveEntrant(contestID: contestID, userID: userID)) == 1
    }
}

/// A group's total on one board period, and where it ranks among the groups.
public struct GroupStanding: Sendable, Equatable {
    /// The group's total (0 when it has none).
    public var total: Int64
    /// Its rank among the groups with a total, competition style (1-2-2-4); nil when it has none.
    public var rank: Int?
    /// How many groups have a total there.
    public var groups: Int
}

extension ContestStore {
    /// Group `group`'s standing on a board period.
    ///
    /// In a contest run it is the group's total kept with the run's scores (`contest_group_scores`); on a calendar
    /// window it is the sum of the scores on the group's own board (`group:<group>`), ranked against every group
    /// board's sum for the same window and period.
    public func groupStanding(board: String, window: LeaderboardWindow, period: String, group: String) async throws -> GroupStanding {
        let statement = window == .contest
            ? GroupRank(inContestRun: true, boardOrWindow: board, period: period, subject: group)
            : GroupRank(inContestRun: false, boardOrWindow: window.rawValue, period: period, subject: BoardScope.group(group).id)
        let row = try await postgres.run(statement)[0]
        return GroupStanding(total: row.total ?? 0, rank: row.total == nil ? nil : row.above + 1, groups: row.groups)
    }
}

extension ContestStore {
    /// The group totals of contest run `period` of `board`, best first (ties by name), at most `limit` of them.
    public func groupTotals(board: String, period: String, limit: Int) async throws -> [GroupTotal] {
        try await postgres.run(RunGroupTotals(board: board, period: period, limit: limit)).map { row in
            GroupTotal(group: row.groupName, total: row.score, rank: row.rank)
        }
    }
}

/// The revision of contests, leagues and goals: the highest in any of the tables, 0 when all are empty.
struct ContestRevision: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT GREATEST((SELECT COALESCE(max(revision), 0) FROM contests), (SELECT COALESCE(max(revision), 0) FROM leagues),
                        (SELECT COALESCE(max(revision), 0) FROM goals)) AS revision
        """
    struct Row: Decodable, Sendable { let revision: Int64 }
}

/// Stores a new contest unless its id is taken.
private struct AddContest: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO contests (id, title, scope, starts_at, ends_at, cron, duration_seconds, time_zone, entry, max_players,
                              metric, tie_break, medals, created_at)
        VALUES (\(\.contest.id), \(\.contest.title), \(\.scope), \(\.schedule.startsAt), \(\.schedule.endsAt), \(\.schedule.cron),
                \(\.schedule.durationSeconds), \(\.contest.timeZone.configuredName), \(\.contest.entry.rawValue), \(\.contest.maxPlayers),
                \(\.contest.metric.rawValue), \(\.contest.tieBreak.rawValue), \(\.contest.medals), \(\.createdAt))
        ON CONFLICT (id) DO NOTHING
        """
    typealias Row = NoRows
    let contest: Contest
    let createdAt: Date

    /// The board ids of its scope.
    var scope: [String] { contest.scope.boards.map(\.id) }
    /// Its schedule's columns.
    var schedule: ScheduleColumns { ScheduleColumns(contest.schedule) }

    /// A schedule as `contests` stores it: once, its run's start and end; recurring, when runs start (cron), how long
    /// they last, and optional bounds on their starts.
    struct ScheduleColumns {
        var startsAt: Date?
        var endsAt: Date?
        var cron: String?
        var durationSeconds: Int?

        /// The columns of `schedule`.
        init(_ schedule: ContestSchedule) {
            switch schedule {
            case .once(let first, let last):
                (startsAt, endsAt) = (first, last)
            case .recurring(let schedule, let length, let from, let until):
                (cron, durationSeconds, startsAt, endsAt) = (schedule.expression.description, Int(length), from, until)
            }
        }
    }
}

/// Marks a contest cancelled, with a new revision, unless it was already.
private struct CancelContest: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        UPDATE contests SET cancelled_at = \(\.cancelledAt), revision = nextval('contests_revision_seq')
        WHERE id = \(\.id) AND cancelled_at IS NULL
        """
    typealias Row = NoRows
    let id: String
    let cancelledAt: Date
}

/// How many players joined each of some contests (contests without entrants left out).
private struct EntrantCounts: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT contest_id, count(*) AS n FROM contest_entries WHERE contest_id = ANY(\(\.contestIDs)) GROUP BY contest_id
        """
    struct Row: Decodable, Sendable {
        let contestID: String
        let n: Int
    }
    let contestIDs: [String]
}

/// A contest's entry rules, its row locked until the transaction ends (joins of one contest take it in turn).
private struct LockedContest: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT entry, max_players, cancelled_at FROM contests WHERE id = \(\.id) FOR UPDATE"
    struct Row: Decodable, Sendable {
        /// `open` or `join`.
        let entry: String
        let maxPlayers: Int?
        let cancelledAt: Date?
    }
    let id: String
}

/// How many players joined a contest, and whether one player is among them.
private struct ContestEntrants: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT count(*) AS n, bool_or(user_id = \(\.userID)) AS present FROM contest_entries WHERE contest_id = \(\.contestID)
        """
    struct Row: Decodable, Sendable {
        /// How many joined.
        let n: Int
        /// Whether the player did; NULL when no one did.
        let present: Bool?
    }
    let contestID: String
    let userID: String
}

/// Makes a player an entrant of a contest.
private struct AddEntrant: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO contest_entries (contest_id, user_id, joined_at) VALUES (\(\.contestID), \(\.userID), \(\.joinedAt))
        """
    typealias Row = NoRows
    let contestID: String
    let userID: String
    let joinedAt: Date
}

/// Removes a player from a contest's entrants.
private struct RemoveEntrant: PostgresStatement {
    static let sql: PostgresSQL<Self> = "DELETE FROM contest_entries WHERE contest_id = \(\.contestID) AND user_id = \(\.userID)"
    typealias Row = NoRows
    let contestID: String
    let userID: String
}

/// The `join` contests each of some players joined (a completion batch reads them in its first round trip).
struct JoinedContests: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT contest_id, user_id FROM contest_entries WHERE user_id = ANY(\(\.userIDs))"
    struct Row: Decodable, Sendable {
        let contestID: String
        let userID: String
    }
    let userIDs: [String]
}

/// One group's total on a board period, how many groups have a total there, and how many are above it: in a contest run
/// the totals kept with the run's scores, on a calendar window the sums of the group boards' scores.
private struct GroupRank: PostgresStatement {
    /// On a calendar window: `boardOrWindow` is the window, `subject` the group's board id.
    static let sql: PostgresSQL<Self> = """
        WITH totals AS (SELECT board AS name, sum(score)::bigint AS total FROM board_scores
                        WHERE board LIKE 'group:%' AND board_window = \(\.boardOrWindow) AND period = \(\.period) GROUP BY board),
        \(\.subject, in: ranking)
        """
    /// In a contest run: `boardOrWindow` is the contest's board, `subject` the group's name.
    static let contestRun: PostgresSQL<Self> = """
        WITH totals AS (SELECT group_name AS name, score AS total FROM contest_group_scores
                        WHERE board = \(\.boardOrWindow) AND period = \(\.period)),
        \(\.subject, in: ranking)
        """
    var text: PostgresSQL<Self> { inContestRun ? Self.contestRun : Self.sql }

    /// The part both texts share, after `totals`: where `subject` (its placeholder) ranks among the totals.
    private static func ranking(_ subject: String) -> String {
        """
        me AS (SELECT total FROM totals WHERE name = \(subject))
        SELECT (SELECT total FROM me) AS total, (SELECT count(*) FROM totals) AS groups,
               (SELECT count(*) FROM totals WHERE total > (SELECT total FROM me)) AS above
        """
    }

    struct Row: Decodable, Sendable {
        /// The group's total; nil when it has none.
        let total: Int64?
        /// How many groups have a total.
        let groups: Int
        /// How many of them have a higher one.
        let above: Int
    }

    let inContestRun: Bool
    let boardOrWindow: String
    let period: String
    let subject: String
}

/// The group totals of a contest run, best first (ties by name), with their competition ranks.
private struct RunGroupTotals: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT group_name, score, rank() OVER (ORDER BY score DESC) AS rank FROM contest_group_scores
        WHERE board = \(\.board) AND period = \(\.period) ORDER BY score DESC, group_name LIMIT \(\.limit)
        """
    struct Row: Decodable, Sendable {
        let groupName: String
        let score: Int64
        let rank: Int
    }
    let board: String
    let period: String
    let limit: Int
}
