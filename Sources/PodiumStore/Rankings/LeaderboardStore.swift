import Foundation
import Logging
import PodiumCore
import Postgres
import Redis

/// Which slice of a board period to read.
public enum LeaderboardSlice: Sendable, Hashable {
    /// `limit` entries from position `offset` (0-based).
    case page(offset: Int, limit: Int)
    /// The player and up to `radius` entries above and below (fewer at the top and bottom of the board).
    case around(userID: String, radius: Int)
}

/// Entries read from a board period, before the API adds period bounds.
public struct RankedEntries: Sendable, Equatable {
    /// Players on the board period.
    public var players: Int
    /// Position of the first entry (0-based).
    public var offset: Int
    /// Entries, best first, ties by handle (first come, first listed).
    public var entries: [LeaderboardEntry]
    /// False when served from PostgreSQL because Redis failed (degraded); true from Redis or a final snapshot.
    public var live: Bool
    /// For `.around`: false when the player is not on the board period.
    public var found: Bool
}

/// Reads rankings: from Redis (one round trip per answer, a Lua script), from PostgreSQL when Redis fails.
///
/// Ranks are competition ranks (1 + players with a strictly higher score), computed with
/// `ZCOUNT` in O(log n) for the first entry and derived from position for the rest of a page,
/// so a player's rank is the same however it is read.
public struct LeaderboardStore: Sendable {
    /// PostgreSQL's primary, for the pages and comparisons that answer when Redis cannot (they feed the page cache and
    /// snapshots, so they must not lag).
    let postgres: PostgresPool
    /// Where a player's ranks are read when Redis cannot answer (profiles: a standby's may be slightly behind).
    let replica: ReadReplica
    let reads: RedisReadBatcher
    /// Reads served from PostgreSQL because Redis failed, a few at a time (see `ConcurrencyLimit`).
    let fallbacks: ConcurrencyLimit
    /// Reads served from PostgreSQL because Redis failed: under an outage every poll falls back.
    let fallbackWarning: ThrottledLog

    /// The boards' tie-breaks, by which PostgreSQL ranks when it answers for Redis.
    let rules: GameRules

    /// Creates the store; at most `fallbackReads` reads at once are served from PostgreSQL while Redis fails, a
    /// player's ranks from `replica`'s pool when given (else from `postgres`).
    public init(
        postgres: PostgresPool, replica: ReadReplica? = nil, redis: RedisClient, rules: GameRules, logger: Logger, fallbackReads: Int = 4
    ) {
        self.postgres = postgres
        self.replica = replica ?? .primaryOnly(postgres)
        self.rules = rules
        self.reads = RedisReadBatcher(redis: redis)
        self.fallbacks = ConcurrencyLimit(fallbackReads)
        self.fallbackWarning = ThrottledLog(logger)
    }

    // Every script first checks the ready marker: an empty Redis (restarted, rebuild not finished)
    // answers with an error, and the read falls back to PostgreSQL instead of showing empty boards.
    // Boards hold members (`RankingMember`); the scripts translate to and from user ids with the hashes.

    /// KEYS: the board, the player and user-to-member hashes, the ready marker. ARGV: `page`, offset, limit,
    /// or `around`, user id, radius. Returns the board's size, the first position (-1: the player is not on
    /// it), the (member, stored value) pairs, the players above the first, and the entries' player values.
    static let sliceScript = RedisScript.bundled("leaderboard-slice")

    /// KEYS: the board, the user-to-member and player hashes, the ready marker. ARGV: user ids. Returns the board's
    /// size, (user id, stored value, players above, member) for each player on it, and their player values.
    static let compareScript = RedisScript.bundled("leaderboard-compare")

    /// KEYS: the board periods, then the user-to-member hash and the ready marker. ARGV: the user id.
    static let standingsScript = RedisScript.bundled("player-standings")

