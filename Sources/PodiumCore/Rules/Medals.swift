import Foundation

/// A medal, won by a top player of a closed period.
public enum Medal: String, Sendable, Codable, CaseIterable {
    /// Rank 1.
    case gold
    /// Rank 2.
    case silver
    /// Rank 3.
    case bronze

    /// The medal rule: ranks 1, 2 and 3 of the final competition ranking win gold, silver and bronze,
    /// players tied on a rank share its medal (so two golds leave no silver: the next rank is 3),
    /// and a score of 0 never wins one. Nil for everyone else, and on windows without medals.
    public static func awarded(rank: Int, score: Int64, windowAwardsMedals: Bool = true) -> Medal? {
        guard windowAwardsMedals, score > 0 else { return nil }
        switch rank {
        case 1: return .gold
        case 2: return .silver
        case 3: return .bronze
        default: return nil
        }
    }

    /// The lowest rank that can win a medal: only standings down to it need looking at.
    public static let lastMedalRank = 3
}

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
    /// The medal.
    public var medal: Medal
    /// Final competition rank.
    public var rank: Int
    /// Final score.
    public var score: Int64
    /// RFC 3339 time the period was closed (nil in a dry run).
    public var awardedAt: String?
    /// The player's display name, in an admin's close report (dry run or close) where ops read medals by name; absent
    /// elsewhere.
    public var displayName: String?

    /// Creates a medal.
    public init(
        board: String, window: LeaderboardWindow, period: String, userId: String, medal: Medal, rank: Int, score: Int64, awardedAt: String?
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
