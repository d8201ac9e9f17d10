import Foundation

/// RFC 3339 times as the API reads and writes them: UTC, millisecond precision, `Z`.
public enum RFC3339 {
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()

    /// Formats `date` as `2026-11-21T10:00:00.000Z`.
    public static func format(_ date: Date) -> String {
        withFraction.format(date)
    }

    /// Parses an RFC 3339 time with or without fractional seconds, with `Z` or a numeric offset; nil if malformed.
    public static func parse(_ text: String) -> Date? {
        guard text.count <= 40 else { return nil }
        if let date = try? withFraction.parse(text) { return date }
        if let date = try? withoutFraction.parse(text) { return date }
        return nil
    }

    /// `date` truncated to whole milliseconds, as PostgreSQL stores it.
    public static func truncated(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }
}