    /// Reads a slice of a board period.
    public func read(board: String, window: LeaderboardWindow, period: String, slice: LeaderboardSlice) async throws -> RankedEntries {
        let key = RankingKeys.board(board, window, period)
        let arguments: [String] = switch slice {
        case .page(let offset, let limit): ["page", String(offset), String(limit)]
        case .around(let userID, let radius): ["around", userID, String(radius)]
        }
        do {
            let keys = [key, RankingKeys.players, RankingKeys.userMembers, RankingKeys.readyMarker]
            let reply = try await reads.evaluate(Self.sliceScript, keys: keys, arguments: arguments)
            return try Self.decodeSlice(reply)
        } catch let error as RedisError {
            noteFallback("leaderboard read", error)
            return try await fallbacks.run { try await readFromPostgres(board: board, window: window, period: period, slice: slice) }
        }
    }

    /// Ranks a given list of players on a board period (friends view); players not on it are left out.
    public func compare(board: String, window: LeaderboardWindow, period: String, userIDs: [String]) async throws -> RankedEntries {
        let key = RankingKeys.board(board, window, period)
        do {
            let keys = [key, RankingKeys.userMembers, RankingKeys.players, RankingKeys.readyMarker]
            let reply = try await reads.evaluate(Self.compareScript, keys: keys, arguments: userIDs)
            guard let parts = reply.array, parts.count == 3 else { throw Self.malformed }
            let players = parts[2].array ?? []
            var listed: [(entry: LeaderboardEntry, member: String)] = []
            for (index, item) in (parts[1].array ?? []).enumerated() {
                guard let fields = item.array, fields.count == 4, let user = fields[0].string, let stored = fields[1].string,
                      let score = RankingPlace(storedValue: stored)?.score, let above = fields[2].integer, let member = fields[3].string
                else { throw Self.malformed }
                // A player without its field (hashes out of step with the board) is not guessed at, as on a page.
                guard let player = players[safe: index]?.string.map(RankingKeys.player(fromValue:)), player.userID == user
                else { throw Self.malformed }
                let entry = LeaderboardEntry(rank: Int(above) + 1, userId: user, displayName: player.displayName, score: score)
                listed.append((entry, member))
            }
            // Listing order, as on a page: rank, then member (handle order) within a tie.
            listed.sort { ($0.entry.rank, $0.member) < ($1.entry.rank, $1.member) }
            return RankedEntries(players: Int(parts[0].integer ?? 0), offset: 0, entries: listed.map(\.entry), live: true, found: true)
        } catch let error as RedisError {
            noteFallback("leaderboard compare", error)
            // The LEFT JOIN keeps the board's size when none of the players is on it.
            let rows = try await fallbacks.run { try await postgres.query("""
                WITH counts AS (
                    SELECT count(*) AS players FROM board_scores WHERE board = $1 AND board_window = $2 AND period = $3),
                listed AS (
                    SELECT s.user_id, s.score, \(TieBreak.sqlKey(policy: "$5", row: "s")) AS tie_key, u.display_name, u.handle,
                           (SELECT count(*) FROM board_scores x WHERE x.board = $1 AND x.board_window = $2 AND x.period = $3
                              AND \(TieBreak.sqlRanksAbove(policy: "$5", row: "x", other: "s"))) AS above
                    FROM board_scores s JOIN users u USING (user_id)
                    WHERE s.board = $1 AND s.board_window = $2 AND s.period = $3 AND s.user_id = ANY($4))
                SELECT c.players, l.user_id, l.score, l.display_name, l.above
                FROM counts c LEFT JOIN listed l ON true
                ORDER BY l.score DESC, l.tie_key, l.handle
                """, [board, window.rawValue, period, userIDs, rules.tieBreak(ofBoard: board).rawValue]).rows }
            let entries = try rows.filter { $0["user_id"] != nil }.map {
                LeaderboardEntry(rank: try $0.int("above") + 1, userId: try $0.string("user_id"), displayName: $0["display_name"],
                                 score: try $0.int64("score"))
            }
            return RankedEntries(players: try rows[0].int("players"), offset: 0, entries: entries, live: false, found: true)
        }
    }

