import Foundation
import PodiumCore
@testable import PodiumStore
import PodiumWire
import Postgres
import Redis
import Testing

@Suite("Streaks and achievements against real PostgreSQL", .timeLimit(.minutes(5)))
struct EngagementStoreTests {
    /// Records one completion for `user` at `at`, finished at `completedAt` (default: `at`).
    @discardableResult
    func record(_ storage: PodiumStorage, user: String, topic: String, at: String, completedAt: String? = nil,
                correct: Int = 5, difficulty: String = "medium") async throws -> CompletionResponse {
        let now = instant(at)
        let item = try completion(id: StoreTestEnvironment.unique("c"), user: user, topic: topic, difficulty: difficulty,
                                  correct: correct, completedAt: completedAt ?? at, now: now)
        let outcome = try await storage.completions.record([item], now: now)
        return try #require(outcome.first?.response)
    }

    @Test("streaks count local days in the player's zone across a DST change, and a late completion repairs them")
    func streakInPlayersZone() async throws {
        let storage = try await StoreTestEnvironment.storage(now: instant("2026-03-30T12:00:00Z"))
        let user = StoreTestEnvironment.unique("streaker")
        let topic = StoreTestEnvironment.unique("t")
        _ = try await storage.users.setPreferences(userID: user, displayName: nil, timeZone: "Europe/Berlin", now: instant("2026-03-20T00:00:00Z"))
        // 23:30 local on the 26th, 27th (CET) and 29th (CEST): in UTC the last one is still the 29th, the first two the 26th/27th.
        var answer = try await record(storage, user: user, topic: topic, at: "2026-03-26T22:30:00Z")
        #expect(answer.streak == Streak(current: 1, longest: 1))
        answer = try await record(storage, user: user, topic: topic, at: "2026-03-27T22:30:00Z")
        #expect(answer.streak == Streak(current: 2, longest: 2))
        answer = try await record(storage, user: user, topic: topic, at: "2026-03-29T21:30:00Z")
        #expect(answer.streak == Streak(current: 1, longest: 2), "the 28th was missed")
        // The offline app syncs the 28th late: the runs join.
        answer = try await record(storage, user: user, topic: topic, at: "2026-03-29T21:40:00Z", completedAt: "2026-03-28T12:00:00Z")
        #expect(answer.streak == Streak(current: 4, longest: 4))
        #expect(answer.achievementsUnlocked.map(\.id) == ["streak-3"])

        let profile = try #require(try await storage.users.profile(userID: user, now: instant("2026-03-30T12:00:00Z")))
        #expect(profile.streak == Streak(current: 4, longest: 4))
        let later = try #require(try await storage.users.profile(userID: user, now: instant("2026-04-01T12:00:00Z")))
        #expect(later.streak == Streak(current: 0, longest: 4), "March 31 passed without a quiz")
    }

    @Test("a new time zone counts the player's days again, so a streak never mixes two zones' days")
    func newTimeZoneRecountsDays() async throws {
        let storage = try await StoreTestEnvironment.storage(now: instant("2026-06-02T12:00:00Z"))
        let user = StoreTestEnvironment.unique("tokyo")
        let topic = StoreTestEnvironment.unique("t")
        // Before the app sends preferences the player is on UTC: 08:00 in Tokyo on June 1 is May 31 there.
        try await record(storage, user: user, topic: topic, at: "2026-05-31T23:00:00Z")
        _ = try await storage.users.setPreferences(userID: user, displayName: nil, timeZone: "Asia/Tokyo", now: instant("2026-05-31T23:05:00Z"))
        let sameDay = try await record(storage, user: user, topic: topic, at: "2026-06-01T11:00:00Z")
        #expect(sameDay.streak == Streak(current: 1, longest: 1), "both on June 1 in Tokyo")
        let next = try await record(storage, user: user, topic: topic, at: "2026-06-02T11:00:00Z")
        #expect(next.streak == Streak(current: 2, longest: 2))
        #expect(next.achievementsUnlocked.isEmpty, "two Tokyo days are not a 3-day streak")
        let days = try await storage.postgres.query("SELECT unnest(days) AS day FROM users WHERE user_id = $1", [user]).rows
            .map { try $0.int("day") }
        #expect(days.map { Period.dayKey(dayNumber: $0) } == ["2026-06-01", "2026-06-02"])
        // Another zone counts them again.
        _ = try await storage.users.setPreferences(userID: user, displayName: nil, timeZone: "America/Los_Angeles", now: instant("2026-06-02T11:30:00Z"))
        let profile = try #require(try await storage.users.profile(userID: user, now: instant("2026-06-02T12:00:00Z")))
        #expect(profile.streak == Streak(current: 3, longest: 3), "in Los Angeles the three fall on May 31, June 1 and June 2")
    }

    @Test("achievements unlock once each, with an event, and show on the profile")
    func achievementsUnlockOnce() async throws {
        let storage = try await StoreTestEnvironment.storage(now: instant("2026-11-25T12:00:00Z"))
        let user = StoreTestEnvironment.unique("achiever")
        let topic = StoreTestEnvironment.unique("t")
        var unlocked: [[String]] = []
        for index in 0..<10 {
            let answer = try await record(storage, user: user, topic: topic, at: "2026-11-25T12:00:\(String(format: "%02d", index))Z",
                                          correct: index == 3 ? 10 : 5, difficulty: "hard")
            unlocked.append(answer.achievementsUnlocked.map(\.id))
        }
        // 5 points each: level 5 starts at 80 points, so not yet; topic-10 and ten-quizzes at the tenth.
        #expect(unlocked == [["first-quiz"], [], [], ["perfect-score"], [], [], [], [], [], ["ten-quizzes", "topic-10"]])
        let events = try await storage.postgres.query("""
            SELECT payload->>'achievement' AS a FROM events WHERE type = 'achievement.unlocked' AND user_id = $1 ORDER BY id
            """, [user]).rows.map { try $0.string("a") }
        #expect(events == ["first-quiz", "perfect-score", "ten-quizzes", "topic-10"])
        let profile = try #require(try await storage.users.profile(userID: user, now: instant("2026-11-25T12:00:00Z")))
        #expect(profile.achievements.map(\.id) == ["first-quiz", "perfect-score", "ten-quizzes", "topic-10"])
        #expect(profile.achievements.first?.name == "First quiz")
    }

    @Test("concurrent first completions of one player unlock first-quiz exactly once")
    func onceUnderConcurrency() async throws {
        let storage = try await StoreTestEnvironment.storage(now: instant("2026-11-25T12:00:00Z"))
        let user = StoreTestEnvironment.unique("racer")
        let topic = StoreTestEnvironment.unique("t")
        let answers = try await withThrowingTaskGroup(of: CompletionResponse.self) { group in
            for _ in 0..<8 {
                group.addTask { try await record(storage, user: user, topic: topic, at: "2026-11-25T12:00:00Z") }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.filter { $0.achievementsUnlocked.map(\.id).contains("first-quiz") }.count == 1)
        let rows = try await storage.postgres.query(
            "SELECT count(*) AS n FROM user_achievements WHERE user_id = $1 AND achievement = 'first-quiz'", [user]).rows[0].int("n")
        #expect(rows == 1)
        let events = try await storage.postgres.query(
            "SELECT count(*) AS n FROM events WHERE type = 'achievement.unlocked' AND user_id = $1", [user]).rows[0].int("n")
        #expect(events == 1)
    }
}
