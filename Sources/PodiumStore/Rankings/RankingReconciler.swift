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
    /// Players whose hash fields (member to user id and name, user id to member) were missing or wrong, rewritten.
    public var players = 0

    /// An empty report.
    public init() {}

    /// The counts by name, for run history and metrics.
    public var counts: [String: Int] {
        ["periods": periods, "entries": entries, "added": added, "corrected": corrected, "removed": removed, "players": players]
    }
}

/// Compares Redis sorted sets with `board_scores` and repairs every difference (drift).
///
/// PostgreSQL is read a page at a time by user id and Redis answers with `ZMSCORE` for the players'
/// members, so memory stays bounded on large boards. An entry Redis misses or ranks lower is raised to
/// its committed place with `ZADD … LT` (`raise`), which cannot lower anything a batch wrote meanwhile;
/// one Redis ranks higher, or holds with no row, is confirmed against a fresh PostgreSQL read under the
/// players' locks before it is repaired (`repair`), so neither a completion committed during the
/// comparison nor one whose batch wrote Redis and has yet to commit is undone. The players' hash fields, which every read translates members with, are compared too,
/// once per player and run (a player is on a dozen periods), and repaired before the scores, under
/// a share lock on the players' rows: a name change, an erasure or a completion of the same player
/// then writes Redis after the repair, never before it, so a repair cannot bring back a stale name
/// or an erased player's fields.
public struct RankingReconciler: Sendable {
    let postgres: PostgresPool
    let redis: RedisClient
    /// Where the player hashes are.
    let layout: RankingLayout
    /// The boards' tie-breaks, which the places in Redis include.
    let rules: GameRules

    /// Creates the reconciler.
    public init(postgres: PostgresPool, redis: RedisClient, rules: GameRules) {
        self.postgres = postgres
        self.redis = redis
        layout = RankingLayout(redis)
        self.rules = rules
    }

    /// Reconciles each of `periods`.
    public func reconcile(_ periods: [BoardPeriodKey]) async throws -> ReconcileReport {
        var report = ReconcileReport()
        var checked = HandleSet()
        for period in periods {
            try await reconcile(period, checked: &checked, into: &report)
            report.periods += 1
        }
        return report
    }

    private func reconcile(_ period: BoardPeriodKey, checked: inout HandleSet, into report: inout ReconcileReport) async throws {
        let key = RankingKeys.board(period.board, period.window, period.period)
        var behind: [Raise] = []
        var ahead: [Suspect] = []
        var playerSuspects: [String] = []
        var after = ""
        var rowsSeen = 0
        let tieBreak = rules.tieBreak(ofBoard: period.board)
        // A latest board's places can get worse: any difference is repaired under the player's lock.
        let replaces = rules.replacesPlaces(ofBoard: period.board)
        while true {
            let rows = try await postgres.run(
                PeriodScoresAfter(board: period.board, window: period.window.rawValue, period: period.period, userID: after))
            guard let last = rows.last else { break }
            after = last.userID
            let players = try rows.map { try $0.columns.player() }
            let stored = try await redis.command(["ZMSCORE", key] + players.map(\.member)).array ?? []
            for (index, row) in rows.enumerated() {
                let held = stored[safe: index]?.string
                let truth = row.place(tieBreak: tieBreak)
                if truth.isStored(as: held) { continue }
                let ranksHigher = if let held, let value = Double(held), let own = Double(truth.storedValue) { value < own } else { false }
                if replaces || ranksHigher {
                    // Redis ranks the player higher than PostgreSQL does: a batch that wrote Redis and has not
                    // committed yet, or one that rolled back. Only a read under the player's lock can tell. (On a
                    // latest board a batch may have written a lower place too.)
                    ahead.append(Suspect(member: players[index].member, userID: players[index].userID))
                } else {
                    behind.append(Raise(member: players[index].member, place: truth, added: held == nil))
                }
            }
            let unchecked = rows.indices.filter { checked.insert(rows[$0].handle) }.map { players[$0] }
            playerSuspects += try await mismatched(unchecked).map(\.userID)
            rowsSeen += rows.count
        }
        report.entries += rowsSeen
        // Fields first: an entry added before its player's fields would make pages showing it fall back.
        try await repairPlayers(playerSuspects, into: &report)
        try await raise(behind, key: key, into: &report)
        try await repair(ahead, key: key, period: period, into: &report)
        let cardinality = Int(try await redis.command(["ZCARD", key]).integer ?? 0)
        if cardinality > rowsSeen {
            try await removeExtras(key: key, period: period, into: &report)
        }
    }

