import Foundation
import PodiumCore
import PodiumWire
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
    /// The players as they stood before the batch: time zone, active days and achievements.
    let players: [String: StoredPlayer]

    /// Sums `plans` (sorted by player, then time played, then id) for `players` as they stood before the batch (a
    /// player without a row yet is new: UTC, no days, no achievements).
    init(_ plans: [CompletionPlan], players: [String: StoredPlayer]) {
        self.plans = plans
        self.players = players
        localDays = plans.map { Streak.localDay(of: $0.item.completedAt, in: players[$0.item.userID]?.zone ?? .gmt) }
    }

    /// The three statements, in this order: users, topics, board scores.
    func statements(recordedAt: Date) -> [any PostgresStatement] {
        var players: [String: PlayerRow] = [:]
        var topics: [TopicKey: TopicRow] = [:]
        var scores: [ScoreKey: ScoreRow] = [:]
        players.reserveCapacity(plans.count)
        topics.reserveCapacity(plans.count)
        scores.reserveCapacity(plans.reduce(0) { $0 + $1.open.count })
        for (index, plan) in plans.enumerated() {
            let item = plan.item
            players[item.userID, default: PlayerRow(userID: item.userID)].add(plan, day: localDays[index])
            topics[TopicKey(user: item.userID, topic: item.topic), default: TopicRow(userID: item.userID, topic: item.topic)].add(plan)
            for (period, increment) in zip(plan.open, plan.increments) {
                let key = ScoreKey(period, user: item.userID)
                scores[key, default: ScoreRow(board: key.board, window: key.window, period: key.period, userID: key.user, definition: period.board)]
                    .add(increment, completedAt: item.completedAt, durationMs: item.durationMS)
            }
        }
        let playerRows = players.values.sorted { $0.userID < $1.userID }
        return [
            UpsertPlayers(players: playerRows, recordedAt: recordedAt),
            UpsertTopics(topics: Array(topics.values)),
            RecordBoardScores(scores: Array(scores.values), recordedAt: recordedAt),
        ]
    }

    /// The rows of `statements`, by what each holds.
    struct Results {
        /// ``UpsertPlayers``: each player's totals after the batch, handle and display name.
        fileprivate let users: [UpsertPlayers.Row]
        /// ``UpsertTopics``: each (player, topic)'s completions after the batch.
        fileprivate let topics: [UpsertTopics.Row]
        /// ``RecordBoardScores``: each (board period, player)'s score after the batch; closed periods left out.
        let scores: [RecordBoardScores.Row]

        /// Reads the first three of a pipeline's results, which are `statements`' in their order.
        init(_ results: ArraySlice<PostgresResult>) throws {
            let results = Array(results.prefix(3))
            guard results.count == 3 else { throw BatchUpsertError.missingResult }
            users = try UpsertPlayers.rows(of: results[0])
            topics = try UpsertTopics.rows(of: results[1])
            scores = try RecordBoardScores.rows(of: results[2])
        }
    }

    /// What each completion (by index of `plans`) saw right after itself, from the three statements' results.
    func states(from results: Results) throws -> [CompletionState] {
        var totals: [String: PlayerTotals] = [:]
        var displayNames: [String: String] = [:]
        var members: [String: String] = [:]
        for row in results.users {
            totals[row.userID] = PlayerTotals(
                points: row.points, completions: row.completions, correctAnswers: row.correctAnswers, totalAnswers: row.totalAnswers)
            displayNames[row.userID] = row.displayName
            members[row.userID] = try RankingMember.member(ofHandle: row.handle)
        }
        var topicCompletions: [TopicKey: Int64] = [:]
        for row in results.topics {
            topicCompletions[TopicKey(user: row.userID, topic: row.topic)] = row.completions
        }
        let tieBreaks = Dictionary(plans.flatMap { $0.open.map { ($0.board.id, $0.board.tieBreak) } }) { first, _ in first }
        var places: [ScoreKey: RankingPlace] = [:]
        places.reserveCapacity(plans.reduce(0) { $0 + $1.open.count })
        for row in results.scores {
            let key = ScoreKey(board: row.board, window: row.boardWindow, period: row.period, user: row.userID)
            places[key] = row.place(tieBreak: tieBreaks[row.board] ?? .shared)
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
                // lone request would have answered; the stored board is exact). On a best or latest board there is nothing
                // to take off: each completion of the batch is answered with the batch's final place.
                stored.append((period, ScoreUpdate(
                    key: RankingKeys.board(period), member: member, place: place, replaces: period.board.aggregate == .latest)))
                if period.board.aggregate == .sum {
                    places[key] = RankingPlace(score: place.score - increment, key: place.key, keyBits: place.keyBits)
                }
            }
            states.append(CompletionState(
                standing: PlayerStanding(
                    totals: after, topicCompletions: topicCount, activeDays: [],
                    heldAchievements: players[item.userID]?.achievements ?? []),
                periods: stored.map(\.0), scores: stored.map(\.1), closedEarly: closedEarly, member: member,
                displayName: displayNames[item.userID]))
            totals[item.userID] = PlayerTotals(
                points: after.points - Int64(plan.points), completions: after.completions - 1,
                correctAnswers: after.correctAnswers - Int64(item.correct), totalAnswers: after.totalAnswers - Int64(item.total))
            topicCompletions[topic] = topicCount - 1
        }
        states.reverse()
        // Forwards: each completion's active days are those before the batch plus its own and its player's earlier ones.
        var days = players.mapValues { Set($0.days) }
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
    /// The goals it counted toward, with their progress right after it (`GoalProgressWrites`).
    var goals: [GoalAdvance] = []
}

