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

    /// Bits of a `run` key that hold when the run was reached (minutes since `epoch`: 2²³ minutes, 15 years); the run's
    /// deciseconds sit above them.
    public static let runReachBits: Int64 = 23
    /// The most deciseconds a `run` key tells apart (about 1 h 49 min; slower runs and untimed ones count as this).
    public static let slowestRunDeciseconds: Int64 = (1 << 16) - 1

    /// How many bits of `RankingPlace.storedValue` the key takes: 39 for `run` (16 bits of deciseconds and 23 of
    /// minutes), 32 for the others.
    public var keyBits: Int64 { self == .run ? 39 : 32 }

    /// The key of a player who reached the score at `reachedAt` in `durationMs` of timed play plus `untimedCompletions`
    /// completions without a duration: 0 for `shared`.
    public func key(reachedAt: Date?, durationMs: Int64, untimedCompletions: Int64) -> Int64 {
        switch self {
        case .shared:
            return 0
        case .run:
            let deciseconds = untimedCompletions > 0 ? Self.slowestRunDeciseconds : min(max(durationMs, 0) / 100, Self.slowestRunDeciseconds)
            let minutes = reachedAt.map { ($0.timeIntervalSince(Self.epoch) / 60).rounded(.down) } ?? 0
            let reach = minutes <= 0 ? 0 : min(Int64(min(minutes, 1e12)), (1 << Self.runReachBits) - 1)
            return deciseconds << Self.runReachBits | reach
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
    /// How many bits below the score the key takes in `storedValue` (`TieBreak.keyBits`).
    public let keyBits: Int64

    /// Creates a place whose key takes `keyBits` bits (`TieBreak.keyBits` of the board's tie-break).
    public init(score: Int64, key: Int64 = 0, keyBits: Int64 = 32) {
        self.score = score
        self.key = key
        self.keyBits = keyBits
    }

    /// Whether `lhs` ranks above `rhs`.
    public static func < (lhs: RankingPlace, rhs: RankingPlace) -> Bool {
        lhs.score != rhs.score ? lhs.score > rhs.score : lhs.key < rhs.key
    }

    /// The value Redis sorts by, ascending: −score × 2^keyBits + key, as an integer text (exact while it is below 2⁵³:
    /// a score below 2²¹ with 32 key bits, below 2¹⁴ with 39; above it Redis's double rounds the key's low bits away,
    /// so players close on the key may tie in Redis).
    public var storedValue: String {
        if score >= 0, score < 1 << (63 - keyBits) { return String(-(score << keyBits) + key) }
        return String(format: "%.0f", -Double(score) * Double(Int64(1) << keyBits) + Double(key))
    }

    /// Whether Redis holding `text` (a sorted-set score as it answers it, nil for none) holds this place: compared as
    /// the doubles Redis keeps, since above 2²¹ points the key's low bits round away in both alike.
    public func isStored(as text: String?) -> Bool {
        guard let text, let held = Double(text), let own = Double(storedValue) else { return false }
        return held == own
    }

    /// The place behind a value Redis returns (`-21474836380`, or in its double notation) for a board whose keys take
    /// `keyBits` bits.
    public init?(storedValue text: String, keyBits: Int64 = 32) {
        let negated: Double
        if let value = Int64(text) {
            let positive = -value
            let score = (positive + (1 << keyBits) - 1) >> keyBits
            self.init(score: score, key: (score << keyBits) - positive, keyBits: keyBits)
            return
        } else if let value = Double(text), value.isFinite {
            negated = -value
        } else {
            return nil
        }
        let unit = Double(Int64(1) << keyBits)
        let score = (negated / unit).rounded(.up)
        guard let whole = Int64(exactly: score), let key = Int64(exactly: (score * unit - negated).rounded()) else { return nil }
        self.init(score: whole, key: key, keyBits: keyBits)
    }
}
