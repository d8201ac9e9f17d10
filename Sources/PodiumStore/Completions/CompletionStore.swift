import Foundation
import Logging
import PodiumCore
import Postgres

/// What recording one completion came to.
public enum RecordOutcome: Sendable, Equatable {
    /// First time: the new answer (HTTP 201).
    case created(CompletionResponse)
    /// Same id, same body: the first answer, unchanged (HTTP 200).
    case replayed(CompletionResponse)
    /// Same id, different body (HTTP 409).
    case conflict
    /// Never recorded, and older than the age limit (`ValidCompletion.replayOnly`): nothing was written (HTTP 400).
    case tooOld(FieldError)
}

/// Records completions: PostgreSQL first (the truth), then Redis.
///
/// A batch is one transaction in three round trips however many completions it holds:
/// look up replays, then a pipeline of every player, topic and board-score upsert, then one
/// insert of all completions with their answers and the commit. Sharing transactions is what lets ingest
/// outrun one-transaction-per-completion (see `CompletionWriter`).
public struct CompletionStore: Sendable {
    let postgres: PostgresPool
    let rankings: RankingWriter
    let rules: GameRules
    let logger: Logger
    /// Batches recorded while Redis is down: every one fails to rank the same way.
    let rankingsBehind: ThrottledLog
    /// Told of every batch that wrote events (the webhook sender) or missed Redis (the ranking sync), on this replica.
    let changes: ChangeNotices

    /// Creates a store.
    public init(postgres: PostgresPool, rankings: RankingWriter, rules: GameRules, changes: ChangeNotices, logger: Logger) {
        self.postgres = postgres
        self.rankings = rankings
        self.rules = rules
        self.changes = changes
        self.logger = logger
        rankingsBehind = ThrottledLog(logger)
    }

    /// Records `items` (distinct ids) as received at `now`; outcomes in the order of `items`.
    ///
    /// Retries the transaction when it lost a race (a concurrent duplicate id, a deadlock):
    /// the retry then sees the other writer's completion and answers as a replay.
    public func record(_ items: [ValidCompletion], now: Date) async throws -> [RecordOutcome] {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await recordOnce(items, now: now)
            } catch let error as PostgresError where attempt < 4 && (error.isRetryable || error.isUniqueViolation) {
                logger.debug("retrying completion batch", metadata: ["error": "\(error)", "attempt": "\(attempt)"])
            }
        }
    }

    /// Which of `ids` are recorded completions (a read, for checking a batch before writing it).
    public func recordedIDs(among ids: [String]) async throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        return Set(try await postgres.query("SELECT id FROM completions WHERE id = ANY($1)", [ids]).rows.map { try $0.string("id") })
    }

    /// The player's completions finished in `[from, to]`, as the plausibility rules see them.
    public func entries(userID: String, from: Date, to: Date) async throws -> [PlausibilityRules.Entry] {
        try await postgres.query("""
            SELECT id, quiz_id, completed_at FROM completions WHERE user_id = $1 AND completed_at BETWEEN $2 AND $3
            ORDER BY completed_at, id LIMIT 10000
            """, [userID, from, to]).rows.map {
            PlausibilityRules.Entry(id: try $0.string("id"), quizID: try $0.string("quiz_id"), completedAt: try $0.date("completed_at"))
        }
    }

    private func recordOnce(_ items: [ValidCompletion], now: Date) async throws -> [RecordOutcome] {
        let rules = rules
        let written = try await postgres.withSession { session -> WrittenBatch in
            var written = try await session.runInTransaction { connection in
                try Self.writeScores(items, now: now, rules: rules, on: connection)
            }
            guard !written.created.isEmpty else { return written }
            // Redis is brought up to date before the commit, so each completion row is written once, with its
            // ranks and `ranked` already right. If the commit then fails, the retry writes the same absolute
            // scores again, and reconcile-rankings repairs what no retry reaches.
            let ranked = await rank(written)
            if let ranked {
                for (id, response) in ranked { written.outcomes[id] = .created(response) }
            }
            let final = written
            try await session.runInTransaction { connection in
                try Self.finishBatch(final, ranked: ranked != nil, on: connection)
            }
            // Committed: this replica's webhook sender fans the events out now, and its ranking sync catches up
            // a batch Redis missed. Other replicas' loops need not hear of it (ChangeTopic.outbox).
            changes.noteLocally(.outbox)
            if ranked == nil { changes.noteLocally(.rankings) }
            return written
        }
        return items.map { written.outcomes[$0.id] ?? .conflict }
    }

    /// Brings Redis to the new scores and puts the ranks into the answers; nil when Redis failed.
    ///
    /// A player erased while Redis was unreachable and now playing again has the old entries and
    /// hash fields removed first (the queued erasure, on the same connection), so the erased
    /// member's scores and name do not linger beside the player's new member.
    private func rank(_ written: WrittenBatch) async -> [String: CompletionResponse]? {
        let created = written.created
        let updates = created.flatMap(\.scores)
        do {
            let standings = try await rankings.apply(
                updates, players: Array(written.players.values), erasures: written.erasures.values.sorted { $0.userID < $1.userID })
            var offset = 0
            var result: [String: CompletionResponse] = [:]
            for completion in created {
                var response = completion.outcome.response
                let standingsHere = standings[offset..<offset + completion.scores.count]
                response.ranks = zip(completion.periods, zip(completion.scores, standingsHere)).map { period, pair in
                    BoardRank(
                        board: period.board.id, window: period.period.window, period: period.period.key,
                        rank: pair.1.rank, score: pair.0.place.score, players: pair.1.players)
                }
                response.rankingsLive = true
                offset += completion.scores.count
                result[completion.outcome.response.completion.id] = response
            }
            return result
        } catch {
            rankingsBehind.log("rankings not updated; they catch up when Redis is back", metadata: ["error": "\(error)"])
            return nil
        }
    }
}

