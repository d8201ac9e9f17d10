import Foundation
import PodiumCore
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
    /// A plain read of the revision first (it runs every second and rarely finds a change); then one snapshot
    /// (repeatable read) for the revision and the rows, so the registry holds exactly that revision.
    @discardableResult
    public func refresh() async throws -> Bool {
        let registry = registry
        guard try await postgres.query(Self.revisionQuery).rows[0].int64("revision") > registry.revision else { return false }
        return try await postgres.withTransaction(isolation: "REPEATABLE READ") { connection in
            let revision = try connection.query(Self.revisionQuery).rows[0].int64("revision")
            guard revision > registry.revision else { return false }
            try RegistryLoad.load(into: registry, revision: revision, on: connection)
            return true
        }
    }

    /// The statement that reads the revision of contests and leagues: the highest in either table, 0 when both are empty.
    static let revisionQuery = """
        SELECT GREATEST((SELECT COALESCE(max(revision), 0) FROM contests), (SELECT COALESCE(max(revision), 0) FROM leagues)) AS revision
        """

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
            if changed { try connection.query(ChangeNotices.notify(.contests)) }
            return result
        }
        try await refresh()
        return result
    }

    /// Stores a new contest; false when the id is taken (nothing changed). The registry is refreshed once it committed,
    /// and every other replica's is told to (`ChangeTopic.contests`).
    public func create(_ contest: Contest, now: Date) async throws -> Bool {
        var cron: String?
        var duration: Int?
        var start: Date?
        var end: Date?
        switch contest.schedule {
        case .once(let first, let last):
            (start, end) = (first, last)
        case .recurring(let schedule, let length, let from, let until):
            (cron, duration, start, end) = (schedule.expression.description, Int(length), from, until)
        }
        let parameters: [(any PostgresBindable)?] = [
            contest.id, contest.title, contest.scope.boards.map(\.id), start, end, cron, duration, contest.timeZone.configuredName,
            contest.entry.rawValue, contest.maxPlayers, contest.metric.rawValue, contest.tieBreak.rawValue, contest.medals, now,
        ]
        return try await change { connection in
            let inserted = try connection.query("""
                INSERT INTO contests (id, title, scope, starts_at, ends_at, cron, duration_seconds, time_zone, entry, max_players,
                                      metric, tie_break, medals, created_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT (id) DO NOTHING
                """, parameters).affectedRows == 1
            return (inserted, inserted)
        }
    }

    /// Marks contest `id` cancelled at `now` (nothing counts from then on and no run awards medals); false when it was
    /// already. The registry is refreshed once it committed, and every other replica's is told to.
    public func cancel(id: String, now: Date) async throws -> Bool {
        try await change { connection in
            let changed = try connection.query("""
                UPDATE contests SET cancelled_at = $2, revision = nextval('contests_revision_seq') WHERE id = $1 AND cancelled_at IS NULL
                """, [id, now]).affectedRows == 1
            return (changed, changed)
        }
    }

    /// How many players joined each of `ids`.
    public func entrantCounts(_ ids: [String]) async throws -> [String: Int] {
        guard !ids.isEmpty else { return [:] }
        var counts: [String: Int] = [:]
        for row in try await postgres.query("""
            SELECT contest_id, count(*) AS n FROM contest_entries WHERE contest_id = ANY(\(bind: ids)) GROUP BY contest_id
            """).rows {
            counts[try row.string("contest_id")] = try row.int("n")
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
            guard let row = try connection.query(
                "SELECT entry, max_players, cancelled_at FROM contests WHERE id = \(bind: contestID) FOR UPDATE").rows.first
            else { return .missing }
            if row["cancelled_at"] != nil { return .cancelled }
            if row["entry"] != ContestEntry.join.rawValue { return .open }
            let state = try connection.query("""
                SELECT count(*) AS n, bool_or(user_id = \(bind: userID)) AS present FROM contest_entries WHERE contest_id = \(bind: contestID)
                """).rows[0]
            if state["present"] == "t" { return .alreadyJoined }
            if let maximum = try row.optionalInt("max_players"), try state.int("n") >= maximum { return .full }
            try connection.query("""
                INSERT INTO contest_entries (contest_id, user_id, joined_at) VALUES (\(bind: contestID), \(bind: userID), \(bind: now))
                """)
            return .joined
        }
    }

    /// Removes `userID` from `contestID`'s entrants (scores already earned stay); false when it was not one.
    public func leave(contestID: String, userID: String) async throws -> Bool {
        try await postgres.query(
            "DELETE FROM contest_entries WHERE contest_id = \(bind: contestID) AND user_id = \(bind: userID)").affectedRows == 1
    }

    /// The statement that finds which `join` contests each of `players` joined, for a pipeline.
    static func entriesQuery(players: [String]) -> PostgresQuery {
        "SELECT contest_id, user_id FROM contest_entries WHERE user_id = ANY(\(bind: players))"
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
        // Each group's total, named (`$1` the board or window, `$2` the period); the shared part ranks `$3` among them.
        let (totals, first, subject) = window == .contest
            ? ("SELECT group_name AS name, score AS total FROM contest_group_scores WHERE board = $1 AND period = $2", board, group)
            : ("""
               SELECT board AS name, sum(score)::bigint AS total FROM board_scores
               WHERE board LIKE 'group:%' AND board_window = $1 AND period = $2 GROUP BY board
               """, window.rawValue, BoardScope.group(group).id)
        let row = try await postgres.query("""
            WITH totals AS (\(totals)), me AS (SELECT total FROM totals WHERE name = $3)
            SELECT (SELECT total FROM me) AS total, (SELECT count(*) FROM totals) AS groups,
                   (SELECT count(*) FROM totals WHERE total > (SELECT total FROM me)) AS above
            """, [first, period, subject]).rows[0]
        let total = row["total"].flatMap(Int64.init)
        return GroupStanding(total: total ?? 0, rank: total == nil ? nil : try row.int("above") + 1, groups: try row.int("groups"))
    }
}

/// One group's total in a contest run, and its rank among the run's groups.
public struct GroupTotal: Sendable, Codable, Equatable {
    /// The group's name.
    public var group: String
    /// Its total: the sum of what its completions scored in the run.
    public var total: Int64
    /// Its rank among the run's groups, competition style (1-2-2-4).
    public var rank: Int
}

extension ContestStore {
    /// The group totals of contest run `period` of `board`, best first (ties by name), at most `limit` of them.
    public func groupTotals(board: String, period: String, limit: Int) async throws -> [GroupTotal] {
        try await postgres.query("""
            SELECT group_name, score, rank() OVER (ORDER BY score DESC) AS rank FROM contest_group_scores
            WHERE board = $1 AND period = $2 ORDER BY score DESC, group_name LIMIT $3
            """, [board, period, limit]).rows.map { row in
            GroupTotal(group: try row.string("group_name"), total: try row.int64("score"), rank: try row.int("rank"))
        }
    }
}
