import Foundation
import Hummingbird
import Logging
import PodiumStore
import PodiumWire
import Prometheus
import Synchronization

/// `/healthz`, `/readyz`, `/metrics`, `/openapi.json`: no key needed.
struct HealthController {
    /// Asks PostgreSQL and Redis whether they answer.
    let probe: ServiceProbe
    let registry: PrometheusCollectorRegistry
    /// Gauges read fresh at each scrape.
    let gauges: ScrapeGauges
    /// The last readiness answered, so that a change is logged once.
    let readiness: ReadinessLog

    /// Registers this controller's routes on `router`.
    func addRoutes(to router: some RouterMethods<PodiumRequestContext>) {
        router.get("/healthz", use: health)
        router.get("/readyz", use: ready)
        router.get("/metrics", use: metrics)
        router.get("/openapi.json", use: openAPI)
    }

    /// Handles `GET /healthz`.
    @Sendable func health(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        try HTTPSupport.json(HealthStatus(status: "ok", postgres: nil, redis: nil))
    }

    /// Handles `GET /readyz`: 503 only when PostgreSQL does not answer.
    ///
    /// Without Redis the replica still records completions and serves leaderboards from PostgreSQL,
    /// so it stays in rotation, `degraded`: a probe that took every replica out while Redis is down
    /// would turn that degraded service into an outage.
    @Sendable func ready(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        async let postgres = check("PostgreSQL") { try await probe.pingPostgreSQL() }
        async let redis = check("Redis") { try await probe.pingRedis() }
        let (postgresStatus, redisStatus) = await (postgres, redis)
        let status = postgresStatus != "ok" ? "not ready" : redisStatus != "ok" ? "degraded" : "ready"
        readiness.note(status, logger: context.logger)
        var response = try HTTPSupport.json(
            HealthStatus(status: status, postgres: postgresStatus, redis: redisStatus), status: postgresStatus == "ok" ? .ok : .serviceUnavailable)
        if postgresStatus != "ok" { response.headers[.retryAfter] = "2" }
        return response
    }

    /// Handles `GET /metrics`.
    @Sendable func metrics(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        await gauges.refresh()
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: PodiumMetrics.exposition(of: registry))))
    }

    /// Handles `GET /openapi.json`.
    @Sendable func openAPI(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try OpenAPIDocument.data())))
    }

    /// "ok" or "unavailable"; the cause goes to the log only (throttled: probes come every few seconds), since the
    /// probe needs no key and libpq's messages name hosts, ports, users and databases.
    private func check(_ server: String, _ probe: () async throws -> Void) async -> String {
        do {
            try await probe()
            return "ok"
        } catch {
            readiness.checkFailed.log("readiness check failed", metadata: ["server": "\(server)", "error": "\(error)"])
            return "unavailable"
        }
    }
}

/// Readiness as last answered: a change (ready, degraded, not ready) is logged once, at `info` when ready again and
/// `warning` otherwise.
final class ReadinessLog: Sendable {
    private let last = Mutex<String?>(nil)
    /// Failed checks, throttled.
    let checkFailed: ThrottledLog

    /// Creates the record, logging failed checks on `logger`.
    init(logger: Logger) {
        checkFailed = ThrottledLog(logger)
    }

    /// Notes the readiness just answered and logs it if it changed.
    func note(_ status: String, logger: Logger) {
        let previous = last.withLock { last in
            defer { last = status }
            return last
        }
        guard previous != status else { return }
        logger.log(level: status == "ready" ? .info : .warning, "readiness changed", metadata: [
            "readiness": "\(status)", "previous": "\(previous ?? "none")"])
    }
}