/// A completion inserted by this transaction, with the scores Redis must get.
struct CreatedCompletion: Sendable {
    /// What follows from it under the game rules (its answer, before ranks; its events).
    let outcome: CompletionOutcome
    let periods: [BoardPeriod]
    let scores: [ScoreUpdate]
}

/// What one transaction wrote.
struct WrittenBatch: Sendable {
    var outcomes: [String: RecordOutcome] = [:]
    var created: [CreatedCompletion] = []
    /// The batch's players by user id, for the ranking hashes, with their display names as stored after the batch.
    var players: [String: RankedPlayer] = [:]
    /// Players of this batch erased while Redis was down, with the members and Redis keys of their old entries.
    var erasures: [String: RankingErasure] = [:]
    /// The completions to insert (not replays), in lock order.
    var fresh: [CompletionPlan] = []
    /// Achievements they unlocked, as events (written only for unlocks that are new in storage).
    var unlocked: [AchievementUnlockedEvent] = []
    /// The instant the batch was recorded at.
    var recordedAt = Date(timeIntervalSince1970: 0)
}

extension CompletionStore {
    /// Every timed period scored, so close-periods can find it by its end; sorted so concurrent batches lock alike.
    static func insertPeriods(_ periods: [TimedPeriodRow]) -> PostgresQuery {
        """
        INSERT INTO board_periods (board, board_window, period, ends_at)
        SELECT DISTINCT x.board, x.board_window, x.period, x.ends_at FROM \(unnest: periods, TimedPeriodRow.columns, as: "x")
        ORDER BY x.board, x.board_window, x.period ON CONFLICT DO NOTHING
        """
    }

    /// Every board scored, once (the list of boards); sorted so concurrent batches lock alike.
    static let insertBoards = """
        INSERT INTO boards (board, created_at) SELECT DISTINCT b, $2::timestamptz FROM unnest($1::text[]) AS x(b)
        ORDER BY b ON CONFLICT DO NOTHING
        """

    /// Shared hold on the close lock of each contest run in $1 (sorted): a close of one of them waits for this
    /// transaction, and its final snapshot then includes what it scored.
    static let holdRunsOpen = "SELECT count(pg_advisory_xact_lock_shared(\(PeriodStore.closeLockClass), hashtext(k))) FROM unnest($1::text[]) AS k"

