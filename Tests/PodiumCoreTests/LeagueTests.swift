import Foundation
@testable import PodiumCore
import PodiumWire
import Testing

@Suite("Leagues: the rules of moves, weeks and definitions", .timeLimit(.minutes(5)))
struct LeagueTests {
    let created = Date(timeIntervalSince1970: 1_795_000_000)

    /// Bronze, silver and gold in `zone`, cohorts of 10, 3 up and 2 down.
    func league(zone: String = "UTC") throws -> League {
        try LeagueRequest(
            id: "weekly", name: "Weekly", scope: ["global"], timeZone: zone,
            tiers: [.init(name: "bronze", title: "Bronze"), .init(name: "silver"), .init(name: "gold", title: "Gold")],
            cohortSize: 10, up: 3, down: 2
        ).validated(now: created).get()
    }

    @Test("moves by rank at every tier: none up from the top, none down from the bottom, promotion wins in a small cohort")
    func movesAtEveryTier() throws {
        let league = try league()
        let moves = { (tier: Int, players: Int) in (1...players).map { league.move(rank: $0, players: players, tier: tier) } }
        let (up, down, stay) = (LeagueMove.promoted, LeagueMove.relegated, LeagueMove.stayed)
        #expect(moves(0, 10) == [up, up, up, stay, stay, stay, stay, stay, stay, stay])
        #expect(moves(1, 10) == [up, up, up, stay, stay, stay, stay, stay, down, down])
        #expect(moves(2, 10) == [stay, stay, stay, stay, stay, stay, stay, stay, down, down])
        #expect(moves(1, 4) == [up, up, stay, stay], "4 of 10: 3 × 4/10 up, rounded up; 2 × 4/10 down, rounded down")
        #expect(moves(1, 1) == [up], "alone: one up, none down")
        #expect(league.tier(after: .promoted, from: 0) == 1)
        #expect(league.tier(after: .relegated, from: 2) == 1)
        #expect(league.zone(rank: 9, players: 10, tier: 1) == .relegation)
        #expect(league.zone(rank: 5, players: 10, tier: 1) == .safe)
    }

    @Test("a cohort not full moves in proportion: up rounded up, down rounded down, never more than a full one")
    func movesInProportion() throws {
        let league = try LeagueRequest(
            id: "weekly", name: "Weekly", scope: ["global"], tiers: [.init(name: "a"), .init(name: "b"), .init(name: "c")], up: 7, down: 5
        ).validated(now: created).get()
        #expect(league.cohortSize == 30)
        let counts = [1, 2, 10, 15, 29, 30].map { players in
            let (up, down) = league.moves(players: players, tier: 1)
            return "\(players): \(up) up \(down) down"
        }
        #expect(counts == ["1: 1 up 0 down", "2: 1 up 0 down", "10: 3 up 1 down", "15: 4 up 2 down", "29: 7 up 4 down", "30: 7 up 5 down"])
        #expect(league.moves(players: 30, tier: 0).down == 0 && league.moves(players: 30, tier: 2).up == 0)
    }

    @Test("a tie on a line goes the players' way")
    func tiesOnTheLines() throws {
        let league = try league()
        // Competition ranks 1, 2, 3, 3 of a full cohort (two tied on the promotion line of 3): both tied move up.
        #expect([1, 2, 3, 3].map { league.move(rank: $0, players: 10, tier: 1) } == [.promoted, .promoted, .promoted, .promoted])
        // Ten players, ranks 8, 8, 8 share the line above the last two places (ranks above 8 go down): none of them does.
        #expect([8, 8, 8].map { league.move(rank: $0, players: 10, tier: 1) } == [.stayed, .stayed, .stayed])
    }

    @Test("weeks are ISO weeks in the league's zone: the one that leaves summer time lasts 169 hours")
    func daylightSavingWeeks() throws {
        let paris = try league(zone: "Europe/Paris")
        let autumn = paris.week(containing: RFC3339.parse("2026-10-25T22:30:00Z")!)  // Sunday 23:30 in Paris (CET)
        #expect(autumn.key == "2026-W43")
        #expect(autumn.end!.timeIntervalSince(autumn.start!) == 169 * 3600)
        #expect(paris.week(containing: RFC3339.parse("2026-10-25T23:30:00Z")!).key == "2026-W44")
        let spring = paris.week(containing: RFC3339.parse("2026-03-25T12:00:00Z")!)
        #expect(spring.key == "2026-W13")
        #expect(spring.end!.timeIntervalSince(spring.start!) == 167 * 3600)
    }

