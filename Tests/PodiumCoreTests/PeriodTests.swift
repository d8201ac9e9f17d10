import Foundation
import PodiumCore
import PodiumWire
import Testing

/// One expected period: the instant looked up, its zone and window, and the exact answer.
struct PeriodCase: Sendable, CustomTestStringConvertible {
    /// The instant looked up, as an ISO 8601 string.
    let at: String
    /// The IANA zone the period is cut in.
    let zone: String
    /// The window asked for.
    let window: LeaderboardWindow
    /// The expected period name.
    let key: String
    /// The expected first instant, as an ISO 8601 string.
    let start: String
    /// The expected exclusive end, as an ISO 8601 string.
    let end: String

    /// A readable name for the test report.
    var testDescription: String { "\(at) \(zone) \(window) → \(key)" }
}

/// Exact period keys and bounds across zones, DST days and ISO week edges; names, closing and neighbours.
@Suite("Period", .timeLimit(.minutes(5)))
struct PeriodTests {
    /// Hand-computed expectations; comments name what each group covers.
    static let cases: [PeriodCase] = [
        // UTC
        .init(at: "2026-11-21T10:00:00Z", zone: "UTC", window: .day, key: "2026-11-21",
              start: "2026-11-21T00:00:00Z", end: "2026-11-22T00:00:00Z"),
        .init(at: "2026-11-21T10:00:00Z", zone: "UTC", window: .week, key: "2026-W47",
              start: "2026-11-16T00:00:00Z", end: "2026-11-23T00:00:00Z"),
        .init(at: "2026-11-21T10:00:00Z", zone: "UTC", window: .month, key: "2026-11",
              start: "2026-11-01T00:00:00Z", end: "2026-12-01T00:00:00Z"),
        .init(at: "2026-11-21T23:59:59Z", zone: "UTC", window: .day, key: "2026-11-21",
              start: "2026-11-21T00:00:00Z", end: "2026-11-22T00:00:00Z"),
        .init(at: "2026-11-22T00:00:00Z", zone: "UTC", window: .day, key: "2026-11-22",
              start: "2026-11-22T00:00:00Z", end: "2026-11-23T00:00:00Z"),
        .init(at: "2024-02-29T12:00:00Z", zone: "UTC", window: .month, key: "2024-02",
              start: "2024-02-01T00:00:00Z", end: "2024-03-01T00:00:00Z"),
        .init(at: "2026-12-31T23:59:59Z", zone: "UTC", window: .month, key: "2026-12",
              start: "2026-12-01T00:00:00Z", end: "2027-01-01T00:00:00Z"),
        // ISO week edges
        .init(at: "2026-12-31T12:00:00Z", zone: "UTC", window: .week, key: "2026-W53",
              start: "2026-12-28T00:00:00Z", end: "2027-01-04T00:00:00Z"),
        .init(at: "2027-01-01T12:00:00Z", zone: "UTC", window: .week, key: "2026-W53",
              start: "2026-12-28T00:00:00Z", end: "2027-01-04T00:00:00Z"),
        .init(at: "2027-01-04T00:00:00Z", zone: "UTC", window: .week, key: "2027-W01",
              start: "2027-01-04T00:00:00Z", end: "2027-01-11T00:00:00Z"),
        .init(at: "2024-12-30T12:00:00Z", zone: "UTC", window: .week, key: "2025-W01",
              start: "2024-12-30T00:00:00Z", end: "2025-01-06T00:00:00Z"),
        .init(at: "2021-01-03T12:00:00Z", zone: "UTC", window: .week, key: "2020-W53",
              start: "2020-12-28T00:00:00Z", end: "2021-01-04T00:00:00Z"),
        .init(at: "2026-01-01T00:00:00Z", zone: "UTC", window: .week, key: "2026-W01",
              start: "2025-12-29T00:00:00Z", end: "2026-01-05T00:00:00Z"),
        .init(at: "2025-12-28T23:59:59Z", zone: "UTC", window: .week, key: "2025-W52",
              start: "2025-12-22T00:00:00Z", end: "2025-12-29T00:00:00Z"),
        // Europe/Paris, including both 2026 DST days (23 h and 25 h)
        .init(at: "2026-11-21T10:00:00Z", zone: "Europe/Paris", window: .day, key: "2026-11-21",
              start: "2026-11-20T23:00:00Z", end: "2026-11-21T23:00:00Z"),
        .init(at: "2026-11-21T23:30:00Z", zone: "Europe/Paris", window: .day, key: "2026-11-22",
              start: "2026-11-21T23:00:00Z", end: "2026-11-22T23:00:00Z"),
        .init(at: "2026-03-29T12:00:00Z", zone: "Europe/Paris", window: .day, key: "2026-03-29",
              start: "2026-03-28T23:00:00Z", end: "2026-03-29T22:00:00Z"),
        .init(at: "2026-10-25T12:00:00Z", zone: "Europe/Paris", window: .day, key: "2026-10-25",
              start: "2026-10-24T22:00:00Z", end: "2026-10-25T23:00:00Z"),
        .init(at: "2026-03-29T12:00:00Z", zone: "Europe/Paris", window: .week, key: "2026-W13",
              start: "2026-03-22T23:00:00Z", end: "2026-03-29T22:00:00Z"),
        .init(at: "2026-03-29T12:00:00Z", zone: "Europe/Paris", window: .month, key: "2026-03",
              start: "2026-02-28T23:00:00Z", end: "2026-03-31T22:00:00Z"),
        .init(at: "2026-10-31T23:30:00Z", zone: "Europe/Paris", window: .month, key: "2026-11",
              start: "2026-10-31T23:00:00Z", end: "2026-11-30T23:00:00Z"),
        .init(at: "2026-12-31T23:30:00Z", zone: "Europe/Paris", window: .week, key: "2026-W53",
              start: "2026-12-27T23:00:00Z", end: "2027-01-03T23:00:00Z"),
        // America/New_York: spring forward 2026-03-08, fall back 2026-11-01
        .init(at: "2026-03-08T12:00:00Z", zone: "America/New_York", window: .day, key: "2026-03-08",
              start: "2026-03-08T05:00:00Z", end: "2026-03-09T04:00:00Z"),
        .init(at: "2026-11-01T12:00:00Z", zone: "America/New_York", window: .day, key: "2026-11-01",
              start: "2026-11-01T04:00:00Z", end: "2026-11-02T05:00:00Z"),
        .init(at: "2026-11-01T12:00:00Z", zone: "America/New_York", window: .week, key: "2026-W44",
              start: "2026-10-26T04:00:00Z", end: "2026-11-02T05:00:00Z"),
        .init(at: "2026-11-01T12:00:00Z", zone: "America/New_York", window: .month, key: "2026-11",
              start: "2026-11-01T04:00:00Z", end: "2026-12-01T05:00:00Z"),
        // Just before local midnight while the UTC date is already the next day
        .init(at: "2026-11-22T04:59:59Z", zone: "America/New_York", window: .day, key: "2026-11-21",
              start: "2026-11-21T05:00:00Z", end: "2026-11-22T05:00:00Z"),
        .init(at: "2026-11-22T05:00:00Z", zone: "America/New_York", window: .day, key: "2026-11-22",
              start: "2026-11-22T05:00:00Z", end: "2026-11-23T05:00:00Z"),
        .init(at: "2026-12-01T04:59:59Z", zone: "America/New_York", window: .month, key: "2026-11",
              start: "2026-11-01T04:00:00Z", end: "2026-12-01T05:00:00Z"),
        .init(at: "2027-01-01T04:00:00Z", zone: "America/New_York", window: .week, key: "2026-W53",
              start: "2026-12-28T05:00:00Z", end: "2027-01-04T05:00:00Z"),
        // Australia/Sydney: +11 in summer; DST ends 2026-04-05, starts 2026-10-04
        .init(at: "2026-01-01T05:00:00Z", zone: "Australia/Sydney", window: .day, key: "2026-01-01",
              start: "2025-12-31T13:00:00Z", end: "2026-01-01T13:00:00Z"),
        .init(at: "2026-01-01T05:00:00Z", zone: "Australia/Sydney", window: .week, key: "2026-W01",
              start: "2025-12-28T13:00:00Z", end: "2026-01-04T13:00:00Z"),
        .init(at: "2026-01-01T05:00:00Z", zone: "Australia/Sydney", window: .month, key: "2026-01",
              start: "2025-12-31T13:00:00Z", end: "2026-01-31T13:00:00Z"),
        .init(at: "2025-12-31T13:00:00Z", zone: "Australia/Sydney", window: .month, key: "2026-01",
              start: "2025-12-31T13:00:00Z", end: "2026-01-31T13:00:00Z"),
        .init(at: "2025-12-31T12:59:59Z", zone: "Australia/Sydney", window: .month, key: "2025-12",
              start: "2025-11-30T13:00:00Z", end: "2025-12-31T13:00:00Z"),
        .init(at: "2026-04-05T05:00:00Z", zone: "Australia/Sydney", window: .day, key: "2026-04-05",
              start: "2026-04-04T13:00:00Z", end: "2026-04-05T14:00:00Z"),
        .init(at: "2026-10-04T05:00:00Z", zone: "Australia/Sydney", window: .day, key: "2026-10-04",
              start: "2026-10-03T14:00:00Z", end: "2026-10-04T13:00:00Z"),
        .init(at: "2026-11-21T13:00:00Z", zone: "Australia/Sydney", window: .day, key: "2026-11-22",
              start: "2026-11-21T13:00:00Z", end: "2026-11-22T13:00:00Z"),
        // Asia/Kolkata, +05:30 all year
        .init(at: "2026-11-21T18:29:59Z", zone: "Asia/Kolkata", window: .day, key: "2026-11-21",
              start: "2026-11-20T18:30:00Z", end: "2026-11-21T18:30:00Z"),
        .init(at: "2026-11-21T18:30:00Z", zone: "Asia/Kolkata", window: .day, key: "2026-11-22",
              start: "2026-11-21T18:30:00Z", end: "2026-11-22T18:30:00Z"),
        .init(at: "2026-11-21T10:00:00Z", zone: "Asia/Kolkata", window: .week, key: "2026-W47",
              start: "2026-11-15T18:30:00Z", end: "2026-11-22T18:30:00Z"),
        .init(at: "2026-11-21T10:00:00Z", zone: "Asia/Kolkata", window: .month, key: "2026-11",
              start: "2026-10-31T18:30:00Z", end: "2026-11-30T18:30:00Z"),
        // Zones whose DST change skips local midnight: the day starts at 01:00 local
        .init(at: "2026-09-06T12:00:00Z", zone: "America/Santiago", window: .day, key: "2026-09-06",
              start: "2026-09-06T04:00:00Z", end: "2026-09-07T03:00:00Z"),
        .init(at: "2026-09-05T12:00:00Z", zone: "America/Santiago", window: .day, key: "2026-09-05",
              start: "2026-09-05T04:00:00Z", end: "2026-09-06T04:00:00Z"),
        .init(at: "2026-03-08T12:00:00Z", zone: "America/Havana", window: .day, key: "2026-03-08",
              start: "2026-03-08T05:00:00Z", end: "2026-03-09T04:00:00Z"),
        // Samoa skipped 2011-12-30 entirely: 12-29 ends where 12-31 starts
        .init(at: "2011-12-30T09:59:59Z", zone: "Pacific/Apia", window: .day, key: "2011-12-29",
              start: "2011-12-29T10:00:00Z", end: "2011-12-30T10:00:00Z"),
        .init(at: "2011-12-30T10:00:00Z", zone: "Pacific/Apia", window: .day, key: "2011-12-31",
              start: "2011-12-30T10:00:00Z", end: "2011-12-31T10:00:00Z"),
    ]

