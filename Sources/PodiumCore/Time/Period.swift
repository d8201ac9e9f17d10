import Foundation
import PodiumWire
import Synchronization

/// A named, bounded time range of one window, cut in a time zone.
///
/// Keys are local dates in the board's zone: `all`, `2026-11-21`, `2026-W47` (ISO week-numbering
/// year and two-digit week), `2026-11`. Bounds are instants: `start` inclusive, `end` exclusive,
/// so consecutive periods tile time with no gap or overlap, even across DST changes.
public struct Period: Sendable, Hashable {
    /// The window this period belongs to.
    public let window: LeaderboardWindow
    /// The period's name: "all", "2026-11-21", "2026-W47" or "2026-11".
    public let key: String
    /// The first instant of the period; nil for `.all`.
    public let start: Date?
    /// The first instant after the period (exclusive); nil for `.all`.
    public let end: Date?

    /// The single period of the `all` window.
    public static let all = Period(window: .all, key: "all", start: nil, end: nil)

    /// How long after its end a period still accepts late completions before it closes: 15 minutes.
    public static let defaultGrace: TimeInterval = 15 * 60

    /// Creates a period from parts computed by `containing` or `named`.
    private init(window: LeaderboardWindow, key: String, start: Date?, end: Date?) {
        self.window = window
        self.key = key
        self.start = start
        self.end = end
    }

    /// When the period counts as closed: end + grace (nil for `.all`, which never closes).
    public func closesAt(grace: TimeInterval) -> Date? {
        end?.addingTimeInterval(grace)
    }

    /// Whether the period is closed at `now`: true from exactly `end + grace` on; never for `.all`.
    public func isClosed(at now: Date, grace: TimeInterval) -> Bool {
        guard let closesAt = closesAt(grace: grace) else { return false }
        return now >= closesAt
    }

    /// Whether `date` lies in `start..<end` (always true for `.all`).
    public func contains(_ date: Date) -> Bool {
        guard let start, let end else { return true }
        return start <= date && date < end
    }

    /// One run of a contest: `[start, end)`, named by its start in UTC (`20261127T1400Z`).
    public static func contestRun(start: Date, end: Date) -> Period {
        Period(window: .contest, key: contestRunKey(start), start: start, end: end)
    }

    /// The name of the contest run starting at `start`: its UTC minute in ISO 8601 basic form, `20261127T1400Z`.
    public static func contestRunKey(_ start: Date) -> String {
        let minutes = Int((start.timeIntervalSince1970 / 60).rounded(.down))
        let day = CivilDate(dayNumber: Int((Double(minutes) / 1440).rounded(.down)))
        let minuteOfDay = minutes - day.dayNumber * 1440
        return "\(padded(day.year, 4))\(padded(day.month, 2))\(padded(day.day, 2))T\(padded(minuteOfDay / 60, 2))\(padded(minuteOfDay % 60, 2))Z"
    }

