import Foundation

/// The instants at which a cron expression fires, read as local wall-clock time in a time zone.
///
/// Each fire instant is a whole local minute (seconds 0) on a local calendar day the expression
/// matches, at one of its hour × minute combinations. Searches walk local days and give up after
/// about 8 years (2,928 local days), so an expression that never fires, such as `0 0 30 2 *`,
/// yields nil rather than searching forever. Instants more than about 31,000 years from 1970, and
/// NaN, have no slots.
///
/// DST policy:
/// - Gap (spring forward: a local time that does not exist, e.g. 02:30 on 2026-03-29 in
///   Europe/Berlin): the slot fires once at the first instant after the gap, which is the
///   transition instant (03:00 local = 01:00 UTC in that example). Several skipped local times
///   collapse into that one instant: fire instants are deduplicated.
/// - Overlap (fall back: a local time that occurs twice, e.g. 02:30 on 2026-10-25 in
///   Europe/Berlin): the slot fires once, at the first occurrence (the earlier instant, still on
///   summer time: 00:30 UTC in that example). Exception: when the hour field is `*` (any spelling
///   of the full range 0-23, such as `*`, `*/1` or `0-23`), the job repeats through the day
///   anyway and fires at both occurrences, so an every-5-minutes job keeps running during the
///   repeated hour; this is Vixie cron's behaviour.
///
/// In general, a local time fires at the first instant whose local time reaches it, and, for
/// every-hour expressions, also at each later instant whose local time equals it exactly.
public struct CronSchedule: Sendable, Hashable {
    /// When to fire, in local wall-clock terms.
    public let expression: CronExpression
    /// The zone whose local time `expression` is read in.
    public let timeZone: TimeZone

    /// Creates the schedule of `expression` read in `timeZone`.
    public init(expression: CronExpression, timeZone: TimeZone) {
        self.expression = expression
        self.timeZone = timeZone
    }

    /// The first fire instant strictly after `instant`; nil if there is none within about 8 years.
    public func next(after instant: Date) -> Date? {
        guard let after = Self.wholeSeconds(instant) else { return nil }
        let firstDay = localDay(of: after) - 1
        let found = forward(after: after, through: Int.max, limit: 1, days: firstDay...(firstDay + Self.searchDays))
        return found.first.map(Self.date)
    }

    /// The last fire instant at or before `instant`; nil if there is none within about 8 years.
    ///
    /// An instant that is itself a fire instant is its own answer.
    public func latest(atOrBefore instant: Date) -> Date? {
        guard let through = Self.wholeSeconds(instant) else { return nil }
        let hours = Array(expression.hourList.reversed())
        let minutes = Array(expression.minuteList.reversed())
        let lastDay = localDay(of: through) + 1
        var best: Int?
        for day in stride(from: lastDay, through: lastDay - Self.searchDays, by: -1) {
            let midnight = day * Self.secondsPerDay
            // Every instant of this local day or an earlier one lies before this bound.
            if let best, midnight + Self.secondsPerDay + Self.offsetBound <= best { break }
            guard expression.matches(CivilDate(dayNumber: day)) else { continue }
            let offsets = LocalOffsets(aroundLocalMidnight: midnight, in: timeZone)
            hourLoop: for hour in hours {
                for minute in minutes {
                    let wall = midnight + hour * 3600 + minute * 60
                    // This wall time and the earlier ones fire no later than `wall - smallest`.
                    if let best, wall - offsets.smallest <= best { break hourLoop }
                    // This wall time fires no earlier than `wall - largest`.
                    if wall - offsets.largest > through { continue }
                    for fire in offsets.instants(reaching: wall, everyOccurrence: expression.everyHour)
                    where fire <= through {
                        best = max(best ?? fire, fire)
                    }
                }
            }
        }
        return best.map(Self.date)
    }

    /// The fire instants in `after` (exclusive) through `through` (inclusive), ascending and distinct.
    ///
    /// At most `limit` instants, the earliest ones; empty when `limit` is not positive or the
    /// range is empty. Unlike `next(after:)` the search is bounded by `through`, not by 8 years.
    public func slots(after: Date, through: Date, limit: Int) -> [Date] {
        guard limit > 0, let start = Self.wholeSeconds(after), let end = Self.wholeSeconds(through), start < end
        else { return [] }
        let days = (localDay(of: start) - 1)...(localDay(of: end) + 1)
        return forward(after: start, through: end, limit: limit, days: days).map(Self.date)
    }