    /// Brings entries Redis misses, or ranks lower than PostgreSQL's committed places, up to those places with
    /// `ZADD … LT`, as the ranking sync writes: a committed place is never above what a later batch writes, and `LT`
    /// keeps whatever better place a batch wrote meanwhile, so this needs no lock. (A player erased meanwhile is
    /// removed again by the erasure's repetition, as after a sync's write.)
    private func raise(_ entries: [Raise], key: String, into report: inout ReconcileReport) async throws {
        for start in stride(from: 0, to: entries.count, by: 5000) {
            let chunk = entries[start..<min(start + 5000, entries.count)]
            try await send(chunk.map { ["ZADD", key, "LT", $0.place.storedValue, $0.member] })
            for entry in chunk {
                if entry.added { report.added += 1 } else { report.corrected += 1 }
            }
        }
    }

    /// Those of `players` whose hash fields in Redis differ from what they should hold.
    private func mismatched(_ players: [RankedPlayer]) async throws -> [RankedPlayer] {
        guard !players.isEmpty else { return [] }
        // One HGET per field, in one pipeline (per primary on a cluster, where the fields are in many hashes).
        let replies = try await redis.pipeline(players.flatMap { player in
            [["HGET", layout.playersHash(ofMember: player.member), player.member], ["HGET", layout.membersHash(ofUser: player.userID), player.userID]]
        })
        try replies.throwFirstError(operation: "reconcile players")
        return players.indices.filter { index in
            let player = players[index]
            return replies[index * 2].string != RankingKeys.playerValue(userID: player.userID, displayName: player.displayName)
                || replies[index * 2 + 1].string != player.member
        }.map { players[$0] }
    }

    /// Rewrites the hash fields of those `users` that are still wrong against a fresh PostgreSQL read, holding
    /// a share lock on their rows (in user-id order, as completion batches lock them) until Redis is written.
    /// A player erased meanwhile has no row to read, and so gets nothing back.
    private func repairPlayers(_ users: [String], into report: inout ReconcileReport) async throws {
        for chunk in stride(from: 0, to: users.count, by: 500).map({ Array(users[$0..<min($0 + 500, users.count)]) }) {
            report.players += try await postgres.withSession { session in
                let fresh = try await session.run { connection in
                    try connection.execute("BEGIN")
                    return try connection.run(PlayersForShare(userIDs: chunk)).map { try $0.player() }
                }
                let wrong = try await mismatched(fresh)
                try await send(layout.playerCommands(wrong))
                try await session.run { try $0.execute("COMMIT") }
                return wrong.count
            }
        }
    }

    /// Repairs `suspects`' entries on `key` (ranked higher in Redis than in PostgreSQL, or in Redis only) to their
    /// PostgreSQL places, a chunk at a time, each read fresh under the players' locks (`PlayerLocks`) held until Redis is written: a batch writes Redis before its COMMIT, holding the
    /// same locks, so under them the read sees every batch that wrote these entries, and no batch writes them again
    /// until the repair is in Redis. A member with no PostgreSQL place then is removed.
    private func repair(_ suspects: [Suspect], key: String, period: BoardPeriodKey, into report: inout ReconcileReport) async throws {
        for start in stride(from: 0, to: suspects.count, by: Self.lockedChunk) {
            let chunk = Array(suspects[start..<min(start + Self.lockedChunk, suspects.count)])
            let repaired = try await postgres.withSession { session in
                let fresh = try await session.run { connection in
                    try connection.execute("BEGIN")
                    try connection.run(LockPlayers(userIDs: chunk.compactMap(\.userID)))
                    return try self.places(period, members: chunk.map(\.member), on: connection)
                }
                let stored = try await redis.command(["ZMSCORE", key] + chunk.map(\.member)).array ?? []
                var repaired = ReconcileReport()
                var commands: [[String]] = []
                for (index, suspect) in chunk.enumerated() {
                    let held = stored[safe: index]?.string
                    if let truth = fresh[suspect.member] {
                        guard !truth.isStored(as: held) else { continue }
                        commands.append(["ZADD", key, truth.storedValue, suspect.member])
                        if held == nil { repaired.added += 1 } else { repaired.corrected += 1 }
                    } else if held != nil {
                        commands.append(["ZREM", key, suspect.member])
                        repaired.removed += 1
                    }
                }
                try await send(commands)
                try await session.run { try $0.execute("COMMIT") }
                return repaired
            }
            report.added += repaired.added
            report.corrected += repaired.corrected
            report.removed += repaired.removed
        }
    }

    /// Removes Redis members that have no PostgreSQL row, each confirmed by `repair`.
    private func removeExtras(key: String, period: BoardPeriodKey, into report: inout ReconcileReport) async throws {
        var cursor = "0"
        repeat {
            let reply = try await redis.command(["ZSCAN", key, cursor, "COUNT", "5000"])
            guard let parts = reply.array, parts.count == 2 else { return }
            cursor = parts[0].string ?? "0"
            let flat = parts[1].array ?? []
            let members = stride(from: 0, to: flat.count, by: 2).compactMap { flat[$0].string }
            guard !members.isEmpty else { continue }
            let present = try await postgres.withConnection { connection in try self.places(period, members: members, on: connection) }
            let extras = members.filter { present[$0] == nil }
            guard !extras.isEmpty else { continue }
            try await repair(try await owners(of: extras), key: key, period: period, into: &report)
        } while cursor != "0"
    }