    /// The start of the contest run named `key` (`20261127T1400Z`); nil unless the name has exactly that shape and a real date.
    public static func contestRunStart(_ key: String) -> Date? {
        let bytes = Array(key.utf8)
        guard bytes.count == 14, bytes[8] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: "Z"),
              let year = number(bytes[0..<4]), let month = number(bytes[4..<6]), let day = number(bytes[6..<8]),
              let hour = number(bytes[9..<11]), let minute = number(bytes[11..<13]),
              CivilDate.isValid(year: year, month: month, day: day), hour < 24, minute < 60
        else { return nil }
        let minutes = CivilDate(year: year, month: month, day: day).dayNumber * 1440 + hour * 60 + minute
        return Date(timeIntervalSince1970: Double(minutes) * 60)
    }

    /// The period of `window` that contains `date`, cut in `timeZone`.
    ///
    /// Contest runs are not calendar periods (`Contest.run(containing:)` finds them from the contest's schedule): for
    /// `.contest` this is an empty run at `date`, which contains nothing.
    ///
    /// Day = local midnight to midnight, even on 23- or 25-hour DST days; week = ISO week from
    /// Monday 00:00 local; month = from the 1st 00:00 local. A midnight that does not exist in the
    /// zone resolves to the first instant of the local day. Dates outside years 1...9999 are
    /// clamped into that range.
    public static func containing(_ date: Date, window: LeaderboardWindow, timeZone: TimeZone) -> Period {
        let local = clampedLocalDate(of: date, in: timeZone)
        switch window {
        case .all:
            return .all
        case .contest:
            return contestRun(start: date, end: date)
        case .day:
            return period(window: .day, firstDay: local, timeZone: timeZone)
        case .week:
            return period(window: .week, firstDay: local.adding(days: 1 - local.isoWeekday), timeZone: timeZone)
        case .month:
            return period(
                window: .month,
                firstDay: CivilDate(year: local.year, month: local.month, day: 1),
                timeZone: timeZone
            )
        }
    }

    /// Whether `name` has the shape of some window's period name (`all`, `2026-11-21`, `2026-W47`, `2026-11`, `20261127T1400Z`),
    /// whether or not it names a real period: a well-shaped name a window does not have is a period that does not
    /// exist (404), anything else a malformed name (400).
    public static func isPeriodShaped(_ name: String) -> Bool {
        name.wholeMatch(of: /all|[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{2}/) != nil || isWeekShaped(name) || isContestRunShaped(name)
    }

    /// Whether `name` has the shape of a week's name (`2026-W48`), whether or not it names a real week.
    public static func isWeekShaped(_ name: String) -> Bool {
        name.wholeMatch(of: /[0-9]{4}-W[0-9]{2}/) != nil
    }

    /// Whether `name` has the shape of a contest run's name (`20261127T1400Z`), whether or not it names a real instant.
    public static func isContestRunShaped(_ name: String) -> Bool {
        name.wholeMatch(of: /[0-9]{8}T[0-9]{4}Z/) != nil
    }

    /// Parses a period name for a window, giving bounds in `timeZone`; nil if malformed.
    ///
    /// Contest runs take their bounds from the contest (`BoardDefinition.period(of:named:)`): for `.contest` this is nil.
    ///
    /// Names must be exactly `all`, `YYYY-MM-DD`, `YYYY-Www` or `YYYY-MM` with years 0001...9999.
    /// A week must exist in its ISO year ("2026-W53" is valid, "2025-W53" is not), a day must
    /// exist in the calendar ("2026-02-29" is not) and in the zone (a day skipped by a zone
    /// moving across the date line is not).
    public static func named(_ key: String, window: LeaderboardWindow, timeZone: TimeZone) -> Period? {
        let bytes = Array(key.utf8)
        switch window {
        case .all:
            return key == Period.all.key ? .all : nil
        case .contest:
            return nil
        case .day:
            guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                  let year = number(bytes[0..<4]), let month = number(bytes[5..<7]),
                  let day = number(bytes[8..<10]),
                  CivilDate.isValid(year: year, month: month, day: day)
            else { return nil }
            let date = CivilDate(year: year, month: month, day: day)
            let period = period(window: .day, firstDay: date, timeZone: timeZone)
            guard let start = period.start, localDayNumber(of: start, in: timeZone) == date.dayNumber else { return nil }
            return period
        case .week:
            guard bytes.count == 8, bytes[4] == UInt8(ascii: "-"), bytes[5] == UInt8(ascii: "W"),
                  let year = number(bytes[0..<4]), let week = number(bytes[6..<8]),
                  (1...9999).contains(year), (1...CivilDate.isoWeeksInYear(year)).contains(week)
            else { return nil }
            let monday = CivilDate.mondayOfISOWeek(year: year, week: week)
            return period(window: .week, firstDay: monday, timeZone: timeZone)
        case .month:
            guard bytes.count == 7, bytes[4] == UInt8(ascii: "-"),
                  let year = number(bytes[0..<4]), let month = number(bytes[5..<7]),
                  CivilDate.isValid(year: year, month: month, day: 1)
            else { return nil }
            return period(window: .month, firstDay: CivilDate(year: year, month: month, day: 1), timeZone: timeZone)
        }
    }

    /// The name of the day period of local day number `dayNumber` (days since 1970-01-01), e.g. `2026-11-21`.
    public static func dayKey(dayNumber: Int) -> String {
        let day = CivilDate(dayNumber: dayNumber)
        return "\(padded(day.year, 4))-\(padded(day.month, 2))-\(padded(day.day, 2))"
    }

    /// The period right before this one (nil for `.all`).
    ///
    /// Its `end` equals this period's `start`.
    public func previous(timeZone: TimeZone) -> Period? {
        guard let start else { return nil }
        return Period.containing(start.addingTimeInterval(-1), window: window, timeZone: timeZone)
    }

    /// The period right after this one (nil for `.all`).
    ///
    /// Its `start` equals this period's `end`; handy for walking forward over periods to close.
    public func next(timeZone: TimeZone) -> Period? {
        guard let end else { return nil }
        return Period.containing(end, window: window, timeZone: timeZone)
    }
}

