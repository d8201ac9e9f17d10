import Foundation
import Hummingbird
import Logging
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
    /// Attempts a resent dead webhook delivery gets.
    public var webhookAttempts: Int

    /// Creates settings; the defaults suit the quick start.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, bootstrapAdminKey: String? = nil, publicLeaderboards: Bool = false,
        leaderboardCacheLifetime: Duration = .milliseconds(1000), webhookAttempts: Int = 8
    ) {
        self.host = host
        self.port = port
        self.bootstrapAdminKey = bootstrapAdminKey
        self.publicLeaderboards = publicLeaderboards
        self.leaderboardCacheLifetime = leaderboardCacheLifetime
        self.webhookAttempts = webhookAttempts
    }
}

/// Builds Podium's router and application.
public enum PodiumApplication {
    /// Every route with its middleware.
    public static func router(
        storage: PodiumStorage, scheduler: Scheduler, runs: JobRunStore, settings: HTTPSettings, registry: PrometheusCollectorRegistry,
        now: @escaping @Sendable () -> Date
    ) -> Router<PodiumRequestContext> {
        let router = Router(context: PodiumRequestContext.self)
        let cache = LeaderboardCache(lifetime: settings.leaderboardCacheLifetime)
        let keyCache = KeyCache()
        router.add(middleware: LogRequestsMiddleware(.debug))
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: ProblemMiddleware())
        router.add(middleware: AuthMiddleware(
            keys: storage.apiKeys, bootstrapAdminHash: settings.bootstrapAdminKey.map(ApiKeyStore.hash),
            publicLeaderboards: settings.publicLeaderboards, cache: keyCache))
        HealthController(storage: storage, registry: registry).addRoutes(to: router)
        CompletionsController(writer: storage.writer, store: storage.completions, rules: storage.rules, cache: cache, now: now).addRoutes(to: router)
        LeaderboardsController(
            leaderboards: storage.leaderboards, periods: storage.periods, snapshots: storage.snapshots, postgres: storage.postgres,
            rules: storage.rules, cache: cache, now: now
        ).addRoutes(to: router)
        UsersController(users: storage.users, periods: storage.periods, snapshots: storage.snapshots, cache: cache, now: now)
            .addRoutes(to: router)
        EventsController(events: storage.events).addRoutes(to: router)
        AdminController(storage: storage, keyCache: keyCache, cache: cache, now: now).addRoutes(to: router)
        WebhooksController(webhooks: storage.webhooks, attempts: settings.webhookAttempts, now: now).addRoutes(to: router)
        JobsController(scheduler: scheduler, runs: runs, periods: storage.periods, rules: storage.rules, cache: cache, now: now)
            .addRoutes(to: router)
        return router
    }

    /// The application serving `router` on the settings' address.
    public static func application(
        router: Router<PodiumRequestContext>, settings: HTTPSettings, logger: Logger
    ) -> some ApplicationProtocol {
        Application(
            router: router,
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "podium"),
            logger: logger)
    }
}
