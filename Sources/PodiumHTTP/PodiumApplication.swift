import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import PodiumCore
import PodiumScheduler
import PodiumStore
import Prometheus

/// HTTP settings, from the environment in `podium serve`.
public struct HTTPSettings: Sendable {
    /// Address to listen on.
    public var host: String
    /// Port to listen on.
    public var port: Int
    /// A bootstrap admin key accepted without being stored (quick start, first key creation).
    public var bootstrapAdminKey: String?
    /// Whether leaderboard reads need no key.
    public var publicLeaderboards: Bool
    /// How long a rendered leaderboard answer is reused (0 disables).
    public var leaderboardCacheLifetime: Duration
    /// How long one live stream stays open before the server ends it (clients reconnect with `Last-Event-ID`,
    /// which also spreads listeners over replicas again).
    public var liveStreamLifetime: Duration
    /// Whether every request gets an access log line at `info`.
    public var accessLog: Bool
    /// Attempts a resent dead webhook delivery gets.
    public var webhookAttempts: Int
    /// How player tokens are verified (off without keys).
    public var playerTokens: PlayerTokenSettings
    /// Web origins allowed to call the API from a browser.
    public var cors: CORSPolicy
    /// The address people open Podium's pages at (`https://podium.school.example`, no trailing slash), for the display
    /// links it hands out; nil: the address each request was sent to (`http://` and its `Host`).
    public var publicURL: String?
    /// Limits on connections: timeouts and how many at once.
    public var connections: ConnectionLimits
    /// Requests per minute per caller.
    public var rateLimits: RateLimits
    /// What a player token's completions must respect.
    public var plausibility: PlausibilityRules

    /// Creates settings; the defaults suit the quick start.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, bootstrapAdminKey: String? = nil, publicLeaderboards: Bool = false,
        leaderboardCacheLifetime: Duration = .milliseconds(1000), liveStreamLifetime: Duration = .seconds(300), accessLog: Bool = true,
        webhookAttempts: Int = WebhookStore.defaultMaxAttempts,
        playerTokens: PlayerTokenSettings = PlayerTokenSettings(), cors: CORSPolicy = CORSPolicy(),
        connections: ConnectionLimits = ConnectionLimits(), rateLimits: RateLimits = RateLimits(),
        plausibility: PlausibilityRules = PlausibilityRules(), publicURL: String? = nil
    ) {
        self.publicURL = publicURL
        self.host = host
        self.port = port
        self.bootstrapAdminKey = bootstrapAdminKey
        self.publicLeaderboards = publicLeaderboards
        self.leaderboardCacheLifetime = leaderboardCacheLifetime
        self.liveStreamLifetime = liveStreamLifetime
        self.accessLog = accessLog
        self.webhookAttempts = webhookAttempts
        self.playerTokens = playerTokens
        self.cors = cors
        self.connections = connections
        self.rateLimits = rateLimits
        self.plausibility = plausibility
    }
}