    /// A player's standing on each of `periods` where the player has a score (profile ranks).
    public func standings(userID: String, periods: [BoardPeriod]) async throws -> (ranks: [BoardRank], live: Bool) {
        guard !periods.isEmpty else { return ([], true) }
        do {
            let reply = try await reads.evaluate(
                Self.standingsScript, keys: periods.map(RankingKeys.board) + [RankingKeys.userMembers, RankingKeys.readyMarker],
                arguments: [userID])
            let ranks = try (reply.array ?? []).map { item -> BoardRank in
                guard let fields = item.array, fields.count == 4, let index = fields[0].integer, let stored = fields[1].string,
                      let score = RankingPlace(storedValue: stored)?.score, let above = fields[2].integer, let card = fields[3].integer,
                      let period = periods[safe: Int(index) - 1] else { throw Self.malformed }
                return BoardRank(board: period.board.id, window: period.period.window, period: period.period.key,
                                 rank: Int(above) + 1, score: score, players: Int(card))
            }
            return (ranks, true)
        } catch let error as RedisError {
            noteFallback("player ranks", error)
            return (try await fallbacks.run { try await ranksFromPostgres(userID: userID, periods: periods) }, false)
        }
    }

    /// The PostgreSQL fallback of `standings`: every board period in one statement, each with a count of the
    /// players above and of all players.
    private func ranksFromPostgres(userID: String, periods: [BoardPeriod]) async throws -> [BoardRank] {
        let rows = try await replica.query("""
            SELECT x.i, s.score,
                   (SELECT count(*) FROM board_scores c WHERE c.board = s.board AND c.board_window = s.board_window
                      AND c.period = s.period AND \(unescaped: TieBreak.sqlRanksAbove(policy: "x.tie_break", row: "c", other: "s"))) AS above,
                   (SELECT count(*) FROM board_scores c WHERE c.board = s.board AND c.board_window = s.board_window
                                                         AND c.period = s.period) AS players
            FROM \(unnest: periods, BoardPeriod.columns, as: "x", ordinality: "i")
            JOIN board_scores s ON s.board = x.board AND s.board_window = x.board_window AND s.period = x.period
                               AND s.user_id = \(bind: userID)
            ORDER BY x.i
            """).rows
        return try rows.compactMap { row in
            guard let period = periods[safe: try row.int("i") - 1] else { return nil }
            return BoardRank(board: period.board.id, window: period.period.window, period: period.period.key,
                             rank: try row.int("above") + 1, score: try row.int64("score"), players: try row.int("players"))
        }
    }

    private static let malformed = RedisError(kind: .protocolError, message: "unexpected script reply", operation: "leaderboard script")

    static func decodeSlice(_ reply: RedisReply) throws -> RankedEntries {
        guard let parts = reply.array, parts.count == 5, let card = parts[0].integer, let start = parts[1].integer else { throw malformed }
        if start < 0 { return RankedEntries(players: Int(card), offset: 0, entries: [], live: true, found: false) }
        let flat = parts[2].array ?? []
        let values = parts[4].array ?? []
        var players: [(userID: String, displayName: String?)] = []
        var places: [RankingPlace] = []
        for index in stride(from: 0, to: flat.count - 1, by: 2) {
            // A member without a player (hashes out of step with the board) is not guessed at: the read falls back.
            guard let value = values[safe: index / 2]?.string, let stored = flat[index + 1].string,
                  let place = RankingPlace(storedValue: stored)
            else { throw malformed }
            players.append(RankingKeys.player(fromValue: value))
            places.append(place)
        }
        let firstRank = Int(parts[3].integer ?? 0) + 1
        let ranks = CompetitionRanking.ranks(scores: places, pageOffset: Int(start), firstRank: firstRank)
        let entries = players.indices.map {
            LeaderboardEntry(rank: ranks[$0], userId: players[$0].userID, displayName: players[$0].displayName, score: places[$0].score)
        }
        return RankedEntries(players: Int(card), offset: Int(start), entries: entries, live: true, found: true)
    }

