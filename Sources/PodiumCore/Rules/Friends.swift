import Foundation

/// How many players one player may follow, and what the API answers about them.
public enum FollowRules {
    /// The most players one player may follow (the friends view ranks them all in one answer).
    public static let maximumFollowing = 200
}

/// The answer to `GET /v1/users/{id}/following`.
public struct FollowingList: Sendable, Codable, Equatable {
    /// The player.
    public var userId: String
    /// The players they follow, by user id, sorted.
    public var following: [String]
    /// The most they may follow.
    public var maximum: Int

    /// Creates the list.
    public init(userId: String, following: [String], maximum: Int = FollowRules.maximumFollowing) {
        self.userId = userId
        self.following = following
        self.maximum = maximum
    }
}

/// A followed player's latest progress, as the profile shows it.
public struct FriendProgress: Sendable, Codable, Equatable {
    /// The followed player.
    public var userId: String
    /// Their display name, if set.
    public var displayName: String?
    /// Their level.
    public var level: Int
    /// Their points in all.
    public var points: Int64
    /// Their score on the global board's current week (0 when they have not played this week).
    public var pointsThisWeek: Int64
    /// RFC 3339 time of their last completion or preference change; nil for a player who has not played yet.
    public var lastActiveAt: String?

    /// Creates the progress line.
    public init(userId: String, displayName: String?, level: Int, points: Int64, pointsThisWeek: Int64, lastActiveAt: String?) {
        self.userId = userId
        self.displayName = displayName
        self.level = level
        self.points = points
        self.pointsThisWeek = pointsThisWeek
        self.lastActiveAt = lastActiveAt
    }
}
