import Foundation
import PodiumCore
import PodiumWire
import Testing

@Suite("Contests: schedules, runs, scope and the request's rules", .timeLimit(.minutes(5)))
struct ContestTests {
    /// Fridays 14:00 to 15:00 in London from November 2026.
    func fridayHour(until: String? = nil) throws -> Contest {
        let request = ContestRequest(
            id: "friday-quiz", title: "Friday quiz hour", scope: ["group:5c", "group:5d"], startsAt: "2026-11-01T00:00:00Z",
            endsAt: until, cron: "0 14 * * 5", durationMinutes: 60, timeZone: "Europe/London")
        return try request.validated(now: try instant("2026-11-25T12:00:00Z")).get()
    }

    @Test("run names are the start's UTC minute and read back to it; other shapes are not run names")
    func runNames() throws {
        let start = try instant("2026-11-27T14:00:00Z")
        #expect(Period.contestRunKey(start) == "20261127T1400Z")
        #expect(Period.contestRunStart("20261127T1400Z") == start)
        #expect(Period.contestRunKey(try instant("1999-12-31T23:59:00Z")) == "19991231T2359Z")
        for bad in ["20261127T2400Z", "20260230T1000Z", "20261127T1400", "2026-11-27T14:00Z", "20261127t1400Z", "20261127T1460Z"] {
            #expect(Period.contestRunStart(bad) == nil, "\(bad)")
        }
        #expect(Period.isPeriodShaped("20261127T1400Z") && !Period.isPeriodShaped("20261127T1400"))
    }

    @Test("a recurring contest runs from each fire time for its duration, in its zone across DST")
    func recurringRuns() throws {
        let contest = try fridayHour()
        // 27 November is winter time (UTC+0): 14:00 London is 14:00 UTC.
        let run = try #require(contest.run(containing: try instant("2026-11-27T14:30:00Z")))
        #expect(run.key == "20261127T1400Z" && run.window == .contest)
        let (start, end) = (try instant("2026-11-27T14:00:00Z"), try instant("2026-11-27T15:00:00Z"))
        #expect(run.start == start && run.end == end)
        #expect(contest.run(containing: try instant("2026-11-27T15:00:00Z")) == nil, "the end is exclusive")
        #expect(contest.run(containing: try instant("2026-11-27T13:59:59Z")) == nil)
        #expect(contest.run(named: "20261127T1400Z") == run)
        #expect(contest.run(named: "20261127T1500Z") == nil, "no run starts then")
        #expect(contest.run(named: "20261030T1400Z") == nil, "before the contest's first start")
        // Summer time: 14:00 London on 5 June 2026 would be 13:00 UTC, but the contest starts in November; next June is 2027.
        let summer = try #require(contest.run(containing: try instant("2027-06-04T13:30:00Z")))
        #expect(summer.key == "20270604T1300Z")
        // Between runs the board shows the latest; the next three follow a week apart.
        let wednesday = try instant("2026-12-02T09:00:00Z")
        #expect(contest.currentRun(at: wednesday)?.key == "20261127T1400Z")
        #expect(contest.runs(after: wednesday, limit: 3).map(\.key) == ["20261204T1400Z", "20261211T1400Z", "20261218T1400Z"])
        // Before the first run, the first run.
        #expect(contest.currentRun(at: try instant("2026-11-02T09:00:00Z"))?.key == "20261106T1400Z")
    }

    @Test("a run ends when the next starts if that comes before its duration; until bounds the starts")
    func runsDoNotOverlapAndStop() throws {
        let hourly = try ContestRequest(
            id: "hourly", title: "Every hour", scope: ["global"], endsAt: "2026-11-25T15:00:00Z", cron: "0 * * * *",
            durationMinutes: 90
        ).validated(now: try instant("2026-11-25T12:10:00Z")).get()
        let run = try #require(hourly.run(containing: try instant("2026-11-25T12:45:00Z")))
        let (start, end) = (try instant("2026-11-25T12:00:00Z"), try instant("2026-11-25T13:00:00Z"))
        #expect(run.start == start && run.end == end)
        #expect(hourly.runs(after: try instant("2026-11-25T12:10:00Z"), limit: 5).map(\.key) == ["20261125T1300Z", "20261125T1400Z"])
        // The last run starts at 14:00 (before 15:00) and still lasts until 15:00; nothing starts at 15:00.
        #expect(hourly.run(containing: try instant("2026-11-25T15:30:00Z")) == nil)
        #expect(hourly.currentRun(at: try instant("2026-11-26T00:00:00Z"))?.key == "20261125T1400Z")
    }

