import Foundation
import PodiumCore
@testable import PodiumStore
import PodiumTestSupport
import PodiumWire
import Postgres
import Testing

/// Teams boards: groups ranked against each other from their own boards, by sum or average per player, closed with
/// medals once, and a player's share gone with the player.
@Suite("Teams boards: groups ranked from their own boards", .timeLimit(.minutes(5)))
struct TeamBoardsTests {
    let now = instant("2026-11-25T12:00:00Z")

    /// Storage with two teams boards over the groups of `prefix`: `team:<prefix>-sum` (every `<prefix>-h-*` group and
    /// `<prefix>-5a`, summed) and `team:<prefix>-avg` (the same, averaged per player), both weekly with medals.
    func storage(_ prefix: String) async throws -> PodiumStorage {
        let teams = ["\(prefix)-h-*", "\(prefix)-5a"]
        let rules = GameRules(boards: BoardCatalog(rules: BoardRule.defaults + [
            BoardRule(scope: "team:\(prefix)-sum", windows: [.week], medalWindows: [.week], teams: teams, teamScore: .sum),
            BoardRule(scope: "team:\(prefix)-avg", windows: [.week], medalWindows: [.week], teams: teams, teamScore: .average),
        ]))
        #expect(rules.boards.validationErrors().isEmpty)
        return try await StoreTestEnvironment.storage(now: now, rules: rules)
    }

    /// `(team, rank, score)` of a teams board's week, as its page shows them.
    func standings(_ storage: PodiumStorage, _ board: String) async throws -> [String] {
        let page = try await storage.leaderboards.read(board: board, window: .week, period: "2026-W48", slice: .page(offset: 0, limit: 10))
        return page.entries.map { "\($0.displayName ?? "?"):\($0.rank):\($0.score)" }
    }

    @Test("a team scores its group's board, summed or per player; a player in two teams counts for both; erasure takes the share out")
    func teamsScoreTheirGroups() async throws {
        let prefix = StoreTestEnvironment.unique("tm")
        let storage = try await storage(prefix)
        let (red, blue, class5a, other) = ("\(prefix)-h-red", "\(prefix)-h-blue", "\(prefix)-5a", "\(prefix)-6b")
        // Points for 5 of 10: easy 2, medium 3, hard 5.
        let plays: [(String, String, [String])] = [
            ("ann", "hard", [red]), ("bob", "hard", [red]), ("cy", "easy", [red, class5a]),
            ("dee", "hard", [blue]), ("eve", "medium", [class5a, other]),
        ]
        _ = try await storage.completions.record(try plays.map { user, difficulty, groups in
            try completion(id: "\(prefix)-\(user)", user: "\(prefix)-\(user)", topic: prefix, difficulty: difficulty, groups: groups, now: now)
        }, now: now)
        // Red 5 + 5 + 2 = 12 over 3 players (4); blue 5 over 1 (5); 5a 2 + 3 = 5 over 2 (3, 2.5 rounded away from 0).
        #expect(try await standings(storage, "team:\(prefix)-sum") == ["\(red):1:12", "\(class5a):2:5", "\(blue):2:5"])
        #expect(try await standings(storage, "team:\(prefix)-avg") == ["\(blue):1:5", "\(red):2:4", "\(class5a):3:3"])
        let page = try await storage.leaderboards.read(
            board: "team:\(prefix)-sum", window: .week, period: "2026-W48", slice: .page(offset: 1, limit: 1))
        #expect(page.players == 3 && page.offset == 1)
        #expect(page.entries.map(\.userId) == ["group:\(class5a)"])

        // The team periods are listed, so the close job finds them.
        let listed = try await storage.postgres.query(
            "SELECT board FROM board_periods WHERE board LIKE $1 ORDER BY board", ["team:\(prefix)%"]).rows.map { try $0.string("board") }
        #expect(listed == ["team:\(prefix)-avg", "team:\(prefix)-sum"])

        #expect(try await storage.erasure.erase(userID: "\(prefix)-cy", now: now))
        #expect(try await standings(storage, "team:\(prefix)-sum") == ["\(red):1:10", "\(blue):2:5", "\(class5a):3:3"])
    }

    @Test("a week's close ranks the teams once, with medals for teams, and the closed page names the groups")
    func teamsBoardCloses() async throws {
        let prefix = StoreTestEnvironment.unique("tc")
        let storage = try await storage(prefix)
        let plays: [(String, String, String)] = [("ann", "hard", "h-a"), ("bob", "medium", "h-b"), ("cy", "easy", "h-c"), ("dee", "easy", "h-d")]
        _ = try await storage.completions.record(try plays.map { user, difficulty, group in
            try completion(id: "\(prefix)-\(user)", user: "\(prefix)-\(user)", topic: prefix, difficulty: difficulty,
                           groups: ["\(prefix)-\(group)"], now: now)
        }, now: now)
        let key = BoardPeriodKey(board: "team:\(prefix)-sum", window: .week, period: "2026-W48")
        let at = instant("2026-11-30T00:20:00Z")
        let dryRun = try await storage.closing.close(key, now: at, dryRun: true)
        let closed = try await storage.closing.close(key, now: at, dryRun: false)
        #expect(closed.outcome == .closed && closed.players == 4)
        #expect(closed.medals.map { "\($0.userId):\($0.medal.rawValue):\($0.score)" }
                == ["group:\(prefix)-h-a:gold:5", "group:\(prefix)-h-b:silver:3", "group:\(prefix)-h-c:bronze:2", "group:\(prefix)-h-d:bronze:2"])
        #expect(dryRun.medals.map(\.userId) == closed.medals.map(\.userId))
        let again = try await storage.closing.close(key, now: at, dryRun: false)
        #expect(again.outcome == .alreadyClosed && again.medals.count == 4)
        let events = try await storage.postgres.query(
            "SELECT count(*) AS n FROM events WHERE type = 'medal.awarded' AND payload->>'board' = $1", [key.board]).onlyInt("n")
        #expect(events == 4, "one medal.awarded per team, once")
        let period = BoardPeriod(board: storage.rules.boards.definition(for: .team("\(prefix)-sum")),
                                 period: Period.containing(now, window: .week, timeZone: .gmt))
        let final = try await storage.boardReads.read(period, slice: .page(offset: 0, limit: 10), now: at)
        #expect(final.isFinal)
        #expect(final.entries.entries.map { "\($0.displayName ?? "?"):\($0.rank):\($0.medal?.rawValue ?? "-")" }
                == ["\(prefix)-h-a:1:gold", "\(prefix)-h-b:2:silver", "\(prefix)-h-c:3:bronze", "\(prefix)-h-d:3:bronze"])
    }
}
