import Foundation
import Testing

/// Parses an ISO 8601 instant such as "2026-03-28T23:00:00Z" or "2026-03-29T00:00:00+01:00".
func instant(_ iso: String) throws -> Date {
    try #require(ISO8601DateFormatter().date(from: iso), "bad ISO instant in test: \(iso)")
}

/// Looks up an IANA zone that the test host must have.
func zone(_ identifier: String) throws -> TimeZone {
    try #require(TimeZone(identifier: identifier), "time zone \(identifier) missing on this host")
}

/// A small deterministic generator (SplitMix64) so property tests replay identically.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// Starts the sequence at `seed`.
    init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
