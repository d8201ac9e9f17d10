import Foundation
import PodiumCore
import Testing

/// Which cron field a parsing case exercises, with the probe that reads its values back.
enum CronFieldProbe: String, Sendable {
    case minute, hour, dayOfMonth, month, dayOfWeek
}

/// One field's text and the exact values it must allow.
struct CronFieldCase: Sendable, CustomTestStringConvertible {
    /// The field under test.
    let field: CronFieldProbe
    /// The field's text.
    let text: String
    /// The allowed values, ascending (days of the week 0 = Sunday ... 6 = Saturday).
    let values: [Int]

    /// A readable name for the test report.
    var testDescription: String { "\(field.rawValue) \"\(text)\" → \(values)" }
}

/// One expected fire sequence: the schedule, a window, and every fire instant in it.
struct CronSlotsCase: Sendable, CustomTestStringConvertible {
    /// What the case shows.
    let note: String
    /// The cron expression.
    let expression: String
    /// The IANA zone the expression is read in.
    let zone: String
    /// The exclusive start of the window, ISO 8601.
    let after: String
    /// The inclusive end of the window, ISO 8601.
    let through: String
    /// Every fire instant in the window, ascending, ISO 8601 in UTC.
    let expected: [String]

    /// A readable name for the test report.
    var testDescription: String { "\(note): \(expression) in \(zone)" }
}

/// Parsing: every field syntax, names, Sunday as 7, macros, text and equality, and every error.
@Suite("CronExpression", .timeLimit(.minutes(5)))
struct CronExpressionTests {
    /// Field texts and the values each allows.
    static let fieldCases: [CronFieldCase] = [
        .init(field: .minute, text: "*", values: Array(0...59)),
        .init(field: .minute, text: "7", values: [7]),
        .init(field: .minute, text: "0", values: [0]),
        .init(field: .minute, text: "59", values: [59]),
        .init(field: .minute, text: "007", values: [7]),
        .init(field: .minute, text: "10-12", values: [10, 11, 12]),
        .init(field: .minute, text: "1,5,9", values: [1, 5, 9]),
        .init(field: .minute, text: "5,5", values: [5]),
        .init(field: .minute, text: "*/15", values: [0, 15, 30, 45]),
        .init(field: .minute, text: "*/45", values: [0, 45]),
        .init(field: .minute, text: "10-30/10", values: [10, 20, 30]),
        .init(field: .minute, text: "10-31/10", values: [10, 20, 30]),
        .init(field: .minute, text: "50/3", values: [50, 53, 56, 59]),
        .init(field: .minute, text: "5,10-12,*/20", values: [0, 5, 10, 11, 12, 20, 40]),
        .init(field: .hour, text: "*", values: Array(0...23)),
        .init(field: .hour, text: "*/6", values: [0, 6, 12, 18]),
        .init(field: .hour, text: "9-17", values: Array(9...17)),
        .init(field: .hour, text: "0,12", values: [0, 12]),
        .init(field: .hour, text: "23", values: [23]),
        .init(field: .hour, text: "22/1", values: [22, 23]),
        .init(field: .dayOfMonth, text: "*", values: Array(1...31)),
        .init(field: .dayOfMonth, text: "1", values: [1]),
        .init(field: .dayOfMonth, text: "*/10", values: [1, 11, 21, 31]),
        .init(field: .dayOfMonth, text: "28-31", values: [28, 29, 30, 31]),
        .init(field: .dayOfMonth, text: "15/5", values: [15, 20, 25, 30]),
        .init(field: .month, text: "*", values: Array(1...12)),
        .init(field: .month, text: "6-8", values: [6, 7, 8]),
        .init(field: .month, text: "*/4", values: [1, 5, 9]),
        .init(field: .month, text: "jan-mar", values: [1, 2, 3]),
        .init(field: .month, text: "JAN,Dec", values: [1, 12]),
        .init(field: .month, text: "Feb", values: [2]),
        .init(field: .month, text: "jul/2", values: [7, 9, 11]),
        .init(field: .month, text: "1-dec/6", values: [1, 7]),
        .init(field: .dayOfWeek, text: "*", values: Array(0...6)),
        .init(field: .dayOfWeek, text: "0", values: [0]),
        .init(field: .dayOfWeek, text: "7", values: [0]),
        .init(field: .dayOfWeek, text: "0,7", values: [0]),
        .init(field: .dayOfWeek, text: "sun", values: [0]),
        .init(field: .dayOfWeek, text: "Wed", values: [3]),
        .init(field: .dayOfWeek, text: "mon-fri", values: [1, 2, 3, 4, 5]),
        .init(field: .dayOfWeek, text: "tue-thu", values: [2, 3, 4]),
        .init(field: .dayOfWeek, text: "SAT,sun", values: [0, 6]),
        .init(field: .dayOfWeek, text: "5-7", values: [0, 5, 6]),
        .init(field: .dayOfWeek, text: "*/2", values: [0, 2, 4, 6]),
        .init(field: .dayOfWeek, text: "1/2", values: [0, 1, 3, 5]),
    ]

