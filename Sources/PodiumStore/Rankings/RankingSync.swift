import Foundation
import Logging
import Metrics
import PodiumCore
import PodiumWire
import Postgres
import Redis

/// What a rebuild did.
public struct RebuildReport: Sendable, Equatable {
    /// Board periods written.
    public var boards: Int
    /// Player entries written.
    public var entries: Int
}

/// What the ranking sync still has to do, as PostgreSQL holds it.
public struct RankingBacklog: Sendable, Equatable {
    /// Completions whose scores are not yet confirmed in Redis (`podium_rankings_pending`).
    public var unranked: Int
    /// Whether erasures wait to be repeated in Redis (each for a minute).
    public var erasures: Bool
    /// Whether display names Redis missed wait.
    public var names: Bool

    /// Whether nothing waits.
    public var isEmpty: Bool { unranked == 0 && !erasures && !names }
}

/// Keeps Redis equal to PostgreSQL: catches up rankings that missed Redis, rebuilds every board.
///
/// Every write is an absolute score taken from `board_scores` with `ZADD … LT`, so running any
/// of this twice, or alongside live ingest, can never double-count or lower a score.
public struct RankingSync: Sendable {
    let postgres: PostgresPool
    let redis: RedisClient
    let rankings: RankingWriter
    let rules: GameRules
    let logger: Logger
    /// Completions younger than this are left to the writer that recorded them.
    let settle: TimeInterval
    /// Called after pending erasures were applied in Redis (the replica's remembered members are forgotten).
    let erased: @Sendable () -> Void
    /// The clock a rebuild reads: its lease times, the erasures it repeats and its ready marker.
    let now: @Sendable () -> Date

    /// Creates the sync; `now` is the clock a rebuild reads (the storage's clock); `erased` runs after each pass that
    /// applied pending erasures in Redis.
    public init(
        postgres: PostgresPool, redis: RedisClient, rules: GameRules, logger: Logger, settle: TimeInterval = 5,
        now: @escaping @Sendable () -> Date, erased: @escaping @Sendable () -> Void = {}
    ) {
        self.erased = erased
        self.postgres = postgres
        self.redis = redis
        self.rankings = RankingWriter(redis: redis)
        self.rules = rules
        self.logger = logger
        self.settle = settle
        self.now = now
    }

    /// What waits for the sync in PostgreSQL, in one read.
    public func backlog() async throws -> RankingBacklog {
        let row = try await postgres.run(SyncBacklog())[0]
        return RankingBacklog(unranked: row.unranked, erasures: row.erasures, names: row.names)
    }

    /// Whether Redis holds complete rankings (its ready markers); false when Redis cannot be asked.
    public func rankingsReady() async -> Bool {
        (try? await hasReadyMarkers()) == true
    }

    /// Whether the ready markers that stand for the whole of Redis are there (`RankingLayout.readyMarkersToCheck`).
    private func hasReadyMarkers() async throws -> Bool {
        let markers = try await rankings.layout.readyMarkersToCheck(on: redis)
        return try await redis.pipeline(markers.map { ["EXISTS", $0] }).allSatisfy { $0 == .integer(1) }
    }

    /// One pass: rebuild if Redis lost its data, apply pending erasures, then catch up unranked completions.
    /// Returns how many completions were caught up.
    @discardableResult
    public func synchronize(now: Date) async throws -> Int {
        if try await !hasReadyMarkers() {
            logger.notice("Redis has no rankings marker: rebuilding from PostgreSQL")
            let started = ContinuousClock.now
            do {
                let report = try await rebuild()
                logger.notice("rebuilt rankings", metadata: [
                    "boards": "\(report.boards)", "entries": "\(report.entries)", "duration": "\(ContinuousClock.now - started)",
                ])
            } catch is RebuildInProgress {
                return 0
            }
        }
        try await applyPendingErasures(now: now)
        try await applyPendingDisplayNames()
        var caughtUp = 0
        while true {
            let done = try await catchUp(now: now, limit: 1000)
            caughtUp += done
            if done < 1000 { return caughtUp }
        }
    }