    @Test("containing gives the exact key and bounds", arguments: cases)
    func containing(expected: PeriodCase) throws {
        let timeZone = try zone(expected.zone)
        let period = Period.containing(try instant(expected.at), window: expected.window, timeZone: timeZone)
        #expect(period.window == expected.window)
        #expect(period.key == expected.key)
        #expect(period.start == (try instant(expected.start)))
        #expect(period.end == (try instant(expected.end)))
    }

    @Test("named gives the same period as containing", arguments: cases)
    func named(expected: PeriodCase) throws {
        let timeZone = try zone(expected.zone)
        let period = Period.containing(try instant(expected.at), window: expected.window, timeZone: timeZone)
        #expect(Period.named(expected.key, window: expected.window, timeZone: timeZone) == period)
    }

    @Test("previous ends where this period starts; next starts where it ends", arguments: cases)
    func neighbours(expected: PeriodCase) throws {
        let timeZone = try zone(expected.zone)
        let period = Period.containing(try instant(expected.at), window: expected.window, timeZone: timeZone)
        let previous = try #require(period.previous(timeZone: timeZone))
        let next = try #require(period.next(timeZone: timeZone))
        #expect(previous.end == period.start)
        #expect(next.start == period.end)
        #expect(previous.key < period.key && period.key < next.key)
        #expect(previous.next(timeZone: timeZone) == period)
        #expect(next.previous(timeZone: timeZone) == period)
    }

