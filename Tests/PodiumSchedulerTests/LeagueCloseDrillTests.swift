import Foundation
import PodiumCore
import PodiumStore
import PodiumTestSupport
import Postgres
import Testing

/// A league week, and best and teams boards' weeks, closing on three real `podium serve` replicas, the one closing them
/// SIGKILLed between two pages: every cohort and board closes exactly once, every player is settled exactly once, and
/// every medal is awarded once (issues 27 and 36; ops/bench/bench-leagues.sh measures the same close at 1,000,000
/// players). One suite, run in turn: its drills share Redis db 3.
@Suite("Leagues, best and teams boards, and goals across processes", .serialized, .timeLimit(.minutes(5)))
struct LeagueCloseDrillTests {
    /// Cohorts of three in each of two tiers.
    static let cohorts = 40
    static let players = cohorts * 3

    @Test("a league week closes exactly once across three replicas when the one closing it is SIGKILLed mid-close")
    func closesOnceThroughAKill() async throws {
        let database = "podium_lg_\(UUID().uuidString.prefix(8).lowercased())"
        let (admin, replicas, postgres) = try await Self.replicas(on: database)
        defer { replicas.killAll() }
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

    /// Quiz boards of the best-board drill, each with three players.
    static let quizBoards = 30

    @Test("best quiz boards and teams boards close exactly once across three replicas when the one closing them is SIGKILLed")
    func bestAndTeamsBoardsCloseOnceThroughAKill() async throws {
        let database = "podium_bt_\(UUID().uuidString.prefix(8).lowercased())"
        let boards = #"""
            [{"scope": "quiz:*", "aggregate": "best", "windows": ["week"], "medal_windows": ["week"]},
             {"scope": "team:houses", "teams": ["house-*"], "windows": ["week"], "medal_windows": ["week"]},
             {"scope": "team:average", "teams": ["house-*"], "team_score": "average", "windows": ["week"], "medal_windows": ["week"]}]
            """#
        let (admin, replicas, postgres) = try await Self.replicas(on: database, boards: boards)
        defer { replicas.killAll() }
        try await Self.seedBestAndTeams(postgres)

        let slot = "2026-01-03T04:05:06.000Z"
        let gate = try await MultiProcessTests.shutGate(replicas.databaseURL)
        let running: (attempts: Int, replica: String)
        do {
            #expect(try await replicas.post(0, "/v1/admin/jobs/close-periods/run", body: "{\"slot\": \"\(slot)\"}") == 202)
            running = try await MultiProcessTests.waitForRun(postgres, job: "close-periods", slot: slot, status: "running")
            try await MultiProcessTests.waitAtGate(postgres, count: 2)
            replicas.kill(try #require(replicas.names.firstIndex(of: running.replica)))
        } catch {
            await gate.close()
            throw error
        }
        await gate.close()
        let finished = try await MultiProcessTests.waitForRun(postgres, job: "close-periods", slot: slot, status: "succeeded", timeout: 60)
        #expect(finished.replica != running.replica)

        let periods = Self.quizBoards + 2
        let counts = try await postgres.query("""
            SELECT (SELECT count(*) FROM board_periods WHERE closed_at IS NOT NULL) AS closed,
                   (SELECT count(*) FROM snapshots WHERE kind = 'final') AS finals,
                   (SELECT count(*) FROM events WHERE type = 'period.closed') AS closes,
                   (SELECT count(*) FROM events WHERE type = 'medal.awarded') AS medals,
                   (SELECT count(DISTINCT (payload->>'board', payload->>'user_id')) FROM events WHERE type = 'medal.awarded') AS medalled
            """).rows[0]
        #expect(try counts.int("closed") == periods)
        #expect(try counts.int("finals") == periods, "one final snapshot per board period")
        #expect(try counts.int("closes") == periods)
        #expect(try counts.int("medals") == Self.quizBoards * 3 + 6, "gold, silver and bronze on every board, once")
        #expect(try counts.int("medalled") == Self.quizBoards * 3 + 6)
        // The teams' medals: houses by sum (a 15, c 10, b 6), average by average per player (c 10, a 5, b 2).
        let teams = try await postgres.query("""
            SELECT payload->>'board' AS board, payload->>'user_id' AS team, payload->>'medal' AS medal FROM events
            WHERE type = 'medal.awarded' AND payload->>'board' LIKE 'team:%' ORDER BY 1, 2
            """).rows.map { "\(try $0.string("board")) \(try $0.string("team")) \(try $0.string("medal"))" }
        #expect(teams == [
            "team:average group:house-a silver", "team:average group:house-b bronze", "team:average group:house-c gold",
            "team:houses group:house-a gold", "team:houses group:house-b bronze", "team:houses group:house-c silver",
        ])
        // Each best board's gold is its best run, 3 points.
        let golds = try await postgres.query(
            "SELECT count(*) AS n FROM events WHERE type = 'medal.awarded' AND payload->>'medal' = 'gold' AND (payload->>'score')::int = 3")
        #expect(try golds.rows[0].int("n") == Self.quizBoards)

        replicas.killAll()
        await postgres.close()
        try await admin.query("DROP DATABASE \(database) WITH (FORCE)")
        await admin.close()
    }

    /// Week 2020-W10, long over, written in SQL: 30 best quiz boards of three players scoring 3, 2 and 1; houses a
    /// (three players of 5), b (three of 2) and c (one of 10) on their group boards; the boards and the quiz and teams
    /// boards' periods listed, as completions list them.
    static func seedBestAndTeams(_ postgres: PostgresPool) async throws {
        try await postgres.withTransaction { connection in
            try connection.execute("""
                INSERT INTO users (user_id, display_name, points, completions, correct_answers, total_answers, created_at, updated_at)
                SELECT 'p' || g, 'Player ' || g, 1, 1, 1, 1, now(), now() FROM generate_series(0, \(quizBoards * 3) - 1) g;
                INSERT INTO board_current_scores (board, user_id, updated_at, aggregate, week_period, week_score, week_reached_at)
                SELECT 'quiz:q' || (g / 3), 'p' || g, '2020-03-05T12:00:00Z', 'b', '2020-W10', 3 - g % 3, '2020-03-05T12:00:00Z'
                FROM generate_series(0, \(quizBoards * 3) - 1) g;
                INSERT INTO board_current_scores (board, user_id, updated_at, week_period, week_score, week_reached_at)
                SELECT 'group:house-' || h, 'p' || g, '2020-03-05T12:00:00Z', '2020-W10', s, '2020-03-05T12:00:00Z'
                FROM (VALUES ('a', 0, 5), ('a', 1, 5), ('a', 2, 5), ('b', 3, 2), ('b', 4, 2), ('b', 5, 2), ('c', 6, 10)) AS x(h, g, s);
                INSERT INTO boards (board, created_at) SELECT DISTINCT board, now() FROM board_current_scores ON CONFLICT DO NOTHING;
                INSERT INTO board_periods (board, board_window, period, ends_at)
                SELECT DISTINCT board, 'week', '2020-W10', timestamptz '2020-03-09T00:00:00Z' FROM board_current_scores
                WHERE board LIKE 'quiz:%'
                UNION ALL SELECT 'team:houses', 'week', '2020-W10', timestamptz '2020-03-09T00:00:00Z'
                UNION ALL SELECT 'team:average', 'week', '2020-W10', timestamptz '2020-03-09T00:00:00Z';
                """)
        }
    }

    /// A new database `database` and three ready replicas on it with `boards` as their board rules, with a pool on the
    /// server (to drop the database) and one on the database.
    ///
    /// Pages of 4 periods, two at once, each followed by the test gate: a close stops at the gate after its first two
    /// pages while the test holds it. The close job's schedule is once a year with missed slots skipped, so only the
    /// run a test asks for closes anything.
    static func replicas(on database: String, boards: String = "[]") async throws -> (PostgresPool, ReplicaGroup, PostgresPool) {
        let admin = try await SchedulerTestEnvironment.postgres()
        try await admin.query("CREATE DATABASE \(database)")
        let replicas = try ReplicaGroup(
            database: database, count: 3, arguments: ["--test-close-pages", "4=\(MultiProcessTests.gateLock)"],
            jobs: #"[{"name": "close-periods", "cron": "0 0 1 1 *", "misfire": "skip", "lease_seconds": 6, "backoff_seconds": 1}]"#,
            boards: boards, redis: .leagueDrill)
        let postgres = PostgresPool(
            configuration: PostgresConfiguration(connectionString: replicas.databaseURL, poolSize: 2), logger: SchedulerTestEnvironment.logger)
        do {
            try await replicas.waitUntilReady()
        } catch {
            replicas.killAll()
            throw error
        }
        return (admin, replicas, postgres)
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