    /// Writes the current scores of up to `limit` unranked completions recorded before `now - settle`; returns how many.
    public func catchUp(now: Date, limit: Int) async throws -> Int {
        let rows = try await postgres.run(UnrankedCompletions(recordedBefore: now.addingTimeInterval(-settle), limit: limit))
        guard !rows.isEmpty else { return 0 }
        var wanted = Set<PlayerBoardPeriod>()
        for row in rows {
            let groups = row.groups.split(separator: ",").map(String.init)
            let periods = rules.boardPeriods(quizID: row.quizID, topic: row.topic, groups: groups, completedAt: row.completedAt, now: row.recordedAt).open
            for period in periods {
                wanted.insert(PlayerBoardPeriod(
                    board: period.board.id, window: period.period.window.rawValue, period: period.period.key, userID: row.userID))
            }
        }
        let replaced = wanted.filter { rules.replacesPlaces(ofBoard: $0.board) }
        let (updates, players) = try scoreUpdates(try await postgres.run(WantedScores(wanted: Array(wanted.subtracting(replaced)))))
        try await rankings.write(updates, players: players)
        try await writeLocked(Array(replaced))
        try await postgres.run(MarkRanked(ids: rows.map(\.id), completedAts: rows.map(\.completedAt)))
        logger.info("caught up rankings", metadata: ["completions": "\(rows.count)", "entries": "\(wanted.count)"])
        return rows.count
    }

    /// The updates and players of `rows` (`WantedScores`).
    private func scoreUpdates(_ rows: [WantedScores.Row]) throws -> ([ScoreUpdate], [RankedPlayer]) {
        var updates: [ScoreUpdate] = []
        var players: [String: RankedPlayer] = [:]
        for row in rows {
            let window = LeaderboardWindow(rawValue: row.boardWindow) ?? .all
            let player = try row.columns.player()
            updates.append(ScoreUpdate(
                key: RankingKeys.board(row.board, window, row.period), member: player.member,
                place: row.place(tieBreak: rules.tieBreak(ofBoard: row.board)), replaces: rules.replacesPlaces(ofBoard: row.board)))
            players[player.member] = player
        }
        return (updates, Array(players.values))
    }

    /// Writes the places of `wanted` on `latest` boards, whose places Redis replaces: each chunk is read fresh under
    /// its players' locks (`PlayerLocks`), held until Redis is written, as a batch holds them from its read to its
    /// commit, after its own write. A place read without the lock could be older than one a batch wrote meanwhile.
    private func writeLocked(_ wanted: [PlayerBoardPeriod]) async throws {
        for start in stride(from: 0, to: wanted.count, by: 500) {
            let chunk = Array(wanted[start..<min(start + 500, wanted.count)])
            try await postgres.withSession { session in
                let rows = try await session.run { connection in
                    try connection.execute("BEGIN")
                    try connection.run(LockPlayers(userIDs: chunk.map(\.userID)))
                    return try connection.run(WantedScores(wanted: chunk))
                }
                let (updates, players) = try scoreUpdates(rows)
                try await rankings.write(updates, players: players)
                try await session.run { try $0.execute("COMMIT") }
            }
        }
    }

    /// How long an erasure is repeated: longer than any ranking write of a completion committed before it.
    static let erasureRetention: TimeInterval = 60

    /// Removes erased players from Redis again; an erasure older than `erasureRetention` is applied a last time and dropped.
    public func applyPendingErasures(now: Date) async throws {
        let rows = try await postgres.run(PendingErasures())
        defer { if !rows.isEmpty { erased() } }
        for row in rows {
            try await rankings.erase(row.erasure)
            if row.erasedAt < now.addingTimeInterval(-Self.erasureRetention) {
                try await postgres.run(ForgetErasure(userID: row.userID, erasedAt: row.erasedAt))
            }
        }
    }

    /// Brings Redis to the stored display names of players whose name change missed it, then forgets them.
    ///
    /// A row queued again while this ran (its `queued_at` moved) is kept for the next pass.
    public func applyPendingDisplayNames() async throws {
        let rows = try await postgres.run(PendingDisplayNames())
        guard !rows.isEmpty else { return }
        // A player erased since has no row left; the erasure removed the name.
        try await send(rankings.layout.playerCommands(try rows.compactMap { try $0.player() }))
        try await postgres.run(ForgetDisplayNames(applied: rows.map { QueuedDisplayName(userID: $0.userID, queuedAt: $0.queuedAt) }))
    }

