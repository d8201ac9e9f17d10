import Foundation
import PodiumCore
import PodiumWire
import Postgres

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
        let rows = try connection.run(DueReminders(now: now, limit: limit))
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
            let zone = TimeZone(identifier: row.timeZone) ?? .gmt
            let reminders = try row.reminders.map { try decoder.decode(ReminderPreferences.self, from: Data($0.utf8)) }
            let schedule = reminders?.schedule(playerZone: zone)
            var at = row.nextReminderAt
            // After the job was down for more than a cycle, the latest reminder time that has passed is the
            // one to check (its day may still be on); the ones before it belong to days already over.
            if let latest = schedule?.latest(atOrBefore: now), latest > at { at = latest }
            let scheduleZone = schedule?.timeZone ?? zone
            return Due(user: row.userID, zone: scheduleZone, schedule: schedule, at: at,
                       day: Streak.localDay(of: at, in: scheduleZone), remindedDay: row.remindedDay)
        }
        // The facts every check needs, a query each: closed days, and whether each player played on the
        // reminder's local day and the day before. Days are the reminders' zone's, which may differ from the
        // player's own (in which the streak days of `users.days` are counted), so completions are looked up by time.
        let closed = Set(try connection.run(ClosedAmong(days: due.map { Period.dayKey(dayNumber: $0.day) })).map(\.n))
        let checks = due.map { ReminderCheck(user: $0.user, bounds: $0.bounds) }
        // One row per due check, in `due`'s order.
        let played = try connection.run(PlayedAround(checks: checks))

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
        try connection.run(try EventStore.append(events, occurredAt: now))
        // The webhook senders of every replica are told when the events commit.
        if !events.isEmpty { try connection.run(NotifyChange(.outbox)) }
        try connection.run(MoveReminders(updates: updates))
        return report
    }

    /// Closed days, oldest first.
    public func closedDays() async throws -> [ClosedDay] {
        try await postgres.run(ClosedDays()).map { ClosedDay(day: $0.day, note: $0.note) }
    }

    /// Marks `day` (`YYYY-MM-DD`) closed, or updates its note.
    public func closeDay(_ day: String, note: String, now: Date) async throws {
        try await postgres.run(CloseDay(day: day, note: note, createdAt: now))
    }

    /// Opens `day` again; false when it was not closed.
    public func openDay(_ day: String) async throws -> Bool {
        try await postgres.runCounting(OpenDay(day: day)) == 1
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

/// A page of the players whose reminder time has come, earliest first, locked for this transaction (players another
/// replica's pass holds are skipped).
private struct DueReminders: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT user_id, time_zone, reminders::text AS reminders, next_reminder_at, reminded_day FROM users
        WHERE next_reminder_at <= \(\.now) ORDER BY next_reminder_at LIMIT \(\.limit) FOR UPDATE SKIP LOCKED
        """
    struct Row: Decodable, Sendable {
        let userID: String
        let timeZone: String
        /// The reminder preferences as JSON; nil when off.
        let reminders: String?
        let nextReminderAt: Date
        /// The local day (days since 1970-01-01) last reminded.
        let remindedDay: Int?
    }
    let now: Date
    let limit: Int
}

/// Which of `days` (`YYYY-MM-DD`) are closed, as days since 1970-01-01.
private struct ClosedAmong: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT (day - DATE '1970-01-01') AS n FROM closed_days WHERE day = ANY(\(\.days)::date[])
        """
    struct Row: Decodable, Sendable { let n: Int }
    let days: [String]
}

/// Whether each check's player completed anything on the reminder's local day, and on the day before: one row per
/// check, in their order.
private struct PlayedAround: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT EXISTS (SELECT 1 FROM completions c WHERE c.user_id = x.user_id
                                                     AND c.completed_at >= x.day_start AND c.completed_at < x.day_end) AS today,
               EXISTS (SELECT 1 FROM completions c WHERE c.user_id = x.user_id
                                                     AND c.completed_at >= x.day_before AND c.completed_at < x.day_start) AS before
        FROM \(unnest: \.checks, ReminderCheck.columns, as: "x", ordinality: "i")
        ORDER BY x.i
        """
    struct Row: Decodable, Sendable {
        let today: Bool
        let before: Bool
    }
    let checks: [ReminderCheck]
}

/// Moves each checked player's next reminder time on, and remembers the day last reminded.
private struct MoveReminders: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        UPDATE users SET next_reminder_at = x.next_reminder_at, reminded_day = x.reminded_day
        FROM \(unnest: \.updates, ReminderUpdate.columns, as: "x") WHERE users.user_id = x.user_id
        """
    typealias Row = NoRows
    let updates: [ReminderUpdate]
}

/// The closed days, oldest first.
private struct ClosedDays: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT day::text AS day, note FROM closed_days ORDER BY closed_days.day"
    struct Row: Decodable, Sendable {
        /// `YYYY-MM-DD`.
        let day: String
        let note: String
    }
}

/// Closes one day, or sets a closed day's note.
private struct CloseDay: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO closed_days (day, note, created_at) VALUES (\(\.day)::date, \(\.note), \(\.createdAt))
        ON CONFLICT (day) DO UPDATE SET note = EXCLUDED.note
        """
    typealias Row = NoRows
    /// `YYYY-MM-DD`.
    let day: String
    let note: String
    let createdAt: Date
}

/// Opens a closed day again.
private struct OpenDay: PostgresStatement {
    static let sql: PostgresSQL<Self> = "DELETE FROM closed_days WHERE day = \(\.day)::date"
    typealias Row = NoRows
    /// `YYYY-MM-DD`.
    let day: String
}
