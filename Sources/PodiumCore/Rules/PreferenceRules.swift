import Foundation
import PodiumWire

extension PreferencesRequest {
    /// Every problem, each naming its field (`display_name`, `time_zone`, `reminders.…`).
    public func validationErrors() -> [FieldError] {
        var errors: [FieldError] = []
        if let displayName, let problem = NameRules.displayNameProblem(displayName) {
            errors.append(FieldError(field: "display_name", message: problem))
        }
        if let error = NameRules.timeZoneError(timeZone ?? "UTC", field: "time_zone") { errors.append(error) }
        return errors + (reminders?.validationErrors() ?? [])
    }
}
