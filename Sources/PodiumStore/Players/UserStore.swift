import Foundation
import Logging
import PodiumCore
import PodiumWire
import Postgres
import Redis

/// Players: profiles, history, topic statistics, preferences (erasure is `PlayerErasure`).
public struct UserStore: Sendable {
    let postgres: PostgresPool
    /// Where profiles, history and topic statistics are read (a standby's may be slightly behind).
    let replica: ReadReplica
    let leaderboards: LeaderboardStore
    let periods: PeriodStore
    let rankings: RankingWriter
    let follows: FollowStore
    let rules: GameRules
    let logger: Logger

    /// Creates the store; profile ranks are read through `leaderboards` (and its batched Redis reads), medals through
    /// `periods`, friends' progress through `follows`.
    /// Profiles, history and topic statistics come from `replica`'s pool when given.
    public init(
        postgres: PostgresPool, replica: ReadReplica? = nil, leaderboards: LeaderboardStore, periods: PeriodStore,
        rankings: RankingWriter, follows: FollowStore, rules: GameRules, logger: Logger
    ) {
        self.postgres = postgres
        self.replica = replica ?? .primaryOnly(postgres)
        self.leaderboards = leaderboards
        self.periods = periods
        self.rankings = rankings
        self.follows = follows
        self.rules = rules
        self.logger = logger
    }

