import Foundation

/// A medal won on a closed period.
public struct MedalAward: Sendable, Codable, Equatable {
    /// Board id.
    public var board: String
    /// Window.
    public var window: LeaderboardWindow
    /// Period name.
    public var period: String
    /// Player.
    public var userId: String
    /// `gold`, `silver` or `bronze`.
    public var medal: String
    /// Final competition rank.
    public var rank: Int
    /// Final score.
    public var score: Int64
    /// RFC 3339 time the period was closed (nil in a dry run).
    public var awardedAt: String?

    /// Creates a medal.
    public init(
        board: String, window: LeaderboardWindow, period: String, userId: String, medal: String, rank: Int, score: Int64, awardedAt: String?
    ) {
        self.board = board
        self.window = window
        self.period = period
        self.userId = userId
        self.medal = medal
        self.rank = rank
        self.score = score
        self.awardedAt = awardedAt
    }
}
