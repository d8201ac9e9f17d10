import Foundation
import PodiumWire

/// The optional rules file (JSON, snake_case keys); anything left out keeps the spec's default.
///
/// ```json
/// { "points": { "easy": 2, "medium": 3, "hard": 5, "per_correct_answer": 0, "perfect_score_bonus": 0, "minimum_accuracy": 0 },
///   "levels": { "first_threshold": 10, "factor": 2 },
///   "boards": [ { "scope": "global", "time_zone": "Europe/Paris", "medal_windows": ["week", "month"] } ],
///   "close_grace_minutes": 15, "future_skew_minutes": 5, "maximum_age_days": 30,
///   "scheduler": { "jobs": [ { "name": "snapshot-leaderboards", "cron": "0 */2 * * *", "time_zone": "Europe/Paris" } ],
///                  "retention": { "snapshot_days": 30 }, "snapshot_top": 100 },
///   "achievements": [ { "id": "first-quiz", "name": "First quiz", "kind": "completions", "threshold": 1 } ] }
/// ```
public struct RulesDocument: Sendable, Codable {
    /// Points rules.
    public var points: PointsRules?
    /// Level curve: `{"first_threshold": 10, "factor": 2}` or `{"table": [0, 10, 25]}`.
    public var levels: LevelCurve?
    /// Board rules.
    public var boards: [BoardRule]?
    /// Grace after a period's end before it closes.
    public var closeGraceMinutes: Double?
    /// Allowed clock skew for `completed_at` in the future.
    public var futureSkewMinutes: Double?
    /// Oldest `completed_at` accepted.
    public var maximumAgeDays: Double?
    /// Job schedules, retention, snapshot size.
    public var scheduler: SchedulerDocument?
    /// Achievements (replace the defaults when given).
    public var achievements: [AchievementRule]?

    /// The document that spells out `rules` in full: every section given, defaults included (what
    /// `podium rules check` prints, and a complete file to start editing from).
    public init(effective rules: GameRules) {
        points = rules.points
        levels = rules.levels
        boards = rules.boards.rules
        closeGraceMinutes = rules.closeGrace / 60
        futureSkewMinutes = rules.futureSkew / 60
        maximumAgeDays = rules.maximumAge / 86_400
        achievements = rules.achievements
        scheduler = SchedulerDocument(
            jobs: rules.scheduler.jobs.map { job in
                JobDocument(
                    name: job.name, cron: job.schedule.expression.description, timeZone: job.schedule.timeZone.configuredName, misfire: job.misfire,
                    retryLimit: job.retryLimit, leaseSeconds: job.lease, backoffSeconds: job.backoff)
            },
            retention: rules.scheduler.retention, snapshotTop: rules.scheduler.snapshotTop)
    }

    /// Decodes a rules file and checks it; throws `RulesError` listing every problem.
    public static func rules(from data: Data) throws -> GameRules {
        let document: RulesDocument
        do {
            document = try PodiumJSON.decoder().decode(RulesDocument.self, from: data)
        } catch {
            throw RulesError(problems: ["not a valid rules file: \(error)"])
        }
        let unused = unusedKeys(given: try JSONSerialization.jsonObject(with: data),
                                kept: try JSONSerialization.jsonObject(with: PodiumJSON.encoder().encode(document)), path: "")
        guard unused.isEmpty else { throw RulesError(problems: unused) }
        return try document.rules()
    }

    /// The keys of the file that the decoded document does not hold, found by comparing the file with
    /// the document encoded again: a misspelt key (`perfect_bonus`) or one its neighbours make unused
    /// would otherwise leave the default in force without a word.
    private static func unusedKeys(given: Any, kept: Any?, path: String) -> [String] {
        switch given {
        case let object as [String: Any]:
            let keptObject = kept as? [String: Any] ?? [:]
            return object.keys.sorted().flatMap { key -> [String] in
                let place = path.isEmpty ? key : "\(path).\(key)"
                guard let value = object[key], !(value is NSNull) else { return [] }
                guard let keptValue = keptObject[key] else { return ["\(place): unknown key"] }
                return unusedKeys(given: value, kept: keptValue, path: place)
            }
        case let array as [Any]:
            let keptArray = kept as? [Any] ?? []
            return array.indices.flatMap { index in
                unusedKeys(given: array[index], kept: keptArray.indices.contains(index) ? keptArray[index] : nil, path: "\(path)[\(index)]")
            }
        default:
            return []
        }
    }

    /// The rules this document describes.
    public func rules() throws -> GameRules {
        var rules = GameRules()
        var problems: [String] = []
        if let points {
            rules.points = points
            if let message = points.validationError() { problems.append("points: \(message)") }
        }
        if let levels {
            rules.levels = levels
            if let message = levels.validationError() { problems.append("levels: \(message)") }
        }
        if let boards {
            rules.boards = BoardCatalog(rules: boards)
            problems += rules.boards.validationErrors()
        }
        if let closeGraceMinutes { rules.closeGrace = closeGraceMinutes * 60 }
        if let futureSkewMinutes { rules.futureSkew = futureSkewMinutes * 60 }
        if let maximumAgeDays { rules.maximumAge = maximumAgeDays * 86_400 }
        if let achievements {
            rules.achievements = achievements
            problems += AchievementRule.validationErrors(achievements)
        }
        if let scheduler {
            let (settings, schedulerProblems) = scheduler.settings()
            rules.scheduler = settings
            problems += schedulerProblems
        }
        if rules.closeGrace < 0 || rules.futureSkew < 0 || rules.maximumAge <= 0 { problems.append("times must not be negative") }
        if let days = rules.scheduler.retention.completionDays, days * 86_400 < rules.minimumCompletionRetention {
            problems.append("scheduler retention: completion_days must be at least \(Int(rules.minimumCompletionRetention / 86_400)) "
                + "(maximum_age_days, the 30 days ids are remembered, and two days)")
        }
        guard problems.isEmpty else { throw RulesError(problems: problems) }
        return rules
    }
}

/// A rules file that cannot be used.
public struct RulesError: Error, CustomStringConvertible {
    /// Every problem found.
    public let problems: [String]

    /// The problems, one per line.
    public var description: String { problems.joined(separator: "\n") }
}