    /// The profile of `userID` at `now`, or nil if Podium has never seen the player.
    public func profile(userID: String, now: Date) async throws -> UserProfile? {
        guard let row = try await replica.run(PlayerProfile(userID: userID)).first else { return nil }
        let totals = PlayerTotals(
            points: row.points, completions: row.completions, correctAnswers: row.correctAnswers, totalAnswers: row.totalAnswers)
        let boards = row.boards.compactMap(BoardScope.init(id:))
        let periods = boards.flatMap { scope -> [BoardPeriod] in
            let board = rules.boards.definition(for: scope)
            return board.windows.compactMap { window in board.currentPeriod(of: window, at: now).map { BoardPeriod(board: board, period: $0) } }
        }
        let standings = try await leaderboards.standings(userID: userID, periods: periods)
        let medals = try await self.periods.medals(userID: userID)
        let zone = TimeZone(identifier: row.timeZone) ?? .gmt
        let days = (row.days ?? "").split(separator: ",").compactMap { Int($0) }
        let names = Dictionary(rules.achievements.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let achievements = try await replica.run(UnlockedAchievements(userID: userID)).map { row in
            UnlockedAchievement(id: row.achievement, name: names[row.achievement] ?? row.achievement, unlockedAt: RFC3339.format(row.unlockedAt))
        }
        return UserProfile(
            userId: userID, displayName: row.displayName, timeZone: row.timeZone, totals: totals,
            level: rules.levels.progress(points: Int(totals.points)), ranks: standings.ranks, rankingsLive: standings.live,
            createdAt: RFC3339.format(row.createdAt), medals: medals,
            streak: Streak.of(activeDays: days, today: Streak.localDay(of: now, in: zone)), achievements: achievements,
            friends: try await follows.friendsProgress(userID: userID, now: now))
    }

    /// Whether `userID` has a score on a board any of `patterns` matches: the players a scoped key may read.
    public func appears(userID: String, onAny patterns: [BoardPattern]) async throws -> Bool {
        try await appearing(among: [userID], onAny: patterns).contains(userID)
    }

    /// Those of `userIDs` with a score on a board any of `patterns` matches.
    public func appearing(among userIDs: [String], onAny patterns: [BoardPattern]) async throws -> Set<String> {
        var boards: [String] = []
        var prefixes: [String] = []
        for pattern in patterns {
            switch pattern {
            case .board(let board): boards.append(board.id)
            case .anyTopic: prefixes.append("topic:%")
            case .anyGroup: prefixes.append("group:%")
            case .anyQuiz: prefixes.append("quiz:%")
            }
        }
        return Set(try await postgres.run(PlayersOnBoards(userIDs: userIDs, boards: boards, prefixes: prefixes)).map(\.userID))
    }

    /// Whether Podium knows `userID`.
    public func exists(userID: String) async throws -> Bool {
        try await !postgres.run(KnownPlayer(userID: userID)).isEmpty
    }

    /// The display names of those of `userIDs` that have one.
    public func displayNames(of userIDs: [String]) async throws -> [String: String] {
        guard !userIDs.isEmpty else { return [:] }
        let rows = try await postgres.run(DisplayNames(userIDs: userIDs))
        return Dictionary(rows.map { ($0.userID, $0.displayName) }, uniquingKeysWith: { first, _ in first })
    }

    /// Players found by `text`: those whose id starts with it, then those whose display name contains it (any case),
    /// each in id order, at most `limit` in all.
    public func search(_ text: String, limit: Int) async throws -> [PlayerMatch] {
        let prefix = SQLText.escapedLike(text) + "%"
        let anywhere = "%" + SQLText.escapedLike(text) + "%"
        return try await postgres.run(FoundPlayers(prefix: prefix, anywhere: anywhere, limit: limit)).map { row in
            PlayerMatch(userId: row.userID, displayName: row.displayName, points: row.points, createdAt: RFC3339.format(row.createdAt))
        }
    }

    /// A page of the player's completions, newest first (`completed_at`, then id), optionally in one topic.
    ///
    /// `cursor` is the `next_cursor` of the previous page; nil when it is not one this API gave out.
    public func history(userID: String, topic: String?, limit: Int, cursor: HistoryCursor?) async throws -> CompletionHistory {
        // One more than the page: whether there is a next page.
        let rows = try await replica.run(
            HistoryPage(userID: userID, topic: topic, afterCompletedAt: cursor?.completedAt, afterID: cursor?.id, limit: limit + 1))
        let items = rows.prefix(limit).map { row in
            CompletionRecord(
                id: row.id, userId: userID, quizId: row.quizID, topic: row.topic,
                difficulty: Difficulty(rawValue: row.difficulty) ?? .easy, correct: row.correct,
                total: row.total, durationMs: row.durationMs,
                completedAt: RFC3339.format(row.completedAt),
                groups: row.groups.split(separator: ",").map(String.init), points: row.points,
                recordedAt: RFC3339.format(row.recordedAt))
        }
        let next = rows.count > limit ? items.last.flatMap { last in
            RFC3339.parse(last.completedAt).map { HistoryCursor(completedAt: $0, id: last.id).encoded }
        } : nil
        return CompletionHistory(items: items, nextCursor: next)
    }

    /// Per-topic statistics, most played first.
    public func topics(userID: String) async throws -> [TopicStatistics] {
        try await replica.run(PlayerTopics(userID: userID)).map { row in
            let count = row.completions
            return TopicStatistics(
                topic: row.topic, completions: count, correctAnswers: row.correctAnswers,
                totalAnswers: row.totalAnswers,
                averageAccuracyPercent: count == 0 ? 0 : (row.accuracySum / Double(count) * 1000).rounded() / 10,
                bestAccuracyPercent: (row.bestAccuracy * 1000).rounded() / 10,
                bestPoints: row.bestPoints, lastPlayedAt: RFC3339.format(row.lastPlayedAt))
        }
    }

    /// Replaces the player's preferences, creating the player if new; updates the name boards show and
    /// schedules the next reminder check (the next reminder time after `now`).
    public func setPreferences(
        userID: String, displayName: String?, timeZone: String, reminders: ReminderPreferences? = nil, now: Date
    ) async throws -> PreferencesResponse {
        let zone = TimeZone(identifier: timeZone) ?? .gmt
        let next = reminders?.schedule(playerZone: zone)?.next(after: now)
        let stored = try reminders.map { try PodiumJSON.string($0) }
        let member = try await postgres.withTransaction { connection -> String in
            // The player's lock and row first, as completion batches take them, so the two cannot deadlock and a batch
            // never counts days in the zone this replaces.
            try connection.run(LockPlayer(userID: userID))
            let previous = try connection.run(PlayerForUpdate(userID: userID)).first
            let saved = SavePreferences(
                userID: userID, displayName: displayName, timeZone: timeZone, reminders: stored, nextReminderAt: next, now: now,
                handle: previous?.handle)
            let member = try RankingMember.member(ofHandle: try connection.run(saved)[0].handle)
            // A known player keeps its handle (a column default would draw one for every upsert, conflicting or not).
            if let previous = previous?.timeZone, previous != timeZone {
                try Self.recountDays(userID: userID, from: TimeZone(identifier: previous) ?? .gmt, to: zone, on: connection)
            }
            return member
        }
        do {
            try await rankings.apply([], players: [RankedPlayer(member: member, userID: userID, displayName: displayName)])
        } catch {
            logger.warning("display name not updated in Redis; queued for the ranking sync", metadata: ["error": "\(error)"])
            // Every replica's ranking sync is told when it commits.
            let queue = QueueDisplayName(userID: userID, queuedAt: now)
            _ = try await postgres.withConnection { try $0.pipeline([queue.query, NotifyChange(.rankings).query]) }
        }
        return PreferencesResponse(
            userId: userID, displayName: displayName, timeZone: timeZone, reminders: reminders, nextReminderAt: next.map(RFC3339.format))
    }

    /// Streak days are local days in the player's zone, stored as each completion is recorded: a new
    /// zone counts them again from the completions, so streaks never mix two zones' days.
    ///
    /// Days before the first kept completion's day in the old zone stay as they were counted: their completions were
    /// pruned (`completion_days`), so nothing can count them again (`Streak.recountedDays`).
    private static func recountDays(userID: String, from old: TimeZone, to zone: TimeZone, on connection: PostgresConnection) throws {
        let row = try connection.run(DaysAndPlays(userID: userID)).first
        let stored = (row?.days ?? "").split(separator: ",").compactMap { Int($0) }
        let times = (row?.times ?? "").split(separator: ",").compactMap { Double($0) }.map { Date(timeIntervalSince1970: $0) }
        let days = Streak.recountedDays(stored, times: times, from: old, to: zone)
        try connection.run(SetDays(userID: userID, days: days))
    }
}

/// Position in a player's history: the last item's time and id.
public struct HistoryCursor: Sendable, Equatable {
    /// `completed_at` of the last item returned.
    public let completedAt: Date
    /// Id of the last item returned.
    public let id: String

