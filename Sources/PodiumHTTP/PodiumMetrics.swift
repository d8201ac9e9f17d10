import Foundation
import Metrics
import PodiumCore
import PodiumStore
import PodiumWire
import Prometheus
import Synchronization

/// Prometheus wiring shared by `podium serve` and the tests: the factory, the catalogue of every metric with its
/// help text, and what is read fresh at each scrape.
public enum PodiumMetrics {
    /// A metrics factory writing into `registry`, with names and labels made valid for the Prometheus text format
    /// and histogram buckets that suit Podium's latencies and batch sizes.
    public static func factory(registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.nameAndLabelSanitizer = { name, labels in
            (sanitize(name), labels.map { (sanitize($0.0), $0.1) })
        }
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
            .seconds(30), .seconds(60), .seconds(300),
        ]
        factory.defaultValueHistogramBuckets = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]
        return factory
    }

    /// Replaces every character outside `[A-Za-z0-9_:]` with `_`.
    static func sanitize(_ name: String) -> String {
        String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") ? $0 : "_" })
    }

    /// Every metric Podium exposes, with its help text: `/metrics` writes these as `# HELP` lines, and ops/README.md lists them.
    static let catalogue: [String: String] = [
        "podium_http_requests_total": "HTTP requests answered, by method, route template and status code.",
        "podium_http_request_errors_total": "HTTP requests answered with a 4xx or 5xx problem, by method, route template and status class.",
        "podium_http_request_duration_seconds": "Time from a request's arrival until its answer was ready (a stream's: until it ended), by method and route template.",
        "podium_http_requests_aborted_total": "HTTP requests the client abandoned before they could be answered (it closed or reset the connection while sending the body), by reason; not in podium_http_requests_total.",
        "podium_http_requests_in_flight": "HTTP requests being served now (open live streams included).",
        "podium_completions_recorded_total": "Completions recorded, by outcome: created, replayed (same id and body again) or conflict.",
        "podium_implausible_completions_total": "Player-token completions refused as implausible, by rule.",
        "podium_group_commit_batch_size": "Completions written per ingest transaction (group commit).",
        "podium_rate_limit_rejections_total": "Requests refused with 429 by a rate limit, by limit.",
        "podium_postgres_pool_size": "Connections the PostgreSQL pool may open.",
        "podium_postgres_pool_in_use": "PostgreSQL pool connections borrowed now.",
        "podium_postgres_pool_waiters": "Callers waiting for a PostgreSQL pool connection.",
        "podium_redis_pool_size": "Connections the Redis pool may open.",
        "podium_redis_pool_in_use": "Redis pool connections borrowed now.",
        "podium_redis_pool_waiters": "Callers waiting for a Redis pool connection.",
        "podium_postgres_up": "1 when PostgreSQL answered a ping at this scrape, else 0.",
        "podium_postgres_read_standby_lag_seconds": "How far behind the primary the standby of PODIUM_DATABASE_READ_URL is at most: the time since the newest measured primary position it has replayed (absent without a standby, or until it first caught up with one; it keeps growing while the standby stops replaying or answering).",
        "podium_postgres_read_standby_in_use": "1 while reads that may be slightly behind go to the standby of PODIUM_DATABASE_READ_URL, 0 while they go to the primary.",
        "podium_redis_up": "1 when Redis answered a ping at this scrape, else 0 (rankings degraded: reads come from PostgreSQL).",
        "podium_rankings_pending": "Board updates recorded in PostgreSQL and not yet applied to Redis.",
        "podium_rankings_last_rebuild_timestamp_seconds": "When this replica last finished rebuilding the Redis rankings from PostgreSQL (Unix time).",
        "podium_live_listeners": "Live leaderboard streams (Server-Sent Events) open on this replica.",
        "podium_job_runs_total": "Scheduled job attempts finished, by job and outcome.",
        "podium_job_duration_seconds": "How long job attempts ran, by job.",
        "podium_job_items_total": "What job runs did (periods closed, snapshots taken, rows pruned…), by job and item.",
        "podium_job_lateness_seconds": "How long after its slot a job attempt started, by job.",
        "podium_job_last_success_timestamp_seconds": "When a run of the job last succeeded on this replica (Unix time), by job.",
        "podium_periods_last_closed_end_timestamp_seconds": "End of the newest closed period (Unix time), by window.",
        "podium_periods_overdue": "Periods whose close time passed over a minute ago and that are still open, by window.",
        "podium_medals_awarded_total": "Medals awarded by period closes, by window and medal.",
        "podium_outbox_head_event_id": "The newest event id in the outbox.",
        "podium_outbox_dispatch_lag_events": "Events not yet fanned out into webhook deliveries.",
        "podium_webhook_attempts_total": "Webhook delivery attempts, by outcome: delivered or failed.",
        "podium_webhook_deliveries_total": "Webhook deliveries ended, by outcome: delivered or dead (attempts used up).",
        "podium_webhook_pending_deliveries": "Deliveries waiting to be sent, by webhook.",
        "podium_webhook_dead_deliveries": "Deliveries that used up their attempts (resend them from the console or the API), by webhook.",
        "podium_webhook_oldest_undelivered_age_seconds": "Age of the oldest delivery still waiting, by webhook; 0 when none waits.",
        "podium_build_info": "Always 1; its labels name the running version and commit.",
        "process_resident_memory_bytes": "Resident memory size.",
        "process_virtual_memory_bytes": "Virtual memory size.",
        "process_open_fds": "Open file descriptors.",
        "process_max_fds": "The most file descriptors the process may open.",
        "process_cpu_seconds_total": "User and system CPU time spent.",
        "process_start_time_seconds": "When the process started (Unix time).",
    ]

    /// The registry's text with a `# HELP` line before each metric's `# TYPE` line.
    static func exposition(of registry: PrometheusCollectorRegistry) -> String {
        let text = String(decoding: registry.emitToBuffer(), as: UTF8.self)
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# TYPE "), let name = line.dropFirst("# TYPE ".count).split(separator: " ").first,
               let help = catalogue[String(name)] {
                lines.append("# HELP \(name) \(help)")
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

/// Sets the gauges read at each scrape: pools, servers, periods, outbox, webhooks, the process, and the build.
final class ScrapeGauges: Sendable {
    private let probe: ServiceProbe
    private let replica: ReadReplica
    private let now: @Sendable () -> Date
    /// Webhooks reported at the last scrape: one deleted since is reported as 0 rather than left at its last value.
    private let reportedWebhooks = Mutex<Set<String>>([])
    /// When the figures were last read: scrapes within `freshness` of it reuse them, so however often `/metrics`
    /// (which needs no key) is asked, the servers get at most one round of pings and queries per interval.
    private let lastRead = Mutex<ContinuousClock.Instant?>(nil)
    /// How long read figures are reused.
    static let freshness = Duration.seconds(5)

    /// Creates the gauges over `probe`'s figures and `replica`'s standby.
    init(probe: ServiceProbe, replica: ReadReplica, now: @escaping @Sendable () -> Date) {
        self.probe = probe
        self.replica = replica
        self.now = now
        Gauge(label: "podium_build_info", dimensions: [("version", BuildInfo.version), ("commit", BuildInfo.commit)]).record(1)
    }

    /// Reads everything and sets the gauges, unless another scrape did so less than `freshness` ago.
    func refresh() async {
        let due = lastRead.withLock { last in
            let now = ContinuousClock.now
            guard last.map({ now - $0 >= Self.freshness }) ?? true else { return false }
            last = now
            return true
        }
        guard due else { return }
        let figures = await probe.figures(now: now())
        for (server, pool) in [("postgres", figures.postgresPool), ("redis", figures.redisPool)] {
            Gauge(label: "podium_\(server)_pool_size").record(pool.size)
            Gauge(label: "podium_\(server)_pool_in_use").record(pool.inUse)
            Gauge(label: "podium_\(server)_pool_waiters").record(pool.waiters)
        }
        Gauge(label: "podium_postgres_up").record(figures.postgresUp ? 1 : 0)
        if replica.standby != nil {
            let replica = replica.figures
            if let lag = replica.lagSeconds { Gauge(label: "podium_postgres_read_standby_lag_seconds").record(lag) }
            Gauge(label: "podium_postgres_read_standby_in_use").record(replica.usingStandby ? 1 : 0)
        }
        Gauge(label: "podium_redis_up").record(figures.redisUp ? 1 : 0)
        for (window, values) in figures.windows {
            let labels = [("window", window.rawValue)]
            Gauge(label: "podium_periods_overdue", dimensions: labels).record(values.overdue)
            if let end = values.lastClosedEnd {
                Gauge(label: "podium_periods_last_closed_end_timestamp_seconds", dimensions: labels).record(end.timeIntervalSince1970)
            }
        }
        if let head = figures.outboxHead { Gauge(label: "podium_outbox_head_event_id").record(head) }
        if let lag = figures.dispatchLag { Gauge(label: "podium_outbox_dispatch_lag_events").record(lag) }
        if figures.postgresUp {
            let gone = reportedWebhooks.withLock { reported in
                defer { reported = Set(figures.webhooks.keys) }
                return reported.subtracting(figures.webhooks.keys)
            }
            let webhooks = figures.webhooks.merging(gone.map { ($0, .idle) }) { $1 }
            for (id, values) in webhooks {
                let labels = [("webhook", id)]
                Gauge(label: "podium_webhook_pending_deliveries", dimensions: labels).record(values.pending)
                Gauge(label: "podium_webhook_dead_deliveries", dimensions: labels).record(values.dead)
                Gauge(label: "podium_webhook_oldest_undelivered_age_seconds", dimensions: labels).record(values.oldestUndeliveredAge)
            }
        }
        ProcessFigures.read()?.record()
    }
}

/// The process's own figures, from `/proc/self` (Linux; elsewhere they are left out).
struct ProcessFigures {
    var residentBytes: Double
    var virtualBytes: Double
    var cpuSeconds: Double
    var startTime: Double
    var openDescriptors: Int
    var maxDescriptors: Double?

    /// Reads `/proc/self/stat`, `/proc/self/fd`, `/proc/self/limits` and the boot time; nil where there is no `/proc`.
    static func read() -> ProcessFigures? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards) else { return nil }
        // Fields after the command name, which may hold spaces; field 3 (state) is index 0 here.
        let fields = stat[afterName.upperBound...].split(separator: " ")
        guard fields.count > 21, let utime = Double(fields[11]), let stime = Double(fields[12]), let started = Double(fields[19]),
              let virtual = Double(fields[20]), let resident = Double(fields[21]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
        let bootTime = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("btime ") }
            .flatMap { Double($0.dropFirst("btime ".count)) } ?? 0
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        let maxDescriptors = (try? String(contentsOfFile: "/proc/self/limits", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("Max open files") }
            .flatMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first }
            .flatMap { Double($0) }
        return ProcessFigures(
            residentBytes: resident * pageSize, virtualBytes: virtual, cpuSeconds: (utime + stime) / ticks,
            startTime: bootTime + started / ticks, openDescriptors: descriptors, maxDescriptors: maxDescriptors)
    }

    /// Sets the `process_*` metrics.
    func record() {
        Gauge(label: "process_resident_memory_bytes").record(residentBytes)
        Gauge(label: "process_virtual_memory_bytes").record(virtualBytes)
        Gauge(label: "process_open_fds").record(openDescriptors)
        if let maxDescriptors { Gauge(label: "process_max_fds").record(maxDescriptors) }
        Gauge(label: "process_start_time_seconds").record(startTime)
        ProcessFigures.cpu.withLock { counter in
            // A counter only goes up: add what was spent since the last scrape.
            let spent = cpuSeconds - counter.reported
            if spent > 0 {
                counter.metric.increment(by: spent)
                counter.reported = cpuSeconds
            }
        }
    }

    private static let cpu = Mutex((metric: FloatingPointCounter(label: "process_cpu_seconds_total"), reported: 0.0))
}
