import Foundation
import PodiumWire

extension ReminderPreferences {
    /// Every problem, with fields named under `reminders.`.
    public func validationErrors() -> [FieldError] {
        var errors: [FieldError] = []
        if clock == nil { errors.append(FieldError(field: "reminders.time", message: "must be a 24-hour local time HH:MM")) }
        if days.count > 7 || Set(days).count != days.count || !days.allSatisfy(Self.weekdays.contains) {
            errors.append(FieldError(field: "reminders.days", message: "must be distinct weekdays among mon, tue, wed, thu, fri, sat, sun"))
        }
        if let timeZone, let error = NameRules.timeZoneError(timeZone, field: "reminders.time_zone") { errors.append(error) }
        return errors
    }

    /// When reminders fire, read in `timeZone` (or `playerZone`); nil when off, without days, or invalid.
    public func schedule(playerZone: TimeZone) -> CronSchedule? {
        guard enabled, !days.isEmpty, let (hour, minute) = clock else { return nil }
        let zone = timeZone.flatMap(TimeZone.init(identifier:)) ?? playerZone
        // Cron numbers weekdays from Sunday = 0.
        let cronDays = days.compactMap { Self.weekdays.firstIndex(of: $0) }.map { String(($0 + 1) % 7) }.joined(separator: ",")
        guard let expression = try? CronExpression("\(minute) \(hour) * * \(cronDays)") else { return nil }
        return CronSchedule(expression: expression, timeZone: zone)
    }

    /// Hour and minute of `time`, nil unless it is exactly `HH:MM` within a day.
    private var clock: (hour: Int, minute: Int)? {
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard time.count == 5, parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        return (hour, minute)
    }
}
