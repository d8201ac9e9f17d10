import Foundation
import PodiumCore
import PodiumWire
import Testing

/// What follows from a completion, worked out without a database.
@Suite("Completion outcome", .timeLimit(.minutes(5)))
struct CompletionOutcomeTests {
    static let rules = GameRules()

    /// A valid medium completion by `alice` finished at `completedAt`, recorded at `now`.
    static func plan(correct: Int, total: Int, completedAt: String, now: Date) throws -> CompletionPlan {
        let request = CompletionRequest(
            id: "c-1", userId: "alice", quizId: "q-1", topic: "math", difficulty: "medium", correct: correct, total: total,
            completedAt: completedAt, groups: ["class-4b"])
        return CompletionPlan(try request.validated(now: now, rules: rules), rules: rules, now: now)
    }

    static func totals(points: Int64, completions: Int64) -> PlayerTotals {
        PlayerTotals(points: points, completions: completions, correctAnswers: completions * 5, totalAnswers: completions * 5)
    }

    @Test("a tenth, perfect completion on a third day in a row crosses level 2 and unlocks what it meets, in the rules' order")
    func levelUpAndUnlocks() throws {
        let now = try instant("2026-11-25T12:00:00Z")
        let today = Streak.localDay(of: now, in: .gmt)
        let plan = try Self.plan(correct: 5, total: 5, completedAt: "2026-11-25T11:59:00Z", now: now)
        #expect(plan.points == 3)
        let outcome = CompletionOutcome(
            plan: plan,
            standing: PlayerStanding(
                totals: Self.totals(points: 12, completions: 10), topicCompletions: 10, activeDays: [today, today - 2, today - 1],
                heldAchievements: ["first-quiz"]),
            closedEarly: [], timeZone: .gmt, now: now, recordedAt: now, rules: Self.rules)
        let response = outcome.response
        #expect(response.pointsAwarded == 3)
        #expect(response.level.level == 2)
        #expect(response.levelReached == 2, "9 points before, 12 after: the threshold 10 was crossed")
        #expect(response.streak == Streak(current: 3, longest: 3))
        #expect(outcome.unlocked.map(\.id) == ["ten-quizzes", "perfect-score", "streak-3", "topic-10"])
        #expect(response.achievementsUnlocked.map(\.unlockedAt) == Array(repeating: "2026-11-25T12:00:00.000Z", count: 4))
        #expect(response.completion.recordedAt == "2026-11-25T12:00:00.000Z")
        #expect(response.ranks.isEmpty && !response.rankingsLive, "ranks come from Redis, later")
        #expect(response.missedPeriods.isEmpty)

        #expect(outcome.recordedEvent == CompletionRecordedEvent(response.completion))
        #expect(outcome.recordedEvent.points == 3 && outcome.recordedEvent.completedAt == "2026-11-25T11:59:00.000Z")
        #expect(outcome.levelEvent == LevelReachedEvent(userId: "alice", level: 2, points: 12, completionId: "c-1"))
        #expect(outcome.achievementEvents.map(\.achievement) == ["ten-quizzes", "perfect-score", "streak-3", "topic-10"])
        #expect(outcome.achievementEvents.first == AchievementUnlockedEvent(
            userId: "alice", achievement: "ten-quizzes", name: "10 quizzes", completionId: "c-1"))
    }

    @Test("held achievements are not unlocked again, and no threshold crossed means no level event")
    func nothingNew() throws {
        let now = try instant("2026-11-25T12:00:00Z")
        let plan = try Self.plan(correct: 1, total: 5, completedAt: "2026-11-25T11:00:00Z", now: now)
        let outcome = CompletionOutcome(
            plan: plan,
            standing: PlayerStanding(
                totals: Self.totals(points: 16, completions: 5), topicCompletions: 5, activeDays: [Streak.localDay(of: now, in: .gmt)],
                heldAchievements: ["first-quiz"]),
            closedEarly: [], timeZone: .gmt, now: now, recordedAt: now, rules: Self.rules)
        #expect(outcome.response.levelReached == nil)
        #expect(outcome.levelEvent == nil)
        #expect(outcome.unlocked.isEmpty)
        #expect(outcome.achievementEvents.isEmpty)
        #expect(outcome.response.streak == Streak(current: 1, longest: 1))
    }

    @Test("the streak's today is the player's local day: 23:30 UTC is already tomorrow at UTC+14")
    func streakInThePlayersZone() throws {
        let now = try instant("2026-11-25T23:30:00Z")
        let kiritimati = try zone("Pacific/Kiritimati")
        let localToday = Streak.localDay(of: now, in: kiritimati)
        #expect(localToday == Streak.localDay(of: now, in: .gmt) + 1)
        let plan = try Self.plan(correct: 3, total: 5, completedAt: "2026-11-25T23:29:00Z", now: now)
        let standing = PlayerStanding(
            totals: Self.totals(points: 3, completions: 1), topicCompletions: 1, activeDays: [localToday - 2], heldAchievements: [])
        let there = CompletionOutcome(plan: plan, standing: standing, closedEarly: [], timeZone: kiritimati, now: now, recordedAt: now, rules: Self.rules)
        let atUTC = CompletionOutcome(plan: plan, standing: standing, closedEarly: [], timeZone: .gmt, now: now, recordedAt: now, rules: Self.rules)
        #expect(there.response.streak.current == 0, "the last active day is two local days back")
        #expect(atUTC.response.streak.current == 1, "at UTC the same day is yesterday")
    }

    @Test("periods closed by the clock are missed with their end plus grace; periods ops closed early say when")
    func missedPeriods() throws {
        let now = try instant("2026-11-25T12:00:00Z")
        let plan = try Self.plan(correct: 3, total: 5, completedAt: "2026-11-23T10:00:00Z", now: now)
        #expect(plan.closed.map { "\($0.board.id) \($0.period.window.rawValue) \($0.period.key)" }.sorted() == [
            "global day 2026-11-23", "group:class-4b day 2026-11-23", "topic:math day 2026-11-23",
        ])
        let early = try #require(plan.open.first { $0.board.id == "global" && $0.period.window == .week })
        let unknown = try #require(plan.open.first { $0.board.id == "topic:math" && $0.period.window == .week })
        let outcome = CompletionOutcome(
            plan: plan,
            standing: PlayerStanding(totals: Self.totals(points: 3, completions: 1), topicCompletions: 1, activeDays: [], heldAchievements: []),
            closedEarly: [(early, closedAt: try instant("2026-11-24T08:00:00Z")), (unknown, closedAt: nil)], timeZone: .gmt, now: now,
            recordedAt: now, rules: Self.rules)
        #expect(outcome.response.missedPeriods.map { "\($0.board) \($0.window.rawValue) \($0.period) \($0.closedAt)" } == [
            "global day 2026-11-23 2026-11-24T00:15:00.000Z",
            "topic:math day 2026-11-23 2026-11-24T00:15:00.000Z",
            "group:class-4b day 2026-11-23 2026-11-24T00:15:00.000Z",
            "global week 2026-W48 2026-11-24T08:00:00.000Z",
            "topic:math week 2026-W48 ",
        ])
    }
}

