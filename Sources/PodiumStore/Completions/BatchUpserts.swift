import Foundation
import PodiumCore
import Postgres

/// A batch's upserts as one statement per table, however many completions the batch holds.
///
/// `ON CONFLICT DO UPDATE` may change a row only once per statement, so a player's completions
/// (and their topics and board periods) are summed first. The stored rows then hold the totals
/// after the whole batch; what each completion saw right after itself is worked back from them
/// by taking off what the player's later completions in the batch added.
struct BatchUpserts {
    /// The batch's new completions, in lock order (player, then time played, then id).
    let plans: [CompletionPlan]
    /// Each completion's day in its player's time zone (the streak's unit), by index of `plans`.
    let localDays: [Int]

    /// Sums `plans` (sorted by player, then time played, then id); `zones` holds the players' time zones (UTC if absent).
    init(_ plans: [CompletionPlan], zones: [String: TimeZone]) {
        self.plans = plans
        localDays = plans.map { Streak.localDay(of: $0.item.completedAt, in: zones[$0.item.userID] ?? .gmt) }
    }

    /// Each player's summed completion: totals added, display name kept unless a new one came.
    ///
    /// A column default would draw a handle for every row proposed, conflicting or not, and so one per
    /// player per batch: a known player brings its own handle instead, and only new players draw one
    /// (in user-id order: the arrays come sorted, and the subquery, kept whole by `OFFSET 0`, hands its rows
    /// over in that order, which is also the order the rows are locked in). The handles then last: 2^36
    /// players, not 2^36 batches.
    static let upsertUsers = """
        INSERT INTO users AS u (user_id, handle, display_name, points, completions, correct_answers, total_answers, created_at, updated_at)
        SELECT x.u, COALESCE(x.known, nextval('users_handle_seq')), NULLIF(x.n, ''), x.p, x.c, x.r, x.t, $7, $7
        FROM (SELECT x.*, known.handle AS known
              FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[])
                   WITH ORDINALITY AS x(u, n, p, c, r, t, i)
              LEFT JOIN users known ON known.user_id = x.u
              ORDER BY x.i OFFSET 0) x
        ON CONFLICT (user_id) DO UPDATE SET
            display_name = COALESCE(EXCLUDED.display_name, u.display_name),
            points = u.points + EXCLUDED.points,
            completions = u.completions + EXCLUDED.completions,
            correct_answers = u.correct_answers + EXCLUDED.correct_answers,
            total_answers = u.total_answers + EXCLUDED.total_answers,
            updated_at = EXCLUDED.updated_at
        RETURNING user_id, handle, points, completions, correct_answers, total_answers, display_name
        """

    /// Each (player, topic) summed: counts and sums added, bests and last play kept at the maximum.
    static let upsertTopics = """
        INSERT INTO user_topics AS t (user_id, topic, completions, correct_answers, total_answers, accuracy_sum, best_accuracy,
                                      best_points, last_played_at)
        SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::float8[], $7::float8[],
                             $8::bigint[], $9::timestamptz[]) AS x(u, t, c, r, n, a, b, p, l)
        ORDER BY 1, 2
        ON CONFLICT (user_id, topic) DO UPDATE SET
            completions = t.completions + EXCLUDED.completions,
            correct_answers = t.correct_answers + EXCLUDED.correct_answers,
            total_answers = t.total_answers + EXCLUDED.total_answers,
            accuracy_sum = t.accuracy_sum + EXCLUDED.accuracy_sum,
            best_accuracy = GREATEST(t.best_accuracy, EXCLUDED.best_accuracy),
            best_points = GREATEST(t.best_points, EXCLUDED.best_points),
            last_played_at = GREATEST(t.last_played_at, EXCLUDED.last_played_at)
        RETURNING user_id, topic, completions
        """

