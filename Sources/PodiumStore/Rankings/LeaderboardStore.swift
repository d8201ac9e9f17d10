import Foundation
import Logging
import PodiumCore
import PodiumWire
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

    /// The same entries with the scores a board of `metric` shows (`BoardMetric.shownValue`).
    func showing(_ metric: BoardMetric) -> RankedEntries {
        guard metric == .duration else { return self }
        var shown = self
        for index in shown.entries.indices { shown.entries[index].score = metric.shownValue(shown.entries[index].score) }
        return shown
    }
}

/// Reads rankings: from Redis (on one server one round trip per answer, a Lua script; on a cluster the script on the
/// board period's slot, with the player hashes read beside it), from PostgreSQL when Redis fails.
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
    /// The player hash lookups of concurrent reads on a cluster, together.
    let lookups: RedisCommandBatcher
    /// Members already looked up on a cluster (see `MemberCache`).
    let knownMembers = MemberCache()
    /// Player values read on a cluster in the last moments (see `PlayerValueCache`).
    let knownValues: PlayerValueCache
    /// The Redis client, for the profile ranks of several slots on a cluster.
    let redis: RedisClient
    /// Where the player hashes and ready markers are.
    let layout: RankingLayout
    /// Reads served from PostgreSQL because Redis failed, a few at a time (see `ConcurrencyLimit`).
    let fallbacks: ConcurrencyLimit
    /// Reads served from PostgreSQL because Redis failed: under an outage every poll falls back.
    let fallbackWarning: ThrottledLog

    /// The boards' tie-breaks, by which PostgreSQL ranks when it answers for Redis.
    let rules: GameRules

    /// Creates the store; at most `fallbackReads` reads at once are served from PostgreSQL while Redis fails, a
    /// player's ranks from `replica`'s pool when given (else from `postgres`). On a cluster, players' values are fresh
    /// for `playerValueLifetime` after they were read (zero: always read; see `PlayerValueCache`), and each move of `erasures` (the `.rankings`
    /// change signal) forgets the members and values it remembered.
    public init(
        postgres: PostgresPool, replica: ReadReplica? = nil, redis: RedisClient, rules: GameRules, logger: Logger, fallbackReads: Int = 4,
        erasures: ChangeSignal? = nil, playerValueLifetime: Duration = .zero
    ) {
        self.postgres = postgres
        self.replica = replica ?? .primaryOnly(postgres)
        self.rules = rules
        self.reads = RedisReadBatcher(redis: redis)
        self.lookups = RedisCommandBatcher(redis: redis)
        self.redis = redis
        let knownValues = PlayerValueCache(lifetime: playerValueLifetime)
        self.knownValues = knownValues
        erasures?.observe { [knownMembers] in
            knownMembers.forgetAll()
            knownValues.forgetAll()
        }
        self.layout = RankingLayout(redis)
        self.fallbacks = ConcurrencyLimit(fallbackReads)
        self.fallbackWarning = ThrottledLog(logger)
    }

    // Every script first checks the ready marker: an empty Redis (restarted, rebuild not finished)
    // answers with an error, and the read falls back to PostgreSQL instead of showing empty boards.
    // Boards hold members (`RankingMember`); on one server the scripts translate to and from user ids with the
    // hashes, on a cluster (where the hashes are in other slots) the hashes are read before and after the script.

    /// KEYS: the board, its ready marker, then on one server the player and user-to-member hashes. ARGV: `page`,
    /// offset, limit, or `around`, the user id (a member on a cluster), radius. Returns the board's size, the first
    /// position (-1: the player is not on it), the (member, stored value) pairs, the players above the first, and on
    /// one server the entries' player values.
    static let sliceScript = RedisScript.bundled("leaderboard-slice")

    /// KEYS: the board, its ready marker, then on one server the user-to-member and player hashes. ARGV: user ids
    /// (members on a cluster). Returns the board's size, (argument, stored value, players above, member) for each
    /// player on it, and on one server their player values.
    static let compareScript = RedisScript.bundled("leaderboard-compare")

    /// KEYS: n board periods (of one slot on a cluster), their ready marker, then on one server the user-to-member
    /// hash. ARGV: the user id (the member on a cluster), n. Returns (position among the n, stored value, players
    /// above, players) for each board period the player is on.
    static let standingsScript = RedisScript.bundled("player-standings")

    /// Reads a slice of a board period.
    public func read(board: String, window: LeaderboardWindow, period: String, slice: LeaderboardSlice) async throws -> RankedEntries {
        let scope = BoardScope(id: board)
        if let scope, case .team = scope {
            // A teams board's standings come from its groups' boards in PostgreSQL; it ranks teams, not players.
            guard let teams = rules.boards.definition(for: scope).teams, case .page(let offset, let limit) = slice else {
                return RankedEntries(players: 0, offset: 0, entries: [], live: true, found: false)
            }
            return try await TeamStandings.page(
                teams: teams, window: window, period: period, offset: offset, limit: limit, on: postgres)
        }
        let key = RankingKeys.board(board, window, period)
        // The id is parsed once for the three lookups a read makes (team, metric, tie-break).
        let metric = scope.map(rules.boards.metric(of:)) ?? .points
        let keyBits = (scope.map(rules.boards.tieBreak(of:)) ?? .shared).keyBits
        do {
            return try await readFromRedis(key, slice: slice, keyBits: keyBits).showing(metric)
        } catch let error as RedisError {
            noteFallback("leaderboard read", error)
            return try await fallbacks.run { try await readFromPostgres(board: board, window: window, period: period, slice: slice) }
                .showing(metric)
        }
    }

    /// `read` from Redis, of a board whose places' keys take `keyBits` bits.
    private func readFromRedis(_ key: String, slice: LeaderboardSlice, keyBits: Int64) async throws -> RankedEntries {
        let marker = layout.readyMarker(besides: key)
        guard layout.cluster else {
            let arguments: [String] = switch slice {
            case .page(let offset, let limit): ["page", String(offset), String(limit)]
            case .around(let userID, let radius): ["around", userID, String(radius)]
            }
            let keys = [key, marker, RankingLayout.serverPlayers, RankingLayout.serverMembers]
            return try Self.decodeSlice(try await reads.evaluate(Self.sliceScript, keys: keys, arguments: arguments), keyBits: keyBits)
        }
        let arguments: [String] = switch slice {
        case .page(let offset, let limit): ["page", String(offset), String(limit)]
        // A player without a member is on no board: "" is no member, and the script answers with the board's size.
        case .around(let userID, let radius): ["around", try await members(of: [userID])[0] ?? "", String(radius)]
        }
        let reply = try await reads.evaluate(Self.sliceScript, keys: [key, marker], arguments: arguments)
        let page = reply.array?[safe: 2]?.array ?? []
        let members = stride(from: 0, to: page.count - 1, by: 2).compactMap { page[$0].string }
        return try Self.decodeSlice(reply, values: try await playerValues(of: members), keyBits: keyBits)
    }

    /// Ranks a given list of players on a board period (friends view); players not on it are left out.
    public func compare(board: String, window: LeaderboardWindow, period: String, userIDs: [String]) async throws -> RankedEntries {
        let key = RankingKeys.board(board, window, period)
        let (keyBits, metric) = (rules.tieBreak(ofBoard: board).keyBits, rules.metric(ofBoard: board))
        do {
            let marker = layout.readyMarker(besides: key)
            let parts: [RedisReply]
            let values: [RedisReply]
            var userOfMember: [String: String] = [:]
            if layout.cluster {
                for (user, member) in zip(userIDs, try await members(of: userIDs)) {
                    if let member { userOfMember[member] = user }
                }
                let reply = try await reads.evaluate(Self.compareScript, keys: [key, marker], arguments: userOfMember.keys.sorted())
                guard let answer = reply.array, answer.count == 3 else { throw Self.malformed }
                parts = answer
                values = try await playerValues(of: (answer[1].array ?? []).compactMap { $0.array?[safe: 3]?.string })
            } else {
                let keys = [key, marker, RankingLayout.serverMembers, RankingLayout.serverPlayers]
                let reply = try await reads.evaluate(Self.compareScript, keys: keys, arguments: userIDs)
                guard let answer = reply.array, answer.count == 3 else { throw Self.malformed }
                parts = answer
                values = answer[2].array ?? []
            }
            var listed: [(entry: LeaderboardEntry, member: String)] = []
            for (index, item) in (parts[1].array ?? []).enumerated() {
                guard let fields = item.array, fields.count == 4, let argument = fields[0].string, let stored = fields[1].string,
                      let score = RankingPlace(storedValue: stored, keyBits: keyBits)?.score, let above = fields[2].integer,
                      let member = fields[3].string
                else { throw Self.malformed }
                let user = layout.cluster ? userOfMember[argument] : argument
                // A player without its field (hashes out of step with the board) is not guessed at, as on a page.
                guard let player = values[safe: index]?.string.map(RankingKeys.player(fromValue:)), player.userID == user
                else { throw Self.malformed }
                let entry = LeaderboardEntry(rank: Int(above) + 1, userId: player.userID, displayName: player.displayName, score: score)
                listed.append((entry, member))
            }
            // Listing order, as on a page: rank, then member (handle order) within a tie.
            listed.sort { ($0.entry.rank, $0.member) < ($1.entry.rank, $1.member) }
            return RankedEntries(players: Int(parts[0].integer ?? 0), offset: 0, entries: listed.map(\.entry), live: true, found: true)
                .showing(metric)
        } catch let error as RedisError {
            noteFallback("leaderboard compare", error)
            let statement = ComparedPlayers(
                board: board, window: window.rawValue, period: period, userIDs: userIDs, tieBreak: rules.tieBreak(ofBoard: board))
            let rows = try await fallbacks.run { try await postgres.run(statement) }
            let entries = rows.compactMap(\.listed).map {
                LeaderboardEntry(rank: $0.above + 1, userId: $0.userID, displayName: $0.displayName, score: $0.score)
            }
            return RankedEntries(players: rows[0].counts.players, offset: 0, entries: entries, live: false, found: true).showing(metric)
        }
    }

    /// A player's standing on each of `periods` where the player has a score (profile ranks).
    public func standings(userID: String, periods: [BoardPeriod]) async throws -> (ranks: [BoardRank], live: Bool) {
        guard !periods.isEmpty else { return ([], true) }
        do {
            return (try await standingsFromRedis(userID: userID, periods: periods), true)
        } catch let error as RedisError {
            noteFallback("player ranks", error)
            return (try await fallbacks.run { try await ranksFromPostgres(userID: userID, periods: periods) }, false)
        }
    }

    /// `standings` from Redis: one script call on one server; on a cluster the player's member first, then a call per
    /// slot of the board periods, in one round trip per primary.
    private func standingsFromRedis(userID: String, periods: [BoardPeriod]) async throws -> [BoardRank] {
        let keys = periods.map(RankingKeys.board)
        let groups: [[Int]]
        let calls: [RedisScriptCall]
        if layout.cluster {
            guard let member = try await members(of: [userID])[0] else { return [] }
            groups = RedisSlot.grouped(keys)
            calls = groups.map { indices in
                RedisScriptCall(Self.standingsScript, keys: indices.map { keys[$0] } + [layout.readyMarker(besides: keys[indices[0]])],
                                arguments: [member, String(indices.count)])
            }
        } else {
            groups = [Array(keys.indices)]
            calls = [RedisScriptCall(Self.standingsScript, keys: keys + [RankingLayout.serverMarker, RankingLayout.serverMembers],
                                     arguments: [userID, String(keys.count)])]
        }
        let replies = try await groups.count == 1 ? [reads.evaluate(calls[0].script, keys: calls[0].keys, arguments: calls[0].arguments)]
            : redis.evaluateAll(calls, deadline: redis.configuration.readDeadline)
        try replies.throwFirstError(operation: "player ranks")
        var ranks: [(index: Int, rank: BoardRank)] = []
        for (indices, reply) in zip(groups, replies) {
            for item in reply.array ?? [] {
                guard let fields = item.array, fields.count == 4, let position = fields[0].integer, let stored = fields[1].string,
                      let index = indices[safe: Int(position) - 1],
                      let score = RankingPlace(storedValue: stored, keyBits: periods[index].board.tieBreak.keyBits)?.score,
                      let above = fields[2].integer, let card = fields[3].integer else { throw Self.malformed }
                let period = periods[index]
                ranks.append((index, BoardRank(board: period.board.id, window: period.period.window, period: period.period.key,
                                               rank: Int(above) + 1, score: period.board.metric.shownValue(score), players: Int(card))))
            }
        }
        return ranks.sorted { $0.index < $1.index }.map(\.rank)
    }

    /// On a cluster: the members of `userIDs` (nil for a player without one), remembered or from their user-to-member
    /// hashes. Each hash is read with its slot's ready marker: a primary that lost its data would answer that nobody
    /// has a member, so without the marker the read fails as not ready and falls back.
    private func members(of userIDs: [String]) async throws -> [String?] {
        var (members, generation) = knownMembers.members(of: userIDs)
        let missing = members.indices.filter { members[$0] == nil }
        guard !missing.isEmpty else { return members }
        let replies = try await lookups.pipeline(missing.flatMap { index in
            let hash = layout.membersHash(ofUser: userIDs[index])
            return [["EXISTS", layout.readyMarker(besides: hash)], ["HGET", hash, userIDs[index]]]
        })
        try replies.throwFirstError(operation: "ranking members")
        guard stride(from: 0, to: replies.count, by: 2).allSatisfy({ replies[$0] == .integer(1) }) else {
            throw RedisError(kind: .server, message: "PODIUM rankings not ready", operation: "ranking members")
        }
        var found: [String: String] = [:]
        for (position, index) in missing.enumerated() {
            let member = replies[position * 2 + 1].string
            members[index] = member
            if let member { found[userIDs[index]] = member }
        }
        knownMembers.remember(found, generation: generation)
        return members
    }

    /// On a cluster: the player values of `members`, in order, remembered (`PlayerValueCache`) or from their player
    /// hashes. Values served past their freshness are read again in the background.
    private func playerValues(of members: [String]) async throws -> [RedisReply] {
        guard !members.isEmpty else { return [] }
        let lookup = knownValues.values(of: members)
        if !lookup.refresh.isEmpty { refreshValues(lookup.refresh, generation: lookup.generation) }
        let missing = members.indices.filter { lookup.values[$0] == nil }
        var values = lookup.values.map { $0.map(RedisReply.string) ?? .null }
        guard !missing.isEmpty else { return values }
        let read = try await readValues(of: missing.map { members[$0] })
        for (index, reply) in zip(missing, read.replies) { values[index] = reply }
        knownValues.remember(read.found, generation: lookup.generation)
        return values
    }

    /// The player values of `members` from their player hashes: each reply, and the values found by member.
    private func readValues(of members: [String]) async throws -> (replies: [RedisReply], found: [String: String]) {
        let replies = try await lookups.pipeline(members.map { ["HGET", layout.playersHash(ofMember: $0), $0] })
        try replies.throwFirstError(operation: "ranking players")
        var found: [String: String] = [:]
        for (member, reply) in zip(members, replies) { if let value = reply.string { found[member] = value } }
        return (replies, found)
    }

    /// Reads `members`' values again without holding up the read that found them stale.
    private func refreshValues(_ members: [String], generation: UInt64) {
        Task { [self] in
            do {
                knownValues.remember(try await readValues(of: members).found, refreshed: members, generation: generation)
            } catch {
                knownValues.abandon(members)
            }
        }
    }

    /// The PostgreSQL fallback of `standings`: every board period in one statement, each with a count of the
    /// players above and of all players.
    private func ranksFromPostgres(userID: String, periods: [BoardPeriod]) async throws -> [BoardRank] {
        return try await replica.run(RanksOnPeriods(periods: periods, userID: userID)).compactMap { row in
            guard let period = periods[safe: row.i - 1] else { return nil }
            return BoardRank(board: period.board.id, window: period.period.window, period: period.period.key,
                             rank: row.above + 1, score: period.board.metric.shownValue(row.score), players: row.players)
        }
    }

    private static let malformed = RedisError(kind: .protocolError, message: "unexpected script reply", operation: "leaderboard script")

    /// The entries of a `sliceScript` reply, with the player values in it (one server) or `values` (a cluster), of a
    /// board whose places' keys take `keyBits` bits; the scores are as stored.
    static func decodeSlice(_ reply: RedisReply, values: [RedisReply]? = nil, keyBits: Int64 = 32) throws -> RankedEntries {
        guard let parts = reply.array, parts.count == 5, let card = parts[0].integer, let start = parts[1].integer else { throw malformed }
        if start < 0 { return RankedEntries(players: Int(card), offset: 0, entries: [], live: true, found: false) }
        let flat = parts[2].array ?? []
        let values = values ?? parts[4].array ?? []
        var players: [(userID: String, displayName: String?)] = []
        var places: [RankingPlace] = []
        for index in stride(from: 0, to: flat.count - 1, by: 2) {
            // A member without a player (hashes out of step with the board) is not guessed at: the read falls back.
            guard let value = values[safe: index / 2]?.string, let stored = flat[index + 1].string,
                  let place = RankingPlace(storedValue: stored, keyBits: keyBits)
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
        switch slice {
        case .page(let pageOffset, let pageLimit):
            (offset, limit) = (pageOffset, pageLimit)
        case .around(let userID, let radius):
            let rows = try await postgres.run(
                PlayerPosition(board: board, window: window.rawValue, period: period, userID: userID, tieBreak: tieBreak))
            // Not on the board: an empty page (limit 0) still brings the board's size.
            if let position = rows.first?.position {
                offset = max(position - radius, 0)
                limit = position + radius - offset + 1
            } else {
                found = false
            }
        }
        let rows = try await postgres.run(
            BoardPage(board: board, window: window.rawValue, period: period, offset: offset, limit: limit, tieBreak: tieBreak))
        let counts = rows[0].counts
        let page = rows.compactMap(\.listed)
        let places = page.map { RankingPlace(score: $0.score, key: $0.tieKey) }
        let ranks = CompetitionRanking.ranks(scores: places, pageOffset: offset, firstRank: counts.above + 1)
        let entries = page.indices.map {
            LeaderboardEntry(rank: ranks[$0], userId: page[$0].userID, displayName: page[$0].displayName, score: places[$0].score)
        }
        return RankedEntries(players: counts.players, offset: offset, entries: entries, live: false, found: found)
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

/// The tie-break key (`TieBreakSQL.key`) of the `board_scores` row aliased `row`, around a statement's bound policy.
private func tieKey(_ row: String) -> (String) -> String {
    { TieBreakSQL.key(policy: $0, row: row) }
}

/// Whether the row aliased `row` ranks above the one aliased `other` (`TieBreakSQL.ranksAbove`), around a statement's
/// bound policy.
private func ranksAbove(_ row: String, _ other: String) -> (String) -> String {
    { TieBreakSQL.ranksAbove(policy: $0, row: row, other: other) }
}

/// A row of a board's counts LEFT JOINed with a player who may be absent: the counts always, the player's columns when
/// its `user_id` is not NULL (the join found one).
private struct CountsAndListed<Counts: Decodable & Sendable, Listed: Decodable & Sendable>: Decodable, Sendable {
    let counts: Counts
    let listed: Listed?

    /// Reads the counts, and the player unless `user_id` is NULL.
    init(from decoder: any Decoder) throws {
        counts = try Counts(from: decoder)
        listed = try decoder.container(keyedBy: Key.self).decodeNil(forKey: .userID) ? nil : try Listed(from: decoder)
    }

    /// The column that tells whether the join found a player.
    private enum Key: CodingKey { case userID }
}

/// Some players' ranks on one board period, with the board's size (the fallback of `compare`); the LEFT JOIN keeps the
/// board's size when none of the players is on it.
private struct ComparedPlayers: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        WITH counts AS (
            SELECT count(*) AS players FROM board_scores WHERE board = \(\.board) AND board_window = \(\.window) AND period = \(\.period)),
        listed AS (
            SELECT s.user_id, s.score, \(\.policy, in: tieKey("s")) AS tie_key, u.display_name, u.handle,
                   (SELECT count(*) FROM board_scores x WHERE x.board = \(\.board) AND x.board_window = \(\.window) AND x.period = \(\.period)
                      AND \(\.policy, in: ranksAbove("x", "s"))) AS above
            FROM board_scores s JOIN users u USING (user_id)
            WHERE s.board = \(\.board) AND s.board_window = \(\.window) AND s.period = \(\.period) AND s.user_id = ANY(\(\.userIDs)))
        SELECT c.players, l.user_id, l.score, l.display_name, l.above
        FROM counts c LEFT JOIN listed l ON true
        ORDER BY l.score DESC, l.tie_key, l.handle
        """

    /// The board's size, and one listed player unless none is on the board.
    typealias Row = CountsAndListed<Counts, Listed>

    /// The board's size.
    struct Counts: Decodable, Sendable { let players: Int }

    /// A player on the board: the count of players above and the score.
    struct Listed: Decodable, Sendable {
        let userID: String
        let score: Int64
        let displayName: String?
        let above: Int
    }

    let board: String
    let window: String
    let period: String
    let userIDs: [String]
    /// The board's tie-break.
    let tieBreak: TieBreak
    /// The tie-break as bound.
    var policy: String { tieBreak.rawValue }
}

/// One player's rank, score and board size on each of several board periods where the player has a score, in the
/// periods' order (`i` from 1), each ranked under its board's tie-break.
private struct RanksOnPeriods: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT x.i, s.score,
               (SELECT count(*) FROM board_scores c WHERE c.board = s.board AND c.board_window = s.board_window
                  AND c.period = s.period AND \(unescaped: TieBreakSQL.ranksAbove(policy: "x.tie_break", row: "c", other: "s"))) AS above,
               (SELECT count(*) FROM board_scores c WHERE c.board = s.board AND c.board_window = s.board_window
                                                     AND c.period = s.period) AS players
        FROM \(unnest: \.periods, BoardPeriod.columns, as: "x", ordinality: "i")
        JOIN board_scores s ON s.board = x.board AND s.board_window = x.board_window AND s.period = x.period
                           AND s.user_id = \(\.userID)
        ORDER BY x.i
        """
    struct Row: Decodable, Sendable {
        /// The period's position in `periods`, from 1.
        let i: Int
        let score: Int64
        let above: Int
        let players: Int
    }
    let periods: [BoardPeriod]
    let userID: String
}

/// A player's position on one board period (0-based: players ranked above, then those tied before it by handle); no
/// row when the player is not on it.
private struct PlayerPosition: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT (SELECT count(*) FROM board_scores x WHERE x.board = s.board AND x.board_window = s.board_window
                  AND x.period = s.period AND \(\.policy, in: ranksAbove("x", "s")))
             + (SELECT count(*) FROM board_scores x JOIN users xu USING (user_id) WHERE x.board = s.board
                  AND x.board_window = s.board_window AND x.period = s.period AND x.score = s.score
                  AND \(\.policy, in: tieKey("x")) = \(\.policy, in: tieKey("s")) AND xu.handle < u.handle)
               AS position
        FROM board_scores s JOIN users u USING (user_id)
        WHERE s.board = \(\.board) AND s.board_window = \(\.window) AND s.period = \(\.period) AND s.user_id = \(\.userID)
        """
    struct Row: Decodable, Sendable { let position: Int }
    let board: String
    let window: String
    let period: String
    let userID: String
    /// The board's tie-break.
    let tieBreak: TieBreak
    /// The tie-break as bound.
    var policy: String { tieBreak.rawValue }
}

/// A page of one board period (a top-N sort: no index orders it by score, as one would make every score update a
/// non-HOT update), with the board's size and the players above the page's first score, in one statement so the page
/// and the counts come from one snapshot; the LEFT JOIN keeps the counts row when the page is empty.
private struct BoardPage: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        WITH page AS MATERIALIZED (
            SELECT s.user_id, s.score, \(\.policy, in: tieKey("s")) AS tie_key, u.handle, u.display_name FROM board_scores s JOIN users u USING (user_id)
            WHERE s.board = \(\.board) AND s.board_window = \(\.window) AND s.period = \(\.period)
            ORDER BY s.score DESC, tie_key, u.handle LIMIT \(\.limit) OFFSET \(\.offset)),
        first AS (SELECT score, tie_key FROM page ORDER BY score DESC, tie_key LIMIT 1),
        counts AS (
            SELECT count(*) AS players,
                   count(*) FILTER (WHERE b.score > f.score OR (b.score = f.score AND \(\.policy, in: tieKey("b")) < f.tie_key)) AS above
            FROM board_scores b LEFT JOIN first f ON true WHERE b.board = \(\.board) AND b.board_window = \(\.window) AND b.period = \(\.period))
        SELECT c.players, c.above, p.user_id, p.score, p.tie_key, p.display_name
        FROM counts c LEFT JOIN page p ON true
        ORDER BY p.score DESC, p.tie_key, p.handle
        """

    /// The counts, and one entry of the page unless it is empty.
    typealias Row = CountsAndListed<Counts, Listed>

    /// The board's size and the players above the page's first score (all of them for an empty page).
    struct Counts: Decodable, Sendable {
        let players: Int
        let above: Int
    }

    /// An entry of the page.
    struct Listed: Decodable, Sendable {
        let userID: String
        let score: Int64
        let tieKey: Int64
        let displayName: String?
    }

    let board: String
    let window: String
    let period: String
    let offset: Int
    let limit: Int
    /// The board's tie-break.
    let tieBreak: TieBreak
    /// The tie-break as bound.
    var policy: String { tieBreak.rawValue }
}