/// The medal rule and the event payloads, as the outbox stores them.
@Suite("Medals and events", .timeLimit(.minutes(5)))
struct MedalAndEventTests {
    @Test("ranks 1 to 3 with a score above 0 win gold, silver, bronze; ties share; windows without medals give none")
    func medalRule() {
        #expect(Medal.awarded(rank: 1, score: 10) == .gold)
        #expect(Medal.awarded(rank: 2, score: 10) == .silver)
        #expect(Medal.awarded(rank: 3, score: 1) == .bronze)
        #expect(Medal.awarded(rank: 4, score: 10) == nil)
        #expect(Medal.awarded(rank: 1, score: 0) == nil, "a score of 0 never wins")
        #expect(Medal.awarded(rank: 1, score: 10, windowAwardsMedals: false) == nil)
        // Two players tied first share gold; the competition rank after them is 3.
        let ranks = CompetitionRanking.ranks(ofAll: [50, 50, 40, 30])
        #expect(ranks == [1, 1, 3, 4])
        #expect(zip(ranks, [50, 50, 40, 30] as [Int64]).map { Medal.awarded(rank: $0, score: $1) } == [.gold, .gold, .bronze, nil])
        #expect(Medal.lastMedalRank == 3)
    }

    @Test("each event type's payload encodes to the snake_case object its readers get")
    func payloads() throws {
        #expect(Set(EventType.allCases.map(\.rawValue)) == [
            "completion.recorded", "level.reached", "achievement.unlocked", "period.closed", "medal.awarded", "reminder.due",
            "league.promoted", "league.relegated", "league.stayed", "goal.completed",
        ])
        let move = LeagueMoveEvent<LeagueRelegation>(
            userId: "alice", league: "weekly", period: "2026-W48", board: "league:weekly:gold:3", tier: "gold", nextTier: "silver", rank: 29,
            score: 12)
        #expect(type(of: move).type == .leagueRelegated)
        #expect(try PodiumJSON.string(move) == #"{"board":"league:weekly:gold:3","league":"weekly","next_tier":"silver","period":"2026-W48","rank":29,"score":12,"tier":"gold","user_id":"alice"}"#)
        let award = MedalAward(
            board: "global", window: .week, period: "2026-W48", userId: "alice", medal: .silver, rank: 2, score: 40, awardedAt: nil)
        #expect(try PodiumJSON.string(MedalAwardedEvent(award))
            == #"{"board":"global","medal":"silver","period":"2026-W48","rank":2,"score":40,"user_id":"alice","window":"week"}"#)
        #expect(try PodiumJSON.string(PeriodClosedEvent(
            board: "global", window: .day, period: "2026-11-24", players: 3, medals: 2, closedAt: "2026-11-25T00:15:00.000Z"))
            == #"{"board":"global","closed_at":"2026-11-25T00:15:00.000Z","medals":2,"period":"2026-11-24","players":3,"window":"day"}"#)
        #expect(try PodiumJSON.string(LevelReachedEvent(userId: "alice", level: 3, points: 25, completionId: "c-9"))
            == #"{"completion_id":"c-9","level":3,"points":25,"user_id":"alice"}"#)
        #expect(try PodiumJSON.string(AchievementUnlockedEvent(userId: "alice", achievement: "streak-3", name: "3-day streak", completionId: "c-9"))
            == #"{"achievement":"streak-3","completion_id":"c-9","name":"3-day streak","user_id":"alice"}"#)
        #expect(try PodiumJSON.string(ReminderDueEvent(userId: "alice", localDate: "2026-11-25", timeZone: "Europe/Zurich", streakAtRisk: true))
            == #"{"local_date":"2026-11-25","streak_at_risk":true,"time_zone":"Europe/Zurich","user_id":"alice"}"#)
        let personal = GoalCompletedEvent(
            goal: "three-a-week", title: "3 quizzes", kind: .personal, userId: "alice", period: "2026-W48", window: .week, target: 3,
            progress: 3, completionId: "c-9", completedAt: "2026-11-25T12:00:00.000Z")
        #expect(try PodiumJSON.string(personal)
            == #"{"completed_at":"2026-11-25T12:00:00.000Z","completion_id":"c-9","goal":"three-a-week","kind":"personal","period":"2026-W48","progress":3,"target":3,"title":"3 quizzes","user_id":"alice","window":"week"}"#)
        let team = GoalCompletedEvent(
            goal: "class-500", title: "500 right", kind: .class, group: "5c", period: "2026-W48", window: .week, target: 500, progress: 503,
            completedAt: "2026-11-25T12:00:00.000Z")
        #expect(try PodiumJSON.string(team)
            == #"{"completed_at":"2026-11-25T12:00:00.000Z","goal":"class-500","group":"5c","kind":"class","period":"2026-W48","progress":503,"target":500,"title":"500 right","window":"week"}"#)
        #expect(personal.subject == "alice" && team.subject == nil, "a class goal's event names no player")
        #expect(PeriodClosedEvent.type == .periodClosed && MedalAwardedEvent(award).subject == "alice")
        #expect(PeriodClosedEvent(board: "global", window: .day, period: "p", players: 0, medals: 0, closedAt: "").subject == nil)
    }
}
