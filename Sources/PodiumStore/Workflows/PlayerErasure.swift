import Foundation
import Logging
import PodiumCore
import Postgres

/// Erasing a player everywhere: the use case that spans the stores' folders (players, completions, rankings, periods'
/// snapshots, contests, leagues, the outbox) and Redis.
public struct PlayerErasure: Sendable {
    let postgres: PostgresPool
    let leaderboards: LeaderboardStore
    let rankings: RankingWriter
    let rateLimiter: RateLimiter
    let logger: Logger

    /// Creates the use case; the Redis part goes through `rankings`, the player's rate limit bucket through
    /// `rateLimiter`, and `leaderboards`' caches of players forget the player.
    public init(postgres: PostgresPool, leaderboards: LeaderboardStore, rankings: RankingWriter, rateLimiter: RateLimiter, logger: Logger) {
        self.postgres = postgres
        self.leaderboards = leaderboards
        self.rankings = rankings
        self.rateLimiter = rateLimiter
        self.logger = logger
    }

    /// Erases the player everywhere: PostgreSQL rows (the player's row with preferences and reminders, completions, topics,
    /// scores, snapshot entries and medals, events, follows either way, contest entries, league places, goal progress and
    /// shares) and Redis entries (board entries,
    /// the name, and the rate limit bucket of the player's token, which is all a player who only made requests leaves).
    ///
    /// Returns false if nothing of the player was left: true when any row or key of these was found and removed.
    /// The player's lock (`PlayerLocks`) and row are taken first, as a completion batch takes them,
    /// so a batch of the player finishes before (and its board keys are found) or starts after, reading no erased
    /// days or achievements.
    /// A player already erased is searched again: a period close or snapshot racing the first erasure
    /// can have written an entry it could not see, and erasing again removes it.
    /// The Redis part is also queued for a minute: the ranking sync repeats it, so a ranking write
    /// of a completion that committed just before the erasure cannot bring the player back, and it
    /// finishes the job if Redis is unreachable now; a player who never had a name or board entry (who only followed,
    /// was followed, joined a contest or holds a league tier) has no Redis part to queue.
    public func erase(userID: String, now: Date) async throws -> Bool {
        let (found, erasure) = try await postgres.withTransaction { connection -> (Bool, RankingErasure?) in
            try connection.run(LockPlayer(userID: userID))
            let handle = try connection.run(LockedPlayerRow(userID: userID)).first
            let members = try handle.map { [try $0.member()] } ?? []
            let scores = try connection.run(ErasedBoardScores(userID: userID))
            let keys = Set(scores.map(\.rankingKey)).sorted()
            // Completions have no foreign key to users (migration 023): they go first, by their player's index.
            try connection.run(DeletePlayerCompletions(userID: userID))
            try connection.run(DeletePlayer(userID: userID))
            let follows = try connection.runCounting(DeletePlayerFollows(userID: userID))
            let entries = try connection.runCounting(DeletePlayerContestEntries(userID: userID))
            // Out of every league: their cohort places (not given again), their tiers and their league history.
            let leagues = try connection.run(DeletePlayerLeagueRows(userID: userID)).first?.n ?? 0
            // Out of every goal: their own progress, and their shares of their groups' (taken out of the groups' progress).
            let goals = try connection.run(DeletePlayerGoalRows(userID: userID)).first?.n ?? 0
            // The events' webhook deliveries go with them (no foreign key on a partitioned table, migration 021).
            let events = try connection.run(DeletePlayerEvents(userID: userID)).first?.n ?? 0
            // The erasure's own Redis part removes the name.
            let names = try connection.runCounting(DeletePendingName(userID: userID))
            let snapshots = try connection.runCounting(DeletePlayerSnapshotEntries(userID: userID))
            let found = handle != nil || !scores.isEmpty || follows + entries + leagues + goals + events + names + snapshots > 0
            guard found, !members.isEmpty || !keys.isEmpty else { return (found, nil) }
            let queued = try connection.run(QueueRankingErasure(userID: userID, redisKeys: keys, members: members, erasedAt: now))[0]
            // Every replica's ranking sync is told when the erasure commits, and repeats its Redis part from then on.
            try connection.run(NotifyChange(.rankings))
            return (true, queued.erasure)
        }
        let bucket = await rateLimiter.forget(RateLimiter.playerBucket(userID))
        guard let erasure else { return found || bucket }
        // This replica at once; the others when the notification reaches them. Again once Redis forgot the player: a
        // read in between may have looked the old member up there again.
        leaderboards.knownMembers.forgetAll()
        do {
            try await rankings.erase(erasure)
            leaderboards.knownMembers.forgetAll()
        } catch {
            logger.warning("player erased from PostgreSQL; the Redis part is queued", metadata: ["error": "\(error)"])
        }
        return true
    }
}

/// The player's row, locked until the erasure commits: its handle names the player in Redis.
private struct LockedPlayerRow: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT handle FROM users WHERE user_id = \(\.userID) FOR UPDATE"

    /// The player's handle.
    struct Row: Decodable, Sendable {
        let handle: Int64

        /// The member the handle is in Redis.
        func member() throws -> String {
            try RankingMember.member(ofHandle: handle)
        }
    }

    let userID: String
}

/// Deletes the player's completions.
private struct DeletePlayerCompletions: PostgresStatement {
    static let sql: PostgresSQL<Self> = "DELETE FROM completions WHERE user_id = \(\.userID)"
    typealias Row = NoRows
    let userID: String
}

