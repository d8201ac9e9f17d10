import Foundation
import PodiumCore
import PodiumWire
import Testing

@Suite("Teams boards' rules", .timeLimit(.minutes(5)))
struct TeamRulesTests {
    /// The start-up problems of `rules` (the defaults' group:* rule, all four windows in UTC, unless given).
    func errors(_ rules: [BoardRule]) -> [String] { BoardCatalog(rules: rules).validationErrors() }

    @Test("a teams board names its teams by group or prefix, takes its groups' zone and windows, and sets no metric of its own")
    func teamRulesAreChecked() {
        #expect(errors([BoardRule(scope: "team:houses", teams: ["house-*", "5a"], teamScore: .average)]).isEmpty)
        #expect(errors([BoardRule(scope: "team:houses")]).count == 1, "no teams")
        #expect(errors([BoardRule(scope: "team:houses", teams: ["House-*"])]).count == 1, "not a group name")
        #expect(errors([BoardRule(scope: "team:houses", teams: ["*"])]).count == 1, "an empty prefix")
        #expect(errors([BoardRule(scope: "team:houses", metric: .completions, teams: ["5a"])]).count == 1, "a metric of its own")
        #expect(errors([BoardRule(scope: "topic:maths", teams: ["5a"])]).count == 1, "teams on another board")
        #expect(errors([BoardRule(scope: "team:houses", timeZone: "Europe/Paris", teams: ["5a"])]).count == 1, "another zone than group:*")
        #expect(errors([BoardRule(scope: "group:*", windows: [.week]), BoardRule(scope: "team:houses", windows: [.day], teams: ["5a"])])
                .count == 1, "a window the groups do not keep")
        #expect(errors([BoardRule(scope: "group:*", metric: .duration, aggregate: .best), BoardRule(scope: "team:t", teams: ["5a"])])
                .count == 1, "durations do not add up")
    }

    @Test("a group is on each teams board that names it or a prefix of it; a completion lists those boards' open periods once")
    func teamBoardsOfAGroup() throws {
        let catalog = BoardCatalog(rules: BoardRule.defaults + [
            BoardRule(scope: "team:houses", windows: [.week, .all], teams: ["house-*"]),
            BoardRule(scope: "team:classes", windows: [.week], teams: ["5a", "5b"], teamScore: .average),
        ])
        #expect(catalog.teamBoards(ofGroup: "house-red").map(\.id) == ["team:houses"])
        #expect(catalog.teamBoards(ofGroup: "5a").map(\.id) == ["team:classes"])
        #expect(catalog.teamBoards(ofGroup: "5c").isEmpty)
        #expect(catalog.definition(for: .team("classes")).teams == TeamSelection(patterns: [.group("5a"), .group("5b")], score: .average))
        #expect(catalog.definition(for: .team("houses")).medalWindows == [], "a rule made in code sets its medals")
        #expect(catalog.definition(for: .team("nobody")).windows.isEmpty)
        let rules = GameRules(boards: catalog)
        let at = Date(timeIntervalSince1970: 1_795_000_000)
        let periods = rules.teamPeriods(groups: ["house-red", "house-blue", "5a"], completedAt: at, now: at)
        #expect(periods.map { "\($0.board.id)/\($0.period.window.rawValue)" } == ["team:classes/week", "team:houses/week", "team:houses/all"])
    }
}
