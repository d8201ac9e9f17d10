import Foundation
import PodiumWire

/// A completion that passed validation.
public struct ValidCompletion: Sendable, Hashable {
    /// The client's idempotency key.
    public let id: String
    /// Player id.
    public let userID: String
    /// Quiz id.
    public let quizID: String
    /// Topic name.
    public let topic: String
    /// Difficulty.
    public let difficulty: Difficulty
    /// Correct answers.
    public let correct: Int
    /// Questions asked.
    public let total: Int
    /// Time taken.
    public let durationMS: Int?
    /// When it was finished (given or defaulted to the time it was received).
    public let completedAt: Date
    /// Groups, without duplicates, in the order sent.
    public let groups: [String]
    /// Display name to set, if sent.
    public let displayName: String?
    /// The request as sent, in a canonical form: equal bodies give equal fingerprints (idempotency check).
    public let fingerprint: String
    /// Set when `completed_at` is older than the age limit and nothing else is wrong. Such a completion
    /// is only answered as a replay of one already recorded (a client retrying long after); when it was
    /// never recorded, this error is the answer.
    public let replayOnly: FieldError?
}

/// Limits on what a completion may carry.
public enum CompletionLimits {
    /// Most groups one completion may name.
    public static let maximumGroups = 20
    /// Most questions one quiz may have.
    public static let maximumTotal = 10_000
    /// Longest duration accepted (one day).
    public static let maximumDurationMS = 86_400_000
}

extension CompletionRequest {
    /// Checks every field and returns the valid completion, or throws every problem found.
    ///
    /// `fieldPrefix` names the item in batch answers (`completions[3].`). Times are checked against
    /// `now` with the rules' future skew and maximum age; a completion whose only fault is its age is
    /// returned marked `replayOnly` rather than thrown, so that a late retry can still be answered.
    public func validated(now: Date, rules: GameRules, fieldPrefix: String = "") throws(ValidationFailure) -> ValidCompletion {
        var errors: [FieldError] = []
        func fail(_ field: String, _ message: String) { errors.append(FieldError(field: fieldPrefix + field, message: message)) }
        func identifier(_ value: String?, _ field: String) -> String {
            guard let value else { fail(field, "is required"); return "" }
            if !NameRules.isValidIdentifier(value) { fail(field, "must be 1-128 characters of A-Z a-z 0-9 . _ : @ -") }
            return value
        }
        let id = identifier(id, "id")
        let userID = identifier(userId, "user_id")
        if NameRules.isValidIdentifier(userID), !NameRules.isValidUserID(userID) {
            fail("user_id", "must not be only dots, which cannot be a URL path segment")
        }
        let quizID = identifier(quizId, "quiz_id")

        if topic == nil { fail("topic", "is required") }
        else if let topic, !NameRules.isValidScopeName(topic) { fail("topic", "must be 1-64 characters of a-z 0-9 . _ -") }

        let difficulty = self.difficulty.flatMap(Difficulty.init(rawValue:))
        if self.difficulty == nil { fail("difficulty", "is required") }
        else if difficulty == nil { fail("difficulty", "must be one of easy, medium, hard") }

        if let total, !(1...CompletionLimits.maximumTotal).contains(total) { fail("total", "must be between 1 and \(CompletionLimits.maximumTotal)") }
        if total == nil { fail("total", "is required") }
        if correct == nil { fail("correct", "is required") }
        if let correct, correct < 0 { fail("correct", "must not be negative") }
        if let correct, let total, correct > total, total >= 1 { fail("correct", "must not exceed total") }
        if let durationMs, !(0...CompletionLimits.maximumDurationMS).contains(durationMs) {
            fail("duration_ms", "must be between 0 and \(CompletionLimits.maximumDurationMS)")
        }

        var completedAt = RFC3339.wholeMilliseconds(now)
        var tooOld: FieldError?
        if let text = self.completedAt {
            if let date = RFC3339.parse(text) {
                completedAt = RFC3339.wholeMilliseconds(date)
                if date > now.addingTimeInterval(rules.futureSkew) { fail("completed_at", "is in the future") }
                if date < now.addingTimeInterval(-rules.maximumAge) {
                    fail("completed_at", "is older than \(Int(rules.maximumAge / 86_400)) days")
                    tooOld = errors.last
                }
            } else {
                fail("completed_at", "must be an RFC 3339 time, e.g. 2026-11-21T10:00:00Z")
            }
        }

        var groups: [String] = []
        for (index, group) in (self.groups ?? []).enumerated() {
            if !NameRules.isValidScopeName(group) { fail("groups[\(index)]", "must be 1-64 characters of a-z 0-9 . _ -") }
            else if !groups.contains(group) { groups.append(group) }
        }
        if groups.count > CompletionLimits.maximumGroups { fail("groups", "must have at most \(CompletionLimits.maximumGroups) entries") }
        if let displayName, let problem = NameRules.displayNameProblem(displayName) { fail("display_name", problem) }

        guard errors.isEmpty || (errors.count == 1 && tooOld != nil), let difficulty, let topic, let correct, let total else {
            throw ValidationFailure(errors: errors)
        }
        return ValidCompletion(
            id: id, userID: userID, quizID: quizID, topic: topic, difficulty: difficulty, correct: correct, total: total,
            durationMS: durationMs, completedAt: completedAt, groups: groups, displayName: displayName,
            fingerprint: fingerprint(completedAt: self.completedAt.map { _ in completedAt }, groups: groups), replayOnly: tooOld
        )
    }

    /// A canonical text of the request: its fields as a JSON array in a fixed order, the time
    /// normalised to milliseconds (so `…:00Z` and `…:00.000+00:00` are the same request).
    private func fingerprint(completedAt: Date?, groups: [String]) -> String {
        Self.fingerprint(of: [
            id, userId, quizId, topic, difficulty, correct.map(String.init), total.map(String.init), durationMs.map(String.init),
            completedAt.map(RFC3339.format), groups.joined(separator: ","), displayName,
        ])
    }
}