/// Deletes the player's row (preferences, reminders, topics and achievements go with it).
private struct DeletePlayer: PostgresStatement {
    static let sql: PostgresSQL<Self> = "DELETE FROM users WHERE user_id = \(\.userID)"
    typealias Row = NoRows
    let userID: String
}

/// Deletes the follows of and by the player.
private struct DeletePlayerFollows: PostgresStatement {
    static let sql: PostgresSQL<Self> = "DELETE FROM follows WHERE user_id = \(\.userID) OR followed_id = \(\.userID)"
    typealias Row = NoRows
    let userID: String
}

/// Deletes the player's contest entries.
private struct DeletePlayerContestEntries: PostgresStatement {
    static let sql: PostgresSQL<Self> = "DELETE FROM contest_entries WHERE user_id = \(\.userID)"
    typealias Row = NoRows
    let userID: String
}

/// Deletes the player's cohort places, league tiers and league history; returns how many rows went.
private struct DeletePlayerLeagueRows: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        WITH e AS (DELETE FROM league_entries WHERE user_id = \(\.userID) RETURNING 1),
             p AS (DELETE FROM league_players WHERE user_id = \(\.userID) RETURNING 1),
             r AS (DELETE FROM league_results WHERE user_id = \(\.userID) RETURNING 1)
        SELECT (SELECT count(*) FROM e) + (SELECT count(*) FROM p) + (SELECT count(*) FROM r) AS n
        """
    struct Row: Decodable, Sendable { let n: Int }
    let userID: String
}

/// Deletes the player's progress in personal goals and their shares of class goals, taking each share out of its group's
/// progress (a target reached stays reached); returns how many rows went.
private struct DeletePlayerGoalRows: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        WITH s AS (DELETE FROM goal_shares WHERE user_id = \(\.userID) RETURNING goal_id, period, subject, amount),
             taken AS (  -- runs whether or not the SELECT reads it, as every data-modifying WITH does
                 UPDATE goal_progress g SET progress = g.progress - t.amount
                 FROM (SELECT goal_id, period, subject, sum(amount) AS amount FROM s GROUP BY goal_id, period, subject) t
                 WHERE g.goal_id = t.goal_id AND g.period = t.period AND g.subject = t.subject RETURNING 1),
             p AS (
                 DELETE FROM goal_progress g USING goals d
                 WHERE g.subject = \(\.userID) AND d.id = g.goal_id AND d.kind = 'personal' RETURNING 1)
        SELECT (SELECT count(*) FROM s) + (SELECT count(*) FROM p) AS n
        """
    struct Row: Decodable, Sendable { let n: Int }
    let userID: String
}

/// Deletes the player's events and their webhook deliveries; returns how many events went.
private struct DeletePlayerEvents: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        WITH gone AS (DELETE FROM events WHERE user_id = \(\.userID) RETURNING id),
        deliveries AS (DELETE FROM webhook_deliveries WHERE event_id IN (SELECT id FROM gone))
        SELECT count(*) AS n FROM gone
        """
    struct Row: Decodable, Sendable { let n: Int }
    let userID: String
}

/// Deletes the player's name waiting to reach Redis.
private struct DeletePendingName: PostgresStatement {
    static let sql: PostgresSQL<Self> = "DELETE FROM pending_display_names WHERE user_id = \(\.userID)"
    typealias Row = NoRows
    let userID: String
}

/// Deletes the player's snapshot entries, leaving a gap at each position and one player fewer on each snapshot.
private struct DeletePlayerSnapshotEntries: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        WITH gone AS (DELETE FROM snapshot_entries WHERE user_id = \(\.userID) RETURNING snapshot_id, position),
        gaps AS (INSERT INTO snapshot_gaps (snapshot_id, position) SELECT snapshot_id, position FROM gone)
        UPDATE snapshots s SET players = s.players - g.n
        FROM (SELECT snapshot_id, count(*) AS n FROM gone GROUP BY snapshot_id) g WHERE s.id = g.snapshot_id
        """
    typealias Row = NoRows
    let userID: String
}

/// Queues the erasure's Redis part for the ranking sync, merged with one queued before; returns what is queued.
private struct QueueRankingErasure: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO pending_ranking_erasures AS p (user_id, redis_keys, members, erased_at)
        VALUES (\(\.userID), \(\.redisKeys), \(\.members), \(\.erasedAt))
        ON CONFLICT (user_id) DO UPDATE SET erased_at = EXCLUDED.erased_at,
            redis_keys = ARRAY(SELECT DISTINCT k FROM unnest(p.redis_keys || EXCLUDED.redis_keys) AS k ORDER BY k),
            members = ARRAY(SELECT DISTINCT m FROM unnest(p.members || EXCLUDED.members) AS m ORDER BY m)
        RETURNING user_id, array_to_string(members, ' ') AS members, array_to_string(redis_keys, ' ') AS keys
        """

    /// The queued erasure, its members and keys as space-separated text.
    struct Row: Decodable, Sendable {
        let userID: String
        let members: String?
        let keys: String?

        /// The erasure the ranking sync repeats.
        var erasure: RankingErasure {
            RankingErasure(userID: userID, spacedMembers: members, spacedKeys: keys)
        }
    }

    let userID: String
    let redisKeys: [String]
    let members: [String]
    let erasedAt: Date
}
