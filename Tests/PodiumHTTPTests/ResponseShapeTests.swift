import Foundation
import PodiumCore
@testable import PodiumHTTP
@testable import PodiumScheduler
@testable import PodiumStore
import PodiumWire
import Testing

/// One answer type, the component schema `openapi.json` describes it with, and a sample of it.
struct ResponseShape: Sendable, CustomTestStringConvertible {
    /// The schema's name under `#/components/schemas/`.
    let schema: String
    /// A value of the type with every optional set and every array holding an element, so a recording sees every field.
    let sample: any Encodable & Sendable

    /// Pairs a schema name with a sample.
    init(_ schema: String, _ sample: any Encodable & Sendable) {
        self.schema = schema
        self.sample = sample
    }

    /// The Swift type's name, e.g. `LeaderboardPage`.
    var typeName: String {
        String(describing: type(of: sample))
    }

    /// `LeaderboardPage → #/components/schemas/LeaderboardPage`.
    var testDescription: String {
        "\(typeName) → #/components/schemas/\(schema)"
    }
}

/// The API's Codable types (PodiumWire) against `openapi.json` and the hand-written `jsonBytes()`, field by field.
///
/// PodiumWire's types are the truth: the field tree each answer type records is compared with the tree its
/// schema declares (keys and `required`, nested schemas included), each request type's keys with its request
/// body schema, and, for the answers `JSONText` writes by hand, the keys those bytes hold. A field added, removed
/// or renamed in one place only fails here with the type and the field's path in the message.
@Suite("Answers and requests name the same fields in Swift, openapi.json and the fast writer", .timeLimit(.minutes(5)))
struct ResponseShapeTests {
    /// Every answer schema with the Swift type it describes: the 44 bodies the routes declare and the 40 object schemas nested in them.
    static let shapes: [ResponseShape] = [
        ResponseShape("CompletionRecord", Samples.record), ResponseShape("PlayerTotals", Samples.totals),
        ResponseShape("BoardRank", Samples.rank), ResponseShape("MissedPeriod", Samples.missed),
        ResponseShape("CompletionResponse", Samples.completion), ResponseShape("LeaderboardEntry", Samples.entry),
        ResponseShape("LeaderboardPage", Samples.page), ResponseShape("LevelProgress", Samples.level),
        ResponseShape("Streak", Samples.streak), ResponseShape("UnlockedAchievement", Samples.achievement),
        ResponseShape("MedalAward", Samples.medal), ResponseShape("UserProfile", Samples.profile),
        ResponseShape("FriendProgress", Samples.friend), ResponseShape("FollowingList", FollowingList(userId: "alice", following: ["bob"])),
        ResponseShape("CompletionHistory", Samples.history), ResponseShape("TopicStatistics", Samples.topic),
        ResponseShape("TopicList", TopicList(topics: [Samples.topic])), ResponseShape("ReminderPreferences", Samples.reminders),
        ResponseShape("PreferencesResponse", Samples.preferences), ResponseShape("FieldError", Samples.fieldError),
        ResponseShape("Problem", Samples.problem), ResponseShape("HealthStatus", HealthStatus(status: "ready", postgres: "ok", redis: "ok")),
        ResponseShape("BatchItemResult", Samples.batchItem),
        ResponseShape("BatchResponse", BatchResponse(results: [Samples.batchItem], created: 1, replayed: 0, conflicts: 0, invalid: 0)),
        ResponseShape("WindowSummary", Samples.window), ResponseShape("BoardSummary", Samples.board),
        ResponseShape("BoardList", BoardList(boards: [Samples.board], nextCursor: "group:class-4b")), ResponseShape("LeaderboardSnapshot", Samples.snapshot),
        ResponseShape("SnapshotList", SnapshotList(board: "global", window: .week, period: "2026-W47", snapshots: [Samples.snapshot])),
        ResponseShape("MedalList", MedalList(medals: [Samples.medal])), ResponseShape("RankPoint", Samples.rankPoint),
        ResponseShape("RankHistory", RankHistory(userId: "alice", points: [Samples.rankPoint])),
        ResponseShape("ApiKeyInfo", Samples.apiKey), ResponseShape("KeyList", KeyList(keys: [Samples.apiKey])),
        ResponseShape("CreatedApiKey", CreatedKeyAnswer(
            key: Samples.apiKey, secret: "pk_ab12cd34ef56", displayUrl: "https://podium.example.org/display/group:class-4b/week#key=pk_ab12cd34ef56")),
        ResponseShape("GroupTotal", GroupTotal(group: "class-4b", total: 420, rank: 1)),
        ResponseShape("GroupTotalList", GroupTotalList(
            board: "contest:friday-quiz", window: .contest, period: "20261127T1400Z", groups: [GroupTotal(group: "class-4b", total: 420, rank: 1)])),
        ResponseShape("RebuildAnswer", RebuildAnswer(boards: 3, entries: 40)), ResponseShape("OutboxEvent", Samples.event),
        ResponseShape("EventPage", EventPage(events: [Samples.event], nextCursor: "213730-1")),
        ResponseShape("JobAttempt", Samples.jobAttempt), ResponseShape("JobRun", Samples.jobRun), ResponseShape("JobSummary", Samples.job),
        ResponseShape("JobList", JobList(replica: "podium-1", jobs: [Samples.job])),
        ResponseShape("JobRunList", JobRunList(job: "close-periods", runs: [Samples.jobRun])),
        ResponseShape("JobPauseState", JobPauseState(job: "prune", paused: true)),
        ResponseShape("PeriodCloseReport", PeriodCloseReport(
            board: "global", window: .week, period: "2026-W47", outcome: .closed, players: 1, medals: [Samples.medal])),
        ResponseShape("PeriodSummary", Samples.closedPeriod),
        ResponseShape("PeriodList", PeriodList(board: "global", window: .week, timeZone: "UTC", periods: [Samples.closedPeriod])),
        ResponseShape("ClosedDay", Samples.closedDay), ResponseShape("ClosedDayList", ClosedDayList(closedDays: [Samples.closedDay])),
        ResponseShape("Webhook", Samples.webhook), ResponseShape("WebhookList", WebhookList(webhooks: [Samples.webhook])),
        ResponseShape("WebhookAttempt", Samples.webhookAttempt), ResponseShape("WebhookDelivery", Samples.delivery),
        ResponseShape("WebhookDeliveryList", WebhookDeliveryList(deliveries: [Samples.delivery])),
        ResponseShape("Contest", Samples.contest), ResponseShape("ContestRun", Samples.contest.currentRun!),
        ResponseShape("ContestList", ContestList(contests: [Samples.contest], total: 247, nextCursor: "100")),
        ResponseShape("AuditEntry", Samples.audit),
        ResponseShape("AuditPage", AuditPage(entries: [Samples.audit], nextCursor: "41")),
        ResponseShape("PlayerMatch", Samples.player), ResponseShape("PlayerMatches", PlayerMatches(players: [Samples.player])),
        ResponseShape("WebhookTestResult", WebhookTestResult(
            webhookId: "wh_7f9785a983e24b0b", eventId: "evt_test_1c2d3e4f5a6b7c8d", delivered: false, statusCode: 500,
            error: "receiver answered 500", durationMs: 42)),
        ResponseShape("ContestEntry", ContestEntryState(contest: "friday-quiz", userId: "alice")),
        ResponseShape("ComparedPeriod", Samples.comparison.a), ResponseShape("PeriodComparison", Samples.comparison),
        ResponseShape("League", Samples.league), ResponseShape("LeagueWeek", Samples.league.week), ResponseShape("LeagueTier", Samples.league.tiers[0]),
        ResponseShape("LeagueList", LeagueList(leagues: [Samples.league])), ResponseShape("PlayerLeague", Samples.playerLeague),
        ResponseShape("PlayerLeagueList", PlayerLeagueList(leagues: [Samples.playerLeague])), ResponseShape("LeagueCohort", Samples.leagueCohort),
        ResponseShape("LeagueResult", Samples.leagueResult), ResponseShape("LeagueTierSummary", Samples.leagueTier),
        ResponseShape("LeagueCohortResults", Samples.leagueReport.cohortResults[0]), ResponseShape("LeagueWeekReport", Samples.leagueReport),
        ResponseShape("LeagueCohortPage", Samples.page.league!),
        ResponseShape("Goal", Samples.goal), ResponseShape("GoalList", GoalList(goals: [Samples.goal])),
        ResponseShape("GoalAdvance", Samples.goalAdvance), ResponseShape("GoalProgress", Samples.goalProgress),
        ResponseShape("GroupGoals", GroupGoals(group: "class-4b", goals: [Samples.goalProgress])),
    ]

