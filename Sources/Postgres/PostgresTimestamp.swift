import Foundation

/// Converts between `Date` and PostgreSQL timestamp text without a date formatter.
///
/// Formatters are locale- and calendar-sensitive and slow to create; the wire
/// formats here are fixed, so plain civil-date arithmetic (Howard Hinnant's
/// days-from-civil algorithm) is exact and cheap.
enum PostgresTimestamp {
    /// Formats `date` as RFC 3339 UTC with milliseconds, e.g. "2026-11-21T10:00:00.123Z"; a date beyond
    /// Int64 milliseconds (about ±292 million years, which no caller makes) as PostgreSQL's `infinity`/`-infinity`.
    static func format(_ date: Date) -> String {
        guard let totalMillis = Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded()) else {
            return date.timeIntervalSince1970 > 0 ? "infinity" : "-infinity"
        }
        let (days, millisOfDay) = floorDivide(totalMillis, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let seconds = millisOfDay / 1000
        guard (0...9999).contains(year) else {
            return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
                + "T" + pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2)
                + "." + pad(millisOfDay % 1000, 3) + "Z"
        }
        // Bound for every row of a batch: written into one buffer rather than joined from a dozen small strings.
        return String(unsafeUninitializedCapacity: 24) { text in
            var at = 0
            func put(_ value: Int64, _ width: Int, then separator: UInt8?) {
                var rest = value
                for index in stride(from: at + width - 1, through: at, by: -1) {
                    text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                at += width
                if let separator {
                    text[at] = separator
                    at += 1
                }
            }
            put(year, 4, then: UInt8(ascii: "-"))
            put(month, 2, then: UInt8(ascii: "-"))
            put(day, 2, then: UInt8(ascii: "T"))
            put(seconds / 3600, 2, then: UInt8(ascii: ":"))
            put(seconds / 60 % 60, 2, then: UInt8(ascii: ":"))
            put(seconds % 60, 2, then: UInt8(ascii: "."))
            put(millisOfDay % 1000, 3, then: UInt8(ascii: "Z"))
            return at
        }
    }

    /// Parses PostgreSQL's ISO timestamp output, e.g. "2026-11-21 10:00:00.123+00".
    ///
    /// Accepts a space or "T" between date and time, up to microsecond fractions,
    /// offsets "+HH", "+HH:MM", "+HH:MM:SS" or "Z", and no offset at all
    /// (`timestamp` or `date` columns), which is read as UTC. Returns nil for
    /// anything else, including "infinity" and BC dates.
    static func parse(_ text: String) -> Date? {
        var scanner = Scanner(bytes: Array(text.utf8))
        guard let year = scanner.digits(min: 4, max: 6)?.value, scanner.skip("-"),
              let month = scanner.number(digits: 2), (1...12).contains(month), scanner.skip("-"),
              let day = scanner.number(digits: 2), (1...31).contains(day)
        else { return nil }
        var micros: Int64 = 0
        if scanner.skip(" ") || scanner.skip("T") {
            guard let hour = scanner.number(digits: 2), hour < 24, scanner.skip(":"),
                  let minute = scanner.number(digits: 2), minute < 60, scanner.skip(":"),
                  let second = scanner.number(digits: 2), second <= 60
            else { return nil }
            micros = ((hour * 60 + minute) * 60 + second) * 1_000_000
            if scanner.skip(".") {
                guard let fraction = scanner.digits(min: 1, max: 6) else { return nil }
                var scaled = fraction.value
                for _ in fraction.count..<6 { scaled *= 10 }
                micros += scaled
            }
            guard let offsetSeconds = scanner.offsetSeconds() else { return nil }
            micros -= offsetSeconds * 1_000_000
        }
        guard scanner.isAtEnd else { return nil }
        let totalMicros = days(fromYear: year, month: month, day: day) * 86_400_000_000 + micros
        return Date(timeIntervalSince1970: Double(totalMicros) / 1_000_000)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    private static func days(fromYear year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Division rounding towards negative infinity, with a non-negative remainder.
    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    /// `value` in decimal, zero-padded to `width` digits.
    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// A cursor over ASCII bytes for the fixed timestamp grammar.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { position == bytes.count }

        /// Consumes `character` if it is next.
        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        /// Consumes exactly `count` decimal digits.
        mutating func number(digits count: Int) -> Int64? {
            digits(min: count, max: count)?.value
        }

        /// Consumes at least `min` and at most `max` decimal digits, returning their value and count.
        mutating func digits(min: Int, max: Int) -> (value: Int64, count: Int)? {
            var value: Int64 = 0
            var count = 0
            while count < max, position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                value = value * 10 + Int64(bytes[position] - UInt8(ascii: "0"))
                count += 1
                position += 1
            }
            return count >= min ? (value, count) : nil
        }

        /// Consumes an optional UTC offset and returns it in seconds east of UTC.
        mutating func offsetSeconds() -> Int64? {
            if isAtEnd { return 0 }
            if skip("Z") { return 0 }
            let sign: Int64
            if skip("+") { sign = 1 } else if skip("-") { sign = -1 } else { return nil }
            guard let hours = number(digits: 2) else { return nil }
            var seconds = hours * 3600
            if skip(":") {
                guard let minutes = number(digits: 2) else { return nil }
                seconds += minutes * 60
                if skip(":") {
                    guard let extra = number(digits: 2) else { return nil }
                    seconds += extra
                }
            }
            return sign * seconds
        }
    }
}
