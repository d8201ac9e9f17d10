import Foundation

/// Why a cron expression was rejected, in words that name the offending field.
///
/// Messages read like "day of week: 9 is out of range 0-7" or "expected 5 fields, got 4", so they
/// can be shown to an operator as they are.
public struct CronError: Error, Equatable, CustomStringConvertible {
    /// The human-readable reason, prefixed with the field name when one field is at fault.
    public let message: String

    /// Wraps a finished message.
    init(_ message: String) {
        self.message = message
    }

    /// The message itself.
    public var description: String { message }
}

/// A parsed standard five-field cron expression: minute, hour, day of month, month, day of week.
///
/// Fields are separated by any run of spaces or tabs. Each field is a comma-separated list of
/// items; an item is `*`, a value `a`, a range `a-b`, or one of those followed by a step: `*/n`,
/// `a-b/n`, or `a/n` (meaning `a` through the field's maximum, every `n`th value). Ranges run
/// forwards only (`a <= b`), steps are at least 1. Ranges of values:
///
/// - minute 0-59, hour 0-23, day of month 1-31;
/// - month 1-12 or `jan`...`dec`;
/// - day of week 0-7 or `sun`...`sat`, where both 0 and 7 mean Sunday.
///
/// Names are three letters, case-insensitive, and work wherever a number does (`mon-fri`,
/// `jan-dec/3`). The macros `@yearly` (or `@annually`), `@monthly`, `@weekly`, `@daily` (or
/// `@midnight`) and `@hourly` stand alone for `0 0 1 1 *`, `0 0 1 * *`, `0 0 * * 0`, `0 0 * * *`
/// and `0 * * * *`.
///
/// Days follow Vixie cron: when both day of month and day of week are restricted, a day matches
/// if either one matches (`0 0 13 * 5` fires on every 13th and every Friday); otherwise both must
/// match, which in effect leaves only the restricted one. As in Vixie cron, a day field counts as
/// unrestricted exactly when its text starts with `*`, so `*/2` in the day of month still combines
/// with the day of week by "and".
///
/// Two expressions are equal when their trimmed text is equal, so `@daily` and `0 0 * * *` differ
/// even though they fire at the same times.
public struct CronExpression: Sendable, Hashable, CustomStringConvertible {
    /// The expression as written, without leading or trailing whitespace.
    public let description: String
    /// Allowed minutes: bit `m` is set when minute `m` (0...59) matches.
    let minutes: UInt64
    /// Allowed hours: bit `h` is set when hour `h` (0...23) matches.
    let hours: UInt64
    /// Allowed days of the month: bit `d` is set when day `d` (1...31) matches.
    let daysOfMonth: UInt64
    /// Allowed months: bit `m` is set when month `m` (1...12) matches.
    let months: UInt64
    /// Allowed days of the week: bit `w` is set when weekday `w` (0 = Sunday ... 6 = Saturday) matches.
    let daysOfWeek: UInt64
    /// Whether the day-of-month field does not start with `*`, for the Vixie day rule.
    let dayOfMonthRestricted: Bool
    /// Whether the day-of-week field does not start with `*`, for the Vixie day rule.
    let dayOfWeekRestricted: Bool
    /// Whether every hour 0...23 is allowed (`*`, `*/1`, `0-23`, ...).
    ///
    /// The schedule's DST policy fires such jobs at both occurrences of a repeated local time.
    let everyHour: Bool

    /// Parses `text` as five whitespace-separated fields or one macro.
    ///
    /// Throws a `CronError` naming the first problem found, fields checked left to right.
    public init(_ text: String) throws(CronError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let tokens = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let first = tokens.first else { throw CronError("expression is empty") }
        let fields: [String]
        if first.hasPrefix("@") {
            guard let expansion = Self.macros[first.lowercased()] else {
                throw CronError("unknown macro \(first)")
            }
            guard tokens.count == 1 else { throw CronError("macro \(first) must stand alone") }
            fields = expansion.split(separator: " ").map(String.init)
        } else {
            guard tokens.count == 5 else { throw CronError("expected 5 fields, got \(tokens.count)") }
            fields = tokens
        }
        description = trimmed
        minutes = try CronField.minute.parse(fields[0])
        hours = try CronField.hour.parse(fields[1])
        daysOfMonth = try CronField.dayOfMonth.parse(fields[2])
        months = try CronField.month.parse(fields[3])
        let weekdays = try CronField.dayOfWeek.parse(fields[4])
        // Fold 7 (Sunday) onto 0.
        daysOfWeek = (weekdays & 0x7F) | (weekdays >> 7 & 1)
        dayOfMonthRestricted = !fields[2].hasPrefix("*")
        dayOfWeekRestricted = !fields[4].hasPrefix("*")
        everyHour = hours == CronField.hour.allValues
    }

