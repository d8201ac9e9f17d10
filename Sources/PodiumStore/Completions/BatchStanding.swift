import Foundation
import PodiumCore
import PodiumWire
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
        let results = try connection.pipeline([
            OpenBatch().query,
            LockBatch(ids: items.map(\.id), userIDs: players).query,
            RecordedRequests(window: RecordedWindow(of: items, now: now, rules: rules)).query,
            PendingErasures(userIDs: players).query,
            StoredPlayers(userIDs: players).query,
            ContestRevision().query,
            JoinedContests(userIDs: players).query,
        ])
        guard results.count == 7 else { throw BatchUpsertError.missingResult }
        var standing = BatchStanding()
        // An id reused after Podium stopped remembering it has two rows: the one with the item's time answers its retry.
        var times: [String: Date] = [:]
        for item in items where times[item.id] == nil { times[item.id] = item.completedAt }
        for row in try RecordedRequests.rows(of: results[2]) {
            guard standing.recorded[row.id] == nil || row.completedAt == times[row.id] else { continue }
            standing.recorded[row.id] = (row.requestHash, row.response)
        }
        for row in try PendingErasures.rows(of: results[3]) {
            standing.erasures[row.userID] = RankingErasure(userID: row.userID, spacedMembers: row.members, spacedKeys: row.keys)
        }
        for row in try StoredPlayers.rows(of: results[4]) {
            standing.players[row.userID] = StoredPlayer(
                zone: TimeZone(identifier: row.timeZone) ?? .gmt, days: row.days.split(separator: ",").compactMap { Int($0) },
                achievements: Set((row.achievements ?? "").split(separator: ",").map(String.init)))
        }
        guard let revision = try ContestRevision.rows(of: results[5]).first else { throw BatchUpsertError.missingResult }
        standing.contestRevision = revision.revision
        standing.joined = Set(try JoinedContests.rows(of: results[6]).map { ContestEntryKey(contestID: $0.contestID, userID: $0.userID) })
        return standing
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

/// Opens a batch's transaction (the first statement of its first round trip).
private struct OpenBatch: PostgresStatement {
    static let sql: PostgresSQL<Self> = "BEGIN"
    typealias Row = NoRows
}

/// Takes the lock of each of a batch's ids and players (`PlayerLocks`) until the transaction ends, all in one key order.
private struct LockBatch: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT count(pg_advisory_xact_lock(k)) AS locked
        FROM (SELECT DISTINCT hashtextextended(k, 0) AS k
              FROM (SELECT unnest(\(\.ids)::text[]) UNION ALL SELECT \(\.prefix) || unnest(\(\.userIDs)::text[])) AS keys(k)
              ORDER BY 1) locks
        """
    typealias Row = NoRows
    /// The completions' ids.
    let ids: [String]
    /// The players.
    let userIDs: [String]
    /// The players' key prefix, bound beside the ids.
    var prefix: String { PlayerLocks.prefix }
}

/// The stored completions with a batch's ids: their times, request hashes and stored answers.
private struct RecordedRequests: RecordedLookup {
    static let sql = lookup(columns: columns, late: false)
    static let withLateItems = lookup(columns: columns, late: true)
    private static let columns = "id, completed_at, request_hash, COALESCE(answer, response::text) AS response"

    struct Row: Decodable, Sendable {
        let id: String
        let completedAt: Date
        let requestHash: String
        /// The stored answer (JSON).
        let response: String
    }

    let window: RecordedWindow
}

/// The players' erasures Redis has not applied yet, with the members and Redis keys of their old entries.
private struct PendingErasures: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT user_id, array_to_string(members, ' ') AS members, array_to_string(redis_keys, ' ') AS keys
        FROM pending_ranking_erasures WHERE user_id = ANY(\(\.userIDs))
        """
    struct Row: Decodable, Sendable {
        let userID: String
        /// The old members, space-separated.
        let members: String?
        /// The old Redis keys, space-separated.
        let keys: String?
    }
    let userIDs: [String]
}

/// The players who have a row: time zone, active days and achievements.
private struct StoredPlayers: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT user_id, time_zone, array_to_string(days, ',') AS days,
               (SELECT string_agg(achievement, ',') FROM user_achievements a WHERE a.user_id = u.user_id) AS achievements
        FROM users u WHERE user_id = ANY(\(\.userIDs))
        """
    struct Row: Decodable, Sendable {
        let userID: String
        let timeZone: String
        /// The local days played on, comma-separated.
        let days: String
        /// The achievements held, comma-separated; nil for none.
        let achievements: String?
    }
    let userIDs: [String]
}