extension Period {
    /// The period of `window` whose first local day is `firstDay`.
    private static func period(window: LeaderboardWindow, firstDay: CivilDate, timeZone: TimeZone) -> Period {
        let key: String
        let following: CivilDate
        switch window {
        case .all, .contest:
            preconditionFailure("only day, week and month periods start on a local day")
        case .day:
            key = "\(padded(firstDay.year, 4))-\(padded(firstDay.month, 2))-\(padded(firstDay.day, 2))"
            following = firstDay.adding(days: 1)
        case .week:
            let week = firstDay.isoWeek
            key = "\(padded(week.year, 4))-W\(padded(week.week, 2))"
            following = firstDay.adding(days: 7)
        case .month:
            key = "\(padded(firstDay.year, 4))-\(padded(firstDay.month, 2))"
            following = firstDay.firstOfNextMonth
        }
        return Period(
            window: window,
            key: key,
            start: startOfLocalDay(firstDay, in: timeZone),
            end: startOfLocalDay(following, in: timeZone)
        )
    }

    /// The local calendar date of `date` in `timeZone`, clamped to years 1...9999.
    private static func clampedLocalDate(of date: Date, in timeZone: TimeZone) -> CivilDate {
        let firstDay = CivilDate(year: 1, month: 1, day: 1).dayNumber
        let lastDay = CivilDate(year: 9999, month: 12, day: 31).dayNumber
        return CivilDate(dayNumber: min(max(localDayNumber(of: date, in: timeZone), firstDay), lastDay))
    }

    /// Days since 1970-01-01 of the local date of `date` in `timeZone`.
    ///
    /// NaN counts as 1970 and the instant is held within about ±300,000 years so the integer
    /// conversion cannot trap.
    static func localDayNumber(of date: Date, in timeZone: TimeZone) -> Int {
        let limit = 1e13
        let raw = date.timeIntervalSince1970
        let seconds = raw.isNaN ? 0 : min(max(raw, -limit), limit)
        let offset = Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)))
        return Int(((seconds + offset) / secondsPerDay).rounded(.down))
    }

    /// The first instant whose local date in `timeZone` is `day` or later.
    ///
    /// That is the start of `day`, or, for a day the zone skips entirely (Samoa moving across the
    /// date line), the start of the next day, which is exactly where the period before it ends.
    /// Fast path: from roughly local noon, `Calendar.startOfDay` finds the first instant of the
    /// day, including when DST skips midnight; the answer is checked, and when a large offset
    /// jump fooled the noon guess, a binary search over whole seconds finds the boundary (zone
    /// offsets and transitions are whole seconds, and local dates never run backwards).
    ///
    /// Answers are remembered per zone and day (the zone's rules do not change while running):
    /// nearly every completion falls on one of a few current days, and the search costs far more
    /// than the lookup.
    private static func startOfLocalDay(_ day: CivilDate, in timeZone: TimeZone) -> Date {
        let key = DayStart(zone: timeZone.identifier, day: day.dayNumber)
        if let known = dayStarts.withLock({ $0[key] }) { return known }
        let start = searchStartOfLocalDay(day, in: timeZone)
        dayStarts.withLock { starts in
            if starts.count >= 4096 { starts.removeAll(keepingCapacity: true) }
            starts[key] = start
        }
        return start
    }

    private struct DayStart: Hashable {
        let zone: String
        let day: Int
    }

    private static let dayStarts = Mutex<[DayStart: Date]>([:])

    private static func searchStartOfLocalDay(_ day: CivilDate, in timeZone: TimeZone) -> Date {
        let target = day.dayNumber
        func isStart(_ instant: Date) -> Bool {
            localDayNumber(of: instant, in: timeZone) >= target
                && localDayNumber(of: instant.addingTimeInterval(-1), in: timeZone) < target
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let utcMidnight = Double(target) * secondsPerDay
        let utcNoon = Date(timeIntervalSince1970: utcMidnight + secondsPerDay / 2)
        let guess = calendar.startOfDay(for: utcNoon.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: utcNoon))))
        if isStart(guess) { return guess }
        // No zone's offset reaches 26 hours, so the boundary lies strictly inside this range.
        var before = utcMidnight - 26 * 3600
        var atOrAfter = utcMidnight + 26 * 3600
        while atOrAfter - before > 1 {
            let middle = ((before + atOrAfter) / 2).rounded(.down)
            if localDayNumber(of: Date(timeIntervalSince1970: middle), in: timeZone) >= target {
                atOrAfter = middle
            } else {
                before = middle
            }
        }
        return Date(timeIntervalSince1970: atOrAfter)
    }

    /// Seconds in a day without DST changes, used only for whole-day arithmetic on UTC day numbers.
    private static let secondsPerDay = 86_400.0

    /// `value` in decimal, left-padded with zeros to `width` digits.
    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// The decimal value of a run of ASCII digits; nil if any byte is not a digit.
    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
