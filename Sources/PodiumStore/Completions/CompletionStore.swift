import Foundation
import Logging
import PodiumCore
import PodiumWire
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

    /// Which of `items`' ids are recorded completions at `now` (a read, for checking a batch before writing it).
    public func recordedIDs(among items: [ValidCompletion], now: Date) async throws -> Set<String> {
        guard !items.isEmpty else { return [] }
        let lookup = RecordedIDs(window: RecordedWindow(of: items, now: now, rules: rules))
        return Set(try await postgres.run(lookup).map(\.id))
    }

    /// Drops the completions of every month that ended by `cutoff`, a whole partition at a time, and deletes those
    /// before `cutoff` that sit in `completions_default`; returns how many went. Players' totals, scores and medals
    /// stay: only their history and the ids' memory go (`completion_days`, docs/RULES.md).
    public func prune(before cutoff: Date) async throws -> Int {
        try await MonthlyPartitions.completions.prune(before: cutoff, on: postgres, leftovers: PruneDefaultCompletions(cutoff: cutoff)) {
            name, connection in
            try connection.run(MonthCompletionCount(partition: name)).first?.n ?? 0
        }
    }

    /// Makes the partitions of the month of `now` (UTC) and the two after it, where missing (moving their completions
    /// out of `completions_default`); returns how many it made. The prune job calls it every day.
    public func prepareMonths(now: Date) async throws -> Int {
        try await MonthlyPartitions.completions.prepare(now: now, on: postgres)
    }

    /// The player's completions finished in `[from, to]`, as the plausibility rules see them.
    public func entries(userID: String, from: Date, to: Date) async throws -> [PlausibilityRules.Entry] {
        try await postgres.run(PlayedBetween(userID: userID, from: from, to: to)).map {
            PlausibilityRules.Entry(id: $0.id, quizID: $0.quizID, completedAt: $0.completedAt)
        }
    }

    private func recordOnce(_ items: [ValidCompletion], now: Date) async throws -> [RecordOutcome] {
        let rules = rules
        let written = try await postgres.withSession { session -> WrittenBatch in
            var written = try await Self.writeScores(items, now: now, rules: rules, in: session)
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

    /// `writeScores` in `session`, after the players' league places (`LeaguePlacing`, a statement of its own); when the
    /// contests or leagues changed since the registry read them, the registry reads them again outside the transaction
    /// and the batch starts again (they change by rare admin actions: after 8 passes that each found a newer revision,
    /// the batch fails with 503 and its caller may retry; 4 were too few where definitions are made many times a
    /// second, as in the test suite, whose suites share one database).
    private static func writeScores(_ items: [ValidCompletion], now: Date, rules: GameRules, in session: PostgresSession) async throws -> WrittenBatch {
        for _ in 0..<8 {
            do {
                let placements = try await session.run { connection in
                    try LeaguePlacing.place(items, rules: rules, now: now, on: connection)
                }
                return try await session.runInTransaction { connection in
                    try Self.writeScores(items, placements: placements, now: now, rules: rules, on: connection)
                }
            } catch let changed as ContestsChanged {
                try await session.run { connection in
                    try RegistryLoad.load(into: rules.boards.contests, revision: changed.revision, on: connection)
                }
            }
        }
        throw StoreError.unavailable(.postgreSQL, cause: "contests kept changing while a completion batch was recorded")
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
            // Teams boards have no ranking of their own in Redis: their live streams hear of the change here.
            try await rankings.announce(Set(written.fresh.flatMap(\.teamPeriods).map(RankingKeys.board(_:))).sorted())
            var offset = 0
            var result: [String: CompletionResponse] = [:]
            for completion in created {
                var response = completion.response
                let standingsHere = standings[offset..<offset + completion.scores.count]
                response.ranks = zip(completion.periods, zip(completion.scores, standingsHere)).map { period, pair in
                    BoardRank(
                        board: period.board.id, window: period.period.window, period: period.period.key,
                        rank: pair.1.rank, score: period.board.metric.shownValue(pair.0.place.score), players: pair.1.players)
                }
                response.rankingsLive = true
                offset += completion.scores.count
                result[completion.response.completion.id] = response
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
    /// What follows from it under the game rules (its events).
    let outcome: CompletionOutcome
    /// Its answer, before ranks: the outcome's, with the goals it counted toward.
    let response: CompletionResponse
    let periods: [BoardPeriod]
    let scores: [ScoreUpdate]
}

/// What one transaction wrote.
struct WrittenBatch: Sendable {
    /// A batch whose `settled` items are answered already, for players with the pending `erasures`.
    init(settled: [String: BatchPlan.Settled], erasures: [String: RankingErasure]) {
        outcomes = settled.mapValues { item in
            switch item {
            case .replayed(let response): .replayed(response)
            case .conflict: .conflict
            case .tooOld(let error): .tooOld(error)
            }
        }
        self.erasures = erasures
    }

    /// Adds the new completions `fresh` with what each saw right after itself (`states`): their outcomes under the game
    /// rules, in order, each seeing the achievements its player's earlier ones in the batch unlocked.
    mutating func add(
        _ fresh: [CompletionPlan], states: [CompletionState], zones: [String: TimeZone], closings: [BoardPeriodKey: Date], now: Date,
        recordedAt: Date, rules: GameRules
    ) {
        self.fresh = fresh
        self.recordedAt = recordedAt
        for (plan, state) in zip(fresh, states) {
            let user = plan.item.userID
            var standing = state.standing
            standing.heldAchievements.formUnion(unlocked.filter { $0.userId == user }.map(\.achievement))
            let outcome = CompletionOutcome(
                plan: plan, standing: standing, closedEarly: state.closedEarly.map { ($0, closings[BoardPeriodKey($0)]) },
                timeZone: zones[user] ?? .gmt, now: now, recordedAt: recordedAt, rules: rules)
            unlocked += outcome.achievementEvents
            var response = outcome.response
            response.goals = state.goals
            created.append(CreatedCompletion(outcome: outcome, response: response, periods: state.periods, scores: state.scores))
            outcomes[plan.item.id] = .created(response)
            players[user] = RankedPlayer(member: state.member, userID: user, displayName: state.displayName)
        }
    }

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
    /// The goals this batch reached, as events.
    var goalEvents: [GoalCompletedEvent] = []
    /// The instant the batch was recorded at.
    var recordedAt = Date(timeIntervalSince1970: 0)
}

extension CompletionStore {
    /// The transaction's first two round trips, on a blocking thread: the standing, then every upsert (league cohorts
    /// from `placements`).
    ///
    /// Leaves the transaction open for `finishBatch`, unless nothing is new (then it commits). Throws
    /// `ContestsChanged` (the transaction rolled back) when the contests changed since the registry read them.
    static func writeScores(
        _ items: [ValidCompletion], placements: LeaguePlacements, now: Date, rules: GameRules, on connection: PostgresConnection
    ) throws -> WrittenBatch {
        // Round trip 1: open the transaction, lock the ids, read what the plan needs.
        let standing = try BatchStanding.read(items, now: now, rules: rules, on: connection)
        // A contest created or changed on any replica counts from the first batch recorded after it.
        guard standing.contestRevision <= rules.boards.contests.revision else {
            throw ContestsChanged(revision: standing.contestRevision)
        }
        let plan = BatchPlan(items, rules: rules, now: now, recorded: try standing.recordedCompletions(of: items), joined: standing.joined)
        var batch = WrittenBatch(settled: plan.settled, erasures: standing.erasures)
        guard !plan.fresh.isEmpty else {
            try connection.execute("COMMIT")
            return batch
        }
        let recordedAt = RFC3339.wholeMilliseconds(now)
        // The league cohorts the new completions score in (placed before the transaction).
        let fresh = LeaguePlacing.apply(placements, to: plan.fresh, rules: rules, now: now)
        // Round trip 2: every upsert, one statement per table for the whole batch.
        let goals = GoalProgressWrites(fresh, rules: rules, now: now)
        let (states, goalEvents) = try writeUpserts(fresh, players: standing.players, goals: goals, recordedAt: recordedAt, on: connection)
        let closings = try PeriodClosings.of(states.flatMap(\.closedEarly), on: connection)
        batch.add(fresh, states: states, zones: standing.zones, closings: closings, now: now, recordedAt: recordedAt, rules: rules)
        batch.goalEvents = goalEvents
        return batch
    }

    /// Writes the upserts of `fresh` (their `goals` progress among them) in one round trip and returns what each
    /// completion saw right after itself, and the goals the batch reached.
    ///
    /// Contest runs scored here are held open until the commit (a run's close, which may come early, waits for them).
    static func writeUpserts(
        _ fresh: [CompletionPlan], players: [String: StoredPlayer], goals: GoalProgressWrites, recordedAt: Date,
        on connection: PostgresConnection
    ) throws -> (states: [CompletionState], goalEvents: [GoalCompletedEvent]) {
        let upserts = BatchUpserts(fresh, players: players)
        let contests = ContestScoring(fresh, recordedAt: recordedAt)
        var statements: [any PostgresStatement] = contests.holdRunsOpen.map { [$0] } ?? []
        let upsertsAt = statements.count
        statements += upserts.statements(recordedAt: recordedAt)
        // Teams boards' periods are listed with their groups' (they close, with medals, as any board's).
        let listed = fresh.flatMap { $0.open + $0.teamPeriods }
        statements.append(AddBoards(boards: Set(listed.map(\.board.id)).sorted(), createdAt: recordedAt))
        statements.append(AddTimedPeriods(periods: Array(Set(listed.compactMap(TimedPeriodRow.init)))))
        if let totals = contests.groupTotals { statements.append(totals) }
        let goalsAt = statements.count
        statements += goals.statements(recordedAt: recordedAt)
        let results = try connection.pipeline(statements.map { $0.query })
        var states = try upserts.states(from: BatchUpserts.Results(results[upsertsAt...]))
        guard goalsAt < results.count else { return (states, []) }
        let (advances, events) = goals.outcome(of: try UpsertGoalProgress.rows(of: results[goalsAt]), recordedAt: recordedAt)
        for index in states.indices { states[index].goals = advances[index] }
        return (states, events)
    }

    /// Round trip 3: the completions with their answers, their events, the achievements, and the commit.
    ///
    /// `ranked` tells whether Redis already holds their scores (the answers then carry ranks); when it
    /// does, erasures Redis has now applied are no longer pending.
    static func finishBatch(_ batch: WrittenBatch, ranked: Bool, on connection: PostgresConnection) throws {
        let fresh = batch.fresh
        let created = fresh.compactMap { batch.outcomes[$0.item.id]?.response }
        let outcomes = batch.created.map(\.outcome)
        var statements: [any PostgresStatement] = [
            AddCompletions(fresh, answers: created, recordedAt: batch.recordedAt, ranked: ranked),
            try EventStore.append(outcomes.map(\.recordedEvent), occurredAt: batch.recordedAt),
        ]
        let levelEvents = outcomes.compactMap(\.levelEvent)
        if !levelEvents.isEmpty {
            statements.append(try EventStore.append(levelEvents, occurredAt: batch.recordedAt))
        }
        if !batch.unlocked.isEmpty {
            statements.append(try AddAchievements(batch.unlocked, unlockedAt: batch.recordedAt))
        }
        if !batch.goalEvents.isEmpty {
            statements.append(try EventStore.append(batch.goalEvents, occurredAt: batch.recordedAt))
        }
        if ranked && !batch.erasures.isEmpty {
            statements.append(ForgetPendingErasures(userIDs: Array(batch.erasures.keys)))
        }
        statements.append(CommitBatch())
        _ = try connection.pipeline(statements.map { $0.query })
    }

    /// SHA-256 of the request's canonical text, hex: equal bodies, equal hashes.
    static func requestHash(_ item: ValidCompletion) -> String {
        Hashing.sha256Hex(item.fingerprint)
    }
}

/// A timed board period a batch scored: `board_periods` lists it so close-periods finds it by its end.
struct TimedPeriodRow: Sendable, Hashable {
    /// The board id.
    let board: String
    /// The window.
    let window: String
    /// The period key.
    let period: String
    /// The first instant after the period.
    let endsAt: Date

    /// The row of `period`; nil for one without an end (all time).
    init?(_ period: BoardPeriod) {
        guard let end = period.period.end else { return nil }
        (board, window, self.period, endsAt) = (period.board.id, period.period.window.rawValue, period.period.key, end)
    }

    /// The row's columns as `AddTimedPeriods` reads them.
    static let columns = PostgresColumns<TimedPeriodRow>(
        .column("board", "text", { $0.board }), .column("board_window", "text", { $0.window }),
        .column("period", "text", { $0.period }), .column("ends_at", "timestamptz", { $0.endsAt }))
}

/// A new completion as `completions` stores it (its answer travels beside it).
struct CompletionRow: Sendable {
    /// The completion.
    let item: ValidCompletion
    /// The points it earns.
    let points: Int

    /// The row of `plan`.
    init(_ plan: CompletionPlan) {
        (item, points) = (plan.item, plan.points)
    }

    /// The row's columns as `AddCompletions` reads them; groups travel comma-joined (group names
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
    /// The unlock's columns as `AddAchievements` reads them.
    static let columns = PostgresColumns<AchievementUnlockedEvent>(
        .column("user_id", "text", { $0.userId }), .column("achievement", "text", { $0.achievement }),
        .column("completion_id", "text", { $0.completionId }))
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

/// The ids of the recorded completions with some of a batch's ids (see `RecordedLookup`).
private struct RecordedIDs: RecordedLookup {
    static let sql = lookup(columns: "id", late: false)
    static let withLateItems = lookup(columns: "id", late: true)
    struct Row: Decodable, Sendable { let id: String }
    let window: RecordedWindow
}

/// Deletes the completions before `cutoff` left in `completions_default` (no partition for their month yet); answers
/// how many went.
private struct PruneDefaultCompletions: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        WITH gone AS (DELETE FROM completions_default WHERE completed_at < \(\.cutoff) RETURNING 1) SELECT count(*) AS n FROM gone
        """
    typealias Row = RemovedRows
    let cutoff: Date
}

/// How many completions one monthly partition holds, before it is dropped.
///
/// A table's name cannot be bound, so each partition has its own text naming it: `partition` is a name
/// `MonthlyPartitions` read from the catalog (`completions_YYYY_MM`), never a value from outside.
private struct MonthCompletionCount: PostgresRunnable {
    var text: PostgresSQL<Self> { "SELECT count(*) AS n FROM \(unescaped: partition)" }
    struct Row: Decodable, Sendable { let n: Int }
    /// The partition, `completions_YYYY_MM`.
    let partition: String
}

/// A player's completions finished in a time range (both ends included), oldest first, at most 10,000.
private struct PlayedBetween: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT id, quiz_id, completed_at FROM completions WHERE user_id = \(\.userID) AND completed_at BETWEEN \(\.from) AND \(\.to)
        ORDER BY completed_at, id LIMIT 10000
        """
    struct Row: Decodable, Sendable {
        let id: String
        let quizID: String
        let completedAt: Date
    }
    let userID: String
    let from: Date
    let to: Date
}

/// Lists every board a batch scored, once (the list of boards); sorted so concurrent batches lock alike.
private struct AddBoards: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO boards (board, created_at) SELECT DISTINCT b, \(\.createdAt)::timestamptz FROM unnest(\(\.boards)::text[]) AS x(b)
        ORDER BY b ON CONFLICT DO NOTHING
        """
    typealias Row = NoRows
    /// The board ids, sorted.
    let boards: [String]
    let createdAt: Date
}

/// Lists every timed period a batch scored, so close-periods can find it by its end; sorted so concurrent batches lock
/// alike.
private struct AddTimedPeriods: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO board_periods (board, board_window, period, ends_at)
        SELECT DISTINCT x.board, x.board_window, x.period, x.ends_at FROM \(unnest: \.periods, TimedPeriodRow.columns, as: "x")
        ORDER BY x.board, x.board_window, x.period ON CONFLICT DO NOTHING
        """
    typealias Row = NoRows
    let periods: [TimedPeriodRow]
}

/// Inserts a batch's completions with their answers, in one statement.
///
/// Answers travel as one text (`JSONTexts`) and are stored as text, never parsed.
private struct AddCompletions: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        WITH x AS (
            SELECT x.*, r.body
            FROM \(unnest: \.rows, CompletionRow.columns, as: "x", ordinality: "i")
            JOIN string_to_table(\(\.answers), \(\.separator)) WITH ORDINALITY AS r(body, i) USING (i)
        )
        INSERT INTO completions (id, user_id, quiz_id, topic, difficulty, correct, total, duration_ms, groups, completed_at,
                                 recorded_at, points, request_hash, answer, ranked)
        SELECT x.id, x.user_id, x.quiz_id, x.topic, x.difficulty, x.correct, x.total, x.duration_ms, string_to_array(x.groups, ','),
               x.completed_at, \(\.recordedAt)::timestamptz, x.points, x.request_hash, x.body, \(\.ranked)::bool
        FROM x
        """
    typealias Row = NoRows
    /// The new completions, in lock order.
    let rows: [CompletionRow]
    /// Their answers' JSON texts, in the same order, joined by `separator`.
    let answers: String
    let recordedAt: Date
    /// Whether Redis holds their scores already.
    let ranked: Bool
    var separator: String { JSONTexts.separator }

    /// The statement of `fresh`, whose answers are `answers` (in the same order).
    init(_ fresh: [CompletionPlan], answers: [CompletionResponse], recordedAt: Date, ranked: Bool) {
        rows = fresh.map(CompletionRow.init)
        self.answers = JSONTexts.joined(answers.map { $0.jsonString() })
        (self.recordedAt, self.ranked) = (recordedAt, ranked)
    }
}

/// Records each achievement once per player (the primary key), and its event only for rows actually inserted.
private struct AddAchievements: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        WITH x AS (
            SELECT x.*, e.payload::jsonb AS payload
            FROM \(unnest: \.unlocked, AchievementUnlockedEvent.columns, as: "x", ordinality: "i")
            JOIN string_to_table(\(\.payloads), \(\.separator)) WITH ORDINALITY AS e(payload, i) USING (i)),
        inserted AS (
            INSERT INTO user_achievements (user_id, achievement, unlocked_at, completion_id)
            SELECT x.user_id, x.achievement, \(\.unlockedAt), x.completion_id FROM x
            ON CONFLICT DO NOTHING RETURNING user_id, achievement)
        INSERT INTO events (type, user_id, occurred_at, payload)
        SELECT \(\.eventType), x.user_id, \(\.unlockedAt), x.payload
        FROM x JOIN inserted USING (user_id, achievement) ORDER BY x.i
        """
    typealias Row = NoRows
    let unlocked: [AchievementUnlockedEvent]
    /// The events' JSON texts, in the same order, joined by `separator`.
    let payloads: String
    let unlockedAt: Date
    var separator: String { JSONTexts.separator }
    var eventType: String { AchievementUnlockedEvent.type.rawValue }

    /// The statement of `unlocked`, unlocked at `unlockedAt`.
    init(_ unlocked: [AchievementUnlockedEvent], unlockedAt: Date) throws {
        self.unlocked = unlocked
        payloads = JSONTexts.joined(try unlocked.map { try $0.jsonString() })
        self.unlockedAt = unlockedAt
    }
}

/// Forgets the pending erasures of players Redis has now applied.
private struct ForgetPendingErasures: PostgresStatement {
    static let sql: PostgresSQL<Self> = "DELETE FROM pending_ranking_erasures WHERE user_id = ANY(\(\.userIDs))"
    typealias Row = NoRows
    let userIDs: [String]
}

/// Commits a batch's transaction (the last statement of its last round trip).
private struct CommitBatch: PostgresStatement {
    static let sql: PostgresSQL<Self> = "COMMIT"
    typealias Row = NoRows
}