    /// Creates a cursor.
    public init(completedAt: Date, id: String) {
        self.completedAt = completedAt
        self.id = id
    }

    /// Text for clients: `<milliseconds since 1970>.<id>` (`1795600800000.c-1001`). Times are whole milliseconds, as
    /// stored, so every text of this shape is a position a page can start after: the OpenAPI document can give its
    /// pattern, and a client cannot make one that is refused.
    public var encoded: String {
        "\(Int64((completedAt.timeIntervalSince1970 * 1000).rounded())).\(id)"
    }

    /// Decodes a cursor; nil if it is not of the shape `encoded` makes (or of the base64url `<time>|<id>` that earlier
    /// versions gave out, so a client paging across an upgrade goes on).
    public init?(encoded: String) {
        if let dot = encoded.firstIndex(of: "."), (1...15).contains(encoded[..<dot].count),
           encoded[..<dot].allSatisfy({ ("0"..."9").contains($0) }), let milliseconds = Int64(encoded[..<dot]) {
            let id = String(encoded[encoded.index(after: dot)...])
            guard NameRules.isValidIdentifier(id) else { return nil }
            self.init(completedAt: Date(timeIntervalSince1970: Double(milliseconds) / 1000), id: id)
            return
        }
        var base64 = encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard encoded.count <= 400, let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
              let bar = text.firstIndex(of: "|"), let date = RFC3339.parse(String(text[..<bar])) else { return nil }
        let id = String(text[text.index(after: bar)...])
        guard NameRules.isValidIdentifier(id) else { return nil }
        self.init(completedAt: date, id: id)
    }
}

/// A player's profile columns: name, zone, totals, when first seen, the boards with a score, and the active days.
private struct PlayerProfile: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT display_name, time_zone, points, completions, correct_answers, total_answers, created_at,
               ARRAY(SELECT DISTINCT board FROM board_scores b WHERE b.user_id = u.user_id ORDER BY board)::text AS boards,
               array_to_string(days, ',') AS days
        FROM users u WHERE user_id = \(\.userID)
        """
    struct Row: Decodable, Sendable {
        let displayName: String?
        let timeZone: String
        let points: Int64
        let completions: Int64
        let correctAnswers: Int64
        let totalAnswers: Int64
        let createdAt: Date
        /// The boards the player has a score on, sorted.
        let boards: [String]
        /// The active local days, comma-separated.
        let days: String?
    }
    let userID: String
}

/// A player's unlocked achievements, in the order unlocked.
private struct UnlockedAchievements: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT achievement, unlocked_at FROM user_achievements WHERE user_id = \(\.userID) ORDER BY unlocked_at, achievement
        """
    struct Row: Decodable, Sendable {
        let achievement: String
        let unlockedAt: Date
    }
    let userID: String
}