    /// The earliest `limit` distinct fire instants in (`after`, `through`], ascending, from the
    /// local days `days` (all in whole seconds since 1970).
    ///
    /// Days and wall times are visited in ascending order; the search stops as soon as `limit`
    /// instants are in hand and nothing later can come before the last of them.
    private func forward(after: Int, through: Int, limit: Int, days: ClosedRange<Int>) -> [Int] {
        let hours = expression.hourList
        let minutes = expression.minuteList
        var found: [Int] = []
        for day in days {
            let midnight = day * Self.secondsPerDay
            // Every instant of this local day or a later one lies after this bound.
            let earliest = midnight - Self.offsetBound
            if earliest > through || (found.count == limit && earliest >= found[limit - 1]) { break }
            guard expression.matches(CivilDate(dayNumber: day)) else { continue }
            let offsets = LocalOffsets(aroundLocalMidnight: midnight, in: timeZone)
            hourLoop: for hour in hours {
                for minute in minutes {
                    let wall = midnight + hour * 3600 + minute * 60
                    // This wall time and the later ones fire no earlier than `wall - largest`.
                    let lowest = wall - offsets.largest
                    if lowest > through || (found.count == limit && lowest >= found[limit - 1]) { break hourLoop }
                    // This wall time fires no later than `wall - smallest`.
                    if wall - offsets.smallest <= after { continue }
                    for fire in offsets.instants(reaching: wall, everyOccurrence: expression.everyHour)
                    where fire > after && fire <= through {
                        Self.insert(fire, into: &found, limit: limit)
                    }
                }
            }
        }
        return found
    }

    /// The local calendar day (days since 1970-01-01) of the instant `seconds` in `timeZone`.
    private func localDay(of seconds: Int) -> Int {
        Period.localDayNumber(of: Self.date(seconds), in: timeZone)
    }

    /// Inserts `value` into the ascending, distinct `found`, keeping only the `limit` smallest.
    private static func insert(_ value: Int, into found: inout [Int], limit: Int) {
        var index = found.count
        while index > 0 && found[index - 1] > value { index -= 1 }
        guard index < limit, index == 0 || found[index - 1] != value else { return }
        found.insert(value, at: index)
        if found.count > limit { found.removeLast() }
    }

    /// `date` rounded down to whole seconds since 1970; nil for NaN and beyond ±10¹² seconds.
    private static func wholeSeconds(_ date: Date) -> Int? {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard abs(seconds) <= 1e12 else { return nil }
        return Int(seconds)
    }

    /// The instant `seconds` after 1970-01-01 00:00 UTC.
    private static func date(_ seconds: Int) -> Date {
        Date(timeIntervalSince1970: Double(seconds))
    }

    /// How many local days `next(after:)` and `latest(atOrBefore:)` search: 8 years of 366 days.
    ///
    /// Enough for the rarest real schedule, a leap day: 2096-02-29 to 2104-02-29 is 8 years.
    private static let searchDays = 8 * 366

    /// Seconds in a local calendar day of wall-clock time.
    fileprivate static let secondsPerDay = 86_400

    /// A bound no zone's UTC offset reaches (26 hours), so a local day's instants lie within it.
    fileprivate static let offsetBound = 26 * 3600
}

/// The UTC offsets a zone uses around one local day, as consecutive spans of instants.
///
/// Built from the offset in force `CronSchedule.offsetBound` (26 hours) before the local midnight
/// plus every transition up to that long after the day ends, so it answers exactly for any wall
/// time on that day.
private struct LocalOffsets {
    /// Spans in ascending order; each runs from `start` (seconds since 1970) to the next span's
    /// start, the first from the beginning of time and the last forever.
    private let spans: [(start: Int, offset: Int)]
    /// The smallest offset among the spans, in seconds east of UTC.
    let smallest: Int
    /// The largest offset among the spans, in seconds east of UTC.
    let largest: Int

    /// Collects the spans around the local day starting at wall time `midnight` (seconds).
    init(aroundLocalMidnight midnight: Int, in timeZone: TimeZone) {
        let bound = CronSchedule.offsetBound
        let windowStart = Date(timeIntervalSince1970: Double(midnight - bound))
        let windowEnd = Date(timeIntervalSince1970: Double(midnight + CronSchedule.secondsPerDay + bound))
        var spans = [(start: Int.min, offset: timeZone.secondsFromGMT(for: windowStart))]
        var cursor = windowStart
        while let transition = timeZone.nextDaylightSavingTimeTransition(after: cursor), transition < windowEnd {
            // The first whole second on or after the transition already has the new offset.
            spans.append((Int(transition.timeIntervalSince1970.rounded(.up)), timeZone.secondsFromGMT(for: transition)))
            cursor = transition
        }
        self.spans = spans
        smallest = spans.reduce(spans[0].offset) { min($0, $1.offset) }
        largest = spans.reduce(spans[0].offset) { max($0, $1.offset) }
    }

    /// The instants at which local wall time `wall` (seconds) fires, ascending.
    ///
    /// First the earliest instant whose local time reaches `wall`: its exact occurrence, or the
    /// transition that jumps over it in a gap. With `everyOccurrence`, also each later instant
    /// whose local time is exactly `wall` (the repeat in an overlap).
    func instants(reaching wall: Int, everyOccurrence: Bool) -> [Int] {
        var result: [Int] = []
        for (index, span) in spans.enumerated() {
            let end = index + 1 < spans.count ? spans[index + 1].start : Int.max
            let exact = wall - span.offset
            let earliest = max(span.start, exact)
            guard earliest < end else { continue }
            if result.isEmpty {
                result.append(earliest)
                if !everyOccurrence { break }
            } else if earliest == exact {
                result.append(exact)
            }
        }
        return result
    }
}
