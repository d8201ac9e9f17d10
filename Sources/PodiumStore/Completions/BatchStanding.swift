import Foundation
import PodiumCore
import Postgres

/// What a completion batch reads before it plans, in its transaction's first round trip.
struct BatchStanding {
    /// The stored completions with the items' ids: their request hashes and stored answers (JSON).
    var recorded: [String: (requestHash: String, response: String)] = [:]
    /// The players' erasures Redis has not applied yet.
    var erasures: [String: RankingErasure] = [:]
    /// The players' time zones (players without a stored one use UTC).
    var zones: [String: TimeZone] = [:]
    /// The contests' revision in PostgreSQL.
    var contestRevision: Int64 = 0
    /// The players' contest entries.
    var joined: Set<ContestEntryKey> = []

    /// Opens the transaction on `connection` and reads the standing of `items` in one round trip.
    ///
    /// It first takes one lock per id, in a fixed order, until the commit: a concurrent duplicate waits there and then
    /// finds the completion as a replay, so it never writes scores (or Redis) for a completion it cannot insert.
    static func read(_ items: [ValidCompletion], on connection: PostgresConnection) throws -> BatchStanding {
        let players = Array(Set(items.map(\.userID)))
        let ids = items.map(\.id)
        let results = try connection.pipeline([
            "BEGIN",
            """
            SELECT count(pg_advisory_xact_lock(k)) AS locked
            FROM (SELECT DISTINCT hashtextextended(id, 0) AS k FROM unnest(\(bind: ids)::text[]) AS id ORDER BY k) ids
            """,
            "SELECT id, request_hash, response::text AS response FROM completions WHERE id = ANY(\(bind: ids))",
            """
            SELECT user_id, array_to_string(members, ' ') AS members, array_to_string(redis_keys, ' ') AS keys
            FROM pending_ranking_erasures WHERE user_id = ANY(\(bind: players))
            """,
            "SELECT user_id, time_zone FROM users WHERE user_id = ANY(\(bind: players))",
            PostgresQuery(stringLiteral: ContestStore.revisionQuery),
            ContestStore.entriesQuery(players: players),
        ] as [PostgresQuery])
        var standing = BatchStanding()
        for row in results[2].rows {
            standing.recorded[try row.string("id")] = (try row.string("request_hash"), try row.string("response"))
        }
        for row in results[3].rows {
            let erasure = try RankingErasure(row: row)
            standing.erasures[erasure.userID] = erasure
        }
        for row in results[4].rows {
            standing.zones[try row.string("user_id")] = TimeZone(identifier: try row.string("time_zone"))
        }
        standing.contestRevision = try results[5].rows[0].int64("revision")
        standing.joined = Set(try results[6].rows.map {
            ContestEntryKey(contestID: try $0.string("contest_id"), userID: try $0.string("user_id"))
        })
        return standing
    }

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

/// The contests changed since this replica's registry read them: the batch starts again once the registry has.
struct ContestsChanged: Error {
    /// The revision PostgreSQL holds.
    let revision: Int64
}
