import Foundation
import PodiumWire

/// How many players one player may follow, and what the API answers about them.
public enum FollowRules {
    /// The most players one player may follow (the friends view ranks them all in one answer).
    public static let maximumFollowing = 200
}

extension FollowingList {
    /// The list of `following`, the players `userId` follows, under the rules' maximum.
    public init(userId: String, following: [String]) {
        self.init(userId: userId, following: following, maximum: FollowRules.maximumFollowing)
    }
}
