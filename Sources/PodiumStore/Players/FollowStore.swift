import Foundation
import PodiumCore
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
        try await postgres.query("SELECT followed_id FROM follows WHERE user_id = \(bind: userID) ORDER BY followed_id")
            .rows.map { try $0.string("followed_id") }
    }

    /// Makes `userID` follow `other` (not themselves: the caller checks), unless the list is full.
    ///
    /// One player's follows are added one at a time (a transaction lock on the player), so concurrent
    /// requests cannot take a list past the maximum.
    public func follow(userID: String, other: String, now: Date) async throws -> FollowOutcome {
        try await postgres.withTransaction { connection in
            try connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(bind: "follows " + userID), 0))")
            let state = try connection.query("""
                SELECT count(*) AS n, bool_or(followed_id = \(bind: other)) AS present FROM follows WHERE user_id = \(bind: userID)
                """).rows[0]
            if state["present"] == "t" { return .alreadyFollowing }
            guard try state.int("n") < FollowRules.maximumFollowing else { return .full }
            try connection.query("""
                INSERT INTO follows (user_id, followed_id, created_at) VALUES (\(bind: userID), \(bind: other), \(bind: now))
                """)
            return .added
        }
    }

    /// Makes `userID` stop following `other`; false when they did not follow them.
    public func unfollow(userID: String, other: String) async throws -> Bool {
        try await postgres.query("DELETE FROM follows WHERE user_id = \(bind: userID) AND followed_id = \(bind: other)").affectedRows == 1
    }

    /// The latest progress of everyone `userID` follows: level, points, and the score on the global board's
    /// week containing `now`; most points this week first (then most points, then user id).
    public func friendsProgress(userID: String, now: Date) async throws -> [FriendProgress] {
        let global = rules.boards.definition(for: .global)
        let week = Period.containing(now, window: .week, timeZone: global.timeZone)
        return try await postgres.query("""
            SELECT f.followed_id, u.display_name, COALESCE(u.points, 0) AS points, u.updated_at, COALESCE(s.score, 0) AS week
            FROM follows f
            LEFT JOIN users u ON u.user_id = f.followed_id
            LEFT JOIN board_scores s ON s.user_id = f.followed_id AND s.board = \(bind: global.id)
                                    AND s.board_window = \(bind: LeaderboardWindow.week.rawValue) AND s.period = \(bind: week.key)
            WHERE f.user_id = \(bind: userID)
            ORDER BY week DESC, points DESC, f.followed_id
            """).rows.map { row in
            let points = try row.int64("points")
            return FriendProgress(
                userId: try row.string("followed_id"), displayName: row["display_name"],
                level: rules.levels.progress(points: Int(points)).level, points: points, pointsThisWeek: try row.int64("week"),
                lastActiveAt: try row.optionalDate("updated_at").map(RFC3339.format))
        }
    }
}
