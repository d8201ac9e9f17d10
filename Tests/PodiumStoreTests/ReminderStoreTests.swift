import Foundation
import PodiumCore
@testable import PodiumStore
import PodiumWire
import Postgres
import Redis
import Testing

/// Reminder checks against the real PostgreSQL. Dates are in 2030, where no other test writes, so each
/// test's `emitDue` only meets its own players (and other reminder tests' players, which it ignores).
@Suite("Reminders", .serialized, .timeLimit(.minutes(5)))
struct ReminderStoreTests {
    let storage: PodiumStorage
    let prefix = StoreTestEnvironment.unique("rem")

    init() async throws {
        storage = try await StoreTestEnvironment.storage(now: instant("2030-01-07T00:00:00Z"))
    }

    func player(_ name: String, zone: String, time: String, days: [String] = ReminderPreferences.weekdays, at: String) async throws -> String {
        let user = "\(prefix)-\(name)"
        _ = try await storage.users.setPreferences(
            userID: user, displayName: nil, timeZone: zone, reminders: ReminderPreferences(enabled: true, time: time, days: days),
            now: instant(at))
        return user
    }

    /// `reminder.due` events of this test's players: "user local_date at_risk".
    func reminders() async throws -> [String] {
        try await storage.postgres.query("""
            SELECT user_id, payload->>'local_date' AS d, payload->>'streak_at_risk' AS r FROM events
            WHERE type = 'reminder.due' AND user_id LIKE $1 ORDER BY id
            """, ["\(prefix)-%"]).rows.map { "\(try $0.string("user_id").dropFirst(prefix.count + 1)) \(try $0.string("d")) \(try $0.string("r"))" }
    }

    func play(_ user: String, at: String) async throws {
        let item = try completion(id: StoreTestEnvironment.unique("c"), user: user, topic: "reminders", completedAt: at, now: instant(at))
        _ = try await storage.completions.record([item], now: instant(at))
    }

    @Test("players in several zones get one reminder per local day after their time, none twice, none after playing")
    func zonesOncePerDayAndNotAfterPlaying() async throws {
        // Monday 2030-01-07. Tokyo 18:00 = 09:00 UTC; Paris 18:00 = 17:00 UTC; New York 18:00 = 23:00 UTC.
        let tokyo = try await player("tokyo", zone: "Asia/Tokyo", time: "18:00", at: "2030-01-07T00:00:00Z")
        let paris = try await player("paris", zone: "Europe/Paris", time: "18:00", at: "2030-01-07T00:00:00Z")
        let newYork = try await player("ny", zone: "America/New_York", time: "18:00", at: "2030-01-07T00:00:00Z")
        _ = try await storage.reminders.emitDue(now: instant("2030-01-07T08:59:00Z"))
        #expect(try await reminders().isEmpty, "nobody's time has come")
        _ = try await storage.reminders.emitDue(now: instant("2030-01-07T09:00:00Z"))
        #expect(try await reminders() == ["tokyo 2030-01-07 false"])
        // Paris plays before its reminder time: no reminder today.
        try await play(paris, at: "2030-01-07T16:00:00Z")
        _ = try await storage.reminders.emitDue(now: instant("2030-01-07T17:05:00Z"))
        _ = try await storage.reminders.emitDue(now: instant("2030-01-07T17:06:00Z"))
        #expect(try await reminders() == ["tokyo 2030-01-07 false"])
        _ = try await storage.reminders.emitDue(now: instant("2030-01-07T23:00:00Z"))
        #expect(try await reminders() == ["tokyo 2030-01-07 false", "ny 2030-01-07 false"])
        // Tuesday 17:00 UTC: Paris played yesterday and not today, so its streak is at risk. In Tokyo it is already
        // Wednesday 02:00, so Tuesday's check (due at 09:00 UTC) is dropped rather than sent a day late.
        _ = try await storage.reminders.emitDue(now: instant("2030-01-08T17:00:00Z"))
        #expect(try await reminders() == ["tokyo 2030-01-07 false", "ny 2030-01-07 false", "paris 2030-01-08 true"])
        _ = try await storage.reminders.emitDue(now: instant("2030-01-09T09:00:00Z"))
        #expect(try await reminders().last == "tokyo 2030-01-09 false", "the next due day is reminded again")
        _ = tokyo
        _ = newYork
    }