    /// The PostgreSQL fallback, in the same shape as the Redis answer: the page by a top-N sort of the
    /// board period (no index orders it by score: one would make every score update a non-HOT update),
    /// and one scan for the board's size and the players above the page's first score; the other ranks
    /// follow from the page itself, as in `decodeSlice`. A rank per row would cost a scan per row.
    private func readFromPostgres(board: String, window: LeaderboardWindow, period: String, slice: LeaderboardSlice) async throws -> RankedEntries {
        var (offset, limit, found) = (0, 0, true)
        let tieBreak = rules.tieBreak(ofBoard: board)
        let key = { (row: String) in TieBreak.sqlKey(policy: "$5", row: row) }
        switch slice {
        case .page(let pageOffset, let pageLimit):
            (offset, limit) = (pageOffset, pageLimit)
        case .around(let userID, let radius):
            let rows = try await postgres.query("""
                SELECT (SELECT count(*) FROM board_scores x WHERE x.board = s.board AND x.board_window = s.board_window
                          AND x.period = s.period AND \(TieBreak.sqlRanksAbove(policy: "$5", row: "x", other: "s")))
                     + (SELECT count(*) FROM board_scores x JOIN users xu USING (user_id) WHERE x.board = s.board
                          AND x.board_window = s.board_window AND x.period = s.period AND x.score = s.score
                          AND \(key("x")) = \(key("s")) AND xu.handle < u.handle)
                       AS position
                FROM board_scores s JOIN users u USING (user_id)
                WHERE s.board = $1 AND s.board_window = $2 AND s.period = $3 AND s.user_id = $4
                """, [board, window.rawValue, period, userID, tieBreak.rawValue]).rows
            // Not on the board: an empty page (limit 0) still brings the board's size.
            if let position = try rows.first?.int("position") {
                offset = max(position - radius, 0)
                limit = position + radius - offset + 1
            } else {
                found = false
            }
        }
        // One statement, so the page and the counts come from one snapshot; the LEFT JOIN keeps the
        // counts row when the page is empty.
        let rows = try await postgres.query("""
            WITH page AS MATERIALIZED (
                SELECT s.user_id, s.score, \(key("s")) AS tie_key, u.handle, u.display_name FROM board_scores s JOIN users u USING (user_id)
                WHERE s.board = $1 AND s.board_window = $2 AND s.period = $3
                ORDER BY s.score DESC, tie_key, u.handle LIMIT $6 OFFSET $4),
            first AS (SELECT score, tie_key FROM page ORDER BY score DESC, tie_key LIMIT 1),
            counts AS (
                SELECT count(*) AS players,
                       count(*) FILTER (WHERE b.score > f.score OR (b.score = f.score AND \(key("b")) < f.tie_key)) AS above
                FROM board_scores b LEFT JOIN first f ON true WHERE b.board = $1 AND b.board_window = $2 AND b.period = $3)
            SELECT c.players, c.above, p.user_id, p.score, p.tie_key, p.display_name
            FROM counts c LEFT JOIN page p ON true
            ORDER BY p.score DESC, p.tie_key, p.handle
            """, [board, window.rawValue, period, offset, tieBreak.rawValue, limit]).rows
        let counts = rows[0]
        let page = rows.filter { $0["user_id"] != nil }
        let places = try page.map { RankingPlace(score: try $0.int64("score"), key: try $0.int64("tie_key")) }
        let ranks = CompetitionRanking.ranks(scores: places, pageOffset: offset, firstRank: try counts.int("above") + 1)
        let entries = try page.indices.map {
            LeaderboardEntry(rank: ranks[$0], userId: try page[$0].string("user_id"), displayName: page[$0]["display_name"], score: places[$0].score)
        }
        return RankedEntries(players: try counts.int("players"), offset: offset, entries: entries, live: false, found: found)
    }
}

extension Array {
    /// The element at `index`, or nil when out of range.
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

extension LeaderboardStore {
    /// Logs, throttled, that `read` fell back to PostgreSQL because Redis failed with `error`.
    fileprivate func noteFallback(_ read: String, _ error: any Error) {
        fallbackWarning.log("reads served from PostgreSQL: Redis failed", metadata: ["read": "\(read)", "error": "\(error)"])
    }
}

extension BoardPeriod {
    /// A board period's columns with its board's tie-break policy, as the PostgreSQL fallback of ranks reads them.
    static let columns = PostgresColumns<BoardPeriod>(
        .column("board", "text", { $0.board.id }), .column("board_window", "text", { $0.period.window.rawValue }),
        .column("period", "text", { $0.period.key }), .column("tie_break", "text", { $0.board.tieBreak.rawValue }))
}