/// A result set the batch needs was missing or short (a programming error, reported rather than guessed).
enum BatchUpsertError: Error {
    /// A statement's rows did not cover every player, topic or period of the batch.
    case missingResult
}

/// One player's share of a batch: what its completions add to its totals, and the display name the last of them brought.
struct PlayerRow: Sendable {
    /// The player.
    let userID: String
    /// The display name the player's last completion in the batch brought, if any.
    var displayName: String?
    /// Points the completions add.
    var points: Int64 = 0
    /// How many completions.
    var completions: Int64 = 0
    /// Correct answers they add.
    var correctAnswers: Int64 = 0
    /// Answers they add.
    var totalAnswers: Int64 = 0
    /// The local days the completions were played on.
    var days = Set<Int>()

    /// The row's columns as `UpsertPlayers` reads them; the days travel as one comma-separated text each
    /// (`unnest` would flatten an array of arrays).
    static let columns = PostgresColumns<PlayerRow>(
        .column("user_id", "text", { $0.userID }), .optional("display_name", "text", { $0.displayName }),
        .column("points", "bigint", { $0.points }), .column("completions", "bigint", { $0.completions }),
        .column("correct_answers", "bigint", { $0.correctAnswers }), .column("total_answers", "bigint", { $0.totalAnswers }),
        .column("days", "text", { $0.days.sorted().map(String.init).joined(separator: ",") }))

    /// Adds one completion of the player, played on local day `day`.
    mutating func add(_ plan: CompletionPlan, day: Int) {
        days.insert(day)
        if let name = plan.item.displayName { displayName = name }
        points += Int64(plan.points)
        completions += 1
        correctAnswers += Int64(plan.item.correct)
        totalAnswers += Int64(plan.item.total)
    }
}

/// One (player, topic)'s share of a batch: counts and sums to add, bests and last play to keep at the maximum.
struct TopicRow: Sendable {
    /// The player.
    let userID: String
    /// The topic.
    let topic: String
    /// How many completions.
    var completions: Int64 = 0
    /// Correct answers they add.
    var correctAnswers: Int64 = 0
    /// Answers they add.
    var totalAnswers: Int64 = 0
    /// The sum of their accuracies (correct over total).
    var accuracySum = 0.0
    /// Their best accuracy.
    var bestAccuracy = 0.0
    /// Their best points.
    var bestPoints: Int64 = 0
    /// When the latest of them was played.
    var lastPlayedAt = Date(timeIntervalSince1970: 0)

