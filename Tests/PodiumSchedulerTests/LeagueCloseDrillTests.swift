import Foundation
import PodiumCore
import PodiumStore
import PodiumTestSupport
import Postgres
import Testing

/// A league week closing on three real `podium serve` replicas, the one closing it SIGKILLed between two pages: every
/// cohort closes exactly once, and every player is settled exactly once (issue 27; ops/bench/bench-leagues.sh measures
/// the same close at 1,000,000 players).
@Suite("League close across processes", .serialized, .timeLimit(.minutes(5)))
struct LeagueCloseDrillTests {
    /// Cohorts of three in each of two tiers.
    static let cohorts = 40
    static let players = cohorts * 3

    @Test("a league week closes exactly once across three replicas when the one closing it is SIGKILLed mid-close")
    func closesOnceThroughAKill() async throws {
        let database = "podium_lg_\(UUID().uuidString.prefix(8).lowercased())"
        let admin = try await SchedulerTestEnvironment.postgres()
        try await admin.query("CREATE DATABASE \(database)")
        // Pages of 4 cohorts, two at once, each followed by the test gate: the close takes ten pages, and stops at the
        // gate after the first two while the test holds it. Its schedule is once a year with missed slots skipped, so
        // only the run asked for below closes the week.
        let replicas = try ReplicaGroup(
            database: database, count: 3, arguments: ["--test-close-pages", "4=\(MultiProcessTests.gateLock)"],
            jobs: #"[{"name": "close-periods", "cron": "0 0 1 1 *", "misfire": "skip", "lease_seconds": 6, "backoff_seconds": 1}]"#,
            redis: .leagueDrill)
        defer { replicas.killAll() }
        let postgres = PostgresPool(
            configuration: PostgresConfiguration(connectionString: replicas.databaseURL, poolSize: 2), logger: SchedulerTestEnvironment.logger)
        try await replicas.waitUntilReady()
        try await Self.seedPastWeek(postgres)

        let slot = "2026-01-03T04:05:06.000Z"
        // Killed once its first two pages have committed, both waiting at the gate: the pages it closed stay closed.
        let gate = try await MultiProcessTests.shutGate(replicas.databaseURL)
        let running: (attempts: Int, replica: String)
        let closedBefore: Int
        do {
            #expect(try await replicas.post(0, "/v1/admin/jobs/close-periods/run", body: "{\"slot\": \"\(slot)\"}") == 202)
            running = try await MultiProcessTests.waitForRun(postgres, job: "close-periods", slot: slot, status: "running")
            try await MultiProcessTests.waitAtGate(postgres, count: 2)
            closedBefore = try await closedCohorts(postgres)
            replicas.kill(try #require(replicas.names.firstIndex(of: running.replica)))
        } catch {
            await gate.close()
            throw error
        }
        await gate.close()
        #expect(closedBefore == 8, "two pages of four closed before the kill")
        let finished = try await MultiProcessTests.waitForRun(postgres, job: "close-periods", slot: slot, status: "succeeded", timeout: 60)
        #expect(finished.replica != running.replica)

        let counts = try await postgres.query("""
            SELECT (SELECT count(*) FROM board_periods WHERE board LIKE 'league:drill:%' AND closed_at IS NOT NULL) AS closed,
                   (SELECT count(*) FROM snapshots WHERE board LIKE 'league:drill:%' AND kind = 'final') AS finals,
                   (SELECT count(*) FROM league_results WHERE league_id = 'drill') AS results,
                   (SELECT count(*) FROM events WHERE type LIKE 'league.%') AS moves,
                   (SELECT count(DISTINCT user_id) FROM events WHERE type LIKE 'league.%') AS moved,
                   (SELECT count(*) FROM events WHERE type = 'period.closed') AS closes,
                   (SELECT count(*) FROM events WHERE type = 'medal.awarded') AS medals,
                   (SELECT count(*) FROM league_players WHERE league_id = 'drill') AS tiers
            """).rows[0]
        #expect(try counts.int("closed") == Self.cohorts)
        #expect(try counts.int("finals") == Self.cohorts, "one final snapshot per cohort")
        #expect(try counts.int("results") == Self.players)
        #expect(try counts.int("moves") == Self.players, "one move event per player")
        #expect(try counts.int("moved") == Self.players)
        #expect(try counts.int("closes") == Self.cohorts)
        #expect(try counts.int("medals") == Self.players, "gold, silver and bronze in every cohort of three")
        #expect(try counts.int("tiers") == Self.players)
        // Bronze sends its best up, silver its worst down: 20 cohorts of each.
        let moves = try await postgres.query("""
            SELECT type, count(*) AS n FROM events WHERE type LIKE 'league.%' GROUP BY type ORDER BY type
            """).rows.map { "\(try $0.string("type")) \(try $0.int("n"))" }
        #expect(moves == ["league.promoted 20", "league.relegated 20", "league.stayed 80"])

        replicas.killAll()
        await postgres.close()
        try await admin.query("DROP DATABASE \(database) WITH (FORCE)")
        await admin.close()
    }

    /// How many of the drill's cohorts are closed.
    private func closedCohorts(_ postgres: PostgresPool) async throws -> Int {
        try await postgres.query(
            "SELECT count(*) AS n FROM board_periods WHERE board LIKE 'league:drill:%' AND closed_at IS NOT NULL").rows[0].int("n")
    }

    /// League `drill` with week 2020-W10 long over, written in SQL as ops/bench/seed-league.sql writes it: bronze and
    /// silver, 20 cohorts of three each, scoring 3, 2 and 1; the replicas are told of the new league.
    static func seedPastWeek(_ postgres: PostgresPool) async throws {
        try await postgres.withTransaction { connection in
            try connection.execute("""
                INSERT INTO users (user_id, display_name, points, completions, correct_answers, total_answers, created_at, updated_at)
                SELECT 'p' || g, 'Player ' || g, 1, 1, 1, 1, now(), now() FROM generate_series(0, \(players) - 1) g;
                INSERT INTO leagues (id, name, scope, time_zone, tiers, cohort_size, metric, tie_break, medals, created_at)
                VALUES ('drill', 'Drill league', '{global}', 'UTC',
                        '[{"name": "bronze", "title": "Bronze", "up": 1, "down": 0}, {"name": "silver", "title": "Silver", "up": 0, "down": 1}]',
                        3, 'points', 'shared', true, '2020-01-01T00:00:00Z');
                INSERT INTO league_entries (league_id, period, user_id, tier, cohort, placed_at)
                SELECT 'drill', '2020-W10', 'p' || g, g % 2, (g / 2) / 3 + 1, '2020-03-02T08:00:00Z' FROM generate_series(0, \(players) - 1) g;
                INSERT INTO league_cohorts SELECT league_id, period, tier, cohort, count(*) FROM league_entries GROUP BY league_id, period, tier, cohort;
                INSERT INTO board_current_scores (board, user_id, updated_at, week_period, week_score, week_reached_at)
                SELECT 'league:drill:' || (ARRAY['bronze', 'silver'])[tier + 1] || ':' || cohort, user_id, '2020-03-05T12:00:00Z', period,
                       3 - (row_number() OVER (PARTITION BY tier, cohort ORDER BY user_id) - 1) % 3, '2020-03-05T12:00:00Z'
                FROM league_entries;
                INSERT INTO board_periods (board, board_window, period, ends_at)
                SELECT DISTINCT board, 'week', '2020-W10', timestamptz '2020-03-09T00:00:00Z' FROM board_current_scores;
                SELECT pg_notify('podium_contests', '');
                """)
        }
    }
}
