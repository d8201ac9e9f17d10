import Foundation
import PodiumCore
import Postgres

/// A day ops closed: no reminders on it.
public struct ClosedDay: Sendable, Codable, Equatable {
    /// The date, `YYYY-MM-DD`, in the zone of each player's reminders (the player's own unless set apart).
    public var day: String
    /// Why it is closed (a holiday's name).
    public var note: String

    /// Creates a closed day.
    public init(day: String, note: String) {
        self.day = day
        self.note = note
    }
}

/// What one pass of the reminder job did.
public struct ReminderReport: Sendable, Equatable {
    /// `reminder.due` events written.
    public var emitted = 0
    /// Due checks that wrote nothing: the player played that day, the day is closed, or the check came too late.
    public var skipped = 0

    /// An empty report.
    public init() {}
}

/// Reminder checks and the calendar of closed days.
///
/// Each player with reminders on has `next_reminder_at`, the next instant their reminder time
/// passes on a chosen weekday. The job reads due players by an index on that column, a page at a
/// time with `FOR UPDATE SKIP LOCKED`, and in the same transaction writes at most one event for
/// the player's local day (`reminded_day` remembers it) and moves `next_reminder_at` on. Running it
/// twice, or on several replicas at once, cannot remind anyone twice in a day.
public struct ReminderStore: Sendable {
    let postgres: PostgresPool

    /// Creates the store.
    public init(postgres: PostgresPool) {
        self.postgres = postgres
    }

    /// Handles every reminder due at `now`, `pageSize` players per transaction.
    public func emitDue(now: Date, pageSize: Int = 200) async throws -> ReminderReport {
        var report = ReminderReport()
        while true {
            let page = try await postgres.withTransaction { connection in
                try Self.emitPage(now: now, limit: pageSize, on: connection)
            }
            report.emitted += page.emitted
            report.skipped += page.skipped
            if page.emitted + page.skipped < pageSize { return report }
        }
    }

    private static func emitPage(now: Date, limit: Int, on connection: PostgresConnection) throws -> ReminderReport {
        let rows = try connection.query("""
            SELECT user_id, time_zone, reminders::text AS reminders, next_reminder_at, reminded_day FROM users
            WHERE next_reminder_at <= $1 ORDER BY next_reminder_at LIMIT $2 FOR UPDATE SKIP LOCKED
            """, [now, limit]).rows
        guard !rows.isEmpty else { return ReminderReport() }
        let decoder = PodiumJSON.decoder()
        struct Due {
            let user: String
            let zone: TimeZone
            let schedule: CronSchedule?
            let at: Date
            let day: Int
            let remindedDay: Int?

            /// Where the reminder's local day and the one before it start, and where the day ends.
            var bounds: (before: Date, start: Date, end: Date) {
                let today = Period.named(Period.dayKey(dayNumber: day), window: .day, timeZone: zone)
                let yesterday = Period.named(Period.dayKey(dayNumber: day - 1), window: .day, timeZone: zone)
                let start = today?.start ?? at
                return (yesterday?.start ?? start, start, today?.end ?? at)
            }
        }
        let due = try rows.map { row -> Due in
            let zone = TimeZone(identifier: try row.string("time_zone")) ?? .gmt
            let reminders = try row["reminders"].map { try decoder.decode(ReminderPreferences.self, from: Data($0.utf8)) }
            let schedule = reminders?.schedule(playerZone: zone)
            var at = try row.date("next_reminder_at")
            // After the job was down for more than a cycle, the latest reminder time that has passed is the
            // one to check (its day may still be on); the ones before it belong to days already over.
            if let latest = schedule?.latest(atOrBefore: now), latest > at { at = latest }
            let scheduleZone = schedule?.timeZone ?? zone
            return Due(user: try row.string("user_id"), zone: scheduleZone, schedule: schedule, at: at,
                       day: Streak.localDay(of: at, in: scheduleZone), remindedDay: try row.optionalInt("reminded_day"))
        }
        // The facts every check needs, a query each: closed days, and whether each player played on the
        // reminder's local day and the day before. Days are the reminders' zone's, which may differ from the
        // player's own (in which the streak days of `users.days` are counted), so completions are looked up by time.
        let closed = Set(try connection.query("""
            SELECT (day - DATE '1970-01-01') AS n FROM closed_days WHERE day = ANY($1::date[])
            """, [due.map { Period.dayKey(dayNumber: $0.day) }]).rows.map { try $0.int("n") })
        let checks = due.map { ReminderCheck(user: $0.user, bounds: $0.bounds) }
        // One row per due check, in `due`'s order.
        let played = try connection.query("""
            SELECT EXISTS (SELECT 1 FROM completions c WHERE c.user_id = x.user_id
                                                         AND c.completed_at >= x.day_start AND c.completed_at < x.day_end) AS today,
                   EXISTS (SELECT 1 FROM completions c WHERE c.user_id = x.user_id
                                                         AND c.completed_at >= x.day_before AND c.completed_at < x.day_start) AS before
            FROM \(unnest: checks, ReminderCheck.columns, as: "x", ordinality: "i")
            ORDER BY x.i
            """).rows
            .map { (today: try $0.bool("today"), before: try $0.bool("before")) }

        var report = ReminderReport()
        var events: [ReminderDueEvent] = []
        var updates: [ReminderUpdate] = []
        for (item, played) in zip(due, played) {
            // Checks that come after the local day ended (the job was down) are dropped, not sent late.
            let stillThatDay = Streak.localDay(of: now, in: item.zone) == item.day
            let remind = item.schedule != nil && stillThatDay && item.remindedDay != item.day && !closed.contains(item.day)
                && !played.today
            if remind {
                let atRisk = played.before
                events.append(ReminderDueEvent(
                    userId: item.user, localDate: Period.dayKey(dayNumber: item.day), timeZone: item.zone.configuredName, streakAtRisk: atRisk))
                report.emitted += 1
            } else {
                report.skipped += 1
            }
            let next = item.schedule?.next(after: max(item.at, now))
            updates.append(ReminderUpdate(user: item.user, next: next, remindedDay: remind ? item.day : item.remindedDay))
        }
        try connection.query(try EventStore.append(events, occurredAt: now))
        // The webhook senders of every replica are told when the events commit.
        if !events.isEmpty { try connection.query(ChangeNotices.notify(.outbox)) }
        try connection.query("""
            UPDATE users SET next_reminder_at = x.next_reminder_at, reminded_day = x.reminded_day
            FROM \(unnest: updates, ReminderUpdate.columns, as: "x") WHERE users.user_id = x.user_id
            """)
        return report
    }

