import Foundation
import PodiumWire

/// The streak rule.
///
/// Days are counted in the player's time zone (UTC when none is set) as day numbers since
/// 1970-01-01, so DST changes never split or merge a day. The current streak is the run of
/// consecutive active days that ends on the latest active day, as long as that day is today or
/// yesterday; a player who has not played since the day before yesterday has a current streak
/// of 0 (the longest stays). A late completion for an earlier day fills its gap, and the runs on
/// both sides join.
extension Streak {
    /// The streak of `activeDays` (local day numbers, any order, repeats allowed) seen on local day `today`.
    public static func of(activeDays: [Int], today: Int) -> Streak {
        let days = Set(activeDays).sorted()
        guard let last = days.last else { return Streak(current: 0, longest: 0) }
        var longest = 1
        var run = 1
        for index in days.indices.dropFirst() {
            run = days[index] == days[index - 1] + 1 ? run + 1 : 1
            longest = max(longest, run)
        }
        // `run` is now the length of the run that ends on the latest day.
        return Streak(current: last >= today - 1 ? run : 0, longest: longest)
    }

    /// A player's active days after a move from zone `old` to `zone`: the days of `times` (the completions kept) in
    /// `zone`, after the `stored` days (counted in `old`) before the first day of those completions in `old`. Those are
    /// the days of completions no longer kept (pruned), which nothing can count again.
    public static func recountedDays(_ stored: [Int], times: [Date], from old: TimeZone, to zone: TimeZone) -> [Int] {
        guard let firstKept = times.map({ localDay(of: $0, in: old) }).min() else { return Array(Set(stored)).sorted() }
        let counted = Set(times.map { localDay(of: $0, in: zone) })
        return Set(stored.filter { $0 < firstKept }).union(counted).sorted()
    }

    /// The local day number (days since 1970-01-01) of `instant` in `timeZone`, as periods count days.
    public static func localDay(of instant: Date, in timeZone: TimeZone) -> Int {
        Period.localDayNumber(of: instant, in: timeZone)
    }
}
