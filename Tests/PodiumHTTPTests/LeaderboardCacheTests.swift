import NIOCore
@testable import PodiumHTTP
import PodiumStore
import Testing

@Suite("Leaderboard answer cache")
struct LeaderboardCacheTests {
    /// A cache whose entries outlive the test, holding the dropped boards of at most 4 keys.
    let cache = LeaderboardCache(lifetime: .seconds(60), capacity: 4)

    /// The board period a test names with one word.
    static func period(_ name: String) -> BoardPeriodKey {
        BoardPeriodKey(board: name, window: .all, period: "all")
    }

    /// Stores `text` as the top page of `key`, read since `ticket`.
    func store(_ key: String, _ text: String, since ticket: LeaderboardCache.Ticket) {
        cache.store(key: Self.period(key), request: "top", body: ByteBuffer(string: text), contentType: "text/plain", etag: "\"\(text)\"",
                    readSince: ticket)
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
}