    /// Whether the local calendar date `date` is a day this expression fires on.
    ///
    /// Checks the month, then applies the Vixie day-of-month/day-of-week rule.
    func matches(_ date: CivilDate) -> Bool {
        guard months >> date.month & 1 == 1 else { return false }
        let dayOfMonthMatches = daysOfMonth >> date.day & 1 == 1
        let dayOfWeekMatches = daysOfWeek >> (date.isoWeekday % 7) & 1 == 1
        if dayOfMonthRestricted && dayOfWeekRestricted {
            return dayOfMonthMatches || dayOfWeekMatches
        }
        return dayOfMonthMatches && dayOfWeekMatches
    }

    /// The allowed hours, ascending.
    var hourList: [Int] { (0...23).filter { hours >> $0 & 1 == 1 } }

    /// The allowed minutes, ascending.
    var minuteList: [Int] { (0...59).filter { minutes >> $0 & 1 == 1 } }

    /// The five-field text each macro (lowercased) stands for.
    private static let macros: [String: String] = [
        "@yearly": "0 0 1 1 *",
        "@annually": "0 0 1 1 *",
        "@monthly": "0 0 1 * *",
        "@weekly": "0 0 * * 0",
        "@daily": "0 0 * * *",
        "@midnight": "0 0 * * *",
        "@hourly": "0 * * * *",
    ]
}

/// One of the five cron fields: its name for messages, its value range and its value names.
private struct CronField {
    /// The field's name as it prefixes error messages.
    let name: String
    /// The smallest value the field accepts.
    let low: Int
    /// The largest value the field accepts.
    let high: Int
    /// Three-letter names for values, index 0 naming `low`; empty when the field has none.
    let names: [String]
    /// What a value must be, for "is not ..." messages.
    let expected: String

    /// Minutes, 0-59.
    static let minute = CronField(name: "minute", low: 0, high: 59, names: [], expected: "a number")
    /// Hours, 0-23.
    static let hour = CronField(name: "hour", low: 0, high: 23, names: [], expected: "a number")
    /// Days of the month, 1-31.
    static let dayOfMonth = CronField(name: "day of month", low: 1, high: 31, names: [], expected: "a number")
    /// Months, 1-12 or jan...dec.
    static let month = CronField(
        name: "month", low: 1, high: 12,
        names: ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"],
        expected: "a number or month name"
    )
    /// Days of the week, 0-7 (0 and 7 are Sunday) or sun...sat.
    static let dayOfWeek = CronField(
        name: "day of week", low: 0, high: 7,
        names: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"],
        expected: "a number or day name"
    )

    /// The bitmask with every value `low...high` set.
    var allValues: UInt64 { mask(low, high, step: 1) }

    /// The bitmask of values the field text allows (bit `v` set for value `v`).
    func parse(_ text: String) throws(CronError) -> UInt64 {
        var result: UInt64 = 0
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard !item.isEmpty else { throw error("empty list item in \"\(text)\"") }
            result |= try parseItem(item)
        }
        return result
    }

    /// The bitmask of one list item: `*`, `a`, `a-b`, each optionally followed by `/step`.
    private func parseItem(_ item: Substring) throws(CronError) -> UInt64 {
        let parts = item.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let base = parts[0]
        var step = 1
        if parts.count == 2 {
            guard let parsed = Self.decimal(parts[1]) else {
                throw error("step \"\(parts[1])\" is not a number")
            }
            guard parsed >= 1 else { throw error("step must be at least 1") }
            step = parsed
        }
        if base == "*" { return mask(low, high, step: step) }
        let bounds = base.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let start = try value(bounds[0], in: item)
        guard bounds.count == 2 else {
            return mask(start, parts.count == 2 ? high : start, step: step)
        }
        let end = try value(bounds[1], in: item)
        guard start <= end else { throw error("range \(base) starts after it ends") }
        return mask(start, end, step: step)
    }

    /// The value named by `token` (a decimal number or, where the field has them, a name).
    private func value(_ token: Substring, in item: Substring) throws(CronError) -> Int {
        guard !token.isEmpty else { throw error("incomplete item \"\(item)\"") }
        if let index = names.firstIndex(of: token.lowercased()) { return low + index }
        guard let number = Self.decimal(token) else { throw error("\"\(token)\" is not \(expected)") }
        guard (low...high).contains(number) else { throw error("\(token) is out of range \(low)-\(high)") }
        return number
    }

    /// The bitmask of `start`, `start + step`, ... up to `end`.
    private func mask(_ start: Int, _ end: Int, step: Int) -> UInt64 {
        stride(from: start, through: end, by: step).reduce(0) { $0 | 1 << UInt64($1) }
    }

    /// A `CronError` whose message is prefixed with this field's name.
    private func error(_ detail: String) -> CronError {
        CronError("\(name): \(detail)")
    }

    /// The value of a non-empty run of ASCII digits, saturating at `Int.max`; nil for anything else.
    private static func decimal(_ token: Substring) -> Int? {
        guard !token.isEmpty else { return nil }
        var value = 0
        for byte in token.utf8 {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowAdding) = shifted.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            value = overflow || overflowAdding ? Int.max : sum
        }
        return value
    }
}