    /// Reads a field back by firing it in UTC over a window where only that field varies.
    @Test("field syntax", arguments: fieldCases)
    func fieldSyntax(_ testCase: CronFieldCase) throws {
        let text = testCase.text
        let (expression, after, through, component): (String, String, String, Calendar.Component)
        switch testCase.field {
        case .minute:
            (expression, after, through, component) =
                ("\(text) 0 1 1 *", "2025-12-31T23:59:59Z", "2026-01-01T00:59:59Z", .minute)
        case .hour:
            (expression, after, through, component) =
                ("0 \(text) 1 1 *", "2025-12-31T23:59:59Z", "2026-01-01T23:59:59Z", .hour)
        case .dayOfMonth:
            (expression, after, through, component) =
                ("0 0 \(text) 1 *", "2025-12-31T23:59:59Z", "2026-01-31T23:59:59Z", .day)
        case .month:
            (expression, after, through, component) =
                ("0 0 1 \(text) *", "2025-12-31T23:59:59Z", "2026-12-31T23:59:59Z", .month)
        case .dayOfWeek:
            // 2026-01-04 is a Sunday, 2026-01-10 a Saturday.
            (expression, after, through, component) =
                ("0 0 * * \(text)", "2026-01-03T23:59:59Z", "2026-01-10T23:59:59Z", .weekday)
        }
        let fires = try CronSchedule(expression: CronExpression(expression), timeZone: zone("UTC"))
            .slots(after: instant(after), through: instant(through), limit: 1000)
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try zone("UTC")
        let values = fires.map { utc.component(component, from: $0) - (component == .weekday ? 1 : 0) }
        #expect(values == testCase.values)
    }

