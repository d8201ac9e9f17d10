import Foundation
import PodiumCore
@testable import PodiumStore
import Postgres
import Testing

/// Completions in monthly partitions (migration 022): where rows go, history across a month boundary, which ids a
/// batch finds as replays, pruning a month whole, and the migration of existing completions.
@Suite("Completions by month", .timeLimit(.minutes(5)))
struct CompletionMonthsTests {
    func count(_ sql: String, on postgres: PostgresPool) async throws -> Int {
        try await postgres.query(sql).rows[0].int("n")
    }

    /// Every item of the player's history, in pages of `limit`.
    func wholeHistory(_ user: String, storage: PodiumStorage, limit: Int) async throws -> [String] {
        var cursor: HistoryCursor?
        var read: [String] = []
        for _ in 0..<100 {
            let page = try await storage.users.history(userID: user, topic: nil, limit: limit, cursor: cursor)
            read += page.items.map(\.id)
            guard let next = page.nextCursor else { return read }
            cursor = HistoryCursor(encoded: next)
        }
        throw TestFailure("the history never ended")
    }

    @Test("completions land in their month's partition; history pages cross the boundary; replays are found across months; prune drops a month whole")
    func monthsOfCompletions() async throws {
        // 2031 is far from any date the tests run on, whose months the migration made.
        let march = instant("2031-03-02T12:00:00Z")
        try await StoreTestEnvironment.withOwnStores(now: march) { url, redis in
            let storage = try await StoreTestEnvironment.replica(now: march, url, redis)
            let outcome: Result<Void, any Error>
            do {
                let postgres = storage.postgres
                #expect(try await storage.completions.prepareMonths(now: instant("2031-02-01T00:00:00Z")) == 3)
                #expect(try await storage.completions.prepareMonths(now: instant("2031-02-28T00:00:00Z")) == 0)
                let times = ["2031-02-27T10:00:00Z", "2031-02-28T23:59:59Z", "2031-03-01T00:00:00Z", "2031-03-02T08:00:00Z"]
                var sent: [ValidCompletion] = []
                for (index, time) in times.enumerated() {
                    for copy in 0..<3 {
                        sent.append(try completion(id: "m-\(index)-\(copy)", user: "months", topic: "maths", completedAt: time, now: march))
                    }
                }
                let recorded = try await storage.completions.record(sent, now: march)
                #expect(recorded.allSatisfy { if case .created = $0 { true } else { false } })
                #expect(try await count("SELECT count(*) AS n FROM completions_2031_02", on: postgres) == 6)
                #expect(try await count("SELECT count(*) AS n FROM completions_2031_03", on: postgres) == 6)
                #expect(try await count("SELECT count(*) AS n FROM completions_default", on: postgres) == 0)

                // Newest first, by completed_at then id: every completion once, in pages that straddle the boundary.
                let expected = sent.sorted { ($0.completedAt, $0.id) > ($1.completedAt, $1.id) }.map(\.id)
                #expect(try await wholeHistory("months", storage: storage, limit: 5) == expected)

                // Within the memory: the same body is a replay; the February id with March's time is a conflict.
                let february = sent[0]
                let again = try await storage.completions.record(
                    [try completion(id: february.id, user: "months", topic: "maths", completedAt: times[0], now: march)], now: march)
                guard case .replayed = again[0] else { throw TestFailure("expected a replay, got \(again)") }
                let moved = try await storage.completions.record(
                    [try completion(id: february.id, user: "months", topic: "maths", completedAt: times[3], now: march)], now: march)
                #expect(moved == [.conflict], "the id is found in February while a batch in March looks for it in March")

                // Past the memory (105 days on): the same body, now too old, is still found in its own month...
                let june = instant("2031-06-15T12:00:00Z")
                let late = try completion(id: february.id, user: "months", topic: "maths", completedAt: times[0], now: june)
                #expect(late.replayOnly != nil)
                guard case .replayed = try await storage.completions.record([late], now: june)[0] else {
                    throw TestFailure("the same body past the memory is not found in its month")
                }
                // ...while the id with a time of June is not looked for in February: it records a new completion.
                let reused = try completion(id: february.id, user: "months", topic: "maths", completedAt: "2031-06-15T11:00:00Z", now: june)
                guard case .created = try await storage.completions.record([reused], now: june)[0] else {
                    throw TestFailure("an id past the memory, with another month's time, is a new completion")
                }
                // Now the id has two rows: each body's retry is answered by its own.
                for retry in [late, reused] {
                    guard case .replayed(let first) = try await storage.completions.record([retry], now: june)[0] else {
                        throw TestFailure("a retry of \(retry.completedAt) is not a replay")
                    }
                    #expect(first.completion.completedAt == RFC3339.format(retry.completedAt))
                }
                #expect(try await count("SELECT count(*) AS n FROM completions_default", on: postgres) == 1, "June has no partition yet")
                #expect(try await storage.completions.prepareMonths(now: june) == 3)
                #expect(try await count("SELECT count(*) AS n FROM completions_default", on: postgres) == 0)
                #expect(try await count("SELECT count(*) AS n FROM completions_2031_06", on: postgres) == 1)

                // February ends at the cutoff: its six go whole; March is not over by mid-month.
                #expect(try await storage.completions.prune(before: instant("2031-03-01T00:00:00Z")) == 6)
                #expect(try await count("SELECT count(*) AS n FROM pg_class WHERE relname = 'completions_2031_02'", on: postgres) == 0)
                #expect(try await storage.completions.prune(before: instant("2031-03-15T00:00:00Z")) == 0)
                #expect(try await wholeHistory("months", storage: storage, limit: 4) == [reused.id] + expected.prefix(6))

                // Erasure takes the player's completions from every month (no foreign key does it since migration 023).
                #expect(try await storage.erasure.erase(userID: "months", now: june))
                #expect(try await count("SELECT count(*) AS n FROM completions WHERE user_id = 'months'", on: postgres) == 0)
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            await storage.postgres.close()
            try outcome.get()
        }
    }

    @Test("migration 022 keeps every completion with its answer and compression, and the key stops a second row of the same id and time; 023 drops the foreign key")
    func migrationKeepsCompletions() async throws {
        try await StoreTestEnvironment.withOwnDatabase(migratedBelow: 22) { pool, migrations in
            try await pool.query("""
                INSERT INTO users (user_id, created_at, updated_at) SELECT 'u' || g, now(), now() FROM generate_series(1, 5) g
                """)
            try await pool.query("""
                INSERT INTO completions (id, user_id, quiz_id, topic, difficulty, correct, total, duration_ms, groups, completed_at,
                                         recorded_at, points, request_hash, response, answer, ranked)
                SELECT 'c' || g, 'u' || (g % 5 + 1), 'q', 'maths', 'easy', 1, 2, CASE WHEN g % 2 = 0 THEN 1000 END, ARRAY['g' || g % 3],
                       timestamptz '2001-03-10T00:00:00Z' + g * interval '20 days', now(), 2, 'h' || g,
                       CASE WHEN g % 4 = 0 THEN '{"old": true}'::jsonb END, CASE WHEN g % 4 <> 0 THEN '{"new": ' || g || '}' END, g % 3 = 0
                FROM generate_series(1, 40) g
                """)
            let snapshot = """
                SELECT string_agg(concat_ws(' ', id, user_id, duration_ms, groups::text, completed_at::text, points, request_hash,
                                            response::text, answer, ranked), ',' ORDER BY id) AS rows FROM completions
                """
            let before = try await pool.query(snapshot).rows[0].string("rows")

            try await Migrator(pool: pool, logger: StoreTestEnvironment.logger).migrate(migrations.filter { $0.version == 22 })

            #expect(try await pool.query(snapshot).rows[0].string("rows") == before)
            #expect(try await count("SELECT count(*) AS n FROM pg_partitioned_table WHERE partrelid = 'completions'::regclass", on: pool) == 1)
            #expect(try await count("SELECT count(*) AS n FROM completions_default", on: pool) == 0)
            // 2001-03-30 to 2003-05-19: a partition for every month from the first completion's.
            #expect(try await count("""
                SELECT count(*) AS n FROM pg_class WHERE relname IN ('completions_2001_03', 'completions_2002_08', 'completions_2003_05')
                """, on: pool) == 3)
            #expect(try await count("""
                SELECT count(*) AS n FROM pg_attribute WHERE attrelid = 'completions_2002_08'::regclass
                  AND attname IN ('answer', 'response') AND attcompression = 'l'
                """, on: pool) == 2)
            #expect(try await count("SELECT count(*) AS n FROM pg_proc WHERE proname = 'podium_event_month'", on: pool) == 0)
            await #expect(throws: PostgresError.self) {
                try await pool.query("""
                    INSERT INTO completions (id, user_id, quiz_id, topic, difficulty, correct, total, completed_at, recorded_at, points,
                                             request_hash, answer)
                    SELECT id, user_id, quiz_id, topic, difficulty, correct, total, completed_at, recorded_at, points, request_hash, 'x'
                    FROM completions WHERE id = 'c7'
                    """)
            }
            // Migration 023 takes the foreign key to players away, from the table and every month (erasure deletes a
            // player's completions itself: monthsOfCompletions).
            #expect(try await count("""
                SELECT count(*) AS n FROM pg_constraint WHERE contype = 'f' AND conrelid IN (SELECT 'completions'::regclass
                       UNION ALL SELECT inhrelid FROM pg_inherits WHERE inhparent = 'completions'::regclass)
                """, on: pool) > 0)
            try await Migrator(pool: pool, logger: StoreTestEnvironment.logger).migrate(migrations.filter { $0.version == 23 })
            #expect(try await count("""
                SELECT count(*) AS n FROM pg_constraint WHERE contype = 'f' AND conrelid IN (SELECT 'completions'::regclass
                       UNION ALL SELECT inhrelid FROM pg_inherits WHERE inhparent = 'completions'::regclass)
                """, on: pool) == 0)
            #expect(try await count("SELECT count(*) AS n FROM completions", on: pool) == 40)
        }
    }
}