    /// Each group's total in each contest run it played in, added to; a run already closed takes no more.
    static func upsertContestGroupScores(_ rows: [ContestGroupRow], recordedAt: Date) -> PostgresQuery {
        """
        INSERT INTO contest_group_scores AS g (board, period, group_name, score, updated_at)
        SELECT x.board, x.period, x.group_name, sum(x.increment), \(bind: recordedAt) FROM \(unnest: rows, ContestGroupRow.columns, as: "x")
        WHERE NOT EXISTS (SELECT 1 FROM board_periods c WHERE c.board = x.board AND c.board_window = 'contest' AND c.period = x.period
                                                          AND c.closed_at IS NOT NULL)
        GROUP BY x.board, x.period, x.group_name ORDER BY x.board, x.period, x.group_name
        ON CONFLICT (board, period, group_name) DO UPDATE SET score = g.score + EXCLUDED.score, updated_at = EXCLUDED.updated_at
        """
    }

    /// The group totals the batch's completions add to contest runs; nil when none played in a contest run with a group.
    static func contestGroupTotals(_ plans: [CompletionPlan], recordedAt: Date) -> PostgresQuery? {
        var rows: [ContestGroupRow] = []
        for plan in plans {
            for (period, increment) in zip(plan.open, plan.increments) {
                guard let contest = period.board.contest else { continue }
                for group in contest.scope.totalledGroups(of: plan.item.groups) {
                    rows.append(ContestGroupRow(board: period.board.id, period: period.period.key, groupName: group, increment: increment))
                }
            }
        }
        return rows.isEmpty ? nil : upsertContestGroupScores(rows, recordedAt: recordedAt)
    }