    /// Each macro fires exactly like its five-field expansion, and at the expected next instant.
    @Test("macros", arguments: [
        ("@yearly", "0 0 1 1 *", "2027-01-01T00:00:00Z"),
        ("@annually", "0 0 1 1 *", "2027-01-01T00:00:00Z"),
        ("@monthly", "0 0 1 * *", "2026-07-01T00:00:00Z"),
        ("@weekly", "0 0 * * 0", "2026-06-07T00:00:00Z"),
        ("@daily", "0 0 * * *", "2026-06-02T00:00:00Z"),
        ("@midnight", "0 0 * * *", "2026-06-02T00:00:00Z"),
        ("@hourly", "0 * * * *", "2026-06-01T01:00:00Z"),
        ("@Daily", "0 0 * * *", "2026-06-02T00:00:00Z"),
    ])
    func macro(_ macro: String, expansion: String, next: String) throws {
        let utc = try zone("UTC")
        let macroSchedule = try CronSchedule(expression: CronExpression(macro), timeZone: utc)
        let expansionSchedule = try CronSchedule(expression: CronExpression(expansion), timeZone: utc)
        let start = try instant("2026-06-01T00:00:00Z")
        let end = try instant("2028-06-01T00:00:00Z")
        #expect(macroSchedule.next(after: start) == (try instant(next)))
        #expect(macroSchedule.slots(after: start, through: end, limit: 50)
            == expansionSchedule.slots(after: start, through: end, limit: 50))
    }

    @Test("description is the trimmed text; any run of spaces and tabs separates fields")
    func descriptionAndWhitespace() throws {
        let expression = try CronExpression("  0\t9   * *  mon \n")
        #expect(expression.description == "0\t9   * *  mon")
        let schedule = try CronSchedule(expression: expression, timeZone: zone("UTC"))
        #expect(schedule.next(after: try instant("2026-05-10T12:00:00Z")) == (try instant("2026-05-11T09:00:00Z")))
        #expect(try CronExpression("@daily").description == "@daily")
    }

    @Test("equality follows the text")
    func equality() throws {
        #expect(try CronExpression("0 0 * * *") == CronExpression(" 0 0 * * * "))
        #expect(try CronExpression("0 0 * * *") != CronExpression("@daily"))
        #expect(try CronExpression("0 0 * * 0") != CronExpression("0 0 * * 7"))
    }

    /// Every rejection, with its exact message.
    @Test("errors", arguments: [
        ("", "expression is empty"),
        (" \t ", "expression is empty"),
        ("* * * *", "expected 5 fields, got 4"),
        ("* * * * * *", "expected 5 fields, got 6"),
        ("60 * * * *", "minute: 60 is out of range 0-59"),
        ("99999999999999999999 * * * *", "minute: 99999999999999999999 is out of range 0-59"),
        ("* 24 * * *", "hour: 24 is out of range 0-23"),
        ("* * 0 * *", "day of month: 0 is out of range 1-31"),
        ("* * 32 * *", "day of month: 32 is out of range 1-31"),
        ("* * * 0 *", "month: 0 is out of range 1-12"),
        ("* * * 13 *", "month: 13 is out of range 1-12"),
        ("* * * * 8", "day of week: 8 is out of range 0-7"),
        ("* * * * 9", "day of week: 9 is out of range 0-7"),
        ("* * * * 1-9", "day of week: 9 is out of range 0-7"),
        ("*/0 * * * *", "minute: step must be at least 1"),
        ("* 1-5/0 * * *", "hour: step must be at least 1"),
        ("*/x * * * *", "minute: step \"x\" is not a number"),
        ("*/ * * * *", "minute: step \"\" is not a number"),
        ("*/-1 * * * *", "minute: step \"-1\" is not a number"),
        ("* 5-3 * * *", "hour: range 5-3 starts after it ends"),
        ("* * 31-1 * *", "day of month: range 31-1 starts after it ends"),
        ("* * * dec-jan *", "month: range dec-jan starts after it ends"),
        ("* * * * fri-mon", "day of week: range fri-mon starts after it ends"),
        ("abc * * * *", "minute: \"abc\" is not a number"),
        ("mon * * * *", "minute: \"mon\" is not a number"),
        ("1.5 * * * *", "minute: \"1.5\" is not a number"),
        ("*-5 * * * *", "minute: \"*\" is not a number"),
        ("* * * foo *", "month: \"foo\" is not a number or month name"),
        ("* * * january *", "month: \"january\" is not a number or month name"),
        ("* * * * funday", "day of week: \"funday\" is not a number or day name"),
        ("* * * * 1-2-3", "day of week: \"2-3\" is not a number or day name"),
        ("1,,2 * * * *", "minute: empty list item in \"1,,2\""),
        ("1, * * * *", "minute: empty list item in \"1,\""),
        ("1- * * * *", "minute: incomplete item \"1-\""),
        ("-5 * * * *", "minute: incomplete item \"-5\""),
        ("/5 * * * *", "minute: incomplete item \"/5\""),
        ("@reboot", "unknown macro @reboot"),
        ("@", "unknown macro @"),
        ("@daily 5", "macro @daily must stand alone"),
    ])
    func rejects(_ text: String, message: String) {
        do {
            let expression = try CronExpression(text)
            Issue.record("\"\(text)\" parsed as \(expression) but should fail with: \(message)")
        } catch {
            #expect(error.message == message)
            #expect(error.description == message)
        }
    }
}