    /// Records the batch's active days and returns each player's days and achievements as they were
    /// before this statement (the CTE's insert is not visible to the outer query), read after the
    /// players' rows are locked: concurrent batches of one player see each other's days and unlocks.
    static let recordDays = """
        WITH added AS (
            INSERT INTO user_days (user_id, day) SELECT * FROM unnest($1::text[], $2::int[]) AS x(u, d) ORDER BY 1, 2
            ON CONFLICT DO NOTHING)
        SELECT p.u AS user_id,
               (SELECT array_to_string(array_agg(day ORDER BY day), ',') FROM user_days d WHERE d.user_id = p.u) AS days,
               (SELECT array_to_string(array_agg(achievement), ',') FROM user_achievements a WHERE a.user_id = p.u) AS achievements
        FROM unnest($3::text[]) AS p(u)
        """

    /// Each (board period, player) increment summed and added, with what the tie-breaks read: the latest
    /// `completed_at`, the playing time of the completions that added to the score and how many of them had
    /// none (null, 0 and 0 when none did). A timed period already closed takes no more scores (the RETURNING
    /// leaves it out).
    static let upsertScores = """
        INSERT INTO board_scores AS s (board, board_window, period, user_id, score, updated_at, reached_at, duration_ms,
                                       untimed_completions)
        SELECT b, w, p, u, i, $6, NULLIF(r, '')::timestamptz, d, n
        FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $7::text[], $8::bigint[], $9::bigint[])
             AS x(b, w, p, u, i, r, d, n)
        WHERE x.w = 'all' OR NOT EXISTS (SELECT 1 FROM board_periods c WHERE c.board = x.b AND c.board_window = x.w
                                                                         AND c.period = x.p AND c.closed_at IS NOT NULL)
        ORDER BY 1, 2, 3, 4
        ON CONFLICT (board, board_window, period, user_id) DO UPDATE SET
            score = s.score + EXCLUDED.score, updated_at = EXCLUDED.updated_at,
            reached_at = GREATEST(s.reached_at, EXCLUDED.reached_at), duration_ms = s.duration_ms + EXCLUDED.duration_ms,
            untimed_completions = s.untimed_completions + EXCLUDED.untimed_completions
        RETURNING board, board_window, period, user_id, score, reached_at, updated_at, duration_ms, untimed_completions
        """

    /// The four statements, in this order: users, topics, days, board scores.
    func statements(recordedAt: Date) -> [(sql: String, parameters: [(any PostgresBindable)?])] {
        var players: [String: PlayerSums] = [:]
        var topics: [TopicKey: TopicSums] = [:]
        var days = Set<DayKey>()
        var scores: [ScoreKey: ScoreSums] = [:]
        for (index, plan) in plans.enumerated() {
            let item = plan.item
            players[item.userID, default: PlayerSums()].add(plan)
            topics[TopicKey(user: item.userID, topic: item.topic), default: TopicSums()].add(plan)
            days.insert(DayKey(user: item.userID, day: localDays[index]))
            for (period, increment) in zip(plan.open, plan.increments) {
                scores[ScoreKey(period, user: item.userID), default: ScoreSums()].add(increment, item: item)
            }
        }
        let playerRows = players.sorted { $0.key < $1.key }
        let topicRows = Array(topics)
        let dayRows = Array(days)
        let scoreRows = Array(scores)
        return [
            (Self.upsertUsers, [
                playerRows.map(\.key), playerRows.map { $0.value.displayName ?? "" }, playerRows.map(\.value.points),
                playerRows.map(\.value.completions), playerRows.map(\.value.correct), playerRows.map(\.value.total), recordedAt,
            ]),
            (Self.upsertTopics, [
                topicRows.map(\.key.user), topicRows.map(\.key.topic), topicRows.map(\.value.completions),
                topicRows.map(\.value.correct), topicRows.map(\.value.total), topicRows.map(\.value.accuracySum),
                topicRows.map(\.value.bestAccuracy), topicRows.map(\.value.bestPoints), topicRows.map(\.value.lastPlayedAt),
            ]),
            (Self.recordDays, [dayRows.map(\.user), dayRows.map(\.day), playerRows.map(\.key)]),
            (Self.upsertScores, [
                scoreRows.map(\.key.board), scoreRows.map(\.key.window), scoreRows.map(\.key.period), scoreRows.map(\.key.user),
                scoreRows.map(\.value.increment), recordedAt, scoreRows.map { $0.value.reachedAt.map(RFC3339.format) ?? "" },
                scoreRows.map(\.value.durationMs), scoreRows.map(\.value.untimedCompletions),
            ]),
        ]
    }

