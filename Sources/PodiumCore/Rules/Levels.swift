import Foundation
import PodiumWire

/// The points thresholds at which levels start.
///
/// Level 1 always starts at 0. A curve is either a formula or an explicit table:
/// - `.doubling(firstThreshold: b, factor: f)`: level n ≥ 2 starts at `b × f^(n−2)`. The curve
///   ends at the last threshold that fits in `Int`, so it never overflows.
/// - `.table(t)`: level n starts at `t[n−1]`; after the table ends there are no further levels.
///
/// An invalid curve (see `validationError()`) behaves as a single level starting at 0, so a bad
/// configuration cannot crash a request; the config loader rejects it before that matters.
public enum LevelCurve: Sendable, Equatable {
    /// Thresholds 0, b, b·f, b·f², …
    case doubling(firstThreshold: Int, factor: Int)
    /// Explicit thresholds: first 0, strictly increasing.
    case table([Int])

    /// The product default: thresholds 0, 10, 20, 40, 80, …
    public static let `default` = LevelCurve.doubling(firstThreshold: 10, factor: 2)

    /// The level reached with `points`, and the distance to the next one.
    ///
    /// Negative totals count as 0. Runs in at most ~63 steps for a doubling curve and a binary
    /// search for a table.
    public func progress(points: Int) -> LevelProgress {
        let points = max(points, 0)
        let level = level(for: points)
        let starts = threshold(level: level) ?? 0
        let next = threshold(level: level + 1)
        return LevelProgress(
            level: level,
            levelStartsAt: starts,
            nextLevelAt: next,
            pointsToNextLevel: next.map { $0 - points }
        )
    }

    /// The points total at which `level` starts; nil if the curve has no such level.
    public func threshold(level: Int) -> Int? {
        guard level >= 1 else { return nil }
        if level == 1 { return 0 }
        guard validationError() == nil else { return nil }
        switch self {
        case .doubling(let first, let factor):
            var value = first
            for _ in 2..<level {
                let (next, overflow) = value.multipliedReportingOverflow(by: factor)
                if overflow { return nil }
                value = next
            }
            return value
        case .table(let thresholds):
            return level <= thresholds.count ? thresholds[level - 1] : nil
        }
    }

    /// Checks the curve; returns a message describing the first problem, or nil when valid.
    ///
    /// A table must be non-empty, start at 0 and be strictly increasing; a doubling curve needs
    /// `firstThreshold > 0` and `factor >= 2`.
    public func validationError() -> String? {
        switch self {
        case .doubling(let first, let factor):
            if first <= 0 { return "first_threshold must be greater than 0, got \(first)" }
            if factor < 2 { return "factor must be at least 2, got \(factor)" }
            return nil
        case .table(let thresholds):
            guard let first = thresholds.first else { return "level table must not be empty" }
            if first != 0 { return "level table must start at 0, got \(first)" }
            for index in thresholds.indices.dropFirst() where thresholds[index] <= thresholds[index - 1] {
                return "level table must be strictly increasing: entry \(index + 1) (\(thresholds[index])) "
                    + "is not above entry \(index) (\(thresholds[index - 1]))"
            }
            return nil
        }
    }

    /// The highest level whose threshold is at most `points` (≥ 0).
    private func level(for points: Int) -> Int {
        guard validationError() == nil else { return 1 }
        switch self {
        case .doubling(let first, let factor):
            var level = 1
            var next = first
            while next <= points {
                level += 1
                let (following, overflow) = next.multipliedReportingOverflow(by: factor)
                if overflow { break }
                next = following
            }
            return level
        case .table(let thresholds):
            // Count thresholds <= points; thresholds[0] == 0, so the count is at least 1.
            var low = 0
            var high = thresholds.count
            while low < high {
                let mid = (low + high) / 2
                if thresholds[mid] <= points { low = mid + 1 } else { high = mid }
            }
            return low
        }
    }
}

extension LevelCurve: Codable {
    /// Configuration keys; the loader maps snake_case (`first_threshold`) to these.
    private enum CodingKeys: String, CodingKey {
        case table, firstThreshold, factor
    }

    /// Decodes `{"table": [0, 10, …]}` or `{"first_threshold": 10, "factor": 2}`.
    ///
    /// Missing formula keys take the default (10, 2), so `{}` is the default curve. Giving a table
    /// together with formula keys is an error because one of them would be silently ignored.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let first = try container.decodeIfPresent(Int.self, forKey: .firstThreshold)
        let factor = try container.decodeIfPresent(Int.self, forKey: .factor)
        if let table = try container.decodeIfPresent([Int].self, forKey: .table) {
            guard first == nil, factor == nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: .table, in: container,
                    debugDescription: "give either a level table or first_threshold/factor, not both"
                )
            }
            self = .table(table)
        } else {
            self = .doubling(firstThreshold: first ?? 10, factor: factor ?? 2)
        }
    }

    /// Encodes in the same shape `init(from:)` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .doubling(let first, let factor):
            try container.encode(first, forKey: .firstThreshold)
            try container.encode(factor, forKey: .factor)
        case .table(let thresholds):
            try container.encode(thresholds, forKey: .table)
        }
    }
}
