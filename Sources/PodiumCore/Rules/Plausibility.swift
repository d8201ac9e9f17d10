import Foundation
import PodiumWire

/// Limits on completions a player token posts: the client, not a trusted backend, chose their numbers.
public struct PlausibilityRules: Sendable, Equatable {
    /// Fewest seconds a question can take (`duration_ms` / `total`); 0 turns the rule off.
    public var minimumSecondsPerQuestion: Double
    /// Most completions one player can finish within any 60 seconds (by `completed_at`, stored ones included); every
    /// new completion inside a fuller minute is refused. 0 turns the rule off.
    public var maximumPerMinute: Int
    /// The same quiz scores again only this many seconds after the player's last completion of it; 0 turns it off.
    public var repeatQuizWindow: TimeInterval

    /// Creates rules; the defaults refuse only what no pupil could do (a question a second, six quizzes a minute,
    /// the same quiz twice within a minute).
    public init(minimumSecondsPerQuestion: Double = 1, maximumPerMinute: Int = 6, repeatQuizWindow: TimeInterval = 60) {
        self.minimumSecondsPerQuestion = minimumSecondsPerQuestion
        self.maximumPerMinute = maximumPerMinute
        self.repeatQuizWindow = repeatQuizWindow
    }

    /// How far before and after the posted completions the player's stored ones matter.
    public var lookaround: TimeInterval { max(60, repeatQuizWindow) }

    /// One completion as the rules see it.
    public struct Entry: Sendable, Equatable {
        /// Completion id.
        public var id: String
        /// Quiz id.
        public var quizID: String
        /// When it was finished.
        public var completedAt: Date

        /// Creates an entry.
        public init(id: String, quizID: String, completedAt: Date) {
            self.id = id
            self.quizID = quizID
            self.completedAt = completedAt
        }
    }

    /// A rule a completion broke: its name (stable, in the problem's detail) and the field error that explains it.
    public struct Violation: Sendable, Equatable {
        /// `minimum-seconds-per-question`, `maximum-per-minute` or `repeat-quiz-window`.
        public var rule: String
        /// The field at fault and why.
        public var error: FieldError
    }

    /// The rules `items` break, given the player's `stored` completions around them (replays of stored ids are
    /// the caller's to leave out: they score nothing new). `fieldPrefix` names each item (`completions[3].`).
    public func violations(
        _ items: [(entry: Entry, durationMS: Int?, total: Int, fieldPrefix: String)], stored: [Entry]
    ) -> [Violation] {
        var violations: [Violation] = []
        let itemIDs = Set(items.map(\.entry.id))
        let others = stored.filter { !itemIDs.contains($0.id) }
        // The 60 s windows, each starting at a completion, that hold more than the limit, stored and new ones alike:
        // a new completion inside one is refused, whichever order they were sent in.
        let times = others.map(\.completedAt) + items.map(\.entry.completedAt)
        let crowdedStarts = maximumPerMinute > 0 ? times.filter { start in
            times.filter { $0 >= start && $0 < start.addingTimeInterval(60) }.count > maximumPerMinute
        } : []
        for (index, item) in items.enumerated() {
            let prefix = item.fieldPrefix
            if minimumSecondsPerQuestion > 0 {
                if let duration = item.durationMS {
                    let fastest = minimumSecondsPerQuestion * 1000 * Double(item.total)
                    if Double(duration) < fastest {
                        violations.append(Violation(rule: "minimum-seconds-per-question", error: FieldError(
                            field: prefix + "duration_ms",
                            message: "is faster than \(Self.format(minimumSecondsPerQuestion)) s per question (at least \(Int(fastest.rounded(.up))))")))
                    }
                } else {
                    violations.append(Violation(rule: "minimum-seconds-per-question", error: FieldError(
                        field: prefix + "duration_ms", message: "is required when a player token posts a completion")))
                }
            }
            let at = item.entry.completedAt
            if crowdedStarts.contains(where: { $0 > at.addingTimeInterval(-60) && $0 <= at }) {
                violations.append(Violation(rule: "maximum-per-minute", error: FieldError(
                    field: prefix + "completed_at", message: "makes more than \(maximumPerMinute) completions within one minute")))
            }
            // Against stored completions either side of it, and against the items before it in this request.
            let sameQuizNearby = { (other: Entry) in
                other.quizID == item.entry.quizID && abs(other.completedAt.timeIntervalSince(at)) < repeatQuizWindow
            }
            if repeatQuizWindow > 0, others.contains(where: sameQuizNearby) || items[..<index].contains(where: { sameQuizNearby($0.entry) }) {
                violations.append(Violation(rule: "repeat-quiz-window", error: FieldError(
                    field: prefix + "quiz_id", message: "was completed less than \(Int(repeatQuizWindow)) s apart by this player")))
            }
        }
        return violations
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