    /// Rebuilds every board period and the ranking hashes (members, display names) from PostgreSQL.
    ///
    /// Each board is written to a temporary key and renamed over the live one, so readers never
    /// see a half-built board; scores that changed while it ran are written again at the end,
    /// and boards Redis has but PostgreSQL does not are deleted.
    /// `progress` gets (entries written, entries in all) after each chunk.
    @discardableResult
    public func rebuild(progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) async throws -> RebuildReport {
        let run = UUID().uuidString.lowercased()
        guard try await acquireRebuildLease(run) else { throw RebuildInProgress() }
        do {
            let report = try await rebuild(run: run, progress: progress)
            try await releaseRebuildLease(run)
            Gauge(label: "podium_rankings_last_rebuild_timestamp_seconds").record(now().timeIntervalSince1970)
            logger.info("rankings rebuilt from PostgreSQL", metadata: ["boards": "\(report.boards)", "entries": "\(report.entries)"])
            return report
        } catch {
            try? await discardTemporaryBoards(run)
            try? await releaseRebuildLease(run)
            throw error
        }
    }

    /// How long the rebuild lease lasts unless renewed. A rebuild renews it before every write that
    /// replaces or deletes a live board, so a rebuild that was killed (Ctrl-C on `podium rankings
    /// rebuild`) holds up the next one at most this long, and one that stalled past it writes nothing more.
    static let rebuildLease: TimeInterval = 60

    /// Takes the rebuild lease in PostgreSQL unless another run holds an unexpired one.
    private func acquireRebuildLease(_ run: String) async throws -> Bool {
        let at = now()
        return try await !postgres.run(TakeRebuildLease(holder: run, expiresAt: at.addingTimeInterval(Self.rebuildLease), now: at)).isEmpty
    }

    /// Extends the lease; throws `RebuildInProgress` when another run has taken it (this one stalled
    /// past its lease), so two rebuilds never go on side by side.
    private func renewRebuildLease(_ run: String) async throws {
        let held = try await postgres.run(RenewRebuildLease(holder: run, expiresAt: now().addingTimeInterval(Self.rebuildLease)))
        guard !held.isEmpty else { throw RebuildInProgress() }
    }

    private func releaseRebuildLease(_ run: String) async throws {
        try await postgres.run(ReleaseRebuildLease(holder: run))
    }

    private func rebuild(run: String, progress: @escaping @Sendable (Int, Int) -> Void) async throws -> RebuildReport {
        // Scores written from well before the start are written again at the end (idempotent):
        // a batch that began earlier may commit after its board was copied.
        let started = now().addingTimeInterval(-300)
        let total = try await postgres.run(OpenScoreCount())[0].n
        var staleKeys = try await boardKeys()
        var report = RebuildReport(boards: 0, entries: 0)
        var current: String?
        // The tie-break of `current`'s board.
        var tieBreak = TieBreak.shared
        // Keyset paging, a window at a time, in board period order: no long-lived cursor. The next page is read while
        // this one is turned into commands and sent, so PostgreSQL and Redis work side by side with Podium.
        for window in LeaderboardWindow.allCases {
            var next = readPage(window, after: (board: "", period: "", userID: ""))
            defer { next.cancel() }
            while true {
                let rows = try await next.value
                guard let last = rows.last else { break }
                next = readPage(window, after: (last.board, last.period, last.userID))
                var commands: [[String]] = []
                var members: [String] = []
                func flush(_ key: String) {
                    guard !members.isEmpty else { return }
                    commands.append(["ZADD", "\(key):rebuild:\(run)"] + members)
                    members.removeAll(keepingCapacity: true)
                }
                for row in rows {
                    let window = LeaderboardWindow(rawValue: row.boardWindow) ?? .all
                    let key = RankingKeys.board(row.board, window, row.period)
                    if key != current {
                        tieBreak = rules.tieBreak(ofBoard: row.board)
                        if let current {
                            flush(current)
                            commands.append(["RENAME", "\(current):rebuild:\(run)", current])
                        }
                        commands.append(["DEL", "\(key):rebuild:\(run)"])
                        staleKeys.remove(key)
                        current = key
                        report.boards += 1
                    }
                    members.append(row.place(tieBreak: tieBreak).storedValue)
                    members.append(try RankingMember.member(ofHandle: row.handle))
                    if members.count >= 2_000 { flush(key) }
                    report.entries += 1
                }
                if let current { flush(current) }
                try await renewRebuildLease(run)
                try await send(commands)
                progress(report.entries, total)
            }
        }
        try await renewRebuildLease(run)
        if let current { try await send([["RENAME", "\(current):rebuild:\(run)", current]]) }
        try await send(staleKeys.map { ["DEL", $0] })
        // From here on every write is an absolute value from PostgreSQL: harmless even from a run that stalled.
        try await rebuildPlayers()
        try await rewriteChanged(since: started)
        try await applyPendingErasures(now: now())
        try await renewRebuildLease(run)
        let builtAt = RFC3339.format(now())
        try await send(rankings.layout.readyMarkers.map { ["SET", $0, builtAt] })
        return report
    }

