import ArgumentParser
import Foundation
import PodiumWire

/// `podium bench-json`: what the hand-written JSON writer saves on the two hot answers, measured in this process.
///
/// Encodes a top-10 leaderboard page (the display's poll) and a completion's answer (three boards, a streak and an
/// achievement) with `jsonBytes()` and with `PodiumJSON.encoder()`, alternating in rounds so drift on a shared machine
/// hits both alike, and prints microseconds per answer and their ratio. `ops/bench/bench.sh` runs it; the writers are
/// kept only while it shows they pay (docs/ARCHITECTURE.md, "Reads").
struct JSONWriterBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-json", abstract: "Time the hand-written JSON writer against Foundation's encoder on the hot answers.")

    @Option(help: "Answers encoded per round and writer.") var count = 20_000
    @Option(help: "Rounds, alternating the writers.") var rounds = 5

    func run() throws {
        guard count > 0, rounds > 0 else { throw ValidationError("--count and --rounds take positive numbers") }
        let page = Self.page
        let answer = Self.answer
        let encoder = PodiumJSON.encoder()
        var figures: [(String, Double, Double)] = []
        for (name, fast, foundation) in [
            ("a top-10 page", { page.jsonBytes().count }, { try encoder.encode(page).count }),
            ("a completion's answer", { answer.jsonBytes().count }, { try encoder.encode(answer).count }),
        ] as [(String, () -> Int, () throws -> Int)] {
            var written = (fast: Duration.zero, foundation: Duration.zero)
            var bytes = 0
            for _ in 0..<rounds {
                written.fast += try ContinuousClock().measure { for _ in 0..<count { bytes &+= fast() } }
                written.foundation += try ContinuousClock().measure { for _ in 0..<count { bytes &+= try foundation() } }
            }
            figures.append((name, microseconds(written.fast), microseconds(written.foundation)))
            precondition(bytes > 0)
        }
        for (name, fast, foundation) in figures {
            print(String(format: "%@: jsonBytes %.2f us, JSONEncoder %.2f us per answer (the encoder takes %.1fx)",
                         name, fast, foundation, foundation / fast))
        }
    }

    /// `total` spread over every answer encoded, in microseconds.
    private func microseconds(_ total: Duration) -> Double {
        let seconds = Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18
        return seconds * 1e6 / Double(count * rounds)
    }

    /// A week's top-10 page with display names, as a display polls it.
    static let page = LeaderboardPage(
        board: "group:class-4b", window: .week, period: "2026-W49", startsAt: "2026-11-30T00:00:00.000Z",
        endsAt: "2026-12-07T00:00:00.000Z", closesAt: "2026-12-07T00:15:00.000Z", timeZone: "Europe/London", status: .open, players: 31, live: true, offset: 0,
        entries: (1...10).map { LeaderboardEntry(rank: $0, userId: "player-\($0)", displayName: "Player \($0)", score: Int64(500 - $0 * 7)) })

    /// The answer to a completion that counts on three boards, with a streak and a new achievement.
    static let answer = CompletionResponse(
        completion: CompletionRecord(
            id: "c-20261206-0001", userId: "player-1", quizId: "fractions-3", topic: "math", difficulty: .medium, correct: 9, total: 10,
            durationMs: 61_250, completedAt: "2026-12-06T10:00:00.000Z", groups: ["class-4b"], points: 14,
            recordedAt: "2026-12-06T10:00:01.250Z"),
        pointsAwarded: 14, totals: PlayerTotals(points: 1_214, completions: 87, correctAnswers: 731, totalAnswers: 870),
        level: LevelProgress(level: 6, levelStartsAt: 1_000, nextLevelAt: 1_500, pointsToNextLevel: 286), levelReached: nil,
        ranks: ["global", "topic:math", "group:class-4b"].map {
            BoardRank(board: $0, window: .week, period: "2026-W49", rank: 4, score: 140, players: 31)
        },
        rankingsLive: true, missedPeriods: [], streak: Streak(current: 5, longest: 12),
        achievementsUnlocked: [UnlockedAchievement(id: "streak-5", name: "Five days running", unlockedAt: "2026-12-06T10:00:01.250Z")])
}