    @Test("closed days and unchosen weekdays send nothing; a check after the local day ended is dropped")
    func closedDaysWeekdaysAndLateChecks() async throws {
        try await storage.reminders.closeDay("2030-02-04", note: "Holiday", now: instant("2030-01-01T00:00:00Z"))
        // Monday 2030-02-04 is closed; Tuesday is not chosen; Wednesday the job only runs the next morning.
        _ = try await player("berlin", zone: "Europe/Berlin", time: "07:00", days: ["mon", "wed", "thu"], at: "2030-02-03T12:00:00Z")
        _ = try await storage.reminders.emitDue(now: instant("2030-02-04T06:00:00Z"))
        _ = try await storage.reminders.emitDue(now: instant("2030-02-05T06:00:00Z"))
        _ = try await storage.reminders.emitDue(now: instant("2030-02-07T05:30:00Z"))
        #expect(try await reminders().isEmpty)
        _ = try await storage.reminders.emitDue(now: instant("2030-02-07T06:00:00Z"))
        #expect(try await reminders() == ["berlin 2030-02-07 false"])
        #expect(try await storage.reminders.closedDays().contains(ClosedDay(day: "2030-02-04", note: "Holiday")))
        #expect(try await storage.reminders.openDay("2030-02-04"))
        #expect(try await storage.reminders.openDay("2030-02-04") == false)
    }

    @Test("reminders in another zone than the player's are judged on the reminders' local day")
    func reminderZoneDiffersFromPlayersZone() async throws {
        // The player's zone is UTC; the reminders are at 20:00 in New York (01:00 UTC the next day).
        let user = "\(prefix)-split"
        _ = try await storage.users.setPreferences(
            userID: user, displayName: nil, timeZone: "UTC",
            reminders: ReminderPreferences(enabled: true, time: "20:00", days: ReminderPreferences.weekdays, timeZone: "America/New_York"),
            now: instant("2030-01-07T12:00:00Z"))
        // Monday 19:30 in New York, already Tuesday in UTC: Monday's reminder is not due.
        try await play(user, at: "2030-01-08T00:30:00Z")
        _ = try await storage.reminders.emitDue(now: instant("2030-01-08T01:00:00Z"))
        #expect(try await reminders().isEmpty)
        // Tuesday in New York without a quiz, after playing on Monday there: reminded, streak at risk.
        _ = try await storage.reminders.emitDue(now: instant("2030-01-09T01:00:00Z"))
        #expect(try await reminders() == ["split 2030-01-08 true"])
    }

    @Test("after the job was down for days, the reminder whose time passed today is still sent, once")
    func jobDownForDaysStillRemindsToday() async throws {
        // Weekdays at 18:00 in Paris, set on Sunday 2030-01-13: first due Monday 17:00 UTC.
        _ = try await player("paused", zone: "Europe/Paris", time: "18:00", at: "2030-01-13T12:00:00Z")
        // The job first runs again on Wednesday at 18:30 Paris time.
        _ = try await storage.reminders.emitDue(now: instant("2030-01-16T17:30:00Z"))
        _ = try await storage.reminders.emitDue(now: instant("2030-01-16T17:31:00Z"))
        #expect(try await reminders() == ["paused 2030-01-16 false"])
    }

    @Test("on a spring-forward day a reminder in the gap comes when the gap ends, once")
    func dstGap() async throws {
        // Europe/Paris skips 02:00-03:00 on Sunday 2030-03-31 (01:00 UTC).
        _ = try await player("night", zone: "Europe/Paris", time: "02:30", days: ["sun"], at: "2030-03-30T12:00:00Z")
        _ = try await storage.reminders.emitDue(now: instant("2030-03-31T00:59:00Z"))
        #expect(try await reminders().isEmpty)
        _ = try await storage.reminders.emitDue(now: instant("2030-03-31T01:00:00Z"))
        _ = try await storage.reminders.emitDue(now: instant("2030-03-31T01:30:00Z"))
        #expect(try await reminders() == ["night 2030-03-31 false"])
    }
}