    /// `members` with the user ids their player fields in Redis name (written with every entry a batch writes), so
    /// that their players' locks can be taken; nil for a member with no fields, which no batch is writing.
    private func owners(of members: [String]) async throws -> [Suspect] {
        let replies = try await redis.pipeline(members.map { ["HGET", layout.playersHash(ofMember: $0), $0] })
        try replies.throwFirstError(operation: "reconcile rankings")
        return members.indices.map { index in
            Suspect(member: members[index], userID: replies[index].string.map { RankingKeys.player(fromValue: $0).userID })
        }
    }

    /// The PostgreSQL places of `members` on `period`, by member, read on `connection`; a member that is no handle's
    /// (not one Podium writes) is simply absent.
    private func places(_ period: BoardPeriodKey, members: [String], on connection: PostgresConnection) throws -> [String: RankingPlace] {
        var result: [String: RankingPlace] = [:]
        let tieBreak = rules.tieBreak(ofBoard: period.board)
        let statement = PlacesOfHandles(
            board: period.board, window: period.window.rawValue, period: period.period, handles: members.compactMap(RankingMember.decode))
        for row in try connection.run(statement) {
            result[try RankingMember.member(ofHandle: row.handle)] = row.place(tieBreak: tieBreak)
        }
        return result
    }

    /// How many entries one repair transaction confirms: each takes a player lock, from PostgreSQL's shared lock table.
    private static let lockedChunk = 500

    /// An entry to raise to its committed place: its member, the place, and whether Redis had no entry at all.
    private struct Raise {
        let member: String
        let place: RankingPlace
        let added: Bool
    }

    /// An entry to repair: its member, and the user id whose lock orders its writers (nil when none is known).
    private struct Suspect {
        let member: String
        let userID: String?
    }

    private func send(_ commands: [[String]]) async throws {
        guard !commands.isEmpty else { return }
        try await redis.pipeline(commands).throwFirstError(operation: "reconcile rankings")
    }

    /// Deletes the sorted sets of `periods` (closed long ago; closed boards are read from their final snapshots).
    public func dropRankings(_ periods: [BoardPeriodKey]) async throws {
        guard !periods.isEmpty else { return }
        try await send(periods.map { ["DEL", RankingKeys.board($0.board, $0.window, $0.period)] })
    }
}

/// Which handles a reconciliation has checked already: one bit per handle up to the largest seen
/// (handles are dense, from one sequence), so a million players cost 125 kB however many periods
/// they are on.
struct HandleSet {
    private var words: [UInt64] = []

    /// Adds `handle`; false when it was there already.
    mutating func insert(_ handle: Int64) -> Bool {
        guard handle >= 0 else { return true }
        let (word, bit) = (Int(handle >> 6), UInt64(1) << UInt64(handle & 63))
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: word - words.count + 1)) }
        defer { words[word] |= bit }
        return words[word] & bit == 0
    }
}

/// A page of one board period's scores after a player, in user id order, with each player's handle and name.
private struct PeriodScoresAfter: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT s.user_id, u.handle, u.display_name, \(unescaped: RankingPlaces.columns("s")) FROM board_scores s JOIN users u USING (user_id)
        WHERE s.board = \(\.board) AND s.board_window = \(\.window) AND s.period = \(\.period) AND s.user_id > \(\.userID)
        ORDER BY s.user_id LIMIT 5000
        """
    typealias Row = PlacedRow<RankedPlayerRow>
    let board: String
    let window: String
    let period: String
    /// The last player of the page before ("": from the start).
    let userID: String
}

/// Players as the ranking hashes know them, their rows share-locked in user id order (as completion batches lock them)
/// until the transaction ends.
private struct PlayersForShare: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT user_id, handle, display_name FROM users WHERE user_id = ANY(\(\.userIDs)) ORDER BY user_id FOR SHARE
        """
    typealias Row = RankedPlayerRow
    let userIDs: [String]
}

/// The places on one board period of the players with the given handles.
private struct PlacesOfHandles: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT u.handle, \(unescaped: RankingPlaces.columns("s")) FROM board_scores s JOIN users u USING (user_id)
        WHERE s.board = \(\.board) AND s.board_window = \(\.window) AND s.period = \(\.period) AND u.handle = ANY(\(\.handles))
        """
    typealias Row = PlacedRow<Handle>
    /// The player's handle.
    struct Handle: Decodable, Sendable { let handle: Int64 }
    let board: String
    let window: String
    let period: String
    let handles: [Int64]
}
