import Foundation
import PodiumWire

extension Medal {
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