    /// Podium's document, read from the source tree so an edit needs no rebuild.
    let contract: OpenAPIContract

    /// Loads the document.
    init() throws {
        contract = try OpenAPIContract(document: try Data(contentsOf: PodiumOpenAPIDocumentTests.url))
    }

    @Test("every answer schema in openapi.json, and every object schema nested in one, has a row")
    func everyAnswerSchemaHasARow() {
        let rows = Set(Self.shapes.map(\.schema))
        let declared = contract.answerSchemaNames
        #expect(rows.count == Self.shapes.count, "a schema has two rows")
        #expect(declared.subtracting(rows).isEmpty, "answer schemas with no row: \(declared.subtracting(rows).sorted())")
        #expect(rows.subtracting(declared).isEmpty, "rows whose schema no answer uses: \(rows.subtracting(declared).sorted())")
    }

    @Test("the Codable type and its openapi.json schema have the same fields, required alike", arguments: shapes)
    func codableFieldsMatchTheSchema(_ shape: ResponseShape) throws {
        let written = try FieldTree(recording: shape.sample)
        let declared = try contract.fieldTree(ofSchema: shape.schema)
        let found = written.differences(
            from: declared, root: shape.typeName, mine: "the Codable type", theirs: "openapi.json #/components/schemas/\(shape.schema)")
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// Every request body schema with the Swift type the server decodes it into, every field set.
    static let requests: [ResponseShape] = [
        ResponseShape("CompletionRequest", Samples.completionRequest),
        ResponseShape("BatchRequest", BatchRequest(completions: [Samples.completionRequest])),
        ResponseShape("CompareRequest", CompareRequest(userIds: ["alice", "bob"])),
        ResponseShape("PreferencesRequest", PreferencesRequest(displayName: "Alice", timeZone: "Europe/Paris", reminders: Samples.reminders)),
        ResponseShape("ReminderPreferencesRequest", Samples.reminders),
        ResponseShape("CreateKeyRequest", CreateKeyRequest(name: "Class 4b", role: "display", scopes: ["group:class-4b"], expiresAt: "2027-01-01T00:00:00Z")),
        ResponseShape("RunJobRequest", RunJobRequest(slot: "2026-11-21T03:00:00.000Z")),
        ResponseShape("ClosedDayRequest", ClosedDayRequest(note: "Bank holiday")),
        ResponseShape("CreateWebhookRequest", CreateWebhookRequest(url: "https://example.org/hook", eventTypes: ["medal.awarded"], secret: "s3cret-s3cret-s3cret")),
        ResponseShape("ContestRequest", ContestRequest(
            id: "friday-quiz", title: "Friday quiz", scope: ["group:class-4b"], startsAt: "2026-12-04T14:00:00Z", endsAt: "2027-06-01T00:00:00Z",
            cron: "0 14 * * 5", durationMinutes: 60, timeZone: "Europe/London", entry: .join, maxPlayers: 30, metric: .points,
            tieBreak: .earliest, medals: true)),
        ResponseShape("LeagueRequest", LeagueRequest(
            id: "weekly", name: "Weekly league", scope: ["global"], timeZone: "Europe/London",
            tiers: [LeagueRequest.Tier(name: "gold", title: "Gold", up: 0, down: 5)], cohortSize: 30, up: 5, down: 5, metric: .points,
            tieBreak: .shared, medals: true)),
        ResponseShape("LeagueTierRequest", LeagueRequest.Tier(name: "gold", title: "Gold", up: 0, down: 5)),
        ResponseShape("GoalRequest", GoalRequest(
            id: "class-4b-500-right", title: "500 right answers this week", kind: .class, scope: ["group:class-4b"], measure: .correct,
            target: 500, window: .week, timeZone: "Europe/London")),
    ]

    @Test("every request body schema in openapi.json, and every object schema nested in one, has a row")
    func everyRequestSchemaHasARow() {
        let rows = Set(Self.requests.map(\.schema))
        let declared = contract.requestSchemaNames
        #expect(rows.count == Self.requests.count, "a schema has two rows")
        #expect(declared.subtracting(rows).isEmpty, "request schemas with no row: \(declared.subtracting(rows).sorted())")
        #expect(rows.subtracting(declared).isEmpty, "rows whose schema no request uses: \(rows.subtracting(declared).sorted())")
    }

    /// Requests decode every field as optional (so validation can name each missing one), so only their keys are compared.
    @Test("the request's Codable type and its openapi.json schema have the same fields", arguments: requests)
    func requestFieldsMatchTheSchema(_ shape: ResponseShape) throws {
        let written = try FieldTree(recording: shape.sample)
        let declared = try contract.fieldTree(ofSchema: shape.schema)
        let found = written.differences(
            from: declared, root: shape.typeName, mine: "the Codable type", theirs: "openapi.json #/components/schemas/\(shape.schema)",
            comparingRequired: false)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("jsonBytes() writes the Codable type's fields, with every optional set")
    func fastWriterWritesTheCodableFields() throws {
        let pages = try fastWriterDifferences(Samples.page, Samples.page.jsonBytes())
        let completions = try fastWriterDifferences(Samples.completion, Samples.completion.jsonBytes())
        #expect(pages.isEmpty, "\(pages.joined(separator: "\n"))")
        #expect(completions.isEmpty, "\(completions.joined(separator: "\n"))")
    }

    /// How the keys in `bytes`, the fast writer's JSON for `sample`, differ from the fields `sample`'s type records.
    private func fastWriterDifferences(_ sample: some Encodable, _ bytes: [UInt8]) throws -> [String] {
        let written = try FieldTree(json: try OpenAPIContract.JSONValue(parsing: Data(bytes)))
        return try FieldTree(recording: sample).differences(
            from: written, root: "\(type(of: sample))", mine: "the Codable type", theirs: "jsonBytes()", comparingRequired: false)
    }

    @Test("a sample with nil optionals records the same keys as a full one")
    func nilOptionalsAreRecorded() throws {
        let page = LeaderboardPage(
            board: "global", window: .all, period: "all", startsAt: nil, endsAt: nil, closesAt: nil, timeZone: "UTC", status: .open, players: 1,
            live: false, offset: 0, entries: [LeaderboardEntry(rank: 1, userId: "bob", displayName: nil, score: 3)])
        var full = Samples.page
        full.league = nil  // a nil of a nested type shows its key but not what it holds (below)
        #expect(try FieldTree(recording: page) == FieldTree(recording: full))
        let health = try FieldTree(recording: HealthStatus(status: "ok", postgres: nil, redis: nil))
        #expect(health == FieldTree(fields: [
            "status": .init(isRequired: true, shape: .value), "postgres": .init(isRequired: false, shape: .value),
            "redis": .init(isRequired: false, shape: .value),
        ]))
        // A nil of a nested type shows its key but not what it holds; a free-form nil is a value all the same.
        let job = try FieldTree(recording: JobSummary(
            name: "prune", cron: "0 3 * * *", timeZone: "UTC", misfire: "skip", retryLimit: 0, leaseSeconds: 60, paused: false,
            nextSlot: nil, nextSlots: [], scheduleWords: "every day at 03:00", lastRun: nil))
        #expect(job.fields.mapValues(\.isRequired) == (try FieldTree(recording: Samples.job)).fields.mapValues(\.isRequired))
        #expect(job.fields["last_run"] == .init(isRequired: false, shape: .unseen))
        let run = try FieldTree(recording: JobRun(
            job: "prune", slot: "2026-11-21T03:00:00.000Z", trigger: "manual", status: .pending, attempt: 0, replica: nil, startedAt: nil,
            finishedAt: nil, nextAttemptAt: nil, error: nil, result: nil, attempts: []))
        #expect(run.fields.mapValues(\.isRequired) == (try FieldTree(recording: Samples.jobRun)).fields.mapValues(\.isRequired))
        #expect(run.fields["result"] == .init(isRequired: false, shape: .value))
        #expect(run.fields["attempts"] == .init(isRequired: true, shape: .array(.unseen)))
    }
}