    /// The transaction's first two round trips, on a blocking thread: replays, then every upsert.
    ///
    /// Leaves the transaction open for `finishBatch`, unless nothing is new (then it commits).
    ///
    /// The items are planned after the first round trip, which brings the contests up to PostgreSQL's revision and
    /// reads which `join` contests their players entered.
    static func writeScores(_ items: [ValidCompletion], now: Date, rules: GameRules, on connection: PostgresConnection) throws -> WrittenBatch {
        var batch = WrittenBatch()
        // Round trip 1: open the transaction, find replays, pending erasures and time zones of these players.
        let players = Array(Set(items.map(\.userID)))
        let ids = items.map(\.id)
        let opening = try connection.pipeline([
            "BEGIN",
            // One lock per id, in a fixed order, until the commit: a concurrent duplicate waits here and then finds
            // the completion as a replay, so it never writes scores (or Redis) for a completion it cannot insert.
            """
            SELECT count(pg_advisory_xact_lock(k)) AS locked
            FROM (SELECT DISTINCT hashtextextended(id, 0) AS k FROM unnest(\(bind: ids)::text[]) AS id ORDER BY k) ids
            """,
            "SELECT id, request_hash, response::text AS response FROM completions WHERE id = ANY(\(bind: ids))",
            """
            SELECT user_id, array_to_string(members, ' ') AS members, array_to_string(redis_keys, ' ') AS keys
            FROM pending_ranking_erasures WHERE user_id = ANY(\(bind: players))
            """,
            "SELECT user_id, time_zone FROM users WHERE user_id = ANY(\(bind: players))",
            PostgresQuery(stringLiteral: ContestStore.revisionQuery),
            ContestStore.entriesQuery(players: players),
        ] as [PostgresQuery])
        let (recorded, pendingErasures, timeZones) = (opening[2], opening[3], opening[4])
        // A contest created or changed on any replica counts from the first batch recorded after it.
        let contests = rules.boards.contests
        let revision = try opening[5].rows[0].int64("revision")
        if revision > contests.revision { try ContestStore.load(into: contests, revision: revision, on: connection) }
        let entries = Set(try opening[6].rows.map { [try $0.string("contest_id"), try $0.string("user_id")] })
        let plans = items.map { item in
            CompletionPlan(item, rules: rules, now: now).leavingOut { period in
                guard let contest = period.board.contest, contest.entry == .join else { return false }
                return !entries.contains([contest.id, item.userID])
            }
        }
        var zones: [String: TimeZone] = [:]
        for row in timeZones.rows {
            zones[try row.string("user_id")] = TimeZone(identifier: try row.string("time_zone"))
        }
        for row in pendingErasures.rows {
            let erasure = try RankingErasure(row: row)
            batch.erasures[erasure.userID] = erasure
        }
        let decoder = PodiumJSON.decoder()
        for row in recorded.rows {
            let id = try row.string("id")
            let fingerprint = try row.string("request_hash")
            guard let plan = plans.first(where: { $0.item.id == id }) else { continue }
            if fingerprint == requestHash(plan.item) {
                let response = try decoder.decode(CompletionResponse.self, from: Data(try row.string("response").utf8))
                batch.outcomes[id] = .replayed(response)
            } else {
                batch.outcomes[id] = .conflict
            }
        }
        for plan in plans where batch.outcomes[plan.item.id] == nil {
            if let error = plan.item.replayOnly { batch.outcomes[plan.item.id] = .tooOld(error) }
        }
        // Same lock order in every transaction (by player) so concurrent batches cannot deadlock on players;
        // a player's completions in the order they were played, so totals, streaks and unlocks follow play.
        let fresh = plans.filter { batch.outcomes[$0.item.id] == nil }
            .sorted { ($0.item.userID, $0.item.completedAt, $0.item.id) < ($1.item.userID, $1.item.completedAt, $1.item.id) }
        guard !fresh.isEmpty else {
            try connection.execute("COMMIT")
            return batch
        }

        let recordedAt = RFC3339.truncated(now)
        let upserts = BatchUpserts(fresh, zones: zones)
        let boards = Set(fresh.flatMap { $0.open.map(\.board.id) }).sorted()
        let timedPeriods = Set(fresh.flatMap { plan in plan.open.compactMap(TimedPeriodRow.init) })
        // Contest runs scored here are held open until the commit (a run's close, which may come early, waits for them).
        let contestRuns = Set(fresh.flatMap { plan in plan.open.filter { $0.board.contest != nil }.map { PeriodStore.closeLockKey(BoardPeriodKey($0)) } }).sorted()
        var statements: [PostgresQuery] = contestRuns.isEmpty ? [] : [PostgresQuery(sql: holdRunsOpen, parameters: [contestRuns])]
        let upsertsAt = statements.count
        statements += upserts.statements(recordedAt: recordedAt)
        statements.append(PostgresQuery(sql: insertBoards, parameters: [boards, recordedAt]))
        statements.append(insertPeriods(Array(timedPeriods)))
        if let totals = contestGroupTotals(fresh, recordedAt: recordedAt) { statements.append(totals) }
        // Round trip 2: every upsert, one statement per table for the whole batch.
        let results = try connection.pipeline(statements)
        let states = try upserts.states(from: BatchUpserts.Results(results[upsertsAt...]))
        let earlyClosings = try closingTimes(of: states.flatMap(\.closedEarly), on: connection)

        batch.fresh = fresh
        batch.recordedAt = recordedAt
        for (plan, state) in zip(fresh, states) {
            let user = plan.item.userID
            var standing = state.standing
            standing.heldAchievements.formUnion(batch.unlocked.filter { $0.userId == user }.map(\.achievement))
            let outcome = CompletionOutcome(
                plan: plan, standing: standing,
                closedEarly: state.closedEarly.map { ($0, earlyClosings[BoardPeriodKey($0)]) }, timeZone: zones[user] ?? .gmt,
                now: now, recordedAt: recordedAt, rules: rules)
            batch.unlocked += outcome.achievementEvents
            batch.created.append(CreatedCompletion(outcome: outcome, periods: state.periods, scores: state.scores))
            batch.outcomes[plan.item.id] = .created(outcome.response)
            batch.players[user] = RankedPlayer(member: state.member, userID: user, displayName: state.displayName)
        }
        return batch
    }

