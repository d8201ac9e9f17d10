import Foundation
import PodiumCore
import PodiumWire
import Testing

@Suite("Streaks", .timeLimit(.minutes(5)))
struct StreakTests {
    /// Day numbers of 2026-11-01 … so tests read as dates.
    static let nov1 = 20_758

    @Test("runs of consecutive days; the current run lives through yesterday and dies the day after")
    func currentAndLongest() {
        let d = Self.nov1
        #expect(Streak.of(activeDays: [], today: d) == Streak(current: 0, longest: 0))
        #expect(Streak.of(activeDays: [d], today: d) == Streak(current: 1, longest: 1))
        #expect(Streak.of(activeDays: [d], today: d + 1) == Streak(current: 1, longest: 1), "yesterday still counts")
        #expect(Streak.of(activeDays: [d], today: d + 2) == Streak(current: 0, longest: 1), "a whole day missed")
        #expect(Streak.of(activeDays: [d, d + 1, d + 2, d + 5, d + 6], today: d + 6) == Streak(current: 2, longest: 3))
        #expect(Streak.of(activeDays: [d + 6, d, d + 1, d + 1, d + 5], today: d + 7) == Streak(current: 2, longest: 2), "order and repeats do not matter")
    }

    @Test("a late completion for a missed day joins the runs on both sides")
    func lateCompletionRepairs() {
        let d = Self.nov1
        let before = Streak.of(activeDays: [d, d + 1, d + 3, d + 4], today: d + 4)
        #expect(before == Streak(current: 2, longest: 2))
        let after = Streak.of(activeDays: [d, d + 1, d + 3, d + 4, d + 2], today: d + 4)
        #expect(after == Streak(current: 5, longest: 5))
    }

    @Test("local days follow the player's zone, across DST changes")
    func localDaysInZones() throws {
        let berlin = try zone("Europe/Berlin")
        let newYork = try zone("America/New_York")
        let auckland = try zone("Pacific/Auckland")
        func day(_ iso: String, _ zone: TimeZone) throws -> Int { Streak.localDay(of: try instant(iso), in: zone) }
        // 2026-03-28 / 29 / 30 in Berlin, the 29th being a 23-hour day.
        let days = try ["2026-03-28T22:30:00Z", "2026-03-29T21:30:00Z", "2026-03-29T22:30:00Z"].map { try day($0, berlin) }
        #expect(days == [20_540, 20_541, 20_542])
        #expect(Streak.of(activeDays: days, today: days[2]) == Streak(current: 3, longest: 3))
        // New York falls back on 2026-11-01 at 06:00 UTC: 03:59 UTC is 23:59 on Oct 31, 04:00 UTC is midnight Nov 1.
        #expect(try day("2026-11-01T03:59:00Z", newYork) == Self.nov1 - 1)
        #expect(try day("2026-11-01T04:00:00Z", newYork) == Self.nov1)
        #expect(try day("2026-11-02T04:59:00Z", newYork) == Self.nov1, "23:59 EST on Nov 1, after the change")
        // The same instant is a day apart in Auckland and New York.
        #expect(try day("2026-11-01T12:00:00Z", auckland) == Self.nov1 + 1)
        #expect(try day("2026-11-01T12:00:00Z", .gmt) == Self.nov1)
    }

    @Test("a new zone counts the kept completions again and keeps the days of pruned ones, never a day twice")
    func recountedDaysInANewZone() throws {
        let kiritimati = try zone("Pacific/Kiritimati")
        let paris = try zone("Europe/Paris")
        // Counted in UTC: Nov 1 and 2 from completions kept, Oct 10, 30 and 31 from pruned ones.
        let kept = [try instant("2026-11-01T10:30:00Z"), try instant("2026-11-02T09:00:00Z")]
        let stored = [Self.nov1 - 22, Self.nov1 - 2, Self.nov1 - 1, Self.nov1, Self.nov1 + 1]
        // In UTC+14 both kept completions are on Nov 2 (00:30 and 23:00); every day before Nov 1 (the first kept one in
        // UTC) stays, however close.
        #expect(Streak.recountedDays(stored, times: kept, from: .gmt, to: kiritimati)
            == [Self.nov1 - 22, Self.nov1 - 2, Self.nov1 - 1, Self.nov1 + 1])
        #expect(Streak.recountedDays(stored, times: kept, from: .gmt, to: paris) == stored, "a zone of the same days changes nothing")
        // A kept completion late on Oct 31 in UTC is on Nov 1 in Kiritimati: Oct 31 is its day in UTC, so it goes.
        let late = [try instant("2026-10-31T23:30:00Z")]
        #expect(Streak.recountedDays([Self.nov1 - 2, Self.nov1 - 1], times: late, from: .gmt, to: kiritimati) == [Self.nov1 - 2, Self.nov1])
        #expect(Streak.recountedDays([Self.nov1 + 2, Self.nov1], times: [], from: .gmt, to: .gmt) == [Self.nov1, Self.nov1 + 2])
    }
}

