import Foundation

/// A proleptic Gregorian calendar date with no time zone ("2026-11-21").
///
/// Period keys are local dates, and day/week/month arithmetic on them must not depend on DST, so
/// it is done here in plain integers (Howard Hinnant's days-from-civil algorithms); only the
/// mapping between a local date and instants goes through `Calendar`.
struct CivilDate: Hashable, Sendable {
    /// The year, 1...9999 for everything the service names.
    let year: Int
    /// The month, 1...12.
    let month: Int
    /// The day of the month, 1...31.
    let day: Int

    /// Creates a date from components the caller has already checked with `isValid`.
    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `dayNumber` days after 1970-01-01.
    init(dayNumber: Int) {
        let shifted = dayNumber + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        self.init(
            year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0),
            month: month,
            day: dayOfYear - (153 * monthIndex + 2) / 5 + 1
        )
    }

    /// Days since 1970-01-01 (negative before it).
    var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// ISO weekday: Monday 1 … Sunday 7.
    var isoWeekday: Int {
        // 1970-01-01 was a Thursday (4).
        ((dayNumber % 7 + 7) % 7 + 3) % 7 + 1
    }

    /// The ISO 8601 week-numbering year and week (1...53) this date belongs to.
    ///
    /// A week belongs to the year that holds its Thursday.
    var isoWeek: (year: Int, week: Int) {
        let thursday = dayNumber - isoWeekday + 4
        let weekYear = CivilDate(dayNumber: thursday).year
        let week = (thursday - CivilDate(year: weekYear, month: 1, day: 1).dayNumber) / 7 + 1
        return (weekYear, week)
    }

    /// The date `days` days later (earlier when negative).
    func adding(days: Int) -> CivilDate {
        CivilDate(dayNumber: dayNumber + days)
    }

    /// The first day of the following month.
    var firstOfNextMonth: CivilDate {
        month == 12
            ? CivilDate(year: year + 1, month: 1, day: 1)
            : CivilDate(year: year, month: month + 1, day: 1)
    }

    /// Whether `year` is a Gregorian leap year.
    static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in a month of a year (month 1...12).
    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Whether the components name a real date in years 1...9999.
    static func isValid(year: Int, month: Int, day: Int) -> Bool {
        (1...9999).contains(year) && (1...12).contains(month)
            && (1...daysInMonth(year: year, month: month)).contains(day)
    }

    /// How many ISO weeks (52 or 53) the ISO week-numbering year has.
    ///
    /// A year has 53 weeks when it starts on a Thursday, or is a leap year starting on a Wednesday.
    static func isoWeeksInYear(_ year: Int) -> Int {
        let januaryFirst = CivilDate(year: year, month: 1, day: 1).isoWeekday
        return januaryFirst == 4 || (isLeapYear(year) && januaryFirst == 3) ? 53 : 52
    }

    /// The Monday that starts ISO week `week` of ISO year `year`.
    static func mondayOfISOWeek(year: Int, week: Int) -> CivilDate {
        let january4 = CivilDate(year: year, month: 1, day: 4)
        return january4.adding(days: -(january4.isoWeekday - 1) + (week - 1) * 7)
    }
}