    /// Round trip 3: the completions with their answers, their events, the achievements, and the commit.
    ///
    /// `ranked` tells whether Redis already holds their scores (the answers then carry ranks); when it
    /// does, erasures Redis has now applied are no longer pending.
    static func finishBatch(_ batch: WrittenBatch, ranked: Bool, on connection: PostgresConnection) throws {
        let fresh = batch.fresh
        let created = fresh.compactMap { batch.outcomes[$0.item.id]?.response }
        let outcomes = batch.created.map(\.outcome)
        var statements = [
            insertCompletions(fresh, answers: created, recordedAt: batch.recordedAt, ranked: ranked),
            try EventStore.append(outcomes.map(\.recordedEvent), occurredAt: batch.recordedAt),
        ]
        let levelEvents = outcomes.compactMap(\.levelEvent)
        if !levelEvents.isEmpty {
            statements.append(try EventStore.append(levelEvents, occurredAt: batch.recordedAt))
        }
        if !batch.unlocked.isEmpty {
            statements.append(try insertAchievements(batch.unlocked, unlockedAt: batch.recordedAt))
        }
        if ranked && !batch.erasures.isEmpty {
            statements.append("DELETE FROM pending_ranking_erasures WHERE user_id = ANY(\(bind: Array(batch.erasures.keys)))")
        }
        statements.append("COMMIT")
        _ = try connection.pipeline(statements)
    }

    /// The batch's completions with their answers, in one statement.
    ///
    /// Answers travel as one JSON array (not a text[] literal): no per-character escaping of large bodies.
    static func insertCompletions(
        _ fresh: [CompletionPlan], answers: [CompletionResponse], recordedAt: Date, ranked: Bool
    ) -> PostgresQuery {
        """
        WITH x AS (
            SELECT x.*, r.body
            FROM \(unnest: fresh.map(CompletionRow.init), CompletionRow.columns, as: "x", ordinality: "i")
            JOIN jsonb_array_elements(\(bind: PodiumJSON.array(answers.map { $0.jsonString() }))::jsonb) WITH ORDINALITY AS r(body, i) USING (i)
        )
        INSERT INTO completions (id, user_id, quiz_id, topic, difficulty, correct, total, duration_ms, groups, completed_at,
                                 recorded_at, points, request_hash, response, ranked)
        SELECT x.id, x.user_id, x.quiz_id, x.topic, x.difficulty, x.correct, x.total, x.duration_ms, string_to_array(x.groups, ','),
               x.completed_at, \(bind: recordedAt)::timestamptz, x.points, x.request_hash, x.body, \(bind: ranked)::bool
        FROM x
        """
    }

    /// Each achievement once per player (the primary key); the event only for rows actually inserted.
    static func insertAchievements(_ unlocked: [AchievementUnlockedEvent], unlockedAt: Date) throws -> PostgresQuery {
        let payloads = try PodiumJSON.string(unlocked)
        return """
        WITH x AS (
            SELECT x.*, e.payload
            FROM \(unnest: unlocked, AchievementUnlockedEvent.columns, as: "x", ordinality: "i")
            JOIN jsonb_array_elements(\(bind: payloads)::jsonb) WITH ORDINALITY AS e(payload, i) USING (i)),
        inserted AS (
            INSERT INTO user_achievements (user_id, achievement, unlocked_at, completion_id)
            SELECT x.user_id, x.achievement, \(bind: unlockedAt), x.completion_id FROM x
            ON CONFLICT DO NOTHING RETURNING user_id, achievement)
        INSERT INTO events (type, user_id, occurred_at, payload)
        SELECT \(bind: AchievementUnlockedEvent.type.rawValue), x.user_id, \(bind: unlockedAt), x.payload
        FROM x JOIN inserted USING (user_id, achievement) ORDER BY x.i
        """
    }

    /// SHA-256 of the request's canonical text, hex: equal bodies, equal hashes.
    static func requestHash(_ item: ValidCompletion) -> String {
        Hashing.sha256Hex(item.fingerprint)
    }