@Suite("Achievement rules", .timeLimit(.minutes(5)))
struct AchievementRuleTests {
    static let facts = AchievementFacts(completions: 10, perfectQuestions: 8, longestStreak: 3, level: 5, points: 80, topicCompletions: 9)

    @Test("each kind compares its fact with the threshold")
    func eachKind() {
        func met(_ kind: AchievementKind, _ threshold: Int, _ facts: AchievementFacts = Self.facts) -> Bool {
            AchievementRule(id: "x", name: "x", kind: kind, threshold: threshold).isMet(by: facts)
        }
        #expect(met(.completions, 10) && !met(.completions, 11))
        #expect(met(.perfectScore, 8) && !met(.perfectScore, 9))
        var imperfect = Self.facts
        imperfect.perfectQuestions = nil
        #expect(!met(.perfectScore, 1, imperfect))
        #expect(met(.streak, 3) && !met(.streak, 4))
        #expect(met(.level, 5) && !met(.level, 6))
        #expect(met(.points, 80) && !met(.points, 81))
        #expect(met(.topicCompletions, 9) && !met(.topicCompletions, 10))
    }

    @Test("the defaults are the spec's seven and valid")
    func defaults() {
        #expect(AchievementRule.defaults.map(\.id) == ["first-quiz", "ten-quizzes", "perfect-score", "streak-3", "streak-7", "level-5", "topic-10"])
        #expect(AchievementRule.validationErrors(AchievementRule.defaults).isEmpty)
    }

    @Test("bad rules are refused with every problem")
    func validation() {
        let rules = [
            AchievementRule(id: "ok", name: "Fine", kind: .points, threshold: 1),
            AchievementRule(id: "ok", name: "", kind: .points, threshold: 0),
            AchievementRule(id: "Bad Id", name: "x", kind: .level, threshold: 2),
        ]
        #expect(AchievementRule.validationErrors(rules) == [
            "achievement ok: id used twice", "achievement ok: name must be 1-100 characters", "achievement ok: threshold must be at least 1",
            "achievement Bad Id: id must be 1-64 characters of a-z 0-9 -",
        ])
    }

    @Test("a board rule without medal_windows keeps the spec's medals for global and topic boards, of the windows it keeps")
    func medalWindowsDefault() throws {
        let rules = try RulesDocument.rules(from: Data("""
            {"boards": [{"scope": "global"}, {"scope": "topic:*", "windows": ["all", "week"]}, {"scope": "topic:art", "medal_windows": []},
                        {"scope": "group:*"}, {"scope": "topic:chess", "medal_windows": ["day"]}]}
            """.utf8))
        func medals(_ id: String) throws -> [LeaderboardWindow] {
            rules.boards.definition(for: try #require(BoardScope(id: id))).medalWindows
        }
        #expect(try medals("global") == [.week, .month])
        #expect(try medals("topic:math") == [.week])
        #expect(try medals("topic:art") == [])
        #expect(try medals("group:class-1") == [])
        #expect(try medals("topic:chess") == [.day])
    }

    @Test("every key of a full rules file is used, and a misspelt or unused key is refused by name")
    func unknownKeys() throws {
        // The README's example, which lists every key.
        let full = try RulesDocument.rules(from: Data("""
            {
              "points": { "easy": 2, "medium": 3, "hard": 5, "per_correct_answer": 0, "perfect_score_bonus": 0, "minimum_accuracy": 0 },
              "levels": { "first_threshold": 10, "factor": 2 },
              "boards": [
                { "scope": "global", "time_zone": "Europe/Paris", "medal_windows": ["week", "month"] },
                { "scope": "topic:*", "windows": ["all", "week"] },
                { "scope": "group:*", "metric": "completions", "tie_break": "earliest" },
                { "scope": "quiz:*", "aggregate": "best", "metric": "points", "windows": ["week", "all"] },
                { "scope": "quiz:times-tables", "aggregate": "best", "metric": "duration" },
                { "scope": "team:houses", "teams": ["house-*"], "team_score": "average" }
              ],
              "close_grace_minutes": 15, "future_skew_minutes": 5, "maximum_age_days": 30,
              "achievements": [ { "id": "first-quiz", "name": "First quiz", "kind": "completions", "threshold": 1 } ],
              "scheduler": {
                "jobs": [ { "name": "snapshot-leaderboards", "cron": "0 */2 * * *", "time_zone": "Europe/Paris",
                            "misfire": "run-latest", "retry_limit": 3, "lease_seconds": 60, "backoff_seconds": 5 } ],
                "retention": { "run_history_days": 30, "snapshot_days": 90, "event_days": 90, "closed_ranking_days": 2, "completion_days": null },
                "snapshot_top": 100
              }
            }
            """.utf8))
        #expect(full.scheduler.jobs.first { $0.name == "snapshot-leaderboards" }?.lease == 60)
        #expect(full.boards.validationErrors().isEmpty)
        #expect(full.boards.definition(for: .team("houses")).teams == TeamSelection(patterns: [.prefix("house-")], score: .average))
        let error = #expect(throws: RulesError.self) {
            try RulesDocument.rules(from: Data("""
                { "points": { "perfect_bonus": 10 }, "close_grace_minute": 60, "levels": { "first_treshold": 5 },
                  "boards": [ { "scope": "global", "medal_window": ["day"] } ],
                  "scheduler": { "jobs": [ { "name": "close-periods", "lease": 30 } ] } }
                """.utf8))
        }
        #expect(error?.problems == [
            "boards[0].medal_window: unknown key", "close_grace_minute: unknown key", "levels.first_treshold: unknown key",
            "points.perfect_bonus: unknown key", "scheduler.jobs[0].lease: unknown key",
        ])
    }

    @Test("completion_days is kept unset by default and may not be shorter than the age limit, the ids' memory and two days")
    func completionRetention() throws {
        #expect(try RulesDocument.rules(from: Data("{}".utf8)).scheduler.retention.completionDays == nil)
        let shortest = #"{"scheduler": {"retention": {"completion_days": 62}}}"#
        #expect(try RulesDocument.rules(from: Data(shortest.utf8)).scheduler.retention.completionDays == 62)
        let error = #expect(throws: RulesError.self) {
            try RulesDocument.rules(from: Data(#"{"maximum_age_days": 10, "scheduler": {"retention": {"completion_days": 41}}}"#.utf8))
        }
        #expect(error?.problems == [
            "scheduler retention: completion_days must be at least 42 (maximum_age_days, the 30 days ids are remembered, and two days)",
        ])
        #expect(throws: RulesError.self) { try RulesDocument.rules(from: Data(#"{"scheduler": {"retention": {"completion_days": 61}}}"#.utf8)) }
    }

    @Test("a rules file replaces the achievements and is checked")
    func rulesFile() throws {
        let rules = try RulesDocument.rules(from: Data("""
            {"achievements": [{"id": "big-points", "name": "1,000 points", "kind": "points", "threshold": 1000}]}
            """.utf8))
        #expect(rules.achievements == [AchievementRule(id: "big-points", name: "1,000 points", kind: .points, threshold: 1000)])
        #expect(throws: RulesError.self) {
            try RulesDocument.rules(from: Data(#"{"achievements": [{"id": "x", "name": "x", "kind": "points", "threshold": 0}]}"#.utf8))
        }
    }
}