/// Exact next, latest and slot answers away from DST, in UTC and fixed-offset zones.
@Suite("CronSchedule", .timeLimit(.minutes(5)))
struct CronScheduleTests {
    /// `next(after:)`: (expression, zone, after, expected next).
    @Test("next", arguments: [
        ("* * * * *", "UTC", "2026-05-10T10:15:00Z", "2026-05-10T10:16:00Z"),
        ("* * * * *", "UTC", "2026-05-10T10:15:30Z", "2026-05-10T10:16:00Z"),
        ("* * * * *", "UTC", "2026-05-10T10:15:59Z", "2026-05-10T10:16:00Z"),
        ("* * * * *", "UTC", "2026-05-10T10:14:59Z", "2026-05-10T10:15:00Z"),
        ("*/15 * * * *", "UTC", "2026-05-10T10:15:00Z", "2026-05-10T10:30:00Z"),
        ("*/15 * * * *", "UTC", "2026-05-10T10:44:59Z", "2026-05-10T10:45:00Z"),
        ("*/15 * * * *", "UTC", "2026-05-10T23:50:00Z", "2026-05-11T00:00:00Z"),
        ("0 * * * *", "UTC", "2026-05-10T10:00:00Z", "2026-05-10T11:00:00Z"),
        ("0 * * * *", "UTC", "2026-05-10T23:00:00Z", "2026-05-11T00:00:00Z"),
        ("0 3 * * *", "UTC", "2026-05-10T02:59:59Z", "2026-05-10T03:00:00Z"),
        ("0 3 * * *", "UTC", "2026-05-10T03:00:00Z", "2026-05-11T03:00:00Z"),
        // 2026-05-10 is a Sunday.
        ("0 9 * * mon", "UTC", "2026-05-10T12:00:00Z", "2026-05-11T09:00:00Z"),
        ("0 9 * * mon", "UTC", "2026-05-11T09:00:00Z", "2026-05-18T09:00:00Z"),
        ("0 9 * * 1-5", "UTC", "2026-05-08T09:00:00Z", "2026-05-11T09:00:00Z"),
        // Month ends: June and September have no 31st.
        ("0 0 31 * *", "UTC", "2026-04-01T00:00:00Z", "2026-05-31T00:00:00Z"),
        ("0 0 31 * *", "UTC", "2026-05-31T00:00:00Z", "2026-07-31T00:00:00Z"),
        ("0 0 31 * *", "UTC", "2026-08-31T00:00:00Z", "2026-10-31T00:00:00Z"),
        // Leap days, including the 8-year gap over 2100.
        ("0 0 29 2 *", "UTC", "2026-03-01T00:00:00Z", "2028-02-29T00:00:00Z"),
        ("0 0 29 2 *", "UTC", "2096-03-01T00:00:00Z", "2104-02-29T00:00:00Z"),
        // Year rollover.
        ("0 0 1 1 *", "UTC", "2026-12-31T23:59:59Z", "2027-01-01T00:00:00Z"),
        ("* * * * *", "UTC", "2026-12-31T23:59:00Z", "2027-01-01T00:00:00Z"),
        ("30 12 * 2 *", "UTC", "2026-02-28T12:30:00Z", "2027-02-01T12:30:00Z"),
        // Fixed offsets: local 09:00 in Tokyo (+09:00) and Kolkata (+05:30).
        ("0 9 * * *", "Asia/Tokyo", "2026-05-10T00:00:00Z", "2026-05-11T00:00:00Z"),
        ("0 9 * * *", "Asia/Kolkata", "2026-05-10T00:00:00Z", "2026-05-10T03:30:00Z"),
        // Monday 00:00 New York (EDT) is 04:00 UTC, while UTC is already Monday.
        ("0 0 * * mon", "America/New_York", "2026-05-11T01:00:00Z", "2026-05-11T04:00:00Z"),
    ])
    func next(_ expression: String, zone zoneID: String, after: String, expected: String) throws {
        let schedule = try CronSchedule(expression: CronExpression(expression), timeZone: zone(zoneID))
        #expect(schedule.next(after: try instant(after)) == (try instant(expected)))
    }

    /// `latest(atOrBefore:)`: (expression, zone, instant, expected latest).
    @Test("latest", arguments: [
        ("* * * * *", "UTC", "2026-05-10T10:15:30Z", "2026-05-10T10:15:00Z"),
        ("* * * * *", "UTC", "2026-05-10T10:15:00Z", "2026-05-10T10:15:00Z"),
        ("*/15 * * * *", "UTC", "2026-05-10T10:29:59Z", "2026-05-10T10:15:00Z"),
        ("*/15 * * * *", "UTC", "2026-05-10T10:30:00Z", "2026-05-10T10:30:00Z"),
        ("0 * * * *", "UTC", "2026-05-10T00:59:59Z", "2026-05-10T00:00:00Z"),
        ("0 3 * * *", "UTC", "2026-05-10T02:59:59Z", "2026-05-09T03:00:00Z"),
        ("0 3 * * *", "UTC", "2026-05-10T03:00:00Z", "2026-05-10T03:00:00Z"),
        ("0 9 * * mon", "UTC", "2026-05-17T23:59:59Z", "2026-05-11T09:00:00Z"),
        ("0 0 31 * *", "UTC", "2026-07-30T00:00:00Z", "2026-05-31T00:00:00Z"),
        ("0 0 29 2 *", "UTC", "2026-03-01T00:00:00Z", "2024-02-29T00:00:00Z"),
        ("0 0 29 2 *", "UTC", "2104-02-28T00:00:00Z", "2096-02-29T00:00:00Z"),
        ("59 23 31 12 *", "UTC", "2027-01-01T00:00:00Z", "2026-12-31T23:59:00Z"),
        ("0 0 1 1 *", "UTC", "2026-12-31T23:59:59Z", "2026-01-01T00:00:00Z"),
        ("0 9 * * *", "Asia/Kolkata", "2026-05-10T03:29:59Z", "2026-05-09T03:30:00Z"),
    ])
    func latest(_ expression: String, zone zoneID: String, at: String, expected: String) throws {
        let schedule = try CronSchedule(expression: CronExpression(expression), timeZone: zone(zoneID))
        #expect(schedule.latest(atOrBefore: try instant(at)) == (try instant(expected)))
    }

