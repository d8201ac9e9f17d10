import Foundation
import PodiumCore
import PodiumWire
import Testing

/// Level thresholds and progress for formula and table curves, validation and configuration decoding.
@Suite("LevelCurve", .timeLimit(.minutes(5)))
struct LevelsTests {
    @Test("default thresholds double from 10", arguments: [
        (1, 0), (2, 10), (3, 20), (4, 40), (5, 80), (6, 160), (7, 320), (11, 5120),
        (60, 2_882_303_761_517_117_440), (61, 5_764_607_523_034_234_880),
    ])
    func defaultThresholds(level: Int, expected: Int) {
        #expect(LevelCurve.default.threshold(level: level) == expected)
    }

    @Test("levels below 1 and past overflow do not exist", arguments: [0, -1, Int.min, 62, 1000, Int.max])
    func missingLevels(level: Int) {
        #expect(LevelCurve.default.threshold(level: level) == nil)
    }

    @Test("default progress", arguments: [
        (0, LevelProgress(level: 1, levelStartsAt: 0, nextLevelAt: 10, pointsToNextLevel: 10)),
        (9, LevelProgress(level: 1, levelStartsAt: 0, nextLevelAt: 10, pointsToNextLevel: 1)),
        (10, LevelProgress(level: 2, levelStartsAt: 10, nextLevelAt: 20, pointsToNextLevel: 10)),
        (19, LevelProgress(level: 2, levelStartsAt: 10, nextLevelAt: 20, pointsToNextLevel: 1)),
        (20, LevelProgress(level: 3, levelStartsAt: 20, nextLevelAt: 40, pointsToNextLevel: 20)),
        (39, LevelProgress(level: 3, levelStartsAt: 20, nextLevelAt: 40, pointsToNextLevel: 1)),
        (40, LevelProgress(level: 4, levelStartsAt: 40, nextLevelAt: 80, pointsToNextLevel: 40)),
        (79, LevelProgress(level: 4, levelStartsAt: 40, nextLevelAt: 80, pointsToNextLevel: 1)),
        (80, LevelProgress(level: 5, levelStartsAt: 80, nextLevelAt: 160, pointsToNextLevel: 80)),
        (160, LevelProgress(level: 6, levelStartsAt: 160, nextLevelAt: 320, pointsToNextLevel: 160)),
        (1_000_000, LevelProgress(level: 18, levelStartsAt: 655_360, nextLevelAt: 1_310_720, pointsToNextLevel: 310_720)),
        (-5, LevelProgress(level: 1, levelStartsAt: 0, nextLevelAt: 10, pointsToNextLevel: 10)),
        (Int.min, LevelProgress(level: 1, levelStartsAt: 0, nextLevelAt: 10, pointsToNextLevel: 10)),
    ])
    func defaultProgress(points: Int, expected: LevelProgress) {
        #expect(LevelCurve.default.progress(points: points) == expected)
    }