    @Test("DST days are 23 or 25 hours long", arguments: [
        ("2026-03-29", "Europe/Paris", 23.0), ("2026-10-25", "Europe/Paris", 25.0),
        ("2026-03-08", "America/New_York", 23.0), ("2026-11-01", "America/New_York", 25.0),
        ("2026-04-05", "Australia/Sydney", 25.0), ("2026-10-04", "Australia/Sydney", 23.0),
        ("2026-11-21", "Asia/Kolkata", 24.0), ("2026-10-04", "Australia/Lord_Howe", 23.5),
    ])
    func dayLength(key: String, zoneID: String, hours: Double) throws {
        let period = try #require(Period.named(key, window: .day, timeZone: try zone(zoneID)))
        let start = try #require(period.start)
        let end = try #require(period.end)
        #expect(end.timeIntervalSince(start) == hours * 3600)
    }

    @Test("the all window is one endless period")
    func allWindow() throws {
        let utc = try zone("UTC")
        let period = Period.containing(try instant("2026-11-21T10:00:00Z"), window: .all, timeZone: utc)
        #expect(period == Period.all)
        #expect(period.key == "all" && period.start == nil && period.end == nil)
        #expect(Period.named("all", window: .all, timeZone: utc) == .all)
        #expect(period.previous(timeZone: utc) == nil)
        #expect(period.next(timeZone: utc) == nil)
        #expect(period.closesAt(grace: Period.defaultGrace) == nil)
        #expect(!period.isClosed(at: .distantFuture, grace: 0))
        #expect(period.contains(.distantPast))
    }