/// Builds Podium's router and application.
public enum PodiumApplication {
    /// Every route with its middleware; throws when the player token keys cannot be used.
    ///
    /// Public routes (`/healthz`, `/readyz`, `/metrics`, `/openapi.json`, `/display/…`) are added before the auth
    /// middleware, so they ignore `Authorization` whatever it holds.
    public static func router(
        storage: PodiumStorage, scheduler: Scheduler, runs: JobRunStore, settings: HTTPSettings, registry: PrometheusCollectorRegistry,
        logger: Logger, webhookTester: (any WebhookTesting)? = nil, now: @escaping @Sendable () -> Date
    ) async throws -> Router<PodiumRequestContext> {
        let router = Router(context: PodiumRequestContext.self, options: .autoGenerateHeadEndpoints)
        let cache = LeaderboardCache(lifetime: settings.leaderboardCacheLifetime)
        // A change any replica made drops this replica's cached pages of it before live streams read them again.
        storage.live.onChange { keys in cache.invalidate(keys: keys) }
        let directory = KeyDirectory.following(storage, logger: logger)
        let playerTokens = settings.playerTokens.isEnabled ? try await PlayerTokens(settings: settings.playerTokens) : nil
        router.add(middleware: RequestObserverMiddleware(accessLog: settings.accessLog))
        router.add(middleware: CORSMiddleware(policy: settings.cors))
        router.add(middleware: ProblemMiddleware(logger: logger))
        let routes = RouteTable()
        router.add(middleware: MethodAnswersMiddleware(routes: routes, cors: settings.cors))
        let leaderboards = LeaderboardsController(
            snapshots: storage.snapshots, boards: storage.boards,
            users: storage.users, follows: storage.follows, liveRankings: storage.live,
            pages: LeaderboardPages(reads: storage.boardReads, cache: cache, closeGrace: storage.rules.closeGrace, now: now),
            contests: storage.contests,
            liveStreamLifetime: settings.liveStreamLifetime, credentials: CredentialWatch(directory: directory, now: now), rules: storage.rules,
            now: now)
        HealthController(
            probe: storage.probe, registry: registry, gauges: ScrapeGauges(probe: storage.probe, replica: storage.replica, now: now),
            readiness: ReadinessLog(logger: logger)
        ).addRoutes(to: router)
        leaderboards.addPublicRoutes(to: router)
        // The console and the docs hold no data: their scripts call the API with the key the person enters.
        StaticSite.console.addRoutes(to: router)
        StaticSite.docs.addRoutes(to: router)
        let limiter = storage.rateLimiter
        router.add(middleware: AuthMiddleware(
            directory: directory, bootstrapAdminHash: settings.bootstrapAdminKey.map(ApiKeyStore.hash), playerTokens: playerTokens,
            publicLeaderboards: settings.publicLeaderboards, limiter: limiter, limits: settings.rateLimits, now: now))
        router.add(middleware: RateLimitMiddleware(limiter: limiter, limits: settings.rateLimits, now: now))
        router.add(middleware: AuditMiddleware(audit: storage.audit, logger: logger, now: now))
        CompletionsController(
            writer: storage.writer, batch: storage.batch, store: storage.completions, rules: storage.rules, plausibility: settings.plausibility, cache: cache, now: now
        ).addRoutes(to: router)
        leaderboards.addRoutes(to: router)
        let standings = LeagueStandings(leagues: storage.leagues, leaderboards: storage.leaderboards, rules: storage.rules, now: now)
        let goalProgress = GoalStandings(goals: storage.goals, rules: storage.rules, now: now)
        UsersController(
            users: storage.users, erasure: storage.erasure, follows: storage.follows, periods: storage.periods, snapshots: storage.snapshots,
            leagues: standings, goals: goalProgress, cache: cache, now: now
        ).addRoutes(to: router)
        EventsController(events: storage.events).addRoutes(to: router)
        AdminController(
            apiKeys: storage.apiKeys, audit: storage.audit, users: storage.users, reminders: storage.reminders,
            rankingSync: storage.rankingSync, rules: storage.rules, keyDirectory: directory, cache: cache, publicURL: settings.publicURL,
            now: now
        ).addRoutes(to: router)
        WebhooksController(webhooks: storage.webhooks, attempts: settings.webhookAttempts, tester: webhookTester, now: now).addRoutes(to: router)
        ContestsController(contests: storage.contests, closing: storage.closing, users: storage.users, rules: storage.rules, cache: cache, now: now)
            .addRoutes(to: router)
        LeaguesController(
            leagues: storage.leagues, closing: storage.closing, users: storage.users, standings: standings, rules: storage.rules, cache: cache,
            now: now
        ).addRoutes(to: router)
        GoalsController(goals: storage.goals, standings: goalProgress, rules: storage.rules, now: now).addRoutes(to: router)
        JobsController(
            scheduler: scheduler, runs: runs, periods: storage.periods, closing: storage.closing, users: storage.users, rules: storage.rules,
            cache: cache, now: now
        ).addRoutes(to: router)
        routes.fill(from: router)
        return router
    }

    /// The application serving `router` on the settings' address, with its connection limits; `onServerRunning` gets
    /// the listening channel once it is bound (its local address names the port when the settings' port is 0).
    public static func application(
        router: Router<PodiumRequestContext>, settings: HTTPSettings, logger: Logger,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let limits = settings.connections
        let registry = ConnectionRegistry(limit: limits.maxConnections)
        return Application(
            router: ChildTaskResponderBuilder(inner: router),
            server: .http1(configuration: .init(
                additionalChannelHandlers: [ConnectionGuard(limits: limits, registry: registry)], idleTimeout: TimeAmount(limits.idleTimeout))),
            configuration: .init(
                address: .hostname(settings.host, port: settings.port), serverName: "podium", backlog: limits.backlog,
                availableConnectionsDelegate: ConnectionLimitDelegate(registry: registry)),
            onServerRunning: { channel in
                // NIO accepts 4 connections per wake of the listening socket: with thousands of live streams an event loop
                // turn is long, and a larger batch drains a burst of new clients from the backlog in fewer turns.
                try? await channel.setOption(ChannelOptions.maxMessagesPerRead, value: limits.acceptBatch).get()
                await onServerRunning(channel)
            },
            logger: logger)
    }
}