    @Test("huge totals stop at the last threshold that fits in Int")
    func hugeTotals() {
        #expect(LevelCurve.default.progress(points: Int.max / 2) == LevelProgress(
            level: 60, levelStartsAt: 2_882_303_761_517_117_440,
            nextLevelAt: 5_764_607_523_034_234_880, pointsToNextLevel: 1_152_921_504_606_846_977
        ))
        let top = LevelProgress(level: 61, levelStartsAt: 5_764_607_523_034_234_880, nextLevelAt: nil, pointsToNextLevel: nil)
        #expect(LevelCurve.default.progress(points: 5_764_607_523_034_234_880) == top)
        #expect(LevelCurve.default.progress(points: Int.max) == top)
        #expect(LevelCurve.doubling(firstThreshold: 1, factor: Int.max).progress(points: Int.max)
            == LevelProgress(level: 3, levelStartsAt: Int.max, nextLevelAt: nil, pointsToNextLevel: nil))
    }

    @Test("progress is consistent with threshold(level:) across the whole default curve")
    func progressMatchesThresholds() throws {
        for level in 1...61 {
            let start = try #require(LevelCurve.default.threshold(level: level))
            for points in [start, start + 1] {
                let progress = LevelCurve.default.progress(points: points)
                #expect(progress.level == level)
                #expect(progress.levelStartsAt == start)
                #expect(progress.nextLevelAt == LevelCurve.default.threshold(level: level + 1))
            }
            if level > 1 {
                #expect(LevelCurve.default.progress(points: start - 1).level == level - 1)
            }
        }
    }

    @Test("another formula: first 100, factor 3", arguments: [
        (0, 1, 0, 100), (99, 1, 0, 100), (100, 2, 100, 300), (299, 2, 100, 300), (300, 3, 300, 900), (900, 4, 900, 2700),
    ])
    func tripling(points: Int, level: Int, startsAt: Int, next: Int) {
        let progress = LevelCurve.doubling(firstThreshold: 100, factor: 3).progress(points: points)
        #expect(progress == LevelProgress(level: level, levelStartsAt: startsAt, nextLevelAt: next, pointsToNextLevel: next - points))
    }

    @Test("table curve, including the last level", arguments: [
        (0, LevelProgress(level: 1, levelStartsAt: 0, nextLevelAt: 5, pointsToNextLevel: 5)),
        (4, LevelProgress(level: 1, levelStartsAt: 0, nextLevelAt: 5, pointsToNextLevel: 1)),
        (5, LevelProgress(level: 2, levelStartsAt: 5, nextLevelAt: 15, pointsToNextLevel: 10)),
        (14, LevelProgress(level: 2, levelStartsAt: 5, nextLevelAt: 15, pointsToNextLevel: 1)),
        (15, LevelProgress(level: 3, levelStartsAt: 15, nextLevelAt: 50, pointsToNextLevel: 35)),
        (49, LevelProgress(level: 3, levelStartsAt: 15, nextLevelAt: 50, pointsToNextLevel: 1)),
        (50, LevelProgress(level: 4, levelStartsAt: 50, nextLevelAt: nil, pointsToNextLevel: nil)),
        (Int.max, LevelProgress(level: 4, levelStartsAt: 50, nextLevelAt: nil, pointsToNextLevel: nil)),
    ])
    func table(points: Int, expected: LevelProgress) {
        #expect(LevelCurve.table([0, 5, 15, 50]).progress(points: points) == expected)
    }

    @Test("table thresholds")
    func tableThresholds() {
        let curve = LevelCurve.table([0, 5, 15, 50])
        #expect((0...5).map(curve.threshold(level:)) == [nil, 0, 5, 15, 50, nil])
        #expect(LevelCurve.table([0]).progress(points: 100)
            == LevelProgress(level: 1, levelStartsAt: 0, nextLevelAt: nil, pointsToNextLevel: nil))
    }

    @Test("valid curves", arguments: [
        LevelCurve.default, .doubling(firstThreshold: 1, factor: 2), .doubling(firstThreshold: 100, factor: 10),
        .table([0]), .table([0, 1, 2, 1000]),
    ])
    func valid(curve: LevelCurve) {
        #expect(curve.validationError() == nil)
    }

    @Test("invalid curves are reported and behave as a single level", arguments: [
        (LevelCurve.doubling(firstThreshold: 0, factor: 2), "first_threshold must be greater than 0, got 0"),
        (.doubling(firstThreshold: -10, factor: 2), "first_threshold must be greater than 0, got -10"),
        (.doubling(firstThreshold: 10, factor: 1), "factor must be at least 2, got 1"),
        (.doubling(firstThreshold: 10, factor: 0), "factor must be at least 2, got 0"),
        (.doubling(firstThreshold: 10, factor: -2), "factor must be at least 2, got -2"),
        (.table([]), "level table must not be empty"),
        (.table([1, 2]), "level table must start at 0, got 1"),
        (.table([0, 5, 5]), "level table must be strictly increasing: entry 3 (5) is not above entry 2 (5)"),
        (.table([0, 10, 3]), "level table must be strictly increasing: entry 3 (3) is not above entry 2 (10)"),
    ])
    func invalid(curve: LevelCurve, message: String) {
        #expect(curve.validationError() == message)
        let single = LevelProgress(level: 1, levelStartsAt: 0, nextLevelAt: nil, pointsToNextLevel: nil)
        #expect(curve.progress(points: 1_000) == single)
        #expect(curve.threshold(level: 2) == nil)
    }

    @Test("decoding curves from configuration", arguments: [
        (#"{}"#, LevelCurve.default),
        (#"{"first_threshold": 100, "factor": 3}"#, .doubling(firstThreshold: 100, factor: 3)),
        (#"{"factor": 4}"#, .doubling(firstThreshold: 10, factor: 4)),
        (#"{"table": [0, 5, 15]}"#, .table([0, 5, 15])),
    ])
    func decoding(json: String, expected: LevelCurve) throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode(LevelCurve.self, from: Data(json.utf8)) == expected)
    }

    @Test("a table together with formula keys is rejected")
    func ambiguousConfiguration() {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(throws: DecodingError.self) {
            try decoder.decode(LevelCurve.self, from: Data(#"{"table": [0, 5], "factor": 2}"#.utf8))
        }
    }

    @Test("encoding round-trips", arguments: [LevelCurve.default, .doubling(firstThreshold: 7, factor: 5), .table([0, 3, 9])])
    func roundTrip(curve: LevelCurve) throws {
        let data = try JSONEncoder().encode(curve)
        #expect(try JSONDecoder().decode(LevelCurve.self, from: data) == curve)
    }

    @Test("LevelProgress round-trips through JSON")
    func progressCodable() throws {
        for progress in [LevelCurve.default.progress(points: 15), LevelCurve.table([0]).progress(points: 3)] {
            let data = try JSONEncoder().encode(progress)
            #expect(try JSONDecoder().decode(LevelProgress.self, from: data) == progress)
        }
    }
}
