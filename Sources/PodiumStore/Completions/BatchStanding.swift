import Foundation
import PodiumCore
import Postgres

/// What a completion batch reads before it plans, in its transaction's first round trip.
struct BatchStanding {
    /// The stored completions with the items' ids: their request hashes and stored answers (JSON).
    var recorded: [String: (requestHash: String, response: String)] = [:]
    /// The players' erasures Redis has not applied yet.
    var erasures: [String: RankingErasure] = [:]
    /// The players who have a row, as they stood before the batch: time zone, active days, achievements.
    var players: [String: StoredPlayer] = [:]
    /// The contests' revision in PostgreSQL.
    var contestRevision: Int64 = 0
    /// The players' contest entries.
    var joined: Set<ContestEntryKey> = []

    /// Opens the transaction on `connection` and reads the standing of `items`, received at `now`, in one round trip.
    ///
    /// It first takes one lock per id and one per player, in one fixed order, until the commit: a concurrent duplicate
    /// waits there and then finds the completion as a replay, so it never writes scores (or Redis) for a completion it
    /// cannot insert; and a concurrent batch of the same player waits, so the days and achievements read here are
    /// the player's latest.
    static func read(_ items: [ValidCompletion], now: Date, rules: GameRules, on connection: PostgresConnection) throws -> BatchStanding {
        let players = Array(Set(items.map(\.userID)))
        let ids = items.map(\.id)
        let statements: [(Statement, PostgresQuery)] = [
            (.begin, "BEGIN"),
            (.locks, """
                SELECT count(pg_advisory_xact_lock(k)) AS locked
                FROM (SELECT DISTINCT hashtextextended(k, 0) AS k
                      FROM (SELECT unnest(\(bind: ids)::text[]) UNION ALL SELECT \(bind: PlayerLocks.prefix) || unnest(\(bind: players)::text[])) AS keys(k)
                      ORDER BY 1) locks
                """),
            (.recorded, RecordedLookup.select(
                "id, completed_at, request_hash, COALESCE(answer, response::text) AS response", of: items, now: now, rules: rules)),
            (.erasures, """
                SELECT user_id, array_to_string(members, ' ') AS members, array_to_string(redis_keys, ' ') AS keys
                FROM pending_ranking_erasures WHERE user_id = ANY(\(bind: players))
                """),
            (.players, """
                SELECT user_id, time_zone, array_to_string(days, ',') AS days,
                       (SELECT string_agg(achievement, ',') FROM user_achievements a WHERE a.user_id = u.user_id) AS achievements
                FROM users u WHERE user_id = ANY(\(bind: players))
                """),
            (.contestRevision, PostgresQuery(stringLiteral: ContestStore.revisionQuery)),
            (.contestEntries, ContestStore.entriesQuery(players: players)),
        ]
        let results = Dictionary(uniqueKeysWithValues: zip(statements.map(\.0), try connection.pipeline(statements.map(\.1))))
        func rows(_ statement: Statement) throws -> [PostgresRow] {
            guard let result = results[statement] else { throw BatchUpsertError.missingResult }
            return result.rows
        }
        var standing = BatchStanding()
        // An id reused after Podium stopped remembering it has two rows: the one with the item's time answers its retry.
        var times: [String: Date] = [:]
        for item in items where times[item.id] == nil { times[item.id] = item.completedAt }
        for row in try rows(.recorded) {
            let id = try row.string("id")
            let time = try row.date("completed_at")
            guard standing.recorded[id] == nil || time == times[id] else { continue }
            standing.recorded[id] = (try row.string("request_hash"), try row.string("response"))
        }
        for row in try rows(.erasures) {
            let erasure = try RankingErasure(row: row)
            standing.erasures[erasure.userID] = erasure
        }
        for row in try rows(.players) {
            standing.players[try row.string("user_id")] = StoredPlayer(
                zone: TimeZone(identifier: try row.string("time_zone")) ?? .gmt,
                days: try row.string("days").split(separator: ",").compactMap { Int($0) },
                achievements: Set((row["achievements"] ?? "").split(separator: ",").map(String.init)))
        }
        guard let revision = try rows(.contestRevision).first else { throw BatchUpsertError.missingResult }
        standing.contestRevision = try revision.int64("revision")
        standing.joined = Set(try rows(.contestEntries).map {
            ContestEntryKey(contestID: try $0.string("contest_id"), userID: try $0.string("user_id"))
        })
        return standing
    }

    /// The statements of `read`'s round trip, which name their results.
    private enum Statement {
        case begin, locks, recorded, erasures, players, contestRevision, contestEntries
    }

    /// The players' time zones (players without a row use UTC).
    var zones: [String: TimeZone] { players.mapValues(\.zone) }

    /// The stored completions as the plan sees them: each item's request compared by hash, and the stored answer of a
    /// same request decoded.
    func recordedCompletions(of items: [ValidCompletion]) throws -> [String: RecordedCompletion] {
        let decoder = PodiumJSON.decoder()
        var completions: [String: RecordedCompletion] = [:]
        for item in items {
            guard let stored = recorded[item.id] else { continue }
            completions[item.id] = stored.requestHash == CompletionStore.requestHash(item)
                ? .sameRequest(try decoder.decode(CompletionResponse.self, from: Data(stored.response.utf8)))
                : .otherRequest
        }
        return completions
    }
}

/// A player's row as a batch reads it before writing.
struct StoredPlayer {
    /// The player's time zone, in which active days are counted.
    let zone: TimeZone
    /// The local days (`Streak.localDay`) the player has played on.
    let days: [Int]
    /// The achievements the player holds.
    let achievements: Set<String>
}

/// The contests changed since this replica's registry read them: the batch starts again once the registry has.
struct ContestsChanged: Error {
    /// The revision PostgreSQL holds.
    let revision: Int64
}