/// One sample of each answer type and of the types nested in them: every optional set, every array holding an element.
private enum Samples {
    static let completionRequest = CompletionRequest(
        id: "c-1", userId: "alice", quizId: "q-9", topic: "math", difficulty: "hard", correct: 9, total: 10, durationMs: 61_250,
        completedAt: "2026-11-21T10:00:00Z", groups: ["class-4b"], displayName: "Alice")
    static let record = CompletionRecord(
        id: "c-1", userId: "alice", quizId: "q-9", topic: "math", difficulty: .hard, correct: 9, total: 10, durationMs: 61_250,
        completedAt: "2026-11-21T10:00:00.000Z", groups: ["class-4b"], points: 5, recordedAt: "2026-11-21T10:00:01.250Z")
    static let totals = PlayerTotals(points: 12, completions: 3, correctAnswers: 20, totalAnswers: 30)
    static let rank = BoardRank(board: "topic:math", window: .week, period: "2026-W47", rank: 2, score: 12, players: 40)
    static let missed = MissedPeriod(board: "global", window: .day, period: "2026-11-20", closedAt: "2026-11-21T00:15:00.000Z")
    static let level = LevelProgress(level: 2, levelStartsAt: 10, nextLevelAt: 20, pointsToNextLevel: 8)
    static let streak = Streak(current: 3, longest: 5)
    static let achievement = UnlockedAchievement(id: "first-quiz", name: "First quiz", unlockedAt: "2026-11-21T10:00:01.250Z")
    static let completion = {
        var completion = CompletionResponse(
            completion: record, pointsAwarded: 5, totals: totals, level: level, levelReached: 2, ranks: [rank], rankingsLive: true,
            missedPeriods: [missed], streak: streak, achievementsUnlocked: [achievement])
        completion.goals = [goalAdvance]
        return completion
    }()
    static let entry = LeaderboardEntry(rank: 1, userId: "alice", displayName: "Alice", score: 40, medal: .gold)
    static let page = LeaderboardPage(
        board: "global", window: .week, period: "2026-W47", startsAt: "2026-11-16T00:00:00.000Z", endsAt: "2026-11-23T00:00:00.000Z",
        closesAt: "2026-11-23T00:15:00.000Z", timeZone: "Europe/Paris", status: .closed, players: 1, live: true, offset: 0, entries: [entry], title: "Friday quiz",
        league: LeagueCohortPage(league: "weekly", name: "Weekly league", tier: "gold", tierTitle: "Gold", cohort: 3, promotion: 7, relegation: 5),
        cancelledAt: "2026-11-20T09:00:00.000Z", nextStartsAt: "2026-11-27T14:00:00.000Z")
    /// A recurring `join` contest with every optional field set (a cancelled one, so `cancelled_at` is written too).
    static let contest: ContestView = {
        let request = ContestRequest(
            id: "friday-quiz", title: "Friday quiz hour", scope: ["group:class-4b"], startsAt: "2026-11-01T00:00:00Z",
            endsAt: "2027-01-01T00:00:00Z", cron: "0 14 * * 5", durationMinutes: 60, timeZone: "Europe/London", entry: .join, maxPlayers: 30)
        let valid = try! request.validated(now: instant("2026-11-25T12:00:00Z")).get()
        let cancelled = Contest(
            id: valid.id, title: valid.title, scope: valid.scope, schedule: valid.schedule, timeZone: valid.timeZone, entry: valid.entry,
            maxPlayers: valid.maxPlayers, cancelledAt: instant("2026-11-25T12:00:00Z"))
        return ContestView(
            cancelled, joined: 3, runClosedAt: instant("2026-11-25T12:00:00Z"), grace: 900, now: instant("2026-11-25T12:00:00Z"))
    }()
    static let comparison = PeriodComparison(
        userId: "alice", group: "class-4b",
        a: ComparedPeriod(board: "contest:autumn", title: "Autumn term", window: .contest, period: "20260901T0000Z",
                          startsAt: "2026-09-01T00:00:00.000Z", endsAt: "2026-12-19T00:00:00.000Z", status: .closed, score: 120, rank: 3, of: 30),
        b: ComparedPeriod(board: "contest:spring", title: "Spring term", window: .contest, period: "20270104T0000Z",
                          startsAt: "2027-01-04T00:00:00.000Z", endsAt: "2027-04-01T00:00:00.000Z", status: .open, score: 150, rank: 1, of: 30))
    static let medal = {
        var medal = MedalAward(
            board: "global", window: .week, period: "2026-W47", userId: "alice", medal: .gold, rank: 1, score: 40,
            awardedAt: "2026-11-23T00:15:02.000Z")
        medal.displayName = "Alice L."
        return medal
    }()
    static let closedPeriod = PeriodSummary(
        period: Period.named("2026-W47", window: .week, timeZone: TimeZone(identifier: "UTC")!)!,
        closedAt: Date(timeIntervalSince1970: 1_795_479_302), players: 1, medals: [medal], grace: 900, now: Date(timeIntervalSince1970: 1_795_500_000))
    static let profile = {
        var profile = UserProfile(
            userId: "alice", displayName: "Alice", timeZone: "Europe/Paris", totals: totals, level: level, ranks: [rank], rankingsLive: true,
            createdAt: "2026-11-01T08:00:00.000Z", medals: [medal], streak: streak, achievements: [achievement], friends: [friend])
        profile.leagues = [playerLeague]
        profile.goals = [goalProgress]
        return profile
    }()
    /// A class goal paused and then ended, so every optional field is written.
    static let goal = Goal(
        id: "class-4b-500-right", title: "500 right answers this week", kind: .class, scope: .groups(["class-4b"]), measure: .correct,
        target: 500, window: .week, timeZone: TimeZone(identifier: "Europe/London")!, createdAt: instant("2026-11-01T00:00:00Z"),
        pausedAt: instant("2026-11-20T00:00:00Z"), endedAt: instant("2026-11-25T00:00:00Z")
    ).view(now: instant("2026-11-25T12:00:00Z"))
    /// A class goal's step, so the group is written.
    static let goalAdvance = GoalAdvance(
        goal: "class-4b-500-right", title: "500 right answers this week", group: "class-4b", period: "2026-W48", progress: 500, target: 500,
        completed: true)
    /// A class goal reached, so the group and the time it was reached are written.
    static let goalProgress = GoalProgress(
        goal: "class-4b-500-right", title: "500 right answers this week", kind: .class, group: "class-4b", measure: .correct, window: .week,
        period: "2026-W48", progress: 512, target: 500, completedAt: "2026-11-26T10:00:01.250Z", endsAt: "2026-11-30T00:00:00.000Z",
        secondsLeft: 302_400)
    /// A league paused and then ended, so every optional field is written.
    static let leagueDefinition = League(
        id: "weekly", name: "Weekly league", scope: .global, timeZone: TimeZone(identifier: "Europe/Paris")!,
        tiers: [LeagueTier(name: "bronze", title: "Bronze", up: 7, down: 0), LeagueTier(name: "silver", title: "Silver", up: 0, down: 5)],
        createdAt: instant("2026-11-01T00:00:00Z"), pausedAt: instant("2026-11-20T00:00:00Z"), endedAt: instant("2026-11-25T00:00:00Z"))
    static let league = LeagueView(leagueDefinition, now: instant("2026-11-25T12:00:00Z"))
    static let playerLeague = PlayerLeague(
        league: leagueDefinition, week: leagueDefinition.week(containing: instant("2026-11-25T12:00:00Z")), now: instant("2026-11-25T12:00:00Z"),
        tier: 1, board: "league:weekly:silver:3", rank: 4, players: 30, score: 120)
    static let leagueCohort = LeagueCohort(board: "league:weekly:silver:3", tier: "silver", cohort: 3, players: 30, closed: true)
    static let leagueResult = {
        var result = LeagueResult(
            userId: "alice", period: "2026-W47", board: "league:weekly:silver:3", tier: "silver", rank: 1, score: 120, move: .stayed,
            nextTier: "silver", medals: true)
        result.displayName = "Alice L."
        return result
    }()
    static let leagueTier = {
        var summary = LeagueTierSummary(tier: "silver", title: "Silver")
        summary.add(leagueCohort, moves: [leagueResult])
        return summary
    }()
    static let leagueReport = LeagueWeekReport(
        league: "weekly", period: "2026-W47", startsAt: "2026-11-16T00:00:00.000Z", endsAt: "2026-11-23T00:00:00.000Z",
        closesAt: "2026-11-23T00:15:00.000Z", outcome: .dryRun, cohorts: 1, closedCohorts: 1, players: 30, tiers: [leagueTier],
        cohortResults: [LeagueCohortResults(cohort: leagueCohort, results: [leagueResult])])
    static let friend = FriendProgress(
        userId: "bob", displayName: "Bob", level: 2, points: 14, pointsThisWeek: 9, lastActiveAt: "2026-11-25T12:00:00.000Z")
    static let history = CompletionHistory(items: [record], nextCursor: "abc")
    static let topic = TopicStatistics(
        topic: "math", completions: 3, correctAnswers: 20, totalAnswers: 30, averageAccuracyPercent: 66.7, bestAccuracyPercent: 90,
        bestPoints: 5, lastPlayedAt: "2026-11-21T10:00:00.000Z")
    static let reminders = ReminderPreferences(enabled: true, time: "18:30", days: ["mon", "thu"], timeZone: "Europe/Paris")
    static let preferences = PreferencesResponse(
        userId: "alice", displayName: "Alice", timeZone: "Europe/Paris", reminders: reminders, nextReminderAt: "2026-11-23T17:30:00.000Z")
    static let fieldError = FieldError(field: "total", message: "is required")
    static let problem = Problem(
        type: "https://podium.dev/problems/validation-failed", title: "Invalid request", status: 400, detail: "total is required",
        code: "validation-failed", errors: [fieldError])
    static let batchItem = BatchItemResult(id: "c-1", status: 201, result: completion, problem: problem)
    static let window = WindowSummary(
        window: .week, period: "2026-W47", startsAt: "2026-11-16T00:00:00.000Z", endsAt: "2026-11-23T00:00:00.000Z",
        closesAt: "2026-11-23T00:15:00.000Z", medals: true)
    static let board = BoardSummary(board: "global", metric: "points", timeZone: "UTC", tieBreak: .earliest, windows: [window])
    static let snapshot = LeaderboardSnapshot(kind: "final", takenAt: "2026-11-23T00:15:02.000Z", players: 1, entries: [entry])
    static let rankPoint = RankPoint(
        board: "global", window: .week, period: "2026-W47", kind: "scheduled", takenAt: "2026-11-20T00:00:00.000Z", rank: 2, score: 12,
        players: 40)
    static let apiKey = ApiKeyInfo(
        id: "key_1", name: "Class 4b", role: .read, scopes: ["group:class-4b"], prefix: "pk_ab12",
        createdAt: "2026-11-01T08:00:00.000Z", revokedAt: "2026-11-20T08:00:00.000Z")
    static let event = OutboxEvent(
        id: "evt_12", type: "medal.awarded", occurredAt: "2026-11-23T00:15:02.000Z",
        data: .object(["user_id": .string("alice"), "rank": .number(1)]), cursor: "213730-1")
    static let jobAttempt = JobAttempt(
        attempt: 1, replica: "podium-1", startedAt: "2026-11-23T00:15:00.000Z", finishedAt: "2026-11-23T00:15:02.000Z",
        outcome: .failed, error: "connection reset")
    static let jobRun = JobRun(
        job: "close-periods", slot: "2026-11-23T00:15:00.000Z", trigger: "schedule", status: .pending, attempt: 1, replica: "podium-1",
        startedAt: "2026-11-23T00:15:00.000Z", finishedAt: "2026-11-23T00:15:02.000Z", nextAttemptAt: "2026-11-23T00:16:00.000Z",
        error: "connection reset", result: ["closed": 2], attempts: [jobAttempt])
    static let job = JobSummary(
        name: "close-periods", cron: "*/5 * * * *", timeZone: "UTC", misfire: "run-latest", retryLimit: 3, leaseSeconds: 60,
        paused: false, nextSlot: "2026-11-23T00:20:00.000Z",
        nextSlots: ["2026-11-23T00:20:00.000Z", "2026-11-23T00:25:00.000Z", "2026-11-23T00:30:00.000Z"], scheduleWords: "every 5 minutes",
        lastRun: jobRun)
    static let closedDay = ClosedDay(day: "2026-12-25", note: "Christmas")
    static let audit = AuditEntry(
        id: 42, at: "2026-11-27T13:10:02.000Z", actor: "6b2a3a33-f55a-4cae-a206-f0264bc5030a", actorName: "Ops, Ms Okafor",
        action: "POST /v1/admin/jobs/{name}/pause", target: "/v1/admin/jobs/prune/pause", status: 200, requestId: "5f2c9a1e0b7d4c3a")
    static let player = PlayerMatch(userId: "amara", displayName: "Amara N.", points: 120, createdAt: "2026-09-01T08:00:00.000Z")
    static let webhook = Webhook(
        id: "wh_1", url: "https://example.com/hook", eventTypes: ["medal.awarded"], enabled: true, createdAt: "2026-11-01T08:00:00.000Z")
    static let webhookAttempt = WebhookAttempt(
        attempt: 1, replica: "podium-1", startedAt: "2026-11-23T00:15:03.000Z", durationMs: 120, statusCode: 500, error: "HTTP 500")
    static let delivery = WebhookDelivery(
        id: 7, webhookId: "wh_1", eventId: "evt_12", eventType: "medal.awarded", status: .pending, attempts: 1,
        nextAttemptAt: "2026-11-23T00:16:03.000Z", lastStatusCode: 500, lastError: "HTTP 500", deliveredAt: "2026-11-23T00:17:03.000Z",
        history: [webhookAttempt])
}
