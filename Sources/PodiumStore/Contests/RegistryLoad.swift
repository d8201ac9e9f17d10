import Foundation
import PodiumCore
import PodiumWire
import Postgres

/// Reads the definitions the contest registry holds: every contest, league and goal, as of one revision.
///
/// Contests, leagues and goals share one registry (`ContestRegistry`) and one revision sequence, so their rows are read
/// here, in one place that `ContestStore`, `LeagueStore` and `GoalStore` sit above.
enum RegistryLoad {
    /// Reads every contest, league and goal and hands them to `registry` as of `revision`.
    ///
    /// Rows read in a later snapshot than `revision` may be newer than it: the registry is then ahead of its label,
    /// and the next refresh reads them again. A row this version cannot read is left out: it counts nothing here.
    static func load(into registry: ContestRegistry, revision: Int64, on connection: PostgresConnection) throws {
        let contests = try connection.run(AllContests()).compactMap(\.contest)
        let leagues = try connection.run(AllLeagues()).compactMap(\.league)
        let goals = try connection.run(AllGoals()).compactMap(\.goal)
        registry.replace(with: contests, leagues: leagues, goals: goals, revision: revision)
    }
}

/// Every contest, by id.
private struct AllContests: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT id, title, scope, starts_at, ends_at, cron, duration_seconds, time_zone, entry,
               max_players, metric, tie_break, medals, cancelled_at
        FROM contests ORDER BY id
        """

    /// A stored contest's columns.
    struct Row: Decodable, Sendable {
        let id: String
        let title: String
        let scope: [String]
        let startsAt: Date?
        let endsAt: Date?
        let cron: String?
        let durationSeconds: Int?
        let timeZone: String
        let entry: String
        let maxPlayers: Int?
        let metric: String
        let tieBreak: String
        let medals: Bool
        let cancelledAt: Date?

        /// The contest; nil for a row this version cannot read.
        var contest: Contest? {
            guard let scope = ContestScope(boards: scope), let zone = TimeZone(identifier: timeZone),
                  let entry = ContestEntry(rawValue: entry), let metric = BoardMetric(rawValue: metric),
                  let tieBreak = TieBreak(rawValue: tieBreak)
            else { return nil }
            let schedule: ContestSchedule
            if let cron, let durationSeconds {
                guard let expression = try? CronExpression(cron) else { return nil }
                schedule = .recurring(
                    cron: CronSchedule(expression: expression, timeZone: zone), duration: TimeInterval(durationSeconds),
                    from: startsAt, until: endsAt)
            } else {
                guard let startsAt, let endsAt else { return nil }
                schedule = .once(start: startsAt, end: endsAt)
            }
            return Contest(
                id: id, title: title, scope: scope, schedule: schedule, timeZone: zone, entry: entry, maxPlayers: maxPlayers,
                metric: metric, tieBreak: tieBreak, medals: medals, cancelledAt: cancelledAt)
        }
    }
}

/// Every league, by id.
private struct AllLeagues: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT id, name, scope, time_zone, tiers::text AS tiers, cohort_size, metric, tie_break, medals, created_at, paused_at,
               ended_at
        FROM leagues ORDER BY id
        """

    /// A stored league's columns.
    struct Row: Decodable, Sendable {
        let id: String
        let name: String
        let scope: [String]
        let timeZone: String
        let tiers: String
        let cohortSize: Int
        let metric: String
        let tieBreak: String
        let medals: Bool
        let createdAt: Date
        let pausedAt: Date?
        let endedAt: Date?

        /// The league; nil for a row this version cannot read.
        var league: League? {
            guard let scope = ContestScope(boards: scope), let zone = TimeZone(identifier: timeZone),
                  let tiers = try? PodiumJSON.decoder().decode([LeagueTier].self, from: Data(tiers.utf8)), !tiers.isEmpty,
                  let metric = BoardMetric(rawValue: metric), let tieBreak = TieBreak(rawValue: tieBreak)
            else { return nil }
            return League(
                id: id, name: name, scope: scope, timeZone: zone, tiers: tiers, cohortSize: cohortSize, metric: metric,
                tieBreak: tieBreak, medals: medals, createdAt: createdAt, pausedAt: pausedAt, endedAt: endedAt)
        }
    }
}

/// Every goal, by id.
private struct AllGoals: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT id, title, kind, scope, measure, target, goal_window, time_zone, created_at, paused_at, ended_at FROM goals ORDER BY id
        """

    /// A stored goal's columns.
    struct Row: Decodable, Sendable {
        let id: String
        let title: String
        let kind: String
        let scope: [String]
        let measure: String
        let target: Int64
        let goalWindow: String
        let timeZone: String
        let createdAt: Date
        let pausedAt: Date?
        let endedAt: Date?

        /// The goal; nil for a row this version cannot read.
        var goal: Goal? {
            guard let kind = GoalKind(rawValue: kind), let scope = ContestScope(boards: scope), let measure = GoalMeasure(rawValue: measure),
                  let window = GoalWindow(rawValue: goalWindow), let zone = TimeZone(identifier: timeZone)
            else { return nil }
            return Goal(
                id: id, title: title, kind: kind, scope: scope, measure: measure, target: target, window: window, timeZone: zone,
                createdAt: createdAt, pausedAt: pausedAt, endedAt: endedAt)
        }
    }
}
