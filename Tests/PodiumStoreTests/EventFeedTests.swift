import Foundation
import PodiumCore
@testable import PodiumStore
import PodiumWire
import Postgres
import Synchronization
import Testing

@Suite("Events outbox feed", .timeLimit(.minutes(5)))
struct EventFeedTests {
    @Test("a reader polling while writers commit out of order sees every event exactly once, in feed order")
    func noGapsNoRepeatsUnderConcurrentWriters() async throws {
        let postgres = try await StoreTestEnvironment.postgres(poolSize: 10)
        let events = EventStore(postgres: postgres)
        let marker = StoreTestEnvironment.unique("feed")
        let writers = 6
        let perWriter = 15
        let now = instant("2026-11-25T12:00:00Z")

        // Start from the end of the feed as it is now.
        var cursor: EventCursor?
        while true {
            let page = try await events.feed(after: cursor, limit: 1000, type: nil)
            guard let last = page.events.last else { break }
            cursor = EventCursor(text: last.cursor)
        }

        let start = cursor
        let total = writers * perWriter
        // The reader polls in small pages while the writers commit, until it has seen every event. It gives up only
        // after 20,000 empty polls once every writer has committed (the feed's horizon can wait a while for other
        // tests' open transactions), never at a time of day: a loaded machine makes it slower, not wrong.
        let writersDone = Mutex(false)
        let reader = Task { () throws -> [String] in
            var after = start
            var seen: [String] = []
            var emptyPollsAfterWriters = 0
            while seen.count < total && emptyPollsAfterWriters < 20_000 {
                let page = try await events.feed(after: after, limit: 7, type: EventType.levelReached.rawValue)
                seen += page.events.filter { event in
                    if case .object(let data) = event.data { data["user_id"] == .string(marker) } else { false }
                }.map(\.id)
                after = EventCursor(text: page.nextCursor) ?? after
                if page.events.isEmpty {
                    if writersDone.withLock({ $0 }) { emptyPollsAfterWriters += 1 }
                    try await Task.sleep(for: .milliseconds(5))
                }
            }
            return seen
        }
        let all = try await withThrowingTaskGroup(of: [String].self) { group in
            for writer in 0..<writers {
                group.addTask {
                    var ids: [String] = []
                    for index in 0..<perWriter {
                        // Each transaction holds its event uncommitted for a while, so later ids often commit first.
                        let id = try await postgres.withTransaction { connection in
                            let level = LevelReachedEvent(userId: marker, level: writer * 100 + index, points: 0, completionId: marker)
                            try connection.run(try EventStore.append([level], occurredAt: now))
                            Thread.sleep(forTimeInterval: Double.random(in: 0...0.02))
                            return try connection.query("SELECT currval('events_id_seq')::text AS id").rows[0].string("id")
                        }
                        ids.append("evt_\(id)")
                    }
                    return ids
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        writersDone.withLock { $0 = true }
        let seen = try await reader.value
        let written = (all, seen)
        #expect(written.1.count == writers * perWriter, "no gaps")
        #expect(Set(written.1) == Set(written.0))
        #expect(Set(written.1).count == written.1.count, "no repeats")
    }

    @Test("a poll filtered to one type moves past the other types, and still sees the next event of its type")
    func filteredPollMovesPastOtherTypes() async throws {
        try await withOwnFeed { events, postgres in
            let (rare, common) = ("test.rare", "test.common")
            let start = try await events.feed(after: nil, limit: 10, type: rare)
            #expect(start.events.isEmpty)
            let origin = try #require(EventCursor(text: start.nextCursor), "an empty first poll gets a cursor too")
            let commons = try await postgres.query("""
                INSERT INTO events (type, occurred_at, payload) SELECT $1, now(), '{}' FROM generate_series(1, 3) RETURNING tx::text AS tx_text, id
                """, [common]).rows.map { EventCursor(transaction: UInt64(try $0.string("tx_text")) ?? 0, id: try $0.int64("id")) }.sorted()
            // Polls filtered to the rare type pass the common events once the horizon does (other tests' open transactions may hold it back a moment).
            var cursor = origin
            let deadline = Date().addingTimeInterval(30)
            while cursor <= commons.max()!, Date() < deadline {
                let page = try await events.feed(after: cursor, limit: 10, type: rare)
                #expect(page.events.isEmpty)
                cursor = try #require(EventCursor(text: page.nextCursor))
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(cursor > commons.max()!)
            let unfiltered = try await events.feed(after: origin, limit: 1000, type: common)
            #expect(unfiltered.events.map(\.cursor) == commons.map(\.text), "the other types are still there for their own readers")
            let rareID = try await postgres.query("INSERT INTO events (type, occurred_at, payload) VALUES ($1, now(), '{}') RETURNING id", [rare])
                .rows[0].int64("id")
            var seen: [String] = []
            while seen.isEmpty, Date() < deadline.addingTimeInterval(10) {
                let page = try await events.feed(after: cursor, limit: 10, type: rare)
                seen += page.events.map(\.id)
                cursor = try #require(EventCursor(text: page.nextCursor))
            }
            #expect(seen == ["evt_\(rareID)"])
        }
    }

    @Test("transaction ids of different lengths page in numeric order (999 before 1000, 9 before 10)")
    func transactionIdsOrderAsNumbers() async throws {
        try await withOwnFeed { events, postgres in
            let type = "test.order"
            // Transactions 9 and 10 ended long before any running one, so both are visible in the feed.
            let ids = try await postgres.query("""
                INSERT INTO events (tx, type, occurred_at, payload)
                VALUES ('10'::xid8, $1, now(), '{}'), ('9'::xid8, $1, now(), '{}') RETURNING id
                """, [type]).rows.map { try $0.int64("id") }

            let both = try await events.feed(after: EventCursor(transaction: 8, id: 0), limit: 2, type: type)
            #expect(both.events.map(\.cursor) == ["9-\(ids[1])", "10-\(ids[0])"])
            var cursor = EventCursor(transaction: 8, id: 0)
            var paged: [String] = []
            for _ in 0..<3 {
                let page = try await events.feed(after: cursor, limit: 1, type: type)
                paged += page.events.map(\.id)
                cursor = try #require(EventCursor(text: page.nextCursor))
            }
            #expect(paged == ["evt_\(ids[1])", "evt_\(ids[0])"])
        }
    }

    /// Runs `body` with an event store on a migrated database of its own: events of made-up types must
    /// not reach the shared test database's feed, which other tests read whole against the API's types.
    func withOwnFeed(_ body: (EventStore, PostgresPool) async throws -> Void) async throws {
        try await StoreTestEnvironment.withOwnDatabase { url in
            let postgres = PostgresPool(configuration: PostgresConfiguration(connectionString: url, poolSize: 2),
                                        logger: StoreTestEnvironment.logger)
            do {
                try await Migrator(pool: postgres, logger: StoreTestEnvironment.logger).migrate(try Migration.bundled())
                try await body(EventStore(postgres: postgres), postgres)
                await postgres.close()
            } catch {
                await postgres.close()
                throw error
            }
        }
    }
}