@Suite("Reminder preferences", .timeLimit(.minutes(5)))
struct ReminderPreferencesTests {
    @Test("every bad field is named")
    func validation() {
        #expect(ReminderPreferences(enabled: true, time: "17:30", days: ["mon", "fri"]).validationErrors().isEmpty)
        for time in ["7:30", "24:00", "17:60", "17-30", "ab:cd", "17:3", "١٧:٣٠"] {
            #expect(ReminderPreferences(enabled: true, time: time, days: []).validationErrors().map(\.field) == ["reminders.time"], "\(time)")
        }
        #expect(ReminderPreferences(enabled: true, time: "08:00", days: ["mon", "mon"]).validationErrors().map(\.field) == ["reminders.days"])
        #expect(ReminderPreferences(enabled: true, time: "08:00", days: ["monday"]).validationErrors().map(\.field) == ["reminders.days"])
        #expect(ReminderPreferences(enabled: true, time: "08:00", days: [], timeZone: "Mars/Base").validationErrors().map(\.field)
            == ["reminders.time_zone"])
    }

    @Test("the schedule fires at the local time on the chosen weekdays, in the reminder's or the player's zone")
    func schedule() throws {
        let paris = try zone("Europe/Paris")
        let weekdays = ReminderPreferences(enabled: true, time: "17:30", days: ["mon", "sun"])
        let schedule = try #require(weekdays.schedule(playerZone: paris))
        // Saturday 2026-11-21 → Sunday 22nd 17:30 CET, then Monday 23rd.
        #expect(schedule.next(after: try instant("2026-11-21T12:00:00Z")) == (try instant("2026-11-22T16:30:00Z")))
        #expect(schedule.next(after: try instant("2026-11-22T16:30:00Z")) == (try instant("2026-11-23T16:30:00Z")))
        let tokyo = ReminderPreferences(enabled: true, time: "08:00", days: ["sat"], timeZone: "Asia/Tokyo")
        #expect(tokyo.schedule(playerZone: paris)?.next(after: try instant("2026-11-20T00:00:00Z")) == (try instant("2026-11-20T23:00:00Z")))
        // 02:30 does not exist in Paris on 2026-03-29: the reminder fires when the gap ends, 03:00 CEST.
        let night = ReminderPreferences(enabled: true, time: "02:30", days: ["sun"])
        #expect(night.schedule(playerZone: paris)?.next(after: try instant("2026-03-28T12:00:00Z")) == (try instant("2026-03-29T01:00:00Z")))
        #expect(ReminderPreferences(enabled: false, time: "08:00", days: ["mon"]).schedule(playerZone: paris) == nil)
        #expect(ReminderPreferences(enabled: true, time: "08:00", days: []).schedule(playerZone: paris) == nil)
    }
}
