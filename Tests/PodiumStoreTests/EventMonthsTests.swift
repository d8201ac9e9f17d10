import Foundation
import PodiumCore
@testable import PodiumStore
import PodiumWire
import Postgres
import Testing

/// The events outbox in monthly partitions (migration 021): the feed across months, pruning a month at a time, the
/// default partition, erasure, and the migration of existing events.
@Suite("Events by month", .timeLimit(.minutes(5)))
struct EventMonthsTests {
    /// Appends one `level.reached` event for `user` that occurred at `instant`, in a transaction of its own; returns its id.
    @discardableResult
    func append(_ user: String, at instant: Date, on postgres: PostgresPool) async throws -> Int64 {
        try await postgres.withTransaction { connection in
            try connection.run(try EventStore.append(
                [LevelReachedEvent(userId: user, level: 1, points: 0, completionId: user)], occurredAt: instant))
            return try connection.query("SELECT currval('events_id_seq') AS id").rows[0].int64("id")
        }
    }

    /// The whole feed from its start, in pages of `limit`, once it shows at least `expected` events: a transaction
    /// still running anywhere on the server (another test's) holds the feed's horizon back for a moment.
    func wholeFeed(_ events: EventStore, expected: Int, limit: Int = 4) async throws -> [String] {
        for _ in 0..<3000 {
            var cursor: EventCursor?
            var read: [String] = []
            while true {
                let page = try await events.feed(after: cursor, limit: limit, type: nil)
                read += page.events.map(\.id)
                guard page.events.count == limit else { break }
                cursor = EventCursor(text: page.nextCursor)
            }
            if read.count >= expected { return read }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("the feed never showed \(expected) events")
    }

    func count(_ sql: String, _ parameters: [(any PostgresBindable)?] = [], on postgres: PostgresPool) async throws -> Int {
        try await postgres.query(sql, parameters).rows[0].int("n")
    }

    @Test("months are made ahead and take their events out of the default partition; the feed crosses them in order; prune drops a month whole, with its deliveries")
    func feedAndPruneAcrossMonths() async throws {
        try await StoreTestEnvironment.withOwnDatabase { url in
            let postgres = try await StoreTestEnvironment.postgres(poolSize: 4, url: url)
            let events = EventStore(postgres: postgres)
            let outcome: Result<Void, any Error>
            do {
                // 2001 is far from any date the tests run on, whose months the migration made.
                var january = [try await append("early", at: instant("2001-01-20T10:00:00Z"), on: postgres)]
                #expect(try await count("SELECT count(*) AS n FROM events_default", on: postgres) == 1)
                #expect(try await events.prepareMonths(now: instant("2001-01-05T00:00:00Z")) == 3)
                #expect(try await events.prepareMonths(now: instant("2001-01-31T23:00:00Z")) == 0)
                #expect(try await count("SELECT count(*) AS n FROM events_default", on: postgres) == 0)
                #expect(try await count("SELECT count(*) AS n FROM events_2001_01", on: postgres) == 1)

                // Months interleave in feed order: each pair commits a January event, then a February one.
                var february: [Int64] = []
                for index in 0..<10 {
                    january.append(try await append("jan-\(index)", at: instant("2001-01-31T23:59:59Z"), on: postgres))
                    february.append(try await append("feb-\(index)", at: instant("2001-02-01T00:00:00Z"), on: postgres))
                }
                let feedOrder = try await postgres.query("SELECT id FROM events ORDER BY tx, id").rows.map { "evt_\(try $0.int64("id"))" }
                #expect(feedOrder.count == 21)
                let read = try await wholeFeed(events, expected: 21)
                #expect(read == feedOrder, "every event once, in feed order, across the two partitions")

                try await postgres.query("""
                    INSERT INTO webhooks (id, url, event_types, secret, created_at)
                    VALUES ('wh-months', 'https://example.invalid/hook', '{level.reached}', 's', now())
                    """)
                for id in [january[0], january[5], february[3]] {
                    try await postgres.query("""
                        INSERT INTO webhook_deliveries (webhook_id, event_id, status, attempt_limit, created_at)
                        VALUES ('wh-months', $1, 'pending', 5, now())
                        """, [id])
                }

                // January ends at the cutoff: it goes whole, deliveries too; February stays.
                #expect(try await events.prune(before: instant("2001-02-01T00:00:00Z")) == 11)
                #expect(try await count("SELECT count(*) AS n FROM pg_class WHERE relname = 'events_2001_01'", on: postgres) == 0)
                #expect(try await count("SELECT count(*) AS n FROM webhook_deliveries", on: postgres) == 1)
                let left = try await wholeFeed(events, expected: 10, limit: 100)
                #expect(left == february.map { "evt_\($0)" })
                // February is not over by mid-month: nothing goes.
                #expect(try await events.prune(before: instant("2001-02-15T00:00:00Z")) == 0)

                // An event in no month's partition is pruned from the default partition by its own time.
                try await append("stray", at: instant("1999-06-01T00:00:00Z"), on: postgres)
                #expect(try await events.prune(before: instant("2000-01-01T00:00:00Z")) == 1)
                #expect(try await count("SELECT count(*) AS n FROM events_default", on: postgres) == 0)
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            await postgres.close()
            try outcome.get()
        }
    }

    @Test("partition names give their month's end; month starts are UTC firsts")
    func monthArithmetic() {
        let events = MonthlyPartitions.events
        #expect(events.end(ofPartition: "events_2026_11") == instant("2026-12-01T00:00:00Z"))
        #expect(events.end(ofPartition: "events_2026_12") == instant("2027-01-01T00:00:00Z"))
        #expect(events.end(ofPartition: "events_default") == nil)
        #expect(events.end(ofPartition: "events_2026_13") == nil)
        #expect(events.end(ofPartition: "completions_2026_11") == nil)
        #expect(MonthlyPartitions.completions.end(ofPartition: "completions_2027_01") == instant("2027-02-01T00:00:00Z"))
        #expect(MonthlyPartitions.starts(from: instant("2026-11-30T23:59:59Z"), count: 3) == ["2026-11-01", "2026-12-01", "2027-01-01"])
    }

    @Test("migration 021 keeps every event, its transaction id and its deliveries, and the ids go on from the sequence")
    func migrationKeepsEvents() async throws {
        try await StoreTestEnvironment.withOwnDatabase(migratedBelow: 21) { pool, migrations in
            try await pool.query("""
                INSERT INTO events (type, user_id, occurred_at, payload)
                SELECT 'level.reached', 'u' || g, timestamptz '2001-03-10T00:00:00Z' + g * interval '20 days', '{"n": 1}'::jsonb
                FROM generate_series(1, 40) g
                """)
            try await pool.query("""
                INSERT INTO webhooks (id, url, event_types, secret, created_at)
                VALUES ('wh-021', 'https://example.invalid/hook', '{level.reached}', 's', now())
                """)
            try await pool.query("""
                INSERT INTO webhook_deliveries (webhook_id, event_id, status, attempt_limit, created_at)
                SELECT 'wh-021', id, 'pending', 5, now() FROM events WHERE id % 7 = 0
                """)
            let snapshot = "SELECT string_agg(id || ' ' || tx::text || ' ' || occurred_at::text || ' ' || payload::text, ',' ORDER BY id) AS rows FROM events"
            let before = try await pool.query(snapshot).rows[0].string("rows")
            let maxBefore = try await pool.query("SELECT max(id) AS id FROM events").rows[0].int64("id")

            try await Migrator(pool: pool, logger: StoreTestEnvironment.logger).migrate(migrations.filter { $0.version == 21 })

            #expect(try await pool.query(snapshot).rows[0].string("rows") == before)
            #expect(try await count("SELECT count(*) AS n FROM pg_partitioned_table WHERE partrelid = 'events'::regclass", on: pool) == 1)
            #expect(try await count("SELECT count(*) AS n FROM events_default", on: pool) == 0)
            // 2001-03-30 to 2003-05-19: a partition for every month from the first event's.
            #expect(try await count("SELECT count(*) AS n FROM pg_class WHERE relname IN ('events_2001_03', 'events_2002_08', 'events_2003_05')", on: pool) == 3)
            #expect(try await count("SELECT count(*) AS n FROM webhook_deliveries", on: pool) == 5)
            let next = try await EventMonthsTests().append("after", at: Date(), on: pool)
            #expect(next > maxBefore)
        }
    }

    @Test("erasing a player removes its events and their webhook deliveries")
    func erasureTakesDeliveries() async throws {
        let now = instant("2026-11-25T12:00:00Z")
        try await StoreTestEnvironment.withOwnStores(now: now) { url, redis in
            let storage = try await StoreTestEnvironment.replica(now: now, url, redis)
            let outcome: Result<Void, any Error>
            do {
                let user = StoreTestEnvironment.unique("erase-events")
                _ = try await storage.completions.record([try completion(id: "\(user)-1", user: user, topic: "maths", now: now)], now: now)
                try await storage.postgres.query("""
                    INSERT INTO webhooks (id, url, event_types, secret, created_at)
                    VALUES ('wh-erase', 'https://example.invalid/hook', '{completion.recorded}', 's', now())
                    """)
                try await storage.postgres.query("""
                    INSERT INTO webhook_deliveries (webhook_id, event_id, status, attempt_limit, created_at)
                    SELECT 'wh-erase', id, 'pending', 5, now() FROM events WHERE user_id = $1
                    """, [user])
                #expect(try await count("SELECT count(*) AS n FROM webhook_deliveries", on: storage.postgres) > 0)
                #expect(try await storage.erasure.erase(userID: user, now: now))
                #expect(try await count("SELECT count(*) AS n FROM events WHERE user_id = $1", [user], on: storage.postgres) == 0)
                #expect(try await count("SELECT count(*) AS n FROM webhook_deliveries", on: storage.postgres) == 0)
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            await storage.postgres.close()
            try outcome.get()
        }
    }
}
