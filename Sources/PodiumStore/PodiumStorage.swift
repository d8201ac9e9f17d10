import Foundation
import Logging
import PodiumCore
import Postgres
import Redis

/// Every store, built once over the two pools; the pools themselves stay inside the store target.
public struct PodiumStorage: Sendable {
    /// The PostgreSQL pool (the truth).
    let postgres: PostgresPool
    /// The Redis pool (live rankings).
    let redis: RedisClient
    /// Game rules in force.
    public let rules: GameRules
    /// Records completions.
    public let completions: CompletionStore
    /// Group-commit front of `completions`.
    public let writer: CompletionWriter
    /// Offline-sync batch rules over `writer`.
    public let batch: CompletionBatch
    /// The boards that took scores.
    public let boards: BoardStore
    /// Request rate limits (token buckets in Redis).
    public let rateLimiter: RateLimiter
    /// Reads rankings.
    public let leaderboards: LeaderboardStore
    /// Players.
    public let users: UserStore
    /// Erases a player everywhere.
    public let erasure: PlayerErasure
    /// Who follows whom.
    public let follows: FollowStore
    /// API keys.
    public let apiKeys: ApiKeyStore
    /// Keeps Redis equal to PostgreSQL.
    public let rankingSync: RankingSync
    /// Change notices of board periods for live streams (a service the server runs).
    public let live: LiveRankings
    /// Board periods: which are due or open, medals, closed boards.
    public let periods: PeriodStore
    /// Closing board periods: snapshots, medals, league moves and events in one transaction.
    public let closing: PeriodClosing
    /// Reading a board period: live while open, its final board once closed.
    public let boardReads: BoardReads
    /// Scheduled snapshots and rank history.
    public let snapshots: SnapshotStore
    /// The events outbox.
    public let events: EventStore
    /// Compares Redis with PostgreSQL and repairs drift.
    public let reconciler: RankingReconciler
    /// Reminder checks and closed days.
    public let reminders: ReminderStore
    /// Webhook registrations and deliveries.
    public let webhooks: WebhookStore
    /// Contests, and the registry `rules` reads them from.
    public let contests: ContestStore
    /// Leagues: definitions, placements and what each week's close did.
    public let leagues: LeagueStore
    /// Goals: definitions and the progress players and groups made.
    public let goals: GoalStore
    /// The audit trail of admin actions.
    public let audit: AuditStore
    /// Whether the servers answer, and the figures `/metrics` reports.
    public let probe: ServiceProbe
    /// What changed on any replica, for the background loops (a service the server runs).
    public let changes: ChangeNotices
    /// Where reads that may be slightly behind go, and the lag of the standby they may go to (a service the server runs).
    public let replica: ReadReplica

    /// Creates the stores; `now` is the clock every write and period decision uses. Reads that may be slightly behind
    /// go to `replica` (the primary when nil). On a Redis Cluster, players' names are served for `playerValueLifetime`
    /// after they were read (`PlayerValueCache`).
    public init(
        postgres: PostgresPool, replica: ReadReplica? = nil, redis: RedisClient, rules: GameRules, logger: Logger,
        now: @escaping @Sendable () -> Date,
        maxBatchSize: Int = CompletionWriter.defaultMaxBatchSize,
        maxConcurrentBatches: Int = CompletionWriter.defaultMaxConcurrentBatches, playerValueLifetime: Duration = .zero
    ) {
        self.postgres = postgres
        self.redis = redis
        self.rules = rules
        let replica = replica ?? .primaryOnly(postgres)
        self.replica = replica
        let rankings = RankingWriter(redis: redis)
        changes = ChangeNotices(configuration: postgres.configuration, logger: logger)
        completions = CompletionStore(postgres: postgres, rankings: rankings, rules: rules, changes: changes, logger: logger)
        writer = CompletionWriter(store: completions, maxBatchSize: maxBatchSize, maxConcurrentBatches: maxConcurrentBatches, now: now)
        batch = CompletionBatch(writer: writer, store: completions, logger: logger)
        boards = BoardStore(postgres: postgres)
        rateLimiter = RateLimiter(redis: redis, logger: logger)
        leaderboards = LeaderboardStore(
            postgres: postgres, replica: replica, redis: redis, rules: rules, logger: logger, erasures: changes.signal(.rankings),
            playerValueLifetime: playerValueLifetime)
        periods = PeriodStore(postgres: postgres, rules: rules)
        closing = PeriodClosing(postgres: postgres, rules: rules)
        boardReads = BoardReads(leaderboards: leaderboards, periods: periods)
        snapshots = SnapshotStore(postgres: postgres, replica: replica)
        events = EventStore(postgres: postgres, replica: replica)
        reconciler = RankingReconciler(postgres: postgres, redis: redis, rules: rules)
        reminders = ReminderStore(postgres: postgres)
        webhooks = WebhookStore(postgres: postgres)
        follows = FollowStore(postgres: postgres, rules: rules)
        contests = ContestStore(postgres: postgres, registry: rules.boards.contests)
        leagues = LeagueStore(postgres: postgres, contests: contests)
        goals = GoalStore(postgres: postgres, contests: contests)
        users = UserStore(
            postgres: postgres, replica: replica, leaderboards: leaderboards, periods: periods, rankings: rankings, follows: follows,
            rules: rules, logger: logger)
        erasure = PlayerErasure(postgres: postgres, leaderboards: leaderboards, rankings: rankings, rateLimiter: rateLimiter, logger: logger)
        apiKeys = ApiKeyStore(postgres: postgres)
        audit = AuditStore(postgres: postgres)
        probe = ServiceProbe(postgres: postgres, redis: redis, rules: rules)
        rankingSync = RankingSync(
            postgres: postgres, redis: redis, rules: rules, logger: logger, now: now, erased: { [leaderboards] in
                leaderboards.knownMembers.forgetAll()
                leaderboards.knownValues.forgetAll()
            })
        live = LiveRankings(redis: redis, logger: logger)
    }

}