/// Those of some players with a score on one of some boards or on a board whose id is LIKE one of some patterns.
private struct PlayersOnBoards: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT DISTINCT user_id FROM board_scores
        WHERE user_id = ANY(\(\.userIDs)) AND (board = ANY(\(\.boards)) OR board LIKE ANY(\(\.prefixes)))
        """
    struct Row: Decodable, Sendable { let userID: String }
    let userIDs: [String]
    let boards: [String]
    /// LIKE patterns of board ids.
    let prefixes: [String]
}

/// One row when Podium knows the player.
private struct KnownPlayer: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT 1 FROM users WHERE user_id = \(\.userID)"
    /// Nothing but its presence.
    struct Row: Decodable, Sendable {}
    let userID: String
}

/// The display names of those of some players that have one.
private struct DisplayNames: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT user_id, display_name FROM users WHERE user_id = ANY(\(\.userIDs)) AND display_name IS NOT NULL
        """
    struct Row: Decodable, Sendable {
        let userID: String
        let displayName: String
    }
    let userIDs: [String]
}

/// Players whose id is LIKE `prefix`, then those whose display name is ILIKE `anywhere` (and whose id is not LIKE
/// `prefix`), each in id order, at most `limit` in all.
private struct FoundPlayers: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        (SELECT user_id, display_name, points, created_at, 0 AS kind FROM users WHERE user_id LIKE \(\.prefix) ORDER BY user_id LIMIT \(\.limit))
        UNION ALL
        (SELECT user_id, display_name, points, created_at, 1 AS kind FROM users
         WHERE display_name ILIKE \(\.anywhere) AND user_id NOT LIKE \(\.prefix) ORDER BY user_id LIMIT \(\.limit))
        ORDER BY kind, user_id LIMIT \(\.limit)
        """
    struct Row: Decodable, Sendable {
        let userID: String
        let displayName: String?
        let points: Int64
        let createdAt: Date
    }
    let prefix: String
    let anywhere: String
    let limit: Int
}

/// Up to `limit` of a player's completions, newest first (`completed_at`, then id), optionally of one topic, after
/// a position (none: from the newest).
private struct HistoryPage: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT id, quiz_id, topic, difficulty, correct, total, duration_ms, array_to_string(groups, ',') AS groups,
               completed_at, recorded_at, points
        FROM completions
        WHERE user_id = \(\.userID) AND (\(\.topic)::text IS NULL OR topic = \(\.topic))
          AND (\(\.afterCompletedAt)::timestamptz IS NULL OR (completed_at, id) < (\(\.afterCompletedAt)::timestamptz, \(\.afterID)::text))
        ORDER BY completed_at DESC, id DESC LIMIT \(\.limit)
        """
    struct Row: Decodable, Sendable {
        let id: String
        let quizID: String
        let topic: String
        let difficulty: String
        let correct: Int
        let total: Int
        let durationMs: Int?
        /// The groups, comma-separated.
        let groups: String
        let completedAt: Date
        let recordedAt: Date
        let points: Int
    }
    let userID: String
    /// Only this topic's completions; nil: every topic's.
    let topic: String?
    /// The position's time; nil: from the newest.
    let afterCompletedAt: Date?
    /// The position's completion id.
    let afterID: String?
    let limit: Int
}