    @Test("fractional seconds: next is strictly after, latest rounds down to the slot")
    func fractionalSeconds() throws {
        let schedule = try CronSchedule(expression: CronExpression("* * * * *"), timeZone: zone("UTC"))
        let slot = try instant("2026-05-10T10:15:00Z")
        #expect(schedule.next(after: slot.addingTimeInterval(-0.5)) == slot)
        #expect(schedule.next(after: slot.addingTimeInterval(0.5)) == slot.addingTimeInterval(60))
        #expect(schedule.latest(atOrBefore: slot.addingTimeInterval(59.9)) == slot)
        #expect(schedule.latest(atOrBefore: slot.addingTimeInterval(-0.1)) == slot.addingTimeInterval(-60))
    }

    @Test("an expression that never fires gives nil and no slots")
    func neverFires() throws {
        let schedule = try CronSchedule(expression: CronExpression("0 0 30 2 *"), timeZone: zone("Europe/Berlin"))
        let now = try instant("2026-05-10T00:00:00Z")
        #expect(schedule.next(after: now) == nil)
        #expect(schedule.latest(atOrBefore: now) == nil)
        #expect(schedule.slots(after: now, through: try instant("2046-01-01T00:00:00Z"), limit: 10) == [])
    }

    @Test("slots: after is exclusive, through inclusive, limit keeps the earliest")
    func slotBounds() throws {
        let schedule = try CronSchedule(expression: CronExpression("*/15 * * * *"), timeZone: zone("UTC"))
        let after = try instant("2026-05-10T10:00:00Z")
        let through = try instant("2026-05-10T11:00:00Z")
        let all = try ["10:15", "10:30", "10:45", "11:00"].map { try instant("2026-05-10T\($0):00Z") }
        #expect(schedule.slots(after: after, through: through, limit: 10) == all)
        #expect(schedule.slots(after: after, through: through, limit: 4) == all)
        #expect(schedule.slots(after: after, through: through, limit: 2) == Array(all.prefix(2)))
        #expect(schedule.slots(after: after, through: through, limit: 1) == [all[0]])
        #expect(schedule.slots(after: after, through: through, limit: 0) == [])
        #expect(schedule.slots(after: after, through: through, limit: -1) == [])
        #expect(schedule.slots(after: through, through: after, limit: 10) == [])
        #expect(schedule.slots(after: after, through: after, limit: 10) == [])
        #expect(schedule.slots(after: after.addingTimeInterval(-1), through: after, limit: 10) == [after])
    }

    @Test("slots across days: a year of month ends")
    func slotsAcrossDays() throws {
        let schedule = try CronSchedule(expression: CronExpression("0 0 31 * *"), timeZone: zone("UTC"))
        let slots = schedule.slots(
            after: try instant("2026-01-01T00:00:00Z"), through: try instant("2026-12-31T23:59:59Z"), limit: 20
        )
        let expected = try ["01", "03", "05", "07", "08", "10", "12"].map { try instant("2026-\($0)-31T00:00:00Z") }
        #expect(slots == expected)
    }

    /// Vixie day rule: restricted day of month and day of week combine by "or", otherwise by "and".
    /// May 2026 starts on a Friday; 2026-02-13 is itself a Friday.
    @Test("day-of-month / day-of-week rule", arguments: [
        ("0 0 13 * 5", "2026-05", 31, ["01", "08", "13", "15", "22", "29"]),
        ("0 0 13 * 5", "2026-02", 28, ["06", "13", "20", "27"]),
        ("0 0 13 * *", "2026-05", 31, ["13"]),
        ("0 0 * * 5", "2026-05", 31, ["01", "08", "15", "22", "29"]),
        ("0 0 */2 * 5", "2026-05", 31, ["01", "15", "29"]),
        ("0 0 1-3 * */3", "2026-05", 31, ["02", "03"]),
        ("0 0 1,31 * sat,sun", "2026-05", 31, ["01", "02", "03", "09", "10", "16", "17", "23", "24", "30", "31"]),
    ])
    func dayRule(_ expression: String, month: String, length: Int, days: [String]) throws {
        let schedule = try CronSchedule(expression: CronExpression(expression), timeZone: zone("UTC"))
        let start = try instant("\(month)-01T00:00:00Z")
        let end = start.addingTimeInterval(Double(length * 86_400))
        let expected = try days.map { try instant("\(month)-\($0)T00:00:00Z") }
        #expect(schedule.slots(after: start.addingTimeInterval(-1), through: end.addingTimeInterval(-1), limit: 100) == expected)
    }
}