    @Test("a cohort's board id names league, tier and number, and reads back")
    func boardIDs() throws {
        let league = try league()
        let board = league.cohortBoard(tier: 1, cohort: 12)
        #expect(board.id == "league:weekly:silver:12")
        #expect(BoardScope(id: "league:weekly:silver:12") == .league("weekly", tier: "silver", cohort: 12))
        #expect(board.windows == [.week])
        for bad in ["league:weekly:silver", "league:weekly:silver:0", "league:weekly:silver:012", "league:weekly:silver:x",
                    "league:Weekly:silver:1", "league:weekly:silver:1:2", "league:weekly:silver:-1"] {
            #expect(BoardScope(id: bad) == nil, "\(bad)")
        }
        let registry = ContestRegistry()
        registry.replace(with: [], leagues: [league], revision: 1)
        let catalog = BoardCatalog(contests: registry)
        #expect(catalog.definition(for: .league("weekly", tier: "gold", cohort: 3)).windows == [.week])
        #expect(catalog.definition(for: .league("weekly", tier: "ruby", cohort: 3)).windows.isEmpty, "no such tier")
        #expect(catalog.definition(for: .league("other", tier: "gold", cohort: 3)).windows.isEmpty, "no such league")
    }

    @Test("a request is checked field by field: tiers, moves that fit the cohort, none beyond the top or bottom")
    func requestValidation() throws {
        let league = try league()
        #expect(league.tiers.map(\.title) == ["Bronze", "silver", "Gold"])
        #expect(league.tiers.map(\.up) == [3, 3, 0])
        #expect(league.tiers.map(\.down) == [0, 2, 2])
        #expect(league.cohortSize == 10)
        let bad = LeagueRequest(
            id: "Bad Id", name: " ", scope: ["nowhere"], timeZone: "Mars/Base",
            tiers: [.init(name: "low", down: 1), .init(name: "low", down: 9), .init(name: "top", up: 2)], cohortSize: 4, up: 5
        ).validated(now: created)
        guard case .failure(let failure) = bad else { Issue.record("accepted"); return }
        // The league's up (5 of 4) is reported once, and no sum is checked with a count already wrong; the top tier's
        // default down (5 of 4), which no field holds, is reported on the tier.
        #expect(failure.errors.map(\.field) == [
            "id", "name", "scope", "time_zone", "up", "tiers[0].down", "tiers[1].name", "tiers[1].down", "tiers[2].up", "tiers[2]",
        ])
        let none = LeagueRequest(id: "x", name: "X", scope: ["global"], tiers: []).validated(now: created)
        guard case .failure(let empty) = none else { Issue.record("accepted"); return }
        #expect(empty.errors.map(\.field) == ["tiers"])
        let tight = LeagueRequest(
            id: "x", name: "X", scope: ["global"], tiers: [.init(name: "a"), .init(name: "b"), .init(name: "c")], cohortSize: 6, up: 6, down: 1
        ).validated(now: created)
        guard case .failure(let crowded) = tight else { Issue.record("accepted"); return }
        #expect(crowded.errors.map(\.field) == ["tiers[1]"], "the bottom moves 6 up of 6 and the top 1 down: only the middle moves 7")
    }

    @Test("a negative cohort size or moves too large to add are answered as field errors, never a crash")
    func extremeNumbers() throws {
        let negative = LeagueRequest(
            id: "x", name: "X", scope: ["global"], tiers: [.init(name: "a"), .init(name: "b", down: 3)], cohortSize: -5, up: 2
        ).validated(now: created)
        guard case .failure(let small) = negative else { Issue.record("accepted"); return }
        #expect(small.errors.map(\.field) == ["cohort_size"])
        let huge = LeagueRequest(
            id: "x", name: "X", scope: ["global"], tiers: [.init(name: "a"), .init(name: "b"), .init(name: "c", down: Int.max)],
            cohortSize: 30, up: Int.max, down: Int.max
        ).validated(now: created)
        guard case .failure(let large) = huge else { Issue.record("accepted"); return }
        #expect(large.errors.map(\.field) == ["up", "down", "tiers[2].down"])
    }

    @Test("the default moves (7 up, 5 down) must fit the cohort size too")
    func defaultsMustFit() throws {
        let small = LeagueRequest(id: "x", name: "X", scope: ["global"], tiers: [.init(name: "a"), .init(name: "b")], cohortSize: 5)
            .validated(now: created)
        guard case .failure(let failure) = small else { Issue.record("accepted"); return }
        #expect(failure.errors.map(\.field) == ["tiers[0]"], "the bottom tier's 7 up do not fit; the top tier's 5 down do")
        let fitted = LeagueRequest(id: "x", name: "X", scope: ["global"], tiers: [.init(name: "a"), .init(name: "b")], cohortSize: 5, up: 2)
            .validated(now: created)
        #expect((try? fitted.get())?.tiers.map(\.up) == [2, 0])
    }
}