    @Test("a period closes exactly at end + grace", arguments: [0, 60, Period.defaultGrace, 86_400])
    func closing(grace: TimeInterval) throws {
        let period = try #require(Period.named("2026-11-21", window: .day, timeZone: try zone("Europe/Paris")))
        let end = try instant("2026-11-21T23:00:00Z")
        #expect(period.closesAt(grace: grace) == end.addingTimeInterval(grace))
        #expect(!period.isClosed(at: end.addingTimeInterval(grace - 1), grace: grace))
        #expect(period.isClosed(at: end.addingTimeInterval(grace), grace: grace))
        #expect(period.isClosed(at: end.addingTimeInterval(grace + 1), grace: grace))
        #expect(!period.isClosed(at: end.addingTimeInterval(-1), grace: grace))
    }

    @Test("the default grace is 15 minutes")
    func defaultGrace() {
        #expect(Period.defaultGrace == 900)
    }

    @Test("contains is start-inclusive and end-exclusive")
    func containsBounds() throws {
        let period = try #require(Period.named("2026-W47", window: .week, timeZone: try zone("UTC")))
        #expect(period.contains(try instant("2026-11-16T00:00:00Z")))
        #expect(period.contains(try instant("2026-11-22T23:59:59Z")))
        #expect(!period.contains(try instant("2026-11-23T00:00:00Z")))
        #expect(!period.contains(try instant("2026-11-15T23:59:59Z")))
    }