/// DST on real 2026 transitions: gaps fire at the transition, overlaps once at the first
/// occurrence, and every-hour expressions at both occurrences.
@Suite("CronSchedule DST", .timeLimit(.minutes(5)))
struct CronScheduleDSTTests {
    /// Hand-computed fire instants around each transition; notes give the local reading.
    static let cases: [CronSlotsCase] = [
        // Europe/Berlin: spring forward 2026-03-29 at 01:00 UTC (02:00 CET → 03:00 CEST).
        .init(note: "Berlin gap: 02:30 fires at the transition; the days around at their usual time",
              expression: "30 2 * * *", zone: "Europe/Berlin",
              after: "2026-03-27T12:00:00Z", through: "2026-03-31T12:00:00Z",
              expected: ["2026-03-28T01:30:00Z", "2026-03-29T01:00:00Z", "2026-03-30T00:30:00Z",
                         "2026-03-31T00:30:00Z"]),
        .init(note: "Berlin gap: 02:00 and 02:30 collapse into one instant",
              expression: "0,30 2 * * *", zone: "Europe/Berlin",
              after: "2026-03-28T12:00:00Z", through: "2026-03-29T12:00:00Z",
              expected: ["2026-03-29T01:00:00Z"]),
        .init(note: "Berlin gap: 03:00 exists and is the transition instant",
              expression: "0 3 * * *", zone: "Europe/Berlin",
              after: "2026-03-28T12:00:00Z", through: "2026-03-30T12:00:00Z",
              expected: ["2026-03-29T01:00:00Z", "2026-03-30T01:00:00Z"]),
        .init(note: "Berlin gap: every 30 minutes skips the missing hour without doubling",
              expression: "*/30 * * * *", zone: "Europe/Berlin",
              after: "2026-03-29T00:00:00Z", through: "2026-03-29T02:00:00Z",
              expected: ["2026-03-29T00:30:00Z", "2026-03-29T01:00:00Z", "2026-03-29T01:30:00Z",
                         "2026-03-29T02:00:00Z"]),
        // Europe/Berlin: fall back 2026-10-25 at 01:00 UTC (03:00 CEST → 02:00 CET).
        .init(note: "Berlin overlap: 02:30 fires once, at the first (CEST) occurrence",
              expression: "30 2 * * *", zone: "Europe/Berlin",
              after: "2026-10-23T12:00:00Z", through: "2026-10-26T12:00:00Z",
              expected: ["2026-10-24T00:30:00Z", "2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"]),
        .init(note: "Berlin overlap: 02:00 and 02:59 fire once each, on CEST",
              expression: "0,59 2 * * *", zone: "Europe/Berlin",
              after: "2026-10-24T12:00:00Z", through: "2026-10-25T12:00:00Z",
              expected: ["2026-10-25T00:00:00Z", "2026-10-25T00:59:00Z"]),
        .init(note: "Berlin overlap: 03:00 happens once, on CET",
              expression: "0 3 * * *", zone: "Europe/Berlin",
              after: "2026-10-24T12:00:00Z", through: "2026-10-25T12:00:00Z",
              expected: ["2026-10-25T02:00:00Z"]),
        .init(note: "Berlin overlap: every 30 minutes fires at both occurrences",
              expression: "*/30 * * * *", zone: "Europe/Berlin",
              after: "2026-10-24T23:00:00Z", through: "2026-10-25T02:00:00Z",
              expected: ["2026-10-24T23:30:00Z", "2026-10-25T00:00:00Z", "2026-10-25T00:30:00Z",
                         "2026-10-25T01:00:00Z", "2026-10-25T01:30:00Z", "2026-10-25T02:00:00Z"]),
        .init(note: "Berlin overlap: 0-23 is the full hour range, so it fires at both occurrences too",
              expression: "30 0-23 * * *", zone: "Europe/Berlin",
              after: "2026-10-24T23:00:00Z", through: "2026-10-25T02:00:00Z",
              expected: ["2026-10-24T23:30:00Z", "2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z"]),
        .init(note: "Berlin overlap: */2 hours is not every hour, so 02:30 fires once",
              expression: "30 */2 * * *", zone: "Europe/Berlin",
              after: "2026-10-24T21:00:00Z", through: "2026-10-25T04:00:00Z",
              expected: ["2026-10-24T22:30:00Z", "2026-10-25T00:30:00Z", "2026-10-25T03:30:00Z"]),
        .init(note: "Berlin overlap: hourly at :30 fires at both occurrences",
              expression: "30 * * * *", zone: "Europe/Berlin",
              after: "2026-10-24T23:00:00Z", through: "2026-10-25T02:00:00Z",
              expected: ["2026-10-24T23:30:00Z", "2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z"]),
        // America/New_York: spring forward 2026-03-08 at 07:00 UTC (02:00 EST → 03:00 EDT).
        .init(note: "New York gap: 02:30 fires at the transition",
              expression: "30 2 * * *", zone: "America/New_York",
              after: "2026-03-06T12:00:00Z", through: "2026-03-09T12:00:00Z",
              expected: ["2026-03-07T07:30:00Z", "2026-03-08T07:00:00Z", "2026-03-09T06:30:00Z"]),
        .init(note: "New York gap: hourly, 02:00 and 03:00 are one instant",
              expression: "0 * * * *", zone: "America/New_York",
              after: "2026-03-08T04:59:59Z", through: "2026-03-08T08:00:00Z",
              expected: ["2026-03-08T05:00:00Z", "2026-03-08T06:00:00Z", "2026-03-08T07:00:00Z",
                         "2026-03-08T08:00:00Z"]),
        // America/New_York: fall back 2026-11-01 at 06:00 UTC (02:00 EDT → 01:00 EST).
        .init(note: "New York overlap: 01:30 fires once, at the first (EDT) occurrence",
              expression: "30 1 * * *", zone: "America/New_York",
              after: "2026-10-30T12:00:00Z", through: "2026-11-02T12:00:00Z",
              expected: ["2026-10-31T05:30:00Z", "2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"]),
        .init(note: "New York overlap: every 30 minutes fires at both occurrences",
              expression: "*/30 * * * *", zone: "America/New_York",
              after: "2026-11-01T04:00:00Z", through: "2026-11-01T07:00:00Z",
              expected: ["2026-11-01T04:30:00Z", "2026-11-01T05:00:00Z", "2026-11-01T05:30:00Z",
                         "2026-11-01T06:00:00Z", "2026-11-01T06:30:00Z", "2026-11-01T07:00:00Z"]),
        // Australia/Lord_Howe: 30-minute shifts. Fall back 2026-04-04 at 15:00 UTC (02:00 +11 → 01:30 +10:30).
        .init(note: "Lord Howe overlap: 01:45 fires once, at the first (+11) occurrence",
              expression: "45 1 * * *", zone: "Australia/Lord_Howe",
              after: "2026-04-03T00:00:00Z", through: "2026-04-06T00:00:00Z",
              expected: ["2026-04-03T14:45:00Z", "2026-04-04T14:45:00Z", "2026-04-05T15:15:00Z"]),
        .init(note: "Lord Howe overlap: every 15 minutes repeats the half hour",
              expression: "*/15 * * * *", zone: "Australia/Lord_Howe",
              after: "2026-04-04T14:00:00Z", through: "2026-04-04T15:30:00Z",
              expected: ["2026-04-04T14:15:00Z", "2026-04-04T14:30:00Z", "2026-04-04T14:45:00Z",
                         "2026-04-04T15:00:00Z", "2026-04-04T15:15:00Z", "2026-04-04T15:30:00Z"]),
        // Australia/Lord_Howe: spring forward 2026-10-03 at 15:30 UTC (02:00 +10:30 → 02:30 +11).
        .init(note: "Lord Howe gap: 02:15 fires at the transition",
              expression: "15 2 * * *", zone: "Australia/Lord_Howe",
              after: "2026-10-02T00:00:00Z", through: "2026-10-05T00:00:00Z",
              expected: ["2026-10-02T15:45:00Z", "2026-10-03T15:30:00Z", "2026-10-04T15:15:00Z"]),
        // America/Santiago: the changes happen at local midnight.
        // Fall back 2026-04-05 at 03:00 UTC (00:00 -03 → 23:00 -04 on the 4th).
        .init(note: "Santiago overlap at midnight: 23:30 on the 4th fires once, midnight of the 5th once",
              expression: "30 23,0 * * *", zone: "America/Santiago",
              after: "2026-04-04T12:00:00Z", through: "2026-04-05T12:00:00Z",
              expected: ["2026-04-05T02:30:00Z", "2026-04-05T04:30:00Z"]),
        // Spring forward 2026-09-06 at 04:00 UTC (00:00 -04 → 01:00 -03): midnight does not exist.
        .init(note: "Santiago gap at midnight: 00:00 fires at the transition (01:00 local)",
              expression: "0 0 * * *", zone: "America/Santiago",
              after: "2026-09-04T12:00:00Z", through: "2026-09-07T12:00:00Z",
              expected: ["2026-09-05T04:00:00Z", "2026-09-06T04:00:00Z", "2026-09-07T03:00:00Z"]),
    ]