    /// The results of `statements`, by what each holds.
    struct Results {
        /// `upsertUsers`: each player's totals after the batch, handle and display name.
        let users: PostgresResult
        /// `upsertTopics`: each (player, topic)'s completions after the batch.
        let topics: PostgresResult
        /// `recordDays`: each player's active days and achievements before the batch.
        let days: PostgresResult
        /// `upsertScores`: each (board period, player)'s score after the batch; closed periods left out.
        let scores: PostgresResult

        /// Names the first four of a pipeline's results, which are `statements`' in their order.
        init(_ results: ArraySlice<PostgresResult>) throws {
            let results = Array(results.prefix(4))
            guard results.count == 4 else { throw BatchUpsertError.missingResult }
            (users, topics, days, scores) = (results[0], results[1], results[2], results[3])
        }
    }

    /// What each completion (by index of `plans`) saw right after itself, from the four statements' results.
    func states(from results: Results) throws -> [CompletionState] {
        var totals: [String: PlayerTotals] = [:]
        var displayNames: [String: String] = [:]
        var members: [String: String] = [:]
        for row in results.users.rows {
            let user = try row.string("user_id")
            totals[user] = PlayerTotals(
                points: try row.int64("points"), completions: try row.int64("completions"),
                correctAnswers: try row.int64("correct_answers"), totalAnswers: try row.int64("total_answers"))
            displayNames[user] = row["display_name"]
            members[user] = try row.member()
        }
        var topicCompletions: [TopicKey: Int64] = [:]
        for row in results.topics.rows {
            topicCompletions[TopicKey(user: try row.string("user_id"), topic: try row.string("topic"))] = try row.int64("completions")
        }
        var days: [String: Set<Int>] = [:]
        var achievements: [String: Set<String>] = [:]
        for row in results.days.rows {
            let user = try row.string("user_id")
            days[user] = Set((row["days"] ?? "").split(separator: ",").compactMap { Int($0) })
            achievements[user] = Set((row["achievements"] ?? "").split(separator: ",").map(String.init))
        }
        let tieBreaks = Dictionary(plans.flatMap { $0.open.map { ($0.board.id, $0.board.tieBreak) } }) { first, _ in first }
        var places: [ScoreKey: RankingPlace] = [:]
        for row in results.scores.rows {
            let board = try row.string("board")
            let key = ScoreKey(board: board, window: try row.string("board_window"), period: try row.string("period"), user: try row.string("user_id"))
            places[key] = try row.place(tieBreak: tieBreaks[board] ?? .shared)
        }

        // Backwards: each completion sees the stored values less what later completions of its player added.
        var states: [CompletionState] = []
        states.reserveCapacity(plans.count)
        for plan in plans.reversed() {
            let item = plan.item
            let topic = TopicKey(user: item.userID, topic: item.topic)
            guard let after = totals[item.userID], let topicCount = topicCompletions[topic], let member = members[item.userID] else {
                throw BatchUpsertError.missingResult
            }
            var stored: [(BoardPeriod, ScoreUpdate)] = []
            var closedEarly: [BoardPeriod] = []
            for (period, increment) in zip(plan.open, plan.increments) {
                let key = ScoreKey(period, user: item.userID)
                guard let place = places[key] else {
                    closedEarly.append(period)
                    continue
                }
                // The tie-break key after the whole batch: an earlier completion of the same player in the batch is
                // answered with its own score but the batch's final key (a rank within a tie may differ from what a
                // lone request would have answered; the stored board is exact).
                stored.append((period, ScoreUpdate(key: RankingKeys.board(period), member: member, place: place)))
                places[key] = RankingPlace(score: place.score - increment, key: place.key)
            }
            states.append(CompletionState(
                standing: PlayerStanding(
                    totals: after, topicCompletions: topicCount, activeDays: [], heldAchievements: achievements[item.userID] ?? []),
                periods: stored.map(\.0), scores: stored.map(\.1), closedEarly: closedEarly, member: member,
                displayName: displayNames[item.userID]))
            totals[item.userID] = PlayerTotals(
                points: after.points - Int64(plan.points), completions: after.completions - 1,
                correctAnswers: after.correctAnswers - Int64(item.correct), totalAnswers: after.totalAnswers - Int64(item.total))
            topicCompletions[topic] = topicCount - 1
        }
        states.reverse()
        // Forwards: each completion's active days are those before the batch plus its own and its player's earlier ones.
        for (index, plan) in plans.enumerated() {
            days[plan.item.userID, default: []].insert(localDays[index])
            states[index].standing.activeDays = Array(days[plan.item.userID] ?? [])
        }
        return states
    }
}

