import Foundation

/// RFC 3339 times as the API reads and writes them: UTC, millisecond precision, `Z`.
public enum RFC3339 {
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    /// Whole seconds, `2026-11-21T10:00:00Z`: exact for every representable instant (a whole number of seconds is an
    /// exact `Double`), unlike the fraction Foundation prints, which truncates `.919` held as `.91899…` to `.918`.
    private static let wholeSeconds = Date.ISO8601FormatStyle()

    /// The instants the API takes: 1900-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z. PostgreSQL has no year 0,
    /// and before 1582 Foundation's calendar is Julian where PostgreSQL's is Gregorian, so those would differ.
    private static let representable = Date(timeIntervalSince1970: -2_208_988_800)...Date(timeIntervalSince1970: 253_402_300_799.999)

    /// Formats `date` as `2026-11-21T10:00:00.000Z`, at the nearest millisecond: the instant PostgreSQL stores for it
    /// (the Postgres target binds dates the same way), so a time Podium answers with reads back as itself.
    public static func format(_ date: Date) -> String {
        let millis = (date.timeIntervalSince1970 * 1000).rounded()
        let seconds = (millis / 1000).rounded(.down)
        let text = wholeSeconds.format(Date(timeIntervalSince1970: seconds))
        return text.dropLast() + "." + String(Int(millis - seconds * 1000) + 1000).dropFirst() + "Z"
    }

    /// Parses an RFC 3339 time (`2026-11-21T10:00:00Z`, `2026-11-21T11:00:00.5+01:00`); nil if malformed or
    /// outside years 1900 to 9999 in UTC.
    ///
    /// Strict about the shape, which Foundation's parser is not (it ignores trailing text and takes one-digit
    /// fields): four-digit year, two-digit fields, `T`, an optional fraction of any length (kept to
    /// milliseconds), then `Z` or an offset up to ±23:59. A leap second (`:60`) is read as `:59`.
    public static func parse(_ text: String) -> Date? {
        guard let canonical = canonical(text), let date = try? withFraction.parse(canonical), representable.contains(date) else {
            return nil
        }
        return date
    }

    /// `date` at the nearest whole millisecond, as PostgreSQL stores it and `format` writes it.
    public static func wholeMilliseconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }

    /// Days in `month` of `year` (Gregorian).
    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `text` rewritten as `YYYY-MM-DDTHH:MM:SS.mmm` plus its zone, if it has RFC 3339's shape; nil otherwise.
    private static func canonical(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard (20...64).contains(bytes.count) else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0, 4), bytes[4] == UInt8(ascii: "-"), let month = number(5, 2), bytes[7] == UInt8(ascii: "-"),
              let day = number(8, 2), [UInt8(ascii: "T"), UInt8(ascii: "t")].contains(bytes[10]),
              let hour = number(11, 2), bytes[13] == UInt8(ascii: ":"), let minute = number(14, 2), bytes[16] == UInt8(ascii: ":"),
              let second = number(17, 2), (1...12).contains(month), day >= 1, day <= daysIn(month, of: year),
              hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var index = 19
        var millis = "000"
        if bytes[index] == UInt8(ascii: ".") {
            let start = index + 1
            index = start
            while index < bytes.count, number(index, 1) != nil { index += 1 }
            guard index > start else { return nil }
            let digits = String(decoding: bytes[start..<min(index, start + 3)], as: UTF8.self)
            millis = digits + String(repeating: "0", count: 3 - digits.count)
        }
        guard index < bytes.count else { return nil }
        let zone: String
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.count else { return nil }
            zone = "Z"
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == bytes.count, let offsetHours = number(index + 1, 2), bytes[index + 3] == UInt8(ascii: ":"),
                  let offsetMinutes = number(index + 4, 2), offsetHours <= 23, offsetMinutes <= 59 else { return nil }
            zone = String(decoding: bytes[index..<index + 6], as: UTF8.self)
        default:
            return nil
        }
        let seconds = second == 60 ? "59" : String(decoding: bytes[17..<19], as: UTF8.self)
        return String(decoding: bytes[0..<10], as: UTF8.self) + "T" + String(decoding: bytes[11..<17], as: UTF8.self) + seconds
            + "." + millis + zone
    }
}