    @Test("a one-run contest has one run, named by its start, shown before, during and after it")
    func oneRun() throws {
        let term = try ContestRequest(
            id: "autumn-term", title: "Autumn term", scope: ["topic:math"], startsAt: "2026-09-01T00:00:00Z",
            endsAt: "2026-12-19T00:00:00Z", timeZone: "Europe/London"
        ).validated(now: try instant("2026-11-25T12:00:00Z")).get()
        let run = try #require(term.run(containing: try instant("2026-11-25T12:00:00Z")))
        #expect(run.key == "20260901T0000Z")
        #expect(term.run(containing: try instant("2026-12-19T00:00:00Z")) == nil)
        #expect(term.currentRun(at: try instant("2027-01-10T00:00:00Z")) == run)
        #expect(term.run(named: "20260901T0000Z") == run && term.run(named: "20260902T0000Z") == nil)
        #expect(term.runs(after: try instant("2026-11-25T12:00:00Z"), limit: 3).isEmpty)
        #expect(term.board.id == "contest:autumn-term" && term.board.windows == [.contest] && term.board.medalWindows == [.contest])
    }

    @Test("scopes: global, one topic or distinct groups; a completion counts when in scope")
    func scopes() {
        #expect(ContestScope(boards: ["global"]) == .global)
        #expect(ContestScope(boards: ["topic:math"]) == .topic("math"))
        #expect(ContestScope(boards: ["group:5d", "group:5c"]) == .groups(["5c", "5d"]))
        for bad in [[], ["global", "topic:math"], ["topic:a", "topic:b"], ["group:5c", "group:5c"], ["group:5c", "topic:a"], ["planet:x"],
                    ["contest:x"], (0...50).map { "group:g\($0)" }] {
            #expect(ContestScope(boards: bad) == nil, "\(bad)")
        }
        #expect(ContestScope.groups(["5c", "5d"]).counts(topic: "any", groups: ["4a", "5d"]))
        #expect(!ContestScope.groups(["5c", "5d"]).counts(topic: "any", groups: ["4a"]))
        #expect(ContestScope.topic("math").counts(topic: "math", groups: []) && !ContestScope.topic("math").counts(topic: "art", groups: []))
        #expect(ContestScope.groups(["5c", "5d"]).totalledGroups(of: ["4a", "5d", "5c"]) == ["5d", "5c"])
        #expect(ContestScope.global.totalledGroups(of: ["4a"]) == ["4a"])
    }