    /// Closed days, oldest first.
    public func closedDays() async throws -> [ClosedDay] {
        try await postgres.query("SELECT day::text AS day, note FROM closed_days ORDER BY closed_days.day").rows.map {
            ClosedDay(day: try $0.string("day"), note: try $0.string("note"))
        }
    }

    /// Marks `day` (`YYYY-MM-DD`) closed, or updates its note.
    public func closeDay(_ day: String, note: String, now: Date) async throws {
        try await postgres.query("""
            INSERT INTO closed_days (day, note, created_at) VALUES ($1::date, $2, $3) ON CONFLICT (day) DO UPDATE SET note = EXCLUDED.note
            """, [day, note, now])
    }

    /// Opens `day` again; false when it was not closed.
    public func openDay(_ day: String) async throws -> Bool {
        try await postgres.query("DELETE FROM closed_days WHERE day = $1::date", [day]).affectedRows == 1
    }
}

/// One due reminder's question to the completions: did the player play on the reminder's local day, or the day before.
struct ReminderCheck {
    /// The player.
    let user: String
    /// Where the day before starts, where the day starts and where it ends.
    let bounds: (before: Date, start: Date, end: Date)

    /// The columns `ReminderStore` looks completions up by.
    static let columns = PostgresColumns<ReminderCheck>(
        .column("user_id", "text", { $0.user }), .column("day_before", "timestamptz", { $0.bounds.before }),
        .column("day_start", "timestamptz", { $0.bounds.start }), .column("day_end", "timestamptz", { $0.bounds.end }))
}

/// What a reminder check leaves on the player: the next time to look, and the last local day reminded.
struct ReminderUpdate {
    /// The player.
    let user: String
    /// The next reminder time; nil when reminders are off.
    let next: Date?
    /// The local day (days since 1970-01-01) last reminded, if any.
    let remindedDay: Int?

    /// The columns `ReminderStore` writes.
    static let columns = PostgresColumns<ReminderUpdate>(
        .column("user_id", "text", { $0.user }), .optional("next_reminder_at", "timestamptz", { $0.next }),
        .optional("reminded_day", "int", { $0.remindedDay }))
}