    /// Sorted-set keys Redis holds now (boards absent from PostgreSQL are deleted by a rebuild).
    /// Deletes the temporary board a failed or stopped rebuild `run` was writing (a rebuild writes one at a time).
    private func discardTemporaryBoards(_ run: String) async throws {
        try await send(try await redis.scanKeys(matching: "podium:lb:*:rebuild:\(run)").map { ["DEL", $0] })
    }

    /// The live board keys (not the temporary ones of a rebuild).
    private func boardKeys() async throws -> Set<String> {
        Set(try await redis.scanKeys(matching: "podium:lb:*").filter { !$0.contains(":rebuild:") })
    }

    /// Starts reading the page of `window`'s open scores after `after`.
    private func readPage(_ window: LeaderboardWindow, after: (board: String, period: String, userID: String))
        -> Task<[OpenBoardScorePage.Row], any Error> {
        let postgres = postgres
        return Task { try await postgres.run(OpenBoardScorePage(window, after: after)) }
    }

    private func send(_ commands: [[String]]) async throws {
        guard !commands.isEmpty else { return }
        let replies = try await redis.pipeline(commands)
        try replies.throwFirstError(operation: "rebuild pipeline")
    }

    /// Writes every player's hash fields (member, user id, display name or none, so a name cleared while
    /// Redis kept the old one goes) into the live hashes, a page of players at a time (bounded memory);
    /// erasure removes the rest, so no temporary hash is needed. The user-id-keyed name hash of Podium
    /// before migration 011 goes.
    private func rebuildPlayers() async throws {
        try await send([["DEL", RankingKeys.legacyDisplayNames]])
        var after: Int64 = 0
        while true {
            let rows = try await postgres.run(PlayersAfter(handle: after))
            guard let last = rows.last else { return }
            after = last.handle
            try await send(rankings.layout.playerCommands(try rows.map { try $0.player() }))
        }
    }

    /// How far back `rewriteRecent` writes scores again: longer than a Redis replica could lag behind its primary and
    /// still be promoted.
    static let failoverWindow: TimeInterval = 60

    /// Writes again every score and every player's hash fields changed since `failoverWindow` before `instant`: after
    /// a Redis Cluster failover, the promoted replica may have missed the last writes its primary acknowledged
    /// (replication is asynchronous), and those completions are already marked ranked. Absolute writes (`ZADD … LT`,
    /// `HSET`): repeating them changes nothing.
    public func rewriteRecent(before instant: Date) async throws {
        let since = instant.addingTimeInterval(-Self.failoverWindow)
        try await rewriteChanged(since: since)
        var after: Int64 = 0
        while true {
            let rows = try await postgres.run(PlayersUpdatedSince(since: since, handle: after))
            guard let last = rows.last else { return }
            after = last.handle
            try await send(rankings.layout.playerCommands(try rows.map { try $0.player() }))
        }
    }

    /// Writes again every score changed since `since`, a page at a time, a window at a time.
    private func rewriteChanged(since: Date) async throws {
        for window in LeaderboardWindow.allCases {
            var after = (board: "", period: "", userID: "")
            while true {
                let rows = try await postgres.run(OpenBoardScorePage(window, after: after, updatedSince: since))
                guard let last = rows.last else { break }
                after = (last.board, last.period, last.userID)
                let replaced = rows.filter { rules.replacesPlaces(ofBoard: $0.board) }
                try await rankings.write(try rows.filter { !rules.replacesPlaces(ofBoard: $0.board) }.map { row in
                    ScoreUpdate(
                        key: RankingKeys.board(row.board, window, row.period), member: try RankingMember.member(ofHandle: row.handle),
                        place: row.place(tieBreak: rules.tieBreak(ofBoard: row.board)))
                })
                try await writeLocked(replaced.map {
                    PlayerBoardPeriod(board: $0.board, window: $0.boardWindow, period: $0.period, userID: $0.userID)
                })
            }
        }
    }
}

