import Foundation
import PodiumCore
import PodiumWire
import Postgres

/// What asking to follow a player did.
public enum FollowOutcome: Sendable, Equatable {
    /// Now following (HTTP 201).
    case added
    /// Was following already: nothing changed (HTTP 200).
    case alreadyFollowing
    /// The list is full (`FollowRules.maximumFollowing`): nothing changed.
    case full
}

/// Who follows whom: players' lists of followed players, and the followed players' progress.
public struct FollowStore: Sendable {
    let postgres: PostgresPool
    let rules: GameRules

    /// Creates the store.
    public init(postgres: PostgresPool, rules: GameRules) {
        self.postgres = postgres
        self.rules = rules
    }

    /// The players `userID` follows, sorted.
    public func following(userID: String) async throws -> [String] {
        try await postgres.run(Followed(userID: userID)).map(\.followedID)
    }

    /// Makes `userID` follow `other` (not themselves: the caller checks), unless the list is full.
    ///
    /// One player's follows are added one at a time (a transaction lock on the player), so concurrent
    /// requests cannot take a list past the maximum.
    public func follow(userID: String, other: String, now: Date) async throws -> FollowOutcome {
        try await postgres.withTransaction { connection in
            try connection.run(FollowListLock(userID: userID))
            let state = try connection.run(FollowListState(userID: userID, other: other))[0]
            if state.present == true { return .alreadyFollowing }
            guard state.n < FollowRules.maximumFollowing else { return .full }
            try connection.run(AddFollow(userID: userID, followedID: other, createdAt: now))
            return .added
        }
    }

    /// Makes `userID` stop following `other`; false when they did not follow them.
    public func unfollow(userID: String, other: String) async throws -> Bool {
        try await postgres.runCounting(RemoveFollow(userID: userID, followedID: other)) == 1
    }

    /// The latest progress of everyone `userID` follows: level, points, and the score on the global board's
    /// week containing `now`; most points this week first (then most points, then user id).
    public func friendsProgress(userID: String, now: Date) async throws -> [FriendProgress] {
        let global = rules.boards.definition(for: .global)
        let week = Period.containing(now, window: .week, timeZone: global.timeZone)
        let statement = FriendsThisWeek(userID: userID, board: global.id, window: LeaderboardWindow.week.rawValue, period: week.key)
        return try await postgres.run(statement).map { row in
            FriendProgress(
                userId: row.followedID, displayName: row.displayName,
                level: rules.levels.progress(points: Int(row.points)).level, points: row.points, pointsThisWeek: row.week,
                lastActiveAt: row.updatedAt.map(RFC3339.format))
        }
    }
}

/// The players one player follows.
private struct Followed: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT followed_id FROM follows WHERE user_id = \(\.userID) ORDER BY followed_id"
    struct Row: Decodable, Sendable { let followedID: String }
    let userID: String
}

/// Takes the transaction lock on one player's follow list. A statement of its own: the next statement's
/// snapshot, taken after the lock is granted, sees what the transaction that held it committed.
private struct FollowListLock: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT pg_advisory_xact_lock(hashtextextended('follows ' || \(\.userID), 0))"
    typealias Row = NoRows
    let userID: String
}

/// How many players one player follows, and whether `other` is one of them.
private struct FollowListState: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT count(*) AS n, bool_or(followed_id = \(\.other)) AS present FROM follows WHERE user_id = \(\.userID)
        """
    struct Row: Decodable, Sendable {
        /// How many players the list holds.
        let n: Int
        /// Whether it holds `other`; NULL for an empty list.
        let present: Bool?
    }
    let userID: String
    let other: String
}

/// Adds one player to another's follow list.
private struct AddFollow: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO follows (user_id, followed_id, created_at) VALUES (\(\.userID), \(\.followedID), \(\.createdAt))
        """
    typealias Row = NoRows
    let userID: String
    let followedID: String
    let createdAt: Date
}

/// Takes one player off another's follow list.
private struct RemoveFollow: PostgresStatement {
    static let sql: PostgresSQL<Self> = "DELETE FROM follows WHERE user_id = \(\.userID) AND followed_id = \(\.followedID)"
    typealias Row = NoRows
    let userID: String
    let followedID: String
}

/// The followed players' names, points and score on one board period.
private struct FriendsThisWeek: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT f.followed_id, u.display_name, COALESCE(u.points, 0) AS points, u.updated_at, COALESCE(s.score, 0) AS week
        FROM follows f
        LEFT JOIN users u ON u.user_id = f.followed_id
        LEFT JOIN board_scores s ON s.user_id = f.followed_id AND s.board = \(\.board)
                                AND s.board_window = \(\.window) AND s.period = \(\.period)
        WHERE f.user_id = \(\.userID)
        ORDER BY week DESC, points DESC, f.followed_id
        """
    struct Row: Decodable, Sendable {
        let followedID: String
        let displayName: String?
        let points: Int64
        let updatedAt: Date?
        let week: Int64
    }
    let userID: String
    let board: String
    let window: String
    let period: String
}