    @Test("the game rules put a completion on each standing contest run it was played in, open or closed by the grace")
    func boardPeriods() throws {
        let registry = ContestRegistry()
        let rules = GameRules(boards: BoardCatalog(contests: registry))
        let friday = try fridayHour()
        let cancelled = Contest(
            id: "gone", title: "Gone", scope: .global, schedule: friday.schedule, timeZone: friday.timeZone,
            cancelledAt: try instant("2026-11-20T00:00:00Z"))
        registry.replace(with: [friday, cancelled], leagues: [], revision: 3)
        #expect(registry.revision == 3)
        registry.replace(with: [], leagues: [], revision: 2)
        #expect(registry.all.map(\.id) == ["friday-quiz", "gone"], "an older read is ignored")

        let played = try instant("2026-11-27T14:20:00Z")
        let during = rules.boardPeriods(quizID: "q1", topic: "math", groups: ["5c"], completedAt: played, now: try instant("2026-11-27T14:21:00Z"))
        #expect(during.open.filter { $0.board.contest != nil }.map { "\($0.board.id) \($0.period.key)" } == ["contest:friday-quiz 20261127T1400Z"])
        let late = rules.boardPeriods(quizID: "q1", topic: "math", groups: ["5c"], completedAt: played, now: try instant("2026-11-27T15:15:00Z"))
        #expect(late.open.contains { $0.board.contest != nil } == false)
        #expect(late.closed.map(\.board.id).contains("contest:friday-quiz"), "after end plus 15 minutes of grace it missed the run")
        let outside = rules.boardPeriods(quizID: "q1", topic: "math", groups: ["4a"], completedAt: played, now: played)
        #expect(!(outside.open + outside.closed).contains { $0.board.contest != nil }, "not in the contest's groups")
        let between = rules.boardPeriods(quizID: "q1", topic: "math", groups: ["5c"], completedAt: try instant("2026-11-27T16:00:00Z"), now: played)
        #expect(!(between.open + between.closed).contains { $0.board.contest != nil }, "between runs")
        #expect(rules.boards.definition(for: .contest("gone")).medalWindows.isEmpty, "a cancelled contest awards nothing")
        #expect(rules.boards.definition(for: .contest("nothing")).windows.isEmpty)
    }

    @Test("a request names every field at fault at once")
    func validation() throws {
        let now = try instant("2026-11-25T12:00:00Z")
        func fields(_ request: ContestRequest) -> [String] {
            guard case .failure(let failure) = request.validated(now: now) else { return [] }
            return failure.errors.map(\.field)
        }
        #expect(fields(ContestRequest()) == ["id", "title", "scope", "starts_at", "ends_at"])
        #expect(fields(ContestRequest(
            id: "Bad Id", title: "  ", scope: ["global", "group:a"], startsAt: "2026-11-25T12:00:30Z", endsAt: "yesterday",
            timeZone: "Mars/Olympus", maxPlayers: 10
        )) == ["id", "title", "scope", "time_zone", "starts_at", "ends_at", "max_players"])
        #expect(fields(ContestRequest(
            id: "c", title: "C", scope: ["global"], startsAt: "2026-11-26T00:00:00Z", endsAt: "2026-11-25T00:00:00Z")) == ["ends_at"])
        #expect(fields(ContestRequest(id: "c", title: "C", scope: ["global"], cron: "0 25 * * *", entry: .join, maxPlayers: 0))
            == ["cron", "duration_minutes", "max_players"])
        #expect(fields(ContestRequest(
            id: "c", title: "C", scope: ["global"], startsAt: "2026-11-01T00:00:00Z", endsAt: "2026-11-02T00:00:00Z")) == ["ends_at"],
            "a contest already over counts nothing")
        #expect(fields(ContestRequest(
            id: "c", title: "C", scope: ["global"], endsAt: "2026-11-20T00:00:00Z", cron: "0 14 * * 5", durationMinutes: 60)) == ["cron"],
            "no run left")
        #expect(fields(ContestRequest(
            id: "c", title: "C", scope: ["global"], startsAt: "2026-11-26T00:00:00Z", endsAt: "2027-12-01T00:00:00Z")) == ["ends_at"],
            "longer than 366 days")
        #expect(fields(ContestRequest(
            id: "c", title: "C", scope: ["global"], startsAt: "2026-11-26T00:00:00Z", endsAt: "2026-11-27T00:00:00Z", durationMinutes: 5))
            == ["duration_minutes"])
        let valid = try ContestRequest(
            id: "c.1_x-y", title: "Class cup", scope: ["group:5c"], startsAt: "2026-11-20T00:00:00Z", endsAt: "2026-11-27T00:00:00Z",
            entry: .join, maxPlayers: 30, metric: .completions, tieBreak: .earliest, medals: false
        ).validated(now: now).get()
        #expect(valid.entry == .join && valid.maxPlayers == 30 && valid.metric == .completions && valid.tieBreak == .earliest)
        #expect(valid.board.medalWindows.isEmpty && valid.timeZone.configuredName == "UTC")
    }
}
