import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Metrics
import PodiumHTTP
import PodiumScheduler
import PodiumSettings
import PodiumWebhooks
import AsyncHTTPClient
import PodiumStore
import Prometheus
import ServiceLifecycle

/// `podium serve`: migrations, then the HTTP API, the ranking sync, the scheduler and the webhook sender until SIGTERM or SIGINT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the HTTP API and background work.")

    #if PODIUM_FAULT_HOOKS
    /// Fault injection for the drills, not settings; debug builds only (`FaultHooks`).
    @OptionGroup var faults: FaultHooks
    #endif

    func run() async throws {
        var settings = try Settings.load()
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PodiumMetrics.factory(registry: registry))
        #if PODIUM_FAULT_HOOKS
        var gated = try Runtime(settings: settings)
        gated.faults = faults
        let runtime = gated
        #else
        let runtime = try Runtime(settings: settings)
        #endif
        let logger = runtime.logger
        logger.info("podium starting", metadata: [
            "version": "\(BuildInfo.version)", "commit": "\(BuildInfo.commit)", "process": "\(ProcessInfo.processInfo.processIdentifier)"])
        fitConnectionLimit(&settings, logger: logger)
        logger.info("configuration", metadata: .init(uniqueKeysWithValues: settings.summary().map { ($0.name, .string($0.value)) }))
        let applied = try await runtime.migrateWhenPostgreSQLAnswers(within: settings.startupWait)
        if !applied.isEmpty { logger.info("migrations applied", metadata: ["versions": "\(applied)"]) }
        try await runtime.storage.contests.refresh()

        let scheduler = runtime.scheduler()
        let http = WebhookSender.makeHTTPClient(settings: settings.webhooks)
        let sender = WebhookSender(
            store: runtime.storage.webhooks, http: http, settings: settings.webhooks, replica: scheduler.replica, now: { Date() },
            logger: logger)
        let router: Router<PodiumRequestContext>
        do {
            router = try await PodiumApplication.router(
                storage: runtime.storage, scheduler: scheduler, runs: runtime.runs, settings: settings.http, registry: registry,
                logger: logger, webhookTester: sender, now: { Date() })
        } catch {
            try? await http.shutdown()  // an HTTP client must be shut down before it goes
            throw error
        }
        let app = PodiumApplication.application(router: router, settings: settings.http, logger: logger)
        let changes = runtime.storage.changes
        let sync = RankingSyncService(sync: runtime.storage.rankingSync, changes: changes, interval: settings.syncInterval, logger: logger)
        let contests = ContestRefreshService(store: runtime.storage.contests, changes: changes, logger: logger)
        let trim = MemoryTrimService(interval: .seconds(5))
        let jobs = SchedulerService(scheduler: scheduler, changes: changes, interval: settings.schedulerTick)
        let webhooks = WebhookService(sender: sender, changes: changes, interval: .milliseconds(500))
        var configuration = ServiceGroupConfiguration(
            // Shut down in reverse order: the HTTP server stops taking requests and drains first,
            // while the background loops and both pools still serve it.
            services: [
                // The pools first: they close last, once everything after them has stopped.
                .init(service: runtime.postgres), .init(service: runtime.redis),
            ] + (runtime.standby.map { [.init(service: $0)] } ?? []) + [
                // Then the notices: the loops after it wait on them.
                .init(service: changes), .init(service: runtime.storage.replica),
                .init(service: sync), .init(service: contests), .init(service: trim), .init(service: runtime.storage.live), .init(service: jobs), .init(service: webhooks),
                .init(service: ShutdownStep(
                    "HTTP drained; stopping the webhook sender, the scheduler (a running job gets what is left of PODIUM_SHUTDOWN_GRACE_S), live rankings and the ranking sync",
                    logger: logger)),
                .init(service: app),
                .init(service: ShutdownStep(
                    "shutdown requested: live streams end, and the HTTP server stops taking requests and drains open ones",
                    logger: logger, then: { runtime.storage.live.endAll() })),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger)
        // Past the grace, whatever still runs (a slow upload, a long job, a rebuild) is cancelled: a job's lease lets
        // another replica take over.
        configuration.maximumGracefulShutdownDuration = settings.shutdownGrace
        let group = ServiceGroup(configuration: configuration)
        logger.notice("podium listening", metadata: [
            "url": "http://\(settings.http.host):\(settings.http.port)", "replica": "\(scheduler.replica)"])
        do {
            try await group.run()
        } catch {
            try? await http.shutdown()
            logger.error("podium stopped after an error", metadata: ["error": "\(error)"])
            throw error
        }
        logger.info("services stopped, the connection pools last; closing the webhook client")
        try? await http.shutdown()
        logger.info("podium stopped")
    }
}

/// Raises the descriptor limit to its hard limit and keeps `PODIUM_MAX_CONNECTIONS` within it, leaving room for the
/// pools and everything else (128 descriptors), with a warning when the setting had to be lowered.
private func fitConnectionLimit(_ settings: inout Settings, logger: Logger) {
    guard let descriptors = DescriptorLimit.raise() else { return }
    let room = max(1, descriptors - settings.postgresPoolSize - settings.redisPoolSize - 128)
    let configured = settings.http.connections.maxConnections
    guard configured > room else { return }
    settings.http.connections.maxConnections = room
    logger.warning("PODIUM_MAX_CONNECTIONS is more than the descriptor limit leaves room for; raise the limit (ulimit -n) to use it", metadata: [
        "configured": "\(configured)", "using": "\(room)", "descriptor_limit": "\(descriptors)"])
}

/// A service that only logs `message` when the group's graceful shutdown reaches it: placed between the services,
/// its line marks each step of the shutdown (services stop in reverse order, each after the one behind it ended).
struct ShutdownStep: Service {
    let message: String
    let logger: Logger
    /// What else this step does when the shutdown reaches it.
    let action: @Sendable () -> Void

    init(_ message: String, logger: Logger, then action: @escaping @Sendable () -> Void = {}) {
        self.message = message
        self.logger = logger
        self.action = action
    }

    func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            return  // Cancelled: the group ends because a service failed, not by a graceful shutdown.
        }
        logger.info("\(message)")
        action()
    }
}