/// One player's score on one board period, as the catch-up looks it up.
struct PlayerBoardPeriod: Hashable {
    /// The board's id.
    let board: String
    /// The window's name.
    let window: String
    /// The period's key.
    let period: String
    /// The player.
    let userID: String

    /// The columns the catch-up joins `board_scores` on.
    static let columns = PostgresColumns<PlayerBoardPeriod>(
        .column("board", "text", { $0.board }), .column("board_window", "text", { $0.window }),
        .column("period", "text", { $0.period }), .column("user_id", "text", { $0.userID }))
}

/// A queued display-name change, named by when it was queued so that a newer one queued meanwhile is kept.
struct QueuedDisplayName {
    /// The player.
    let userID: String
    /// When the change was queued.
    let queuedAt: Date

    /// The columns the applied queue entries are deleted by.
    static let columns = PostgresColumns<QueuedDisplayName>(
        .column("user_id", "text", { $0.userID }), .column("queued_at", "timestamptz", { $0.queuedAt }))
}

/// What waits for the ranking sync: completions not ranked, erasures and display names to repeat in Redis.
private struct SyncBacklog: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT (SELECT count(*) FROM completions WHERE NOT ranked) AS unranked,
               EXISTS (SELECT 1 FROM pending_ranking_erasures) AS erasures,
               EXISTS (SELECT 1 FROM pending_display_names) AS names
        """
    struct Row: Decodable, Sendable {
        let unranked: Int
        let erasures: Bool
        let names: Bool
    }
}

/// The oldest completions not yet ranked that were recorded before a time, with what decides their board periods.
private struct UnrankedCompletions: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT id, user_id, quiz_id, topic, array_to_string(groups, ',') AS groups, completed_at, recorded_at
        FROM completions WHERE NOT ranked AND recorded_at < \(\.recordedBefore) ORDER BY recorded_at LIMIT \(\.limit)
        """
    struct Row: Decodable, Sendable {
        let id: String
        let userID: String
        let quizID: String
        let topic: String
        /// The groups, comma-separated.
        let groups: String
        let completedAt: Date
        let recordedAt: Date
    }
    let recordedBefore: Date
    let limit: Int
}

/// The current scores (places, handles and names) of the wanted players on the wanted board periods.
private struct WantedScores: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT s.board, s.board_window, s.period, s.user_id, u.handle, \(unescaped: RankingPlaces.columns("s")), u.display_name
        FROM board_scores s JOIN users u USING (user_id)
        JOIN \(unnest: \.wanted, PlayerBoardPeriod.columns, as: "w")
          ON s.board = w.board AND s.board_window = w.board_window AND s.period = w.period AND s.user_id = w.user_id
        """
    typealias Row = PlacedRow<Columns>

    /// The row's columns besides the place: the board period and the player as the ranking hashes know them.
    struct Columns: Decodable, Sendable, RankedPlayerColumns {
        let board: String
        let boardWindow: String
        let period: String
        let userID: String
        let handle: Int64
        let displayName: String?
    }
    let wanted: [PlayerBoardPeriod]
}

/// Marks completions ranked, each by its key; the times again on their own let PostgreSQL open only their months'
/// partitions.
private struct MarkRanked: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        UPDATE completions c SET ranked = true FROM unnest(\(\.ids)::text[], \(\.completedAts)::timestamptz[]) AS x(id, completed_at)
        WHERE c.id = x.id AND c.completed_at = x.completed_at AND c.completed_at = ANY(\(\.completedAts))
        """
    typealias Row = NoRows
    let ids: [String]
    /// Each completion's `completed_at`, in the order of `ids`.
    let completedAts: [Date]
}

