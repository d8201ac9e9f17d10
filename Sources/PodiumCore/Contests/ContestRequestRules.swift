import Foundation
import PodiumWire

extension ContestRequest {
    /// The contest this asks for, created at `now`, or every problem with the request.
    ///
    /// A contest must still have a run to come or under way at `now`: one that is over before it exists could
    /// count nothing (contests count completions recorded from their creation on).
    public func validated(now: Date) -> Result<Contest, ValidationFailure> {
        var errors: [FieldError] = []
        let id = DefinitionFields.id(id, errors: &errors)
        let title = DefinitionFields.shownName(title, field: "title", maxLength: Self.maximumTitleLength, errors: &errors)
        let scope = DefinitionFields.scope(scope, errors: &errors)
        let zone = DefinitionFields.zone(timeZone, errors: &errors)
        let start = instant(startsAt, field: "starts_at", errors: &errors)
        let end = instant(endsAt, field: "ends_at", errors: &errors)
        if let start, let end, start >= end { errors.append(FieldError(field: "ends_at", message: "must be after starts_at")) }
        let schedule = schedule(start: start, end: end, zone: zone, errors: &errors)
        DefinitionFields.sumRanking(metric: metric, tieBreak: tieBreak, errors: &errors)
        let entry = entry ?? .open
        if let maxPlayers {
            if entry != .join {
                errors.append(FieldError(field: "max_players", message: "applies to contests whose entry is join only"))
            } else if !(1...Self.maximumPlayers).contains(maxPlayers) {
                errors.append(FieldError(field: "max_players", message: "must be 1-\(Self.maximumPlayers)"))
            }
        }
        guard errors.isEmpty, let scope, let schedule, let zone else { return .failure(ValidationFailure(errors: errors)) }
        let contest = Contest(
            id: id, title: title, scope: scope, schedule: schedule, timeZone: zone, entry: entry, maxPlayers: maxPlayers,
            metric: metric ?? .points, tieBreak: tieBreak ?? .shared, medals: medals ?? true)
        guard contest.run(containing: now) != nil || !contest.runs(after: now, limit: 1).isEmpty else {
            let field = cron == nil ? "ends_at" : "cron"
            return .failure(ValidationFailure(errors: [FieldError(field: field, message: "leaves no run under way or to come")]))
        }
        return .success(contest)
    }

    /// The schedule asked for: one run, or recurring runs when `cron` is given.
    private func schedule(start: Date?, end: Date?, zone: TimeZone?, errors: inout [FieldError]) -> ContestSchedule? {
        guard let cron else {
            if durationMinutes != nil { errors.append(FieldError(field: "duration_minutes", message: "applies to recurring contests (with cron) only")) }
            if startsAt == nil { errors.append(FieldError(field: "starts_at", message: "is required without cron")) }
            if endsAt == nil { errors.append(FieldError(field: "ends_at", message: "is required without cron")) }
            guard let start, let end, start < end else { return nil }
            if !ContestSchedule.durations.contains(end.timeIntervalSince(start)) {
                errors.append(FieldError(field: "ends_at", message: "must be 1 minute to 366 days after starts_at"))
                return nil
            }
            return .once(start: start, end: end)
        }
        var expression: CronExpression?
        do {
            expression = try CronExpression(cron)
        } catch {
            errors.append(FieldError(field: "cron", message: error.message))
        }
        let maximumMinutes = Int(ContestSchedule.durations.upperBound / 60)
        guard let minutes = durationMinutes, (1...maximumMinutes).contains(minutes) else {
            errors.append(FieldError(field: "duration_minutes", message: "is required with cron: 1-\(maximumMinutes)"))
            return nil
        }
        guard let expression, let zone else { return nil }
        return .recurring(cron: CronSchedule(expression: expression, timeZone: zone), duration: TimeInterval(minutes * 60), from: start, until: end)
    }

    /// An RFC 3339 instant field, whole minutes (runs are named by their minute); nil when absent or wrong.
    private func instant(_ text: String?, field: String, errors: inout [FieldError]) -> Date? {
        guard let text else { return nil }
        guard let date = RFC3339.parse(text), date.timeIntervalSince1970.truncatingRemainder(dividingBy: 60) == 0 else {
            errors.append(FieldError(field: field, message: "must be an RFC 3339 time on a whole minute, e.g. 2026-12-04T14:00:00Z"))
            return nil
        }
        return date
    }
}
