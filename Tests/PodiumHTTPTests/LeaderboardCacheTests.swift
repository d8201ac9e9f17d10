import Foundation
import NIOCore
import PodiumCore
@testable import PodiumHTTP
import PodiumStore
import PodiumTestSupport
import Testing

@Suite("Leaderboard answer cache", .timeLimit(.minutes(5)))
struct LeaderboardCacheTests {
    /// A cache whose entries outlive the test, holding the dropped boards of at most 4 keys.
    let cache = LeaderboardCache(lifetime: .seconds(60), capacity: 4)

    /// The board period a test names with one word.
    static func period(_ name: String) -> BoardPeriodKey {
        BoardPeriodKey(board: name, window: .all, period: "all")
    }

    /// Stores `text` as the top page of `key`, read since `ticket`.
    func store(_ key: String, _ text: String, since ticket: LeaderboardCache.Ticket) {
        let entry = LeaderboardCache.Entry(body: ByteBuffer(string: text), contentType: "text/plain", etag: "\"\(text)\"", expires: .now)
        cache.store(key: Self.period(key), request: "top", entry: entry, readSince: ticket)
    }

    /// The cached top page of `key`, if any.
    func cached(_ key: String) -> String? {
        cache.lookup(key: Self.period(key), request: "top").map { String(buffer: $0.body) }
    }

    @Test("a read that began before its board was dropped does not store what it read")
    func readRacingAWriteIsNotStored() {
        let before = cache.ticket()
        cache.invalidate(keys: ["week"].map(Self.period))
        store("week", "stale", since: before)
        store("month", "other board", since: before)
        #expect(cached("week") == nil)
        #expect(cached("month") == "other board")
        store("week", "fresh", since: cache.ticket())
        #expect(cached("week") == "fresh")
    }

    @Test("after everything is dropped, or the record of dropped keys is cleared, earlier reads store nothing")
    func earlierReadsStoreNothingAfterAClear() {
        let beforeAll = cache.ticket()
        cache.invalidateAll()
        store("week", "stale", since: beforeAll)
        #expect(cached("week") == nil)

        let beforeMany = cache.ticket()
        cache.invalidate(keys: ["a", "b", "c", "d", "e"].map(Self.period))  // more keys than the capacity of 4: the record is cleared
        store("untouched", "stale?", since: beforeMany)
        #expect(cached("untouched") == nil, "the cleared record cannot say this key was untouched")
        store("untouched", "fresh", since: cache.ticket())
        #expect(cached("untouched") == "fresh")
    }

    @Test("concurrent misses of one answer share one read; a caller after the board was dropped starts its own")
    func concurrentMissesShareARead() async throws {
        let reads = ReadCounter()
        let gate = Latch()
        /// A read of `text` that waits at the gate: every caller below joins while it is still in flight.
        @Sendable func read(_ text: String) -> @Sendable () async throws -> LeaderboardCache.Entry {
            {
                _ = reads.next()
                try await gate.wait()
                return LeaderboardCache.Entry(body: ByteBuffer(string: text), contentType: "text/plain", etag: "\"\(text)\"",
                                              expires: .now)
            }
        }
        let week = Self.period("week")
        let joined = (0..<10).map { _ in cache.join(key: week, request: "top", read: read("shared")) }
        let month = Self.period("month")
        let early = cache.join(key: month, request: "top", read: read("early"))
        cache.invalidate(keys: [month])
        let late = cache.join(key: month, request: "top", read: read("late"))
        gate.open()

        var answers: [String] = []
        for source in joined { answers.append(String(buffer: try await source.value.body)) }
        #expect(answers == Array(repeating: "shared", count: 10))
        #expect(String(buffer: try await early.value.body) == "early")
        #expect(String(buffer: try await late.value.body) == "late",
                "the read in flight began before the drop: the later caller does not join it")
        #expect(reads.count == 3)
    }
}

/// Counts reads across tasks.
final class ReadCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int { lock.withLock { value += 1; return value } }

    var count: Int { lock.withLock { value } }
}
