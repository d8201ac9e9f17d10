import Foundation
import Logging
import Metrics
import PodiumCore
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
        let row = try await postgres.query("""
            SELECT (SELECT count(*) FROM completions WHERE NOT ranked) AS unranked,
                   EXISTS (SELECT 1 FROM pending_ranking_erasures) AS erasures,
                   EXISTS (SELECT 1 FROM pending_display_names) AS names
            """).rows[0]
        return RankingBacklog(unranked: try row.int("unranked"), erasures: try row.bool("erasures"), names: try row.bool("names"))
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
        let rows = try await postgres.query("""
            SELECT id, user_id, topic, array_to_string(groups, ',') AS groups, completed_at, recorded_at
            FROM completions WHERE NOT ranked AND recorded_at < $1 ORDER BY recorded_at LIMIT $2
            """, [now.addingTimeInterval(-settle), limit]).rows
        guard !rows.isEmpty else { return 0 }
        var wanted = Set<PlayerBoardPeriod>()
        for row in rows {
            let groups = try row.string("groups").split(separator: ",").map(String.init)
            let periods = rules.boardPeriods(
                topic: try row.string("topic"), groups: groups, completedAt: try row.date("completed_at"),
                now: try row.date("recorded_at")).open
            for period in periods {
                wanted.insert(PlayerBoardPeriod(
                    board: period.board.id, window: period.period.window.rawValue, period: period.period.key, userID: try row.string("user_id")))
            }
        }
        let scores = try await postgres.query("""
            SELECT s.board, s.board_window, s.period, s.user_id, u.handle, \(unescaped: RankingPlaces.columns("s")), u.display_name
            FROM board_scores s JOIN users u USING (user_id)
            JOIN \(unnest: Array(wanted), PlayerBoardPeriod.columns, as: "w")
              ON s.board = w.board AND s.board_window = w.board_window AND s.period = w.period AND s.user_id = w.user_id
            """).rows
        var updates: [ScoreUpdate] = []
        var players: [String: RankedPlayer] = [:]
        for row in scores {
            let window = LeaderboardWindow(rawValue: try row.string("board_window")) ?? .all
            let member = try row.member()
            let board = try row.string("board")
            updates.append(ScoreUpdate(
                key: RankingKeys.board(board, window, try row.string("period")), member: member,
                place: try row.place(tieBreak: rules.tieBreak(ofBoard: board))))
            players[member] = RankedPlayer(member: member, userID: try row.string("user_id"), displayName: row["display_name"])
        }
        try await rankings.write(updates, players: Array(players.values))
        // Each row by its key; the times again on their own let PostgreSQL open only their months' partitions.
        let times = try rows.map { try $0.date("completed_at") }
        try await postgres.query("""
            UPDATE completions c SET ranked = true FROM unnest($1::text[], $2::timestamptz[]) AS x(id, completed_at)
            WHERE c.id = x.id AND c.completed_at = x.completed_at AND c.completed_at = ANY($2)
            """, [try rows.map { try $0.string("id") }, times])
        logger.info("caught up rankings", metadata: ["completions": "\(rows.count)", "entries": "\(updates.count)"])
        return rows.count
    }

    /// How long an erasure is repeated: longer than any ranking write of a completion committed before it.
    static let erasureRetention: TimeInterval = 60

    /// Removes erased players from Redis again; an erasure older than `erasureRetention` is applied a last time and dropped.
    public func applyPendingErasures(now: Date) async throws {
        let rows = try await postgres.query("""
            SELECT user_id, array_to_string(members, ' ') AS members, array_to_string(redis_keys, ' ') AS keys, erased_at
            FROM pending_ranking_erasures
            """).rows
        defer { if !rows.isEmpty { erased() } }
        for row in rows {
            let user = try row.string("user_id")
            try await rankings.erase(try RankingErasure(row: row))
            if try row.date("erased_at") < now.addingTimeInterval(-Self.erasureRetention) {
                try await postgres.query("DELETE FROM pending_ranking_erasures WHERE user_id = $1 AND erased_at = $2",
                                         [user, try row.date("erased_at")])
            }
        }
    }

    /// Brings Redis to the stored display names of players whose name change missed it, then forgets them.
    ///
    /// A row queued again while this ran (its `queued_at` moved) is kept for the next pass.
    public func applyPendingDisplayNames() async throws {
        let rows = try await postgres.query("""
            SELECT p.user_id, p.queued_at, u.handle, u.display_name FROM pending_display_names p LEFT JOIN users u USING (user_id)
            ORDER BY p.user_id LIMIT 10000
            """).rows
        guard !rows.isEmpty else { return }
        // A player erased since has no row left; the erasure removed the name.
        try await send(rankings.layout.playerCommands(try rows.filter { $0["handle"] != nil }.map(RankedPlayer.init(row:))))
        let applied = try rows.map { QueuedDisplayName(userID: try $0.string("user_id"), queuedAt: try $0.date("queued_at")) }
        try await postgres.query("""
            DELETE FROM pending_display_names p USING \(unnest: applied, QueuedDisplayName.columns, as: "x")
            WHERE p.user_id = x.user_id AND p.queued_at = x.queued_at
            """)
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
        return try await !postgres.query("""
            INSERT INTO maintenance_leases (name, holder, expires_at) VALUES ('rankings-rebuild', $1, $2)
            ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
            WHERE maintenance_leases.expires_at < $3
            RETURNING holder
            """, [run, at.addingTimeInterval(Self.rebuildLease), at]).rows.isEmpty
    }

    /// Extends the lease; throws `RebuildInProgress` when another run has taken it (this one stalled
    /// past its lease), so two rebuilds never go on side by side.
    private func renewRebuildLease(_ run: String) async throws {
        let held = try await postgres.query("""
            UPDATE maintenance_leases SET expires_at = $2 WHERE name = 'rankings-rebuild' AND holder = $1 RETURNING holder
            """, [run, now().addingTimeInterval(Self.rebuildLease)]).rows
        guard !held.isEmpty else { throw RebuildInProgress() }
    }

    private func releaseRebuildLease(_ run: String) async throws {
        try await postgres.query("DELETE FROM maintenance_leases WHERE name = 'rankings-rebuild' AND holder = $1", [run])
    }

    private func rebuild(run: String, progress: @escaping @Sendable (Int, Int) -> Void) async throws -> RebuildReport {
        // Scores written from well before the start are written again at the end (idempotent):
        // a batch that began earlier may commit after its board was copied.
        let started = now().addingTimeInterval(-300)
        let total = try await postgres.query("SELECT count(*) AS n FROM board_scores s WHERE \(Self.notClosed)").rows[0].int("n")
        var staleKeys = try await boardKeys()
        var report = RebuildReport(boards: 0, entries: 0)
        var current: String?
        // The tie-break of `current`'s board.
        var tieBreak = TieBreak.shared
        // Keyset paging, a window at a time, in board period order: no long-lived cursor.
        for window in LeaderboardWindow.allCases {
            var after = (board: "", period: "", userID: "")
            while true {
                let rows = try await postgres.query(BoardScoreTables.page(window, after: after, filter: Self.notClosed, limit: 20_000)).rows
                guard let last = rows.last else { break }
                after = (try last.string("board"), try last.string("period"), try last.string("user_id"))
                var commands: [[String]] = []
                var members: [String] = []
                func flush(_ key: String) {
                    guard !members.isEmpty else { return }
                    commands.append(["ZADD", "\(key):rebuild:\(run)"] + members)
                    members.removeAll(keepingCapacity: true)
                }
                for row in rows {
                    let window = LeaderboardWindow(rawValue: try row.string("board_window")) ?? .all
                    let board = try row.string("board")
                    let key = RankingKeys.board(board, window, try row.string("period"))
                    if key != current {
                        tieBreak = rules.tieBreak(ofBoard: board)
                        if let current {
                            flush(current)
                            commands.append(["RENAME", "\(current):rebuild:\(run)", current])
                        }
                        commands.append(["DEL", "\(key):rebuild:\(run)"])
                        staleKeys.remove(key)
                        current = key
                        report.boards += 1
                    }
                    members.append(try row.place(tieBreak: tieBreak).storedValue)
                    members.append(try row.member())
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

    /// Closed periods are read from their final snapshots, so their sorted sets are not rebuilt.
    ///
    /// `NOT IN` over the (few) closed periods is planned as one hashed subplan; the equivalent
    /// `NOT EXISTS` let the planner pick a scan of `board_periods` per score row, which made a
    /// 1,000,000-player rebuild take 67 s instead of about 15.
    private static let notClosed = """
        (s.board, s.board_window, s.period) NOT IN (SELECT board, board_window, period FROM board_periods WHERE closed_at IS NOT NULL)
        """

    /// Sorted-set keys Redis holds now (boards absent from PostgreSQL are deleted by a rebuild).
    /// Deletes the temporary board a failed or stopped rebuild `run` was writing (a rebuild writes one at a time).
    private func discardTemporaryBoards(_ run: String) async throws {
        try await send(try await redis.scanKeys(matching: "podium:lb:*:rebuild:\(run)").map { ["DEL", $0] })
    }

    /// The live board keys (not the temporary ones of a rebuild).
    private func boardKeys() async throws -> Set<String> {
        Set(try await redis.scanKeys(matching: "podium:lb:*").filter { !$0.contains(":rebuild:") })
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
            let rows = try await postgres.query("""
                SELECT user_id, handle, display_name FROM users WHERE handle > $1 ORDER BY handle LIMIT 20000
                """, [after]).rows
            guard let last = rows.last else { return }
            after = try last.int64("handle")
            try await send(rankings.layout.playerCommands(try rows.map(RankedPlayer.init(row:))))
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
            let rows = try await postgres.query("""
                SELECT user_id, handle, display_name FROM users WHERE updated_at >= $1 AND handle > $2 ORDER BY handle LIMIT 20000
                """, [since, after]).rows
            guard let last = rows.last else { return }
            after = try last.int64("handle")
            try await send(rankings.layout.playerCommands(try rows.map(RankedPlayer.init(row:))))
        }
    }

    /// Writes again every score changed since `since`, a page at a time, a window at a time.
    private func rewriteChanged(since: Date) async throws {
        for window in LeaderboardWindow.allCases {
            var after = (board: "", period: "", userID: "")
            while true {
                let rows = try await postgres.query(
                    BoardScoreTables.page(window, after: after, filter: Self.notClosed, updatedSince: since, limit: 20_000)).rows
                guard let last = rows.last else { break }
                after = (try last.string("board"), try last.string("period"), try last.string("user_id"))
                try await rankings.write(try rows.map { row in
                    ScoreUpdate(
                        key: RankingKeys.board(try row.string("board"), window, try row.string("period")), member: try row.member(),
                        place: try row.place(tieBreak: rules.tieBreak(ofBoard: try row.string("board"))))
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
