import Foundation

/// The body of `POST /v1/admin/contests`: every field optional here, so `validated` can name each missing or
/// wrong one at once.
public struct ContestRequest: Codable, Sendable {
    /// The id (a scope name: a-z 0-9 . _ -), which makes the board id `contest:<id>`.
    public var id: String?
    /// The title displays show: 1...80 characters.
    public var title: String?
    /// Board ids: `["global"]`, `["topic:<name>"]` or `["group:<a>", "group:<b>", ...]`.
    public var scope: [String]?
    /// Once: the run's start. Recurring: no run starts before it (optional).
    public var startsAt: String?
    /// Once: the run's end. Recurring: no run starts at or after it (optional).
    public var endsAt: String?
    /// Recurring: when runs start, a five-field cron expression read in `time_zone`.
    public var cron: String?
    /// Recurring: how long each run lasts, in minutes (a run also ends when the next starts).
    public var durationMinutes: Int?
    /// The IANA zone runs are scheduled and shown in; UTC when left out.
    public var timeZone: String?
    /// `open` (everyone in scope, the default) or `join` (only players who joined).
    public var entry: ContestEntry?
    /// `join` contests only: the most players who may join.
    public var maxPlayers: Int?
    /// What it ranks by; points when left out.
    public var metric: BoardMetric?
    /// How equal scores rank; shared when left out.
    public var tieBreak: TieBreak?
    /// Whether each run awards medals when it closes; true when left out.
    public var medals: Bool?

    /// The most players a `join` contest may take.
    public static let maximumPlayers = 100_000
    /// The longest title.
    public static let maximumTitleLength = 80

    /// Creates a request (tests and tools; the API decodes it).
    public init(
        id: String? = nil, title: String? = nil, scope: [String]? = nil, startsAt: String? = nil, endsAt: String? = nil,
        cron: String? = nil, durationMinutes: Int? = nil, timeZone: String? = nil, entry: ContestEntry? = nil,
        maxPlayers: Int? = nil, metric: BoardMetric? = nil, tieBreak: TieBreak? = nil, medals: Bool? = nil
    ) {
        self.id = id
        self.title = title
        self.scope = scope
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.cron = cron
        self.durationMinutes = durationMinutes
        self.timeZone = timeZone
        self.entry = entry
        self.maxPlayers = maxPlayers
        self.metric = metric
        self.tieBreak = tieBreak
        self.medals = medals
    }

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

/// A contest as the API shows it: the request's fields, its board, where it stands and its runs.
public struct ContestView: Codable, Sendable, Equatable {
    /// The id.
    public var id: String
    /// Its board id, `contest:<id>`, for every leaderboard route (window `contest`).
    public var board: String
    /// The title.
    public var title: String
    /// Its scope as board ids.
    public var scope: [String]
    /// `once` or `recurring`.
    public var schedule: String
    /// Once: the run's start; recurring: the earliest a run may start (null when unbounded).
    public var startsAt: String?
    /// Once: the run's end; recurring: no run starts at or after it (null when unbounded).
    public var endsAt: String?
    /// Recurring: when runs start.
    public var cron: String?
    /// Recurring: `cron` in words (`CronExpression.words`).
    public var scheduleWords: String?
    /// Recurring: how long each run lasts at most, in minutes.
    public var durationMinutes: Int?
    /// The zone runs are scheduled and shown in.
    public var timeZone: String
    /// `open` or `join`.
    public var entry: ContestEntry
    /// `join` contests: the most players who may join.
    public var maxPlayers: Int?
    /// `join` contests: how many have joined.
    public var playersJoined: Int?
    /// What it ranks by.
    public var metric: BoardMetric
    /// How equal scores rank.
    public var tieBreak: TieBreak
    /// Whether runs award medals.
    public var medals: Bool
    /// `scheduled` (no run has started), `running`, `between-runs`, `ended` (no run to come) or `cancelled`. A run
    /// closed early is over: its contest is `between-runs` or `ended` from the close, not `running` until its planned end.
    public var status: String
    /// Every value `status` takes.
    public static let statuses: Set<String> = ["scheduled", "running", "between-runs", "ended", "cancelled"]
    /// When it was cancelled.
    public var cancelledAt: String?
    /// The run its board shows now (`Contest.currentRun`).
    public var currentRun: ContestRun?
    /// Up to three runs still to start, earliest first.
    public var nextRuns: [ContestRun]

    /// The view of `contest` at `now`; `joined` is the number of entrants of a `join` contest, `runClosedAt` when its
    /// current run was closed (early, or at its end), if it was.
    public init(_ contest: Contest, joined: Int?, runClosedAt: Date? = nil, grace: TimeInterval, now: Date) {
        id = contest.id
        board = BoardScope.contest(contest.id).id
        title = contest.title
        scope = contest.scope.boards.map(\.id)
        timeZone = contest.timeZone.configuredName
        entry = contest.entry
        maxPlayers = contest.maxPlayers
        playersJoined = contest.entry == .join ? joined ?? 0 : nil
        metric = contest.metric
        tieBreak = contest.tieBreak
        medals = contest.medals
        cancelledAt = contest.cancelledAt.map(RFC3339.format)
        switch contest.schedule {
        case .once(let start, let end):
            schedule = "once"
            startsAt = RFC3339.format(start)
            endsAt = RFC3339.format(end)
        case .recurring(let cron, let duration, let from, let until):
            schedule = "recurring"
            startsAt = from.map(RFC3339.format)
            endsAt = until.map(RFC3339.format)
            self.cron = cron.expression.description
            scheduleWords = cron.expression.words
            durationMinutes = Int(duration / 60)
        }
        let current = contest.currentRun(at: now)
        let upcoming = contest.runs(after: now, limit: 3)
        currentRun = current.map { ContestRun($0, grace: grace, closedAt: runClosedAt) }
        nextRuns = upcoming.map { ContestRun($0, grace: grace) }
        if contest.cancelledAt != nil {
            status = "cancelled"
        } else if let current, current.contains(now), runClosedAt == nil {
            status = "running"
        } else if let current, let start = current.start, start > now {
            status = "scheduled"
        } else {
            status = upcoming.isEmpty ? "ended" : "between-runs"
        }
    }
}

/// One run of a contest, as the API shows it.
public struct ContestRun: Codable, Sendable, Equatable {
    /// Its period name (`20261127T1400Z`), for `?period=`.
    public var period: String
    /// When it starts.
    public var startsAt: String
    /// When it ends (exclusive).
    public var endsAt: String
    /// When it closes: its end plus the close grace.
    public var closesAt: String
    /// When it was closed, once it was (early by an admin, or by close-periods after its end).
    public var closedAt: String?

    /// The view of `run`, closing `grace` after its end; `closedAt` when it was closed.
    public init(_ run: Period, grace: TimeInterval, closedAt: Date? = nil) {
        period = run.key
        startsAt = run.start.map(RFC3339.format) ?? ""
        endsAt = run.end.map(RFC3339.format) ?? ""
        closesAt = run.closesAt(grace: grace).map(RFC3339.format) ?? ""
        self.closedAt = closedAt.map(RFC3339.format)
    }
}