    /// The exact slots, and `next`/`latest` agreeing with them instant by instant.
    @Test("transitions", arguments: cases)
    func transition(_ testCase: CronSlotsCase) throws {
        let schedule = try CronSchedule(expression: CronExpression(testCase.expression), timeZone: zone(testCase.zone))
        let after = try instant(testCase.after)
        let through = try instant(testCase.through)
        let expected = try testCase.expected.map(instant)
        #expect(schedule.slots(after: after, through: through, limit: 100) == expected)

        var chain: [Date] = []
        var cursor = after
        while let next = schedule.next(after: cursor), next <= through {
            chain.append(next)
            cursor = next
        }
        #expect(chain == expected)
        for slot in expected {
            #expect(schedule.latest(atOrBefore: slot) == slot)
        }
        #expect(schedule.latest(atOrBefore: through) == expected.last)
    }

    @Test("next and latest inside and right after an overlap")
    func overlapNeighbours() throws {
        let daily = try CronSchedule(expression: CronExpression("30 2 * * *"), timeZone: zone("Europe/Berlin"))
        // After the first 02:30 the second one is skipped: the next slot is the following day.
        #expect(daily.next(after: try instant("2026-10-25T00:30:00Z")) == (try instant("2026-10-26T01:30:00Z")))
        #expect(daily.latest(atOrBefore: try instant("2026-10-25T01:45:00Z")) == (try instant("2026-10-25T00:30:00Z")))

        let halfHourly = try CronSchedule(expression: CronExpression("*/30 * * * *"), timeZone: zone("Europe/Berlin"))
        #expect(halfHourly.next(after: try instant("2026-10-25T00:30:00Z")) == (try instant("2026-10-25T01:00:00Z")))
        #expect(halfHourly.latest(atOrBefore: try instant("2026-10-25T01:15:00Z")) == (try instant("2026-10-25T01:00:00Z")))
    }