/// The erasures to repeat in Redis: each player's members and board period keys, and when it was erased.
private struct PendingErasures: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT user_id, array_to_string(members, ' ') AS members, array_to_string(redis_keys, ' ') AS keys, erased_at
        FROM pending_ranking_erasures
        """
    struct Row: Decodable, Sendable {
        let userID: String
        /// The members, space-separated.
        let members: String?
        /// The board period keys, space-separated.
        let keys: String?
        let erasedAt: Date

        /// What Redis must forget.
        var erasure: RankingErasure { RankingErasure(userID: userID, spacedMembers: members, spacedKeys: keys) }
    }
}

/// Drops one erasure after its last repetition.
private struct ForgetErasure: PostgresStatement {
    static let sql: PostgresSQL<Self> = "DELETE FROM pending_ranking_erasures WHERE user_id = \(\.userID) AND erased_at = \(\.erasedAt)"
    typealias Row = NoRows
    let userID: String
    let erasedAt: Date
}

/// The queued display-name changes Redis missed, with each player's handle and stored name (none once erased).
private struct PendingDisplayNames: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT p.user_id, p.queued_at, u.handle, u.display_name FROM pending_display_names p LEFT JOIN users u USING (user_id)
        ORDER BY p.user_id LIMIT 10000
        """
    struct Row: Decodable, Sendable {
        let userID: String
        let queuedAt: Date
        /// NULL for a player erased since.
        let handle: Int64?
        let displayName: String?

        /// The player as the hashes should know them; nil for a player erased since.
        func player() throws -> RankedPlayer? {
            try handle.map { RankedPlayer(member: try RankingMember.member(ofHandle: $0), userID: userID, displayName: displayName) }
        }
    }
}

/// Forgets the applied display-name changes, each by when it was queued, so one queued meanwhile is kept.
private struct ForgetDisplayNames: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        DELETE FROM pending_display_names p USING \(unnest: \.applied, QueuedDisplayName.columns, as: "x")
        WHERE p.user_id = x.user_id AND p.queued_at = x.queued_at
        """
    typealias Row = NoRows
    let applied: [QueuedDisplayName]
}

/// Takes the rebuild lease unless another holder's has not expired; answers the holder when taken.
private struct TakeRebuildLease: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO maintenance_leases (name, holder, expires_at) VALUES ('rankings-rebuild', \(\.holder), \(\.expiresAt))
        ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
        WHERE maintenance_leases.expires_at < \(\.now)
        RETURNING holder
        """
    struct Row: Decodable, Sendable { let holder: String }
    let holder: String
    let expiresAt: Date
    let now: Date
}

/// Extends the rebuild lease while `holder` holds it; answers the holder when it did.
private struct RenewRebuildLease: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        UPDATE maintenance_leases SET expires_at = \(\.expiresAt) WHERE name = 'rankings-rebuild' AND holder = \(\.holder) RETURNING holder
        """
    struct Row: Decodable, Sendable { let holder: String }
    let holder: String
    let expiresAt: Date
}

/// Gives up the rebuild lease if `holder` still holds it.
private struct ReleaseRebuildLease: PostgresStatement {
    static let sql: PostgresSQL<Self> = "DELETE FROM maintenance_leases WHERE name = 'rankings-rebuild' AND holder = \(\.holder)"
    typealias Row = NoRows
    let holder: String
}

/// How many board scores a rebuild writes: those of periods not closed.
private struct OpenScoreCount: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT count(*) AS n FROM board_scores s WHERE \(unescaped: BoardScoreTables.openPeriods)"
    struct Row: Decodable, Sendable { let n: Int }
}

/// A page of players after a handle, in handle order, as the ranking hashes know them.
private struct PlayersAfter: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT user_id, handle, display_name FROM users WHERE handle > \(\.handle) ORDER BY handle LIMIT 20000
        """
    typealias Row = RankedPlayerRow
    /// The last handle of the page before (0: from the start).
    let handle: Int64
}

/// A page of players updated since a time, after a handle, in handle order, as the ranking hashes know them.
private struct PlayersUpdatedSince: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT user_id, handle, display_name FROM users WHERE updated_at >= \(\.since) AND handle > \(\.handle) ORDER BY handle LIMIT 20000
        """
    typealias Row = RankedPlayerRow
    let since: Date
    /// The last handle of the page before (0: from the start).
    let handle: Int64
}
