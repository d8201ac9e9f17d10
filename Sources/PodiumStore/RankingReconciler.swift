import Foundation
import PodiumCore
import Postgres
import Redis

/// What one reconciliation found and repaired.
public struct ReconcileReport: Sendable, Equatable {
    /// Board periods compared.
    public var periods = 0
    /// Entries compared (PostgreSQL rows).
    public var entries = 0
    /// Entries missing from Redis, added.
    public var added = 0
    /// Entries with a different score in Redis, corrected.
    public var corrected = 0
    /// Redis entries with no PostgreSQL row, removed.
    public var removed = 0

    /// An empty report.
    public init() {}

    /// The counts by name, for run history and metrics.
    public var counts: [String: Int] {
        ["periods": periods, "entries": entries, "added": added, "corrected": corrected, "removed": removed]
    }
}

/// Compares Redis sorted sets with `board_scores` and repairs every difference (drift).
///
/// PostgreSQL is read a page at a time by user id and Redis answers with `ZMSCORE` for the players'
/// members, so memory stays bounded on large boards. A difference is confirmed against a fresh
/// PostgreSQL read before it is repaired, so a completion committed during the comparison is not
/// undone. An entry it adds also gets its player's hash fields (member, user id, display name).
public struct RankingReconciler: Sendable {
    let postgres: PostgresPool
    let redis: RedisPool

    /// Creates the reconciler.
    public init(postgres: PostgresPool, redis: RedisPool) {
        self.postgres = postgres
        self.redis = redis
    }

    /// Reconciles each of `periods`.
    public func reconcile(_ periods: [BoardPeriodKey]) async throws -> ReconcileReport {
        var report = ReconcileReport()
        for period in periods {
            try await reconcile(period, into: &report)
            report.periods += 1
        }
        return report
    }

    private func reconcile(_ period: BoardPeriodKey, into report: inout ReconcileReport) async throws {
        let key = RankingKeys.board(period.board, period.window, period.period)
        var suspects: [String] = []
        var after = ""
        var matched = 0
        while true {
            let rows = try await postgres.query("""
                SELECT s.user_id, u.handle, s.score FROM board_scores s JOIN users u USING (user_id)
                WHERE s.board = $1 AND s.board_window = $2 AND s.period = $3 AND s.user_id > $4
                ORDER BY s.user_id LIMIT 5000
                """, [period.board, period.window.rawValue, period.period, after]).rows
            guard let last = rows.last else { break }
            after = try last.string("user_id")
            let members = try rows.map { try $0.member() }
            let stored = try await redis.command(["ZMSCORE", key] + members).array ?? []
            for (index, row) in rows.enumerated() {
                let score = stored[safe: index]?.string.flatMap(RankingKeys.score(fromStored:))
                if score == (try row.int64("score")) { matched += 1 } else { suspects.append(members[index]) }
            }
            report.entries += rows.count
        }
        try await repair(key: key, period: period, members: suspects, into: &report)
        let cardinality = Int(try await redis.command(["ZCARD", key]).integer ?? 0)
        if cardinality > matched + suspects.count {
            try await removeExtras(key: key, period: period, into: &report)
        }
    }

    /// Sets each suspect's Redis score to the PostgreSQL score read now.
    private func repair(key: String, period: BoardPeriodKey, members: [String], into report: inout ReconcileReport) async throws {
        for chunk in stride(from: 0, to: members.count, by: 5000).map({ Array(members[$0..<min($0 + 5000, members.count)]) }) {
            let fresh = try await scores(period, members: chunk)
            let stored = try await redis.command(["ZMSCORE", key] + chunk).array ?? []
            var commands: [[String]] = []
            var added: [RankedPlayer] = []
            for (index, member) in chunk.enumerated() {
                let current = stored[safe: index]?.string.flatMap(RankingKeys.score(fromStored:))
                guard let truth = fresh[member], current != truth.score else { continue }
                commands.append(["ZADD", key, RankingKeys.storedValue(truth.score), member])
                if current == nil {
                    report.added += 1
                    added.append(truth.player)
                } else {
                    report.corrected += 1
                }
            }
            try await send(commands + RankingWriter.playerCommands(added))
        }
    }

    /// Removes Redis members that have no PostgreSQL row (confirmed by a fresh read).
    private func removeExtras(key: String, period: BoardPeriodKey, into report: inout ReconcileReport) async throws {
        var cursor = "0"
        repeat {
            let reply = try await redis.command(["ZSCAN", key, cursor, "COUNT", "5000"])
            guard let parts = reply.array, parts.count == 2 else { return }
            cursor = parts[0].string ?? "0"
            let flat = parts[1].array ?? []
            let members = stride(from: 0, to: flat.count, by: 2).compactMap { flat[$0].string }
            guard !members.isEmpty else { continue }
            let present = try await scores(period, members: members)
            let extras = members.filter { present[$0] == nil }
            if !extras.isEmpty {
                try await send([["ZREM", key] + extras])
                report.removed += extras.count
            }
        } while cursor != "0"
    }

    /// The PostgreSQL scores of `members` on `period`, with their players, by member; a member that is no
    /// handle's (not one Podium writes) is simply absent.
    private func scores(_ period: BoardPeriodKey, members: [String]) async throws -> [String: (score: Int64, player: RankedPlayer)] {
        var result: [String: (score: Int64, player: RankedPlayer)] = [:]
        for row in try await postgres.query("""
            SELECT u.user_id, u.handle, u.display_name, s.score FROM board_scores s JOIN users u USING (user_id)
            WHERE s.board = $1 AND s.board_window = $2 AND s.period = $3 AND u.handle = ANY($4)
            """, [period.board, period.window.rawValue, period.period, members.compactMap(RankingMember.decode)]).rows {
            let member = try row.member()
            result[member] = (try row.int64("score"),
                              RankedPlayer(member: member, userID: try row.string("user_id"), displayName: row["display_name"]))
        }
        return result
    }

    private func send(_ commands: [[String]]) async throws {
        guard !commands.isEmpty else { return }
        try await redis.pipeline(commands).throwFirstError(operation: "reconcile rankings")
    }

    /// Deletes the sorted sets of `periods` (closed long ago; closed boards are read from their final snapshots).
    public func dropRankings(_ periods: [BoardPeriodKey]) async throws {
        guard !periods.isEmpty else { return }
        try await send([["DEL"] + periods.map { RankingKeys.board($0.board, $0.window, $0.period) }])
    }
}