    @Test("sub-second instants just before a boundary stay in the earlier period")
    func subSecondBoundary() throws {
        let paris = try zone("Europe/Paris")
        let midnight = try instant("2026-03-28T23:00:00Z")
        #expect(Period.containing(midnight.addingTimeInterval(-0.001), window: .day, timeZone: paris).key == "2026-03-28")
        #expect(Period.containing(midnight, window: .day, timeZone: paris).key == "2026-03-29")
    }

    @Test("malformed or impossible names are rejected", arguments: [
        ("2026-13", LeaderboardWindow.month), ("2026-00", .month), ("0000-01", .month), ("2026-1", .month),
        ("2026-011", .month), ("2026/11", .month), ("26-11", .month), ("2026-11-01", .month),
        ("2026-W54", .week), ("2025-W53", .week), ("2026-W00", .week), ("2026-w47", .week),
        ("2026W47", .week), ("2026-W7", .week), ("2026-W047", .week), ("2026-47", .week), ("2026-11", .week),
        ("2026-02-29", .day), ("2026-02-30", .day), ("2026-04-31", .day), ("2026-1-5", .day),
        ("2026-01-5", .day), ("2026-00-10", .day), ("2026-11-21T00", .day), (" 2026-11-21", .day),
        ("2026-11-21 ", .day), ("+026-11-21", .day), ("２０２６-11-21", .day), ("2026-11", .day),
        ("2011-12-30", .day), // skipped by Pacific/Apia only; valid elsewhere (checked below)
        ("abc", .day), ("", .day), ("abc", .week), ("abc", .month), ("", .all), ("ALL", .all), ("2026", .all),
    ])
    func invalidNames(key: String, window: LeaderboardWindow) throws {
        #expect(Period.named(key, window: window, timeZone: try zone("Pacific/Apia")) == nil)
    }

    @Test("leap days, week 53 and the year range edges are accepted", arguments: [
        ("2024-02-29", LeaderboardWindow.day), ("2000-02-29", .day), ("2011-12-30", .day), ("2026-W53", .week),
        ("2020-W53", .week), ("2015-W53", .week), ("2026-W01", .week), ("0001-01-01", .day), ("9999-12-31", .day),
        ("0001-W01", .week), ("9999-W52", .week), ("0001-01", .month), ("9999-12", .month),
    ])
    func validNames(key: String, window: LeaderboardWindow) throws {
        let period = try #require(Period.named(key, window: window, timeZone: try zone("UTC")))
        #expect(period.key == key)
        #expect(period.window == window)
    }

    @Test("week 53 exists exactly in the years Calendar(.iso8601) says have 53 weeks")
    func week53() throws {
        let utc = try zone("UTC")
        var iso = Calendar(identifier: .iso8601)
        iso.timeZone = utc
        var longYears: [Int] = []
        for year in 1990...2050 {
            // 28 December always lies in the last ISO week of its year.
            let december28 = try #require(iso.date(from: DateComponents(year: year, month: 12, day: 28)))
            let weeks = iso.component(.weekOfYear, from: december28)
            let key = "\(year)-W53"
            #expect((Period.named(key, window: .week, timeZone: utc) != nil) == (weeks == 53), "\(key)")
            if weeks == 53 { longYears.append(year) }
        }
        #expect(longYears.filter { (2000...2040).contains($0) } == [2004, 2009, 2015, 2020, 2026, 2032, 2037])
    }

    @Test("instants outside years 1...9999 are clamped, not trapped")
    func extremeDates() throws {
        let utc = try zone("UTC")
        #expect(Period.containing(.distantFuture, window: .day, timeZone: utc).key == "4001-01-01")
        #expect(Period.containing(Date(timeIntervalSince1970: 1e15), window: .month, timeZone: utc).key == "9999-12")
        #expect(Period.containing(Date(timeIntervalSince1970: -1e15), window: .day, timeZone: utc).key == "0001-01-01")
        #expect(Period.containing(Date(timeIntervalSince1970: .nan), window: .day, timeZone: utc).key == "1970-01-01")
        #expect(Period.containing(Date(timeIntervalSince1970: .infinity), window: .week, timeZone: utc).key == "9999-W52")
    }
}
