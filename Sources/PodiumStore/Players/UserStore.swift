import Foundation
import Logging
import PodiumCore
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
        let rows = try await replica.query("""
            SELECT display_name, time_zone, points, completions, correct_answers, total_answers, created_at,
                   ARRAY(SELECT DISTINCT board FROM board_scores b WHERE b.user_id = u.user_id ORDER BY board)::text AS boards,
                   array_to_string(days, ',') AS days
            FROM users u WHERE user_id = $1
            """, [userID]).rows
        guard let row = rows.first else { return nil }
        let totals = PlayerTotals(
            points: try row.int64("points"), completions: try row.int64("completions"),
            correctAnswers: try row.int64("correct_answers"), totalAnswers: try row.int64("total_answers"))
        let boards = PostgresArrayText.strings(try row.string("boards")).compactMap(BoardScope.init(id:))
        let periods = boards.flatMap { scope -> [BoardPeriod] in
            let board = rules.boards.definition(for: scope)
            return board.windows.compactMap { window in board.currentPeriod(of: window, at: now).map { BoardPeriod(board: board, period: $0) } }
        }
        let standings = try await leaderboards.standings(userID: userID, periods: periods)
        let medals = try await self.periods.medals(userID: userID)
        let zone = TimeZone(identifier: try row.string("time_zone")) ?? .gmt
        let days = (row["days"] ?? "").split(separator: ",").compactMap { Int($0) }
        let names = Dictionary(rules.achievements.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let achievements = try await replica.query("""
            SELECT achievement, unlocked_at FROM user_achievements WHERE user_id = $1 ORDER BY unlocked_at, achievement
            """, [userID]).rows.map { row in
            let id = try row.string("achievement")
            return UnlockedAchievement(id: id, name: names[id] ?? id, unlockedAt: RFC3339.format(try row.date("unlocked_at")))
        }
        return UserProfile(
            userId: userID, displayName: row["display_name"], timeZone: try row.string("time_zone"), totals: totals,
            level: rules.levels.progress(points: Int(totals.points)), ranks: standings.ranks, rankingsLive: standings.live,
            createdAt: RFC3339.format(try row.date("created_at")), medals: medals,
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
            }
        }
        return Set(try await postgres.query("""
            SELECT DISTINCT user_id FROM board_scores
            WHERE user_id = ANY(\(bind: userIDs)) AND (board = ANY(\(bind: boards)) OR board LIKE ANY(\(bind: prefixes)))
            """).rows.map { try $0.string("user_id") })
    }

    /// Whether Podium knows `userID`.
    public func exists(userID: String) async throws -> Bool {
        try await !postgres.query("SELECT 1 FROM users WHERE user_id = $1", [userID]).rows.isEmpty
    }

    /// The display names of those of `userIDs` that have one.
    public func displayNames(of userIDs: [String]) async throws -> [String: String] {
        guard !userIDs.isEmpty else { return [:] }
        let rows = try await postgres.query(
            "SELECT user_id, display_name FROM users WHERE user_id = ANY($1) AND display_name IS NOT NULL", [userIDs]).rows
        return Dictionary(try rows.map { (try $0.string("user_id"), try $0.string("display_name")) }, uniquingKeysWith: { first, _ in first })
    }

    /// Players found by `text`: those whose id starts with it, then those whose display name contains it (any case),
    /// each in id order, at most `limit` in all.
    public func search(_ text: String, limit: Int) async throws -> [PlayerMatch] {
        let prefix = SQLText.escapedLike(text) + "%"
        let anywhere = "%" + SQLText.escapedLike(text) + "%"
        return try await postgres.query("""
            (SELECT user_id, display_name, points, created_at, 0 AS kind FROM users WHERE user_id LIKE $1 ORDER BY user_id LIMIT $3)
            UNION ALL
            (SELECT user_id, display_name, points, created_at, 1 AS kind FROM users
             WHERE display_name ILIKE $2 AND user_id NOT LIKE $1 ORDER BY user_id LIMIT $3)
            ORDER BY kind, user_id LIMIT $3
            """, [prefix, anywhere, limit]).rows.map { row in
            PlayerMatch(
                userId: try row.string("user_id"), displayName: row.optionalString("display_name"), points: try row.int64("points"),
                createdAt: RFC3339.format(try row.date("created_at")))
        }
    }

    /// A page of the player's completions, newest first (`completed_at`, then id), optionally in one topic.
    ///
    /// `cursor` is the `next_cursor` of the previous page; nil when it is not one this API gave out.
    public func history(userID: String, topic: String?, limit: Int, cursor: HistoryCursor?) async throws -> CompletionHistory {
        let rows = try await replica.query("""
            SELECT id, quiz_id, topic, difficulty, correct, total, duration_ms, array_to_string(groups, ',') AS groups,
                   completed_at, recorded_at, points
            FROM completions
            WHERE user_id = $1 AND ($2::text IS NULL OR topic = $2)
              AND ($3::timestamptz IS NULL OR (completed_at, id) < ($3::timestamptz, $4::text))
            ORDER BY completed_at DESC, id DESC LIMIT $5
            """, [userID, topic, cursor?.completedAt, cursor?.id, limit + 1]).rows
        let items = try rows.prefix(limit).map { row in
            CompletionRecord(
                id: try row.string("id"), userId: userID, quizId: try row.string("quiz_id"), topic: try row.string("topic"),
                difficulty: Difficulty(rawValue: try row.string("difficulty")) ?? .easy, correct: try row.int("correct"),
                total: try row.int("total"), durationMs: try row.optionalInt("duration_ms"),
                completedAt: RFC3339.format(try row.date("completed_at")),
                groups: try row.string("groups").split(separator: ",").map(String.init), points: try row.int("points"),
                recordedAt: RFC3339.format(try row.date("recorded_at")))
        }
        let next = rows.count > limit ? items.last.flatMap { last in
            RFC3339.parse(last.completedAt).map { HistoryCursor(completedAt: $0, id: last.id).encoded }
        } : nil
        return CompletionHistory(items: items, nextCursor: next)
    }

    /// Per-topic statistics, most played first.
    public func topics(userID: String) async throws -> [TopicStatistics] {
        try await replica.query("""
            SELECT topic, completions, correct_answers, total_answers, accuracy_sum, best_accuracy, best_points, last_played_at
            FROM user_topics WHERE user_id = $1 ORDER BY completions DESC, topic
            """, [userID]).rows.map { row in
            let count = try row.int64("completions")
            return TopicStatistics(
                topic: try row.string("topic"), completions: count, correctAnswers: try row.int64("correct_answers"),
                totalAnswers: try row.int64("total_answers"),
                averageAccuracyPercent: count == 0 ? 0 : (try row.double("accuracy_sum") / Double(count) * 1000).rounded() / 10,
                bestAccuracyPercent: (try row.double("best_accuracy") * 1000).rounded() / 10,
                bestPoints: try row.int("best_points"), lastPlayedAt: RFC3339.format(try row.date("last_played_at")))
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
            try connection.query(PlayerLocks.lock(userID))
            let previous = try connection.query("SELECT time_zone, handle FROM users WHERE user_id = $1 FOR UPDATE", [userID]).rows.first
            let member = try connection.query("""
                INSERT INTO users (user_id, handle, display_name, time_zone, reminders, next_reminder_at, created_at, updated_at)
                VALUES ($1, COALESCE($7, nextval('users_handle_seq')), $2, $3, $4::jsonb, $5, $6, $6)
                ON CONFLICT (user_id) DO UPDATE SET display_name = EXCLUDED.display_name, time_zone = EXCLUDED.time_zone,
                                                    reminders = EXCLUDED.reminders, next_reminder_at = EXCLUDED.next_reminder_at,
                                                    updated_at = EXCLUDED.updated_at
                RETURNING handle
                """, [userID, displayName, timeZone, stored, next, now, try previous?.int64("handle")]).rows[0].member()
            // A known player keeps its handle (a column default would draw one for every upsert, conflicting or not).
            if let previous = try previous?.string("time_zone"), previous != timeZone {
                try Self.recountDays(userID: userID, from: TimeZone(identifier: previous) ?? .gmt, to: zone, on: connection)
            }
            return member
        }
        do {
            try await rankings.apply([], players: [RankedPlayer(member: member, userID: userID, displayName: displayName)])
        } catch {
            logger.warning("display name not updated in Redis; queued for the ranking sync", metadata: ["error": "\(error)"])
            let queue = PostgresQuery(sql: """
                INSERT INTO pending_display_names (user_id, queued_at) VALUES ($1, $2)
                ON CONFLICT (user_id) DO UPDATE SET queued_at = EXCLUDED.queued_at
                """, parameters: [userID, now])
            // Every replica's ranking sync is told when it commits.
            _ = try await postgres.withConnection { try $0.pipeline([queue, ChangeNotices.notify(.rankings)]) }
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
        let row = try connection.query("""
            SELECT array_to_string(u.days, ',') AS days,
                   (SELECT string_agg(extract(epoch FROM c.completed_at)::text, ',') FROM completions c WHERE c.user_id = u.user_id) AS times
            FROM users u WHERE u.user_id = $1
            """, [userID]).rows.first
        let stored = (row?["days"] ?? "").split(separator: ",").compactMap { Int($0) }
        let times = (row?["times"] ?? "").split(separator: ",").compactMap { Double($0) }.map { Date(timeIntervalSince1970: $0) }
        let days = Streak.recountedDays(stored, times: times, from: old, to: zone)
        try connection.query("UPDATE users SET days = $2::int[] WHERE user_id = $1", [userID, days])
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

/// A player an admin's search found.
public struct PlayerMatch: Sendable, Codable, Equatable {
    /// The player's id.
    public var userId: String
    /// The display name, if set.
    public var displayName: String?
    /// Points in all.
    public var points: Int64
    /// RFC 3339 time Podium first heard of the player.
    public var createdAt: String
}