/// What one completion of a batch saw right after itself.
struct CompletionState {
    /// The player's totals, topic count and active days with this completion; achievements held before the batch.
    var standing: PlayerStanding
    /// The open periods that took the score, in the plan's order.
    var periods: [BoardPeriod]
    /// The player's score in each of `periods` right after this completion.
    var scores: [ScoreUpdate]
    /// Open periods an admin closed early: the completion missed them.
    var closedEarly: [BoardPeriod]
    /// The player's ranking member (`RankingMember` of `users.handle`).
    var member: String
    /// The player's display name as stored after the batch.
    var displayName: String?
}

/// A result set the batch needs was missing or short (a programming error, reported rather than guessed).
enum BatchUpsertError: Error {
    /// A statement's rows did not cover every player, topic or period of the batch.
    case missingResult
}

private struct PlayerSums {
    var displayName: String?
    var points: Int64 = 0
    var completions: Int64 = 0
    var correct: Int64 = 0
    var total: Int64 = 0

    mutating func add(_ plan: CompletionPlan) {
        if let name = plan.item.displayName { displayName = name }
        points += Int64(plan.points)
        completions += 1
        correct += Int64(plan.item.correct)
        total += Int64(plan.item.total)
    }
}

private struct TopicSums {
    var completions: Int64 = 0
    var correct: Int64 = 0
    var total: Int64 = 0
    var accuracySum = 0.0
    var bestAccuracy = 0.0
    var bestPoints = 0
    var lastPlayedAt = Date(timeIntervalSince1970: 0)

    mutating func add(_ plan: CompletionPlan) {
        let item = plan.item
        let accuracy = Double(item.correct) / Double(item.total)
        completions += 1
        correct += Int64(item.correct)
        total += Int64(item.total)
        accuracySum += accuracy
        bestAccuracy = max(bestAccuracy, accuracy)
        bestPoints = max(bestPoints, plan.points)
        lastPlayedAt = max(lastPlayedAt, item.completedAt)
    }
}

private struct TopicKey: Hashable {
    let user: String
    let topic: String
}

private struct DayKey: Hashable {
    let user: String
    let day: Int
}

/// One (board period, player)'s share of a batch: the score it adds and what the tie-breaks read of the
/// completions that added to it.
private struct ScoreSums {
    var increment: Int64 = 0
    var reachedAt: Date?
    var durationMs: Int64 = 0
    var untimedCompletions: Int64 = 0

    /// Adds one completion's `increment`; only a completion that adds to the score counts for the tie-breaks.
    mutating func add(_ increment: Int64, item: ValidCompletion) {
        self.increment += increment
        guard increment > 0 else { return }
        reachedAt = max(reachedAt ?? item.completedAt, item.completedAt)
        if let duration = item.durationMS { durationMs += Int64(duration) } else { untimedCompletions += 1 }
    }
}

private struct ScoreKey: Hashable {
    let board: String
    let window: String
    let period: String
    let user: String

    init(board: String, window: String, period: String, user: String) {
        (self.board, self.window, self.period, self.user) = (board, window, period, user)
    }

    init(_ period: BoardPeriod, user: String) {
        self.init(board: period.board.id, window: period.period.window.rawValue, period: period.period.key, user: user)
    }
}