/// A player's statistics per topic, most played first.
private struct PlayerTopics: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT topic, completions, correct_answers, total_answers, accuracy_sum, best_accuracy, best_points, last_played_at
        FROM user_topics WHERE user_id = \(\.userID) ORDER BY completions DESC, topic
        """
    struct Row: Decodable, Sendable {
        let topic: String
        let completions: Int64
        let correctAnswers: Int64
        let totalAnswers: Int64
        let accuracySum: Double
        let bestAccuracy: Double
        let bestPoints: Int
        let lastPlayedAt: Date
    }
    let userID: String
}

/// A known player's zone and handle, the row locked until the transaction ends.
private struct PlayerForUpdate: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT time_zone, handle FROM users WHERE user_id = \(\.userID) FOR UPDATE"
    struct Row: Decodable, Sendable {
        let timeZone: String
        let handle: Int64
    }
    let userID: String
}

/// Writes a player's preferences, creating the player (with `handle`, or a new one from the sequence) if new; answers
/// the handle.
private struct SavePreferences: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO users (user_id, handle, display_name, time_zone, reminders, next_reminder_at, created_at, updated_at)
        VALUES (\(\.userID), COALESCE(\(\.handle), nextval('users_handle_seq')), \(\.displayName), \(\.timeZone), \(\.reminders)::jsonb, \(\.nextReminderAt), \(\.now), \(\.now))
        ON CONFLICT (user_id) DO UPDATE SET display_name = EXCLUDED.display_name, time_zone = EXCLUDED.time_zone,
                                            reminders = EXCLUDED.reminders, next_reminder_at = EXCLUDED.next_reminder_at,
                                            updated_at = EXCLUDED.updated_at
        RETURNING handle
        """
    struct Row: Decodable, Sendable { let handle: Int64 }
    let userID: String
    let displayName: String?
    let timeZone: String
    /// The reminder preferences as JSON; nil: none.
    let reminders: String?
    let nextReminderAt: Date?
    let now: Date
    /// A known player's handle, which it keeps; nil for a new player.
    let handle: Int64?
}

/// Queues a player's display name for the ranking sync, which writes it to Redis.
private struct QueueDisplayName: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO pending_display_names (user_id, queued_at) VALUES (\(\.userID), \(\.queuedAt))
        ON CONFLICT (user_id) DO UPDATE SET queued_at = EXCLUDED.queued_at
        """
    typealias Row = NoRows
    let userID: String
    let queuedAt: Date
}

/// A player's stored active days, and the times (epoch seconds) of the player's kept completions, comma-separated.
private struct DaysAndPlays: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT array_to_string(u.days, ',') AS days,
               (SELECT string_agg(extract(epoch FROM c.completed_at)::text, ',') FROM completions c WHERE c.user_id = u.user_id) AS times
        FROM users u WHERE u.user_id = \(\.userID)
        """
    struct Row: Decodable, Sendable {
        let days: String?
        let times: String?
    }
    let userID: String
}

/// Replaces a player's active days.
private struct SetDays: PostgresStatement {
    static let sql: PostgresSQL<Self> = "UPDATE users SET days = \(\.days)::int[] WHERE user_id = \(\.userID)"
    typealias Row = NoRows
    let userID: String
    let days: [Int]
}