    /// When each of `periods` (open by the clock, closed early by ops) was closed; one query, and none when there are none.
    static func closingTimes(of periods: [BoardPeriod], on connection: PostgresConnection) throws -> [BoardPeriodKey: Date] {
        guard !periods.isEmpty else { return [:] }
        let keys = periods.map(BoardPeriodKey.init)
        let rows = try connection.query("""
            SELECT c.board, c.board_window, c.period, c.closed_at FROM board_periods c
            JOIN \(unnest: keys, BoardPeriodKey.columns, as: "x") USING (board, board_window, period)
            WHERE c.closed_at IS NOT NULL
            """).rows
        var closings: [BoardPeriodKey: Date] = [:]
        for row in rows {
            guard let window = LeaderboardWindow(rawValue: try row.string("board_window")) else { continue }
            closings[BoardPeriodKey(board: try row.string("board"), window: window, period: try row.string("period"))] = try row.date("closed_at")
        }
        return closings
    }
}

/// A timed board period a batch scored: `board_periods` lists it so close-periods finds it by its end.
struct TimedPeriodRow: Sendable, Hashable {
    let board: String
    let window: String
    let period: String
    let endsAt: Date

    /// The row of `period`; nil for one without an end (all time).
    init?(_ period: BoardPeriod) {
        guard let end = period.period.end else { return nil }
        (board, window, self.period, endsAt) = (period.board.id, period.period.window.rawValue, period.period.key, end)
    }

    /// The row's columns as `CompletionStore.insertPeriods` reads them.
    static let columns = PostgresColumns<TimedPeriodRow>(
        .column("board", "text", { $0.board }), .column("board_window", "text", { $0.window }),
        .column("period", "text", { $0.period }), .column("ends_at", "timestamptz", { $0.endsAt }))
}

/// What one completion adds to one group's total in one contest run.
struct ContestGroupRow: Sendable {
    let board: String
    let period: String
    let groupName: String
    let increment: Int64

    /// The row's columns as `CompletionStore.upsertContestGroupScores` reads them.
    static let columns = PostgresColumns<ContestGroupRow>(
        .column("board", "text", { $0.board }), .column("period", "text", { $0.period }),
        .column("group_name", "text", { $0.groupName }), .column("increment", "bigint", { $0.increment }))
}

/// A new completion as `completions` stores it (its answer travels beside it).
struct CompletionRow: Sendable {
    let item: ValidCompletion
    let points: Int

    /// The row of `plan`.
    init(_ plan: CompletionPlan) {
        (item, points) = (plan.item, plan.points)
    }

    /// The row's columns as `CompletionStore.insertCompletions` reads them; groups travel comma-joined (group names
    /// have no commas), completed_at as the RFC 3339 text the answer shows.
    static let columns = PostgresColumns<CompletionRow>(
        .column("id", "text", { $0.item.id }), .column("user_id", "text", { $0.item.userID }),
        .column("quiz_id", "text", { $0.item.quizID }), .column("topic", "text", { $0.item.topic }),
        .column("difficulty", "text", { $0.item.difficulty.rawValue }), .column("correct", "int", { $0.item.correct }),
        .column("total", "int", { $0.item.total }), .optional("duration_ms", "bigint", { $0.item.durationMS }),
        .column("groups", "text", { $0.item.groups.joined(separator: ",") }),
        .column("completed_at", "timestamptz", { RFC3339.format($0.item.completedAt) }),
        .column("points", "bigint", { $0.points }), .column("request_hash", "text", { CompletionStore.requestHash($0.item) }))
}

extension AchievementUnlockedEvent {
    /// The unlock's columns as `CompletionStore.insertAchievements` reads them.
    static let columns = PostgresColumns<AchievementUnlockedEvent>(
        .column("user_id", "text", { $0.userId }), .column("achievement", "text", { $0.achievement }),
        .column("completion_id", "text", { $0.completionId }))
}

extension BoardPeriodKey {
    /// The key's columns, for joining a list of board periods.
    static let columns = PostgresColumns<BoardPeriodKey>(
        .column("board", "text", { $0.board }), .column("board_window", "text", { $0.window.rawValue }),
        .column("period", "text", { $0.period }))
}

extension RecordOutcome {
    /// The answer carried by a created or replayed outcome.
    public var response: CompletionResponse? {
        switch self {
        case .created(let response), .replayed(let response): response
        case .conflict, .tooOld: nil
        }
    }
}
