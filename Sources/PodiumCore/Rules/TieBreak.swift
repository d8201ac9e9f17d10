import Foundation
import PodiumWire

/// The key each policy ranks equal scores by.
///
/// The choice is a key beside the score, lower first, read from what PostgreSQL keeps of each player on each
/// board period (`reached_at`, the latest `completed_at` among the completions that added to the score,
/// `duration_ms`, their summed playing time, and `untimed_completions`, how many of them came without one). Redis
/// holds score and key in one sorted-set value (`RankingValue`), so pages, around-me and ranks stay one O(log n)
/// lookup and agree with the medals, which PostgreSQL ranks by the same key.
extension TieBreak {
    /// The largest key, just under the 32 bits below a score in `RankingPlace.storedValue` (keys above it are held at
    /// it, then tie): 2¹¹ short of 2³², so that for scores up to 2³¹ the rounding of a large stored value (a double)
    /// never carries a key into the next score.
    public static let largestKey: Int64 = (1 << 32) - (1 << 11)
    /// `earliest` counts seconds from 2020-01-01T00:00:00Z, enough for 136 years at second resolution.
    public static let epoch = Date(timeIntervalSince1970: 1_577_836_800)

    /// `fastest` keys of players timed throughout are their summed milliseconds, below this (totals above it tie);
    /// keys from it up are players with untimed completions (`untimedKey`).
    public static let firstUntimedKey: Int64 = 1 << 31
    /// Bits of an untimed key that hold the timed seconds (2²¹ s, 24 days; more tie); the untimed count sits above them.
    public static let timedSecondsBits: Int64 = 21
    /// The most untimed completions a key tells apart (more count as this many).
    public static let largestUntimedCount: Int64 = 1 << 10

    /// The key of a player who reached the score at `reachedAt` in `durationMs` of timed play plus `untimedCompletions`
    /// completions without a duration: 0 for `shared`.
    public func key(reachedAt: Date?, durationMs: Int64, untimedCompletions: Int64) -> Int64 {
        switch self {
        case .shared:
            return 0
        case .earliest:
            guard let reachedAt else { return 0 }
            let seconds = reachedAt.timeIntervalSince(Self.epoch).rounded(.down)
            return seconds <= 0 ? 0 : seconds >= Double(Self.largestKey) ? Self.largestKey : Int64(seconds)
        case .fastest:
            let timed = max(durationMs, 0)
            guard untimedCompletions > 0 else { return min(timed, Self.firstUntimedKey - 1) }
            return Self.untimedKey(count: untimedCompletions, timedSeconds: timed / 1000)
        }
    }

    /// The `fastest` key of a player with `count` (> 0) untimed completions and `timedSeconds` of timed play: after
    /// every player timed throughout, then fewer untimed completions first, then less timed play (to the second).
    static func untimedKey(count: Int64, timedSeconds: Int64) -> Int64 {
        let countPart = (min(count, largestUntimedCount) - 1) << timedSecondsBits
        let secondsPart = min(timedSeconds, (1 << timedSecondsBits) - 1)
        return min(firstUntimedKey + countPart + secondsPart, largestKey)
    }
}

/// Where a player stands on a board: the score, higher first, then the tie-break key, lower first.
public struct RankingPlace: Sendable, Hashable, Comparable {
    /// The score.
    public let score: Int64
    /// The tie-break key (`TieBreak.key`); 0 on `shared` boards.
    public let key: Int64

    /// Creates a place.
    public init(score: Int64, key: Int64 = 0) {
        self.score = score
        self.key = key
    }

    /// Whether `lhs` ranks above `rhs`.
    public static func < (lhs: RankingPlace, rhs: RankingPlace) -> Bool {
        lhs.score != rhs.score ? lhs.score > rhs.score : lhs.key < rhs.key
    }

    /// The value Redis sorts by, ascending: −score × 2³² + key, as an integer text (exact while the score is below 2²¹;
    /// above it Redis's double rounds the key's low bits away, so players close on the key may tie in Redis).
    public var storedValue: String {
        if score >= 0, score < 1 << 31 { return String(-(score << 32) + key) }
        return String(format: "%.0f", -Double(score) * 4_294_967_296 + Double(key))
    }

    /// Whether Redis holding `text` (a sorted-set score as it answers it, nil for none) holds this place: compared as
    /// the doubles Redis keeps, since above 2²¹ points the key's low bits round away in both alike.
    public func isStored(as text: String?) -> Bool {
        guard let text, let held = Double(text), let own = Double(storedValue) else { return false }
        return held == own
    }

    /// The place behind a value Redis returns (`-21474836380`, or in its double notation).
    public init?(storedValue text: String) {
        let negated: Double
        if let value = Int64(text) {
            let positive = -value
            let score = (positive + (1 << 32) - 1) >> 32
            self.init(score: score, key: (score << 32) - positive)
            return
        } else if let value = Double(text), value.isFinite {
            negated = -value
        } else {
            return nil
        }
        let score = (negated / 4_294_967_296).rounded(.up)
        guard let whole = Int64(exactly: score), let key = Int64(exactly: (score * 4_294_967_296 - negated).rounded()) else { return nil }
        self.init(score: whole, key: key)
    }
}