    /// A 25-hour local day has 300 five-minute slots, a 23-hour one 276.
    @Test("every 5 minutes over whole DST days in New York", arguments: [
        ("2026-11-01T04:00:00Z", "2026-11-02T05:00:00Z", 300),
        ("2026-03-08T05:00:00Z", "2026-03-09T04:00:00Z", 276),
    ])
    func fiveMinutesOverDSTDay(start: String, end: String, count: Int) throws {
        let schedule = try CronSchedule(expression: CronExpression("*/5 * * * *"), timeZone: zone("America/New_York"))
        let slots = schedule.slots(
            after: try instant(start).addingTimeInterval(-1), through: try instant(end).addingTimeInterval(-1), limit: 1000
        )
        #expect(slots.count == count)
        #expect(zip(slots, slots.dropFirst()).allSatisfy { $1.timeIntervalSince($0) == 300 })
    }

    /// Random instants through 2026 in DST zones: next, latest and slots agree with each other.
    @Test("next, latest and slots agree", arguments: [1, 2, 3] as [UInt64])
    func agreement(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let expressions = ["*/7 * * * *", "30 2 * * *", "0,30 1-3 * * *", "15 * * * 0", "0 0 13 * 5", "*/20 2 * * *"]
        let zones = try ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Santiago"].map(zone)
        let year = try instant("2026-01-01T00:00:00Z").timeIntervalSince1970
        for _ in 0..<150 {
            let schedule = try CronSchedule(
                expression: CronExpression(expressions.randomElement(using: &generator)!),
                timeZone: zones.randomElement(using: &generator)!
            )
            let at = Date(timeIntervalSince1970: year + Double.random(in: 0..<(365 * 86_400), using: &generator))
            let next = try #require(schedule.next(after: at))
            let latest = try #require(schedule.latest(atOrBefore: at))
            #expect(latest <= at && at < next)
            #expect(schedule.latest(atOrBefore: next) == next)
            #expect(schedule.next(after: latest) == next)
            #expect(schedule.slots(after: latest, through: next, limit: 10) == [next])
            #expect(next.timeIntervalSince1970.truncatingRemainder(dividingBy: 60) == 0)
        }
    }
}

@Suite("Cron schedules in words", .timeLimit(.minutes(5)))
struct CronWordsTests {
    @Test("common schedules read as short phrases; any other keeps its expression")
    func words() throws {
        let expected = [
            "* * * * *": "every minute", "*/5 * * * *": "every 5 minutes", "5 0 * * *": "every day at 00:05",
            "30 3 * * *": "every day at 03:30", "0 * * * *": "every hour, on the hour",
            "0 */2 * * *": "every 2 hours, on the hour", "15 * * * *": "every hour at 15 past",
            "0 8 * * 1-5": "every weekday (Monday to Friday) at 08:00", "0 9 * * mon,fri": "every Monday and Friday at 09:00",
            "0 10 * * 6,0": "every Saturday and Sunday at 10:00", "0 7,12 * * *": "every day at 07:00 and 12:00",
            "0 0 1 * *": "on day 1 of every month at 00:00", "@daily": "every day at 00:00", "@weekly": "every Sunday at 00:00",
            "0 6 25 dec *": "every year on 25 December at 06:00", "7,9 1 2 * 3": "7,9 1 2 * 3", "0 9 * * 7": "every Sunday at 09:00",
        ]
        for (text, words) in expected {
            #expect(try CronExpression(text).words == words, "\(text)")
        }
    }
}