    /// The row's columns as `UpsertTopics` reads them.
    static let columns = PostgresColumns<TopicRow>(
        .column("user_id", "text", { $0.userID }), .column("topic", "text", { $0.topic }),
        .column("completions", "bigint", { $0.completions }), .column("correct_answers", "bigint", { $0.correctAnswers }),
        .column("total_answers", "bigint", { $0.totalAnswers }), .column("accuracy_sum", "float8", { $0.accuracySum }),
        .column("best_accuracy", "float8", { $0.bestAccuracy }), .column("best_points", "bigint", { $0.bestPoints }),
        .column("last_played_at", "timestamptz", { $0.lastPlayedAt }))

    /// Adds one completion of the player in the topic.
    mutating func add(_ plan: CompletionPlan) {
        let item = plan.item
        let accuracy = Double(item.correct) / Double(item.total)
        completions += 1
        correctAnswers += Int64(item.correct)
        totalAnswers += Int64(item.total)
        accuracySum += accuracy
        bestAccuracy = max(bestAccuracy, accuracy)
        bestPoints = max(bestPoints, Int64(plan.points))
        lastPlayedAt = max(lastPlayedAt, item.completedAt)
    }
}

private struct TopicKey: Hashable {
    let user: String
    let topic: String
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

/// Adds each player's summed completion: totals added, display name kept unless a new one came, the batch's days merged
/// into the player's (the array is rewritten only when a day is new); returns each player's row after the batch.
///
/// A column default would draw a handle for every row proposed, conflicting or not, and so one per
/// player per batch: a known player brings its own handle instead, and only new players draw one
/// (in user-id order: the rows come sorted, and the subquery, kept whole by `OFFSET 0`, hands its rows
/// over in that order, which is also the order the rows are locked in). The handles then last: 2^36
/// players, not 2^36 batches.
private struct UpsertPlayers: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO users AS u (user_id, handle, display_name, points, completions, correct_answers, total_answers, days, created_at,
                                updated_at)
        SELECT x.user_id, COALESCE(x.known, nextval('users_handle_seq')), x.display_name, x.points, x.completions, x.correct_answers,
               x.total_answers, string_to_array(x.days, ',')::int[], \(\.recordedAt), \(\.recordedAt)
        FROM (SELECT x.*, known.handle AS known
              FROM \(unnest: \.players, PlayerRow.columns, as: "x", ordinality: "i")
              LEFT JOIN users known ON known.user_id = x.user_id
              ORDER BY x.i OFFSET 0) x
        ON CONFLICT (user_id) DO UPDATE SET
            display_name = COALESCE(EXCLUDED.display_name, u.display_name),
            points = u.points + EXCLUDED.points,
            completions = u.completions + EXCLUDED.completions,
            correct_answers = u.correct_answers + EXCLUDED.correct_answers,
            total_answers = u.total_answers + EXCLUDED.total_answers,
            days = CASE WHEN EXCLUDED.days <@ u.days THEN u.days
                        ELSE ARRAY(SELECT DISTINCT d FROM unnest(u.days || EXCLUDED.days) AS d ORDER BY d) END,
            updated_at = EXCLUDED.updated_at
        RETURNING user_id, handle, points, completions, correct_answers, total_answers, display_name
        """

    /// A player's row after the batch.
    struct Row: Decodable, Sendable {
        let userID: String
        /// The handle, whose member the boards hold.
        let handle: Int64
        let points: Int64
        let completions: Int64
        let correctAnswers: Int64
        let totalAnswers: Int64
        let displayName: String?
    }

    /// The players' shares, sorted by user id.
    let players: [PlayerRow]
    let recordedAt: Date
}

/// Adds each (player, topic)'s share: counts and sums added, bests and last play kept at the maximum; returns each
/// one's completions after the batch.
private struct UpsertTopics: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO user_topics AS t (user_id, topic, completions, correct_answers, total_answers, accuracy_sum, best_accuracy,
                                      best_points, last_played_at)
        SELECT x.user_id, x.topic, x.completions, x.correct_answers, x.total_answers, x.accuracy_sum, x.best_accuracy, x.best_points,
               x.last_played_at
        FROM \(unnest: \.topics, TopicRow.columns, as: "x")
        ORDER BY x.user_id, x.topic
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

    /// A (player, topic)'s completions after the batch.
    struct Row: Decodable, Sendable {
        let userID: String
        let topic: String
        let completions: Int64
    }

    let topics: [TopicRow]
}
