import Foundation
import PodiumWire
import Testing

@testable import PodiumCore

@Suite("Hand-written JSON equals the encoder's", .timeLimit(.minutes(5)))
struct JSONTextTests {
    static let pages: [LeaderboardPage] = [
        LeaderboardPage(board: "global", window: .all, period: "all", startsAt: nil, endsAt: nil, closesAt: nil, timeZone: "UTC", status: .open,
                        players: 0, live: true, offset: 0, entries: []),
        LeaderboardPage(
            board: "topic:math", window: .week, period: "2026-W47", startsAt: "2026-11-16T00:00:00.000Z",
            endsAt: "2026-11-23T00:00:00.000Z", closesAt: "2026-11-23T00:15:00.000Z", timeZone: "Pacific/Auckland", status: .closed, players: 3, live: false,
            offset: 7,
            entries: [
                LeaderboardEntry(rank: 1, userId: "u-1", displayName: "Zoë \"the\" \\ best/ \u{1F600}", score: 9_000_000_000, medal: .gold),
                LeaderboardEntry(rank: 2, userId: "u:2@x", displayName: "tab\there\nnew\r\u{08}\u{0C}\u{01}\u{1F}", score: 0),
                LeaderboardEntry(rank: 2, userId: "u.3", displayName: nil, score: -4, medal: nil),
            ]),
    ]

    @Test(arguments: pages)
    func leaderboardPageMatchesTheEncoder(page: LeaderboardPage) throws {
        let expected = try PodiumJSON.encoder().encode(page)
        #expect(String(decoding: page.jsonBytes(), as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }
}

@Suite("Hand-written completion answers equal the encoder's", .timeLimit(.minutes(5)))
struct CompletionJSONTextTests {
    static func response(correct: Int64, total: Int64, level: LevelProgress, reached: Int?, duration: Int?, ranks: Int, missed: Int) -> CompletionResponse {
        CompletionResponse(
            completion: CompletionRecord(
                id: "c-\"1\"", userId: "u/1", quizId: "q\\1", topic: "math", difficulty: .hard, correct: 7, total: 10, durationMs: duration,
                completedAt: "2026-11-21T10:00:00.000Z", groups: ranks > 0 ? ["class-a", "team.b"] : [], points: 5,
                recordedAt: "2026-11-21T10:00:01.000Z"),
            pointsAwarded: 5,
            totals: PlayerTotals(points: 123_456_789_012, completions: 3, correctAnswers: correct, totalAnswers: total),
            level: level, levelReached: reached,
            ranks: (0..<ranks).map { BoardRank(board: "group:class-\($0)", window: .week, period: "2026-W47", rank: $0 + 1, score: 10, players: 99) },
            rankingsLive: ranks > 0,
            missedPeriods: (0..<missed).map { _ in MissedPeriod(board: "global", window: .day, period: "2026-11-20", closedAt: "2026-11-21T00:15:00.000Z") },
            streak: Streak(current: ranks, longest: ranks + missed),
            achievementsUnlocked: (0..<min(ranks, 2)).map {
                UnlockedAchievement(id: "a-\($0)", name: "Quiz \"star\" \($0)", unlockedAt: "2026-11-21T10:00:01.000Z")
            })
    }

    @Test("an answer stored before streaks and achievements existed replays with none")
    func oldAnswerDecodesWithDefaults() throws {
        var old = try #require(try JSONSerialization.jsonObject(with: Data(Self.cases[0].jsonBytes())) as? [String: Any])
        old["streak"] = nil
        old["achievements_unlocked"] = nil
        let decoded = try PodiumJSON.decoder().decode(CompletionResponse.self, from: try JSONSerialization.data(withJSONObject: old))
        #expect(decoded.streak == Streak(current: 0, longest: 0))
        #expect(decoded.achievementsUnlocked.isEmpty)
        #expect(decoded.completion == Self.cases[0].completion)
    }

    static let cases: [CompletionResponse] = [
        response(correct: 7, total: 10, level: LevelProgress(level: 1, levelStartsAt: 0, nextLevelAt: 10, pointsToNextLevel: 5),
                 reached: nil, duration: 1200, ranks: 12, missed: 0),
        response(correct: 1, total: 3, level: LevelProgress(level: 61, levelStartsAt: 5_764_607_523_034_234_880, nextLevelAt: nil,
                                                            pointsToNextLevel: nil), reached: 61, duration: nil, ranks: 0, missed: 2),
        response(correct: 2, total: 3, level: LevelProgress(level: 2, levelStartsAt: 10, nextLevelAt: 20, pointsToNextLevel: 1),
                 reached: 2, duration: 0, ranks: 1, missed: 1),
        response(correct: 1, total: 8, level: LevelProgress(level: 1, levelStartsAt: 0, nextLevelAt: 10, pointsToNextLevel: 10),
                 reached: nil, duration: nil, ranks: 2, missed: 0),
        response(correct: 0, total: 0, level: LevelProgress(level: 1, levelStartsAt: 0, nextLevelAt: 10, pointsToNextLevel: 10),
                 reached: nil, duration: nil, ranks: 0, missed: 0),
    ]

    @Test(arguments: cases)
    func completionResponseMatchesTheEncoder(response: CompletionResponse) throws {
        let expected = try PodiumJSON.encoder().encode(response)
        #expect(response.jsonString() == String(decoding: expected, as: UTF8.self))
    }

    @Test("a completion.recorded payload is written as the encoder writes it")
    func recordedEventMatchesTheEncoder() throws {
        for response in Self.cases {
            let event = CompletionRecordedEvent(response.completion)
            #expect(event.jsonString() == String(decoding: try PodiumJSON.encoder().encode(event), as: UTF8.self))
        }
        var odd = CompletionRecordedEvent(Self.cases[0].completion)
        odd.topic = "quotes \" and \\ and \u{1E} and é"
        #expect(odd.jsonString() == String(decoding: try PodiumJSON.encoder().encode(odd), as: UTF8.self))
    }

    @Test("a request's fingerprint is what JSONEncoder() wrote for it, so stored request hashes still match")
    func fingerprintsMatchTheEncoder() throws {
        let samples: [[String?]] = [
            ["c-1", "u-1", "q/1", "math/algebra", "easy", "7", "10", nil, "2026-11-21T10:00:00.000Z", "a,b", nil],
            ["quote \" backslash \\ slash / tab \t newline \n bell \u{07} \u{1F}", "é ü 漢字 🎉", "", nil, nil],
            [],
        ]
        for parts in samples {
            #expect(CompletionRequest.fingerprint(of: parts) == String(decoding: try JSONEncoder().encode(parts), as: UTF8.self))
        }
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab/\\\"\n\t\u{01}\u{7F}é🎉 ,:{}[]")
        for _ in 0..<500 {
            let parts: [String?] = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                Bool.random(using: &generator) ? nil : String((0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            }
            #expect(CompletionRequest.fingerprint(of: parts) == String(decoding: try JSONEncoder().encode(parts), as: UTF8.self))
        }
    }
}
