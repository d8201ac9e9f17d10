import Foundation

extension CronExpression {
    /// The schedule in English, for people: "every 5 minutes", "every day at 00:05", "every Monday and Friday at
    /// 09:00", "every year on 25 December at 06:00" … or the expression itself when no short phrase says it.
    ///
    /// The console shows it beside the expression (the server says it, so no client parses cron).
    public var words: String {
        let (minutes, hours) = (minuteList, hourList)
        let days = (1...31).filter { daysOfMonth >> $0 & 1 == 1 }
        let monthList = (1...12).filter { months >> $0 & 1 == 1 }
        let weekdays = (0...6).filter { daysOfWeek >> $0 & 1 == 1 }
        let monthRestricted = monthList.count < 12
        let allDays = !dayOfMonthRestricted && !dayOfWeekRestricted && !monthRestricted && days.count == 31 && weekdays.count == 7
        if allDays && hours.count == 24 {
            if minutes.count == 60 { return "every minute" }
            if let step = Self.everyStep(minutes, size: 60) { return "every \(step) minutes" }
            if minutes.count == 1 { return minutes[0] == 0 ? "every hour, on the hour" : "every hour at \(minutes[0]) past" }
            return description
        }
        guard minutes.count == 1 else { return description }
        if allDays, let step = Self.everyStep(hours, size: 24), step > 1 {
            return minutes[0] == 0 ? "every \(step) hours, on the hour" : "every \(step) hours at \(minutes[0]) past"
        }
        guard hours.count <= 4 else { return description }
        let at = "at " + Self.andList(hours.map { String(format: "%02d:%02d", $0, minutes[0]) })
        if allDays { return "every day \(at)" }
        switch (monthRestricted, dayOfMonthRestricted, dayOfWeekRestricted) {
        case (false, false, true):
            if weekdays == [1, 2, 3, 4, 5] { return "every weekday (Monday to Friday) \(at)" }
            if weekdays == [0, 6] { return "every Saturday and Sunday \(at)" }
            return "every \(Self.andList(weekdays.map { Self.dayNames[$0] })) \(at)"
        case (false, true, false):
            return "on day \(Self.andList(days.map(String.init))) of every month \(at)"
        case (true, true, false) where days.count == 1:
            return "every year on \(days[0]) \(Self.andList(monthList.map { Self.monthNames[$0 - 1] })) \(at)"
        default:
            return description
        }
    }

    private static let dayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]

    /// The n of an arithmetic run 0, n, 2n … covering a whole field of `size` values; nil for any other list.
    private static func everyStep(_ values: [Int], size: Int) -> Int? {
        guard values.count >= 2, values[0] == 0 else { return nil }
        let step = values[1]
        guard size % step == 0, values.count == size / step, values.enumerated().allSatisfy({ $0.element == $0.offset * step }) else {
            return nil
        }
        return step
    }

    /// "a", "a and b", "a, b and c".
    private static func andList(_ words: [String]) -> String {
        words.count <= 1 ? words.joined() : words.dropLast().joined(separator: ", ") + " and " + (words.last ?? "")
    }
}
