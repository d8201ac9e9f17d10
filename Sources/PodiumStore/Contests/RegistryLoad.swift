import Foundation
import PodiumCore
import PodiumWire
import Postgres

/// Reads the definitions the contest registry holds: every contest and every league, as of one revision.
///
/// Contests and leagues share one registry (`ContestRegistry`) and one revision sequence, so their rows are read
/// here, in one place that both `ContestStore` and `LeagueStore` sit above.
enum RegistryLoad {
    /// Reads every contest and league and hands them to `registry` as of `revision`.
    ///
    /// Rows read in a later snapshot than `revision` may be newer than it: the registry is then ahead of its label,
    /// and the next refresh reads them again. A row this version cannot read is left out: it counts nothing here.
    static func load(into registry: ContestRegistry, revision: Int64, on connection: PostgresConnection) throws {
        let contests = try connection.run(AllContests()).compactMap(\.contest)
        let leagues = try connection.run(AllLeagues()).compactMap(\.league)
        registry.replace(with: contests, leagues: leagues, revision: revision)
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
