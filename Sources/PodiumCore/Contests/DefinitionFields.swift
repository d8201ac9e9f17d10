import Foundation
import PodiumWire

/// The checks of the fields that contests and leagues share: id, shown name, scope and zone. Each adds its problem to
/// `errors` and returns the value it checked (nil when wrong, for values the caller builds on).
enum DefinitionFields {
    /// The `id`: a scope name (a-z 0-9 . _ -).
    static func id(_ id: String?, errors: inout [FieldError]) -> String {
        let id = id ?? ""
        if !NameRules.isValidScopeName(id) {
            errors.append(FieldError(field: "id", message: "must be 1-\(NameRules.maximumScopeNameLength) of a-z 0-9 . _ -"))
        }
        return id
    }

    /// A name players see, in `field`: 1...`maxLength` characters, some visible, no control characters.
    static func shownName(_ text: String?, field: String, maxLength: Int, errors: inout [FieldError]) -> String {
        let text = text ?? ""
        // Whitespace as ECMAScript's \s reads it (White_Space and U+FEFF), so the OpenAPI pattern says the same.
        let visible = text.unicodeScalars.contains { !$0.properties.isWhitespace && $0 != "\u{FEFF}" }
        if !visible || !NameRules.isFreeText(text, maxLength: maxLength) {
            errors.append(FieldError(field: field, message: "must be 1-\(maxLength) characters, not only spaces, without control characters"))
        }
        return text
    }

    /// The `scope`: `["global"]`, one topic, or distinct groups.
    static func scope(_ ids: [String]?, errors: inout [FieldError]) -> ContestScope? {
        let scope = ids.flatMap(ContestScope.init(boards:))
        if scope == nil {
            errors.append(FieldError(
                field: "scope", message: "must be [\"global\"], one [\"topic:<name>\"] or 1-\(ContestScope.maximumGroups) distinct [\"group:<name>\", ...]"))
        }
        return scope
    }

    /// The `time_zone`, UTC when left out.
    static func zone(_ name: String?, errors: inout [FieldError]) -> TimeZone? {
        let name = name ?? "UTC"
        if let error = NameRules.timeZoneError(name, field: "time_zone") {
            errors.append(error)
            return nil
        }
        return TimeZone(identifier: name)
    }

    /// The `metric` and `tie_break` of a contest or league, whose boards rank sums: `accuracy` and `duration` (a single
    /// run's) and the `run` tie-break (best and latest boards') are refused.
    static func sumRanking(metric: BoardMetric?, tieBreak: TieBreak?, errors: inout [FieldError]) {
        if let metric, ![.points, .completions, .correct].contains(metric) {
            errors.append(FieldError(field: "metric", message: "must be points, completions or correct: contests and leagues rank sums"))
        }
        if tieBreak == .run {
            errors.append(FieldError(field: "tie_break", message: "must be shared, earliest or fastest: run belongs to best and latest boards"))
        }
    }
}
