import Foundation
import PodiumCore
import PodiumWire
import Testing

/// Property checks of `Period` against Foundation's own calendars over many random instants.
@Suite("Period properties", .timeLimit(.minutes(5)))
struct PeriodPropertyTests {
    /// Zones with DST, half- and quarter-hour offsets, and DST changes that skip midnight.
    static let zones = [
        "UTC", "Europe/Paris", "America/New_York", "Australia/Sydney", "Asia/Kolkata",
        "America/Santiago", "America/Havana", "Australia/Lord_Howe", "Pacific/Chatham", "America/St_Johns",
    ]

    /// Random instants in 2000...2040, seeded per zone so every run checks the same ones.
    static func randomInstants(count: Int, seed: UInt64) -> [Date] {
        var generator = SeededGenerator(seed: seed)
        let lower = 946_684_800.0   // 2000-01-01T00:00:00Z
        let upper = 2_240_524_800.0 // 2041-01-01T00:00:00Z
        return (0..<count).map { _ in Date(timeIntervalSince1970: Double.random(in: lower..<upper, using: &generator)) }
    }

    /// A stable per-zone seed.
    static func seed(_ zoneID: String) -> UInt64 {
        zoneID.utf8.reduce(1469598103934665603) { ($0 ^ UInt64($1)) &* 1099511628211 }
    }

    @Test("named(containing(d).key) == containing(d), and start <= d < end", arguments: zones)
    func roundTrip(zoneID: String) throws {
        let timeZone = try zone(zoneID)
        for date in Self.randomInstants(count: 400, seed: Self.seed(zoneID)) {
            for window in LeaderboardWindow.calendar {
                let period = Period.containing(date, window: window, timeZone: timeZone)
                #expect(Period.named(period.key, window: window, timeZone: timeZone) == period, "\(date) \(window)")
                #expect(period.contains(date), "\(date) \(window)")
                if let start = period.start, let end = period.end {
                    #expect(start <= date && date < end, "\(date) \(window)")
                    #expect(period.previous(timeZone: timeZone)?.end == start, "\(date) \(window)")
                    #expect(Period.containing(start, window: window, timeZone: timeZone) == period)
                    #expect(Period.containing(end.addingTimeInterval(-0.5), window: window, timeZone: timeZone) == period)
                }
            }
        }
    }

    @Test("keys match Foundation's Gregorian and ISO 8601 calendars", arguments: zones)
    func keysMatchFoundation(zoneID: String) throws {
        let timeZone = try zone(zoneID)
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = timeZone
        var iso = Calendar(identifier: .iso8601)
        iso.timeZone = timeZone
        func two(_ n: Int?) -> String { n.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "?" }
        for date in Self.randomInstants(count: 400, seed: 0xC0FFEE &+ Self.seed(zoneID)) {
            let local = gregorian.dateComponents([.year, .month, .day], from: date)
            let week = iso.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date)
            let year = local.year.map(String.init) ?? "?"
            let day = Period.containing(date, window: .day, timeZone: timeZone)
            #expect(day.key == "\(year)-\(two(local.month))-\(two(local.day))")
            #expect(day.start == gregorian.startOfDay(for: date))
            #expect(Period.containing(date, window: .month, timeZone: timeZone).key == "\(year)-\(two(local.month))")
            let weekKey = "\(week.yearForWeekOfYear.map(String.init) ?? "?")-W\(two(week.weekOfYear))"
            let weekPeriod = Period.containing(date, window: .week, timeZone: timeZone)
            #expect(weekPeriod.key == weekKey)
            let weekStart = try #require(weekPeriod.start)
            #expect(gregorian.component(.weekday, from: weekStart) == 2, "week must start on a Monday")
            #expect(gregorian.startOfDay(for: weekStart) == weekStart)
        }
    }

    @Test("consecutive days tile time in every zone from 1999-12-25 to 2041-01-05", arguments: zones)
    func daysTile(zoneID: String) throws {
        let timeZone = try zone(zoneID)
        var period = try #require(Period.named("1999-12-25", window: .day, timeZone: timeZone))
        var count = 0
        while period.key != "2041-01-05" {
            let next = try #require(period.next(timeZone: timeZone))
            #expect(next.start == period.end)
            let length = try #require(next.end).timeIntervalSince(try #require(next.start))
            #expect((22 * 3600.0...26 * 3600.0).contains(length), "\(next.key) is \(length / 3600) h")
            period = next
            count += 1
        }
        // 41 years incl. 11 leap days (2000...2040), plus the 11 extra days at the ends.
        #expect(count == 41 * 365 + 11 + 11)
    }

    @Test("weeks and months tile time too", arguments: zones)
    func weeksAndMonthsTile(zoneID: String) throws {
        let timeZone = try zone(zoneID)
        for (window, first, last, steps) in [
            (LeaderboardWindow.week, "1999-W52", "2041-W01", 2140), (.month, "1999-12", "2041-01", 493),
        ] {
            var period = try #require(Period.named(first, window: window, timeZone: timeZone))
            var count = 0
            while period.key != last && count <= steps {
                let next = try #require(period.next(timeZone: timeZone))
                #expect(next.start == period.end)
                #expect(next.previous(timeZone: timeZone) == period)
                period = next
                count += 1
            }
            #expect(count == steps, "\(window)")
        }
    }
}
