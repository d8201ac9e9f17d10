import Foundation
import Hummingbird
import Logging
import PodiumStore
import Prometheus

/// `/healthz`, `/readyz`, `/metrics`, `/openapi.json`: no key needed.
struct HealthController {
    let storage: PodiumStorage
    let registry: PrometheusCollectorRegistry

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
        async let postgres = Self.check("PostgreSQL", logger: context.logger) { try await storage.pingPostgreSQL() }
        async let redis = Self.check("Redis", logger: context.logger) { try await storage.pingRedis() }
        let (postgresStatus, redisStatus) = await (postgres, redis)
        let status = postgresStatus != "ok" ? "not ready" : redisStatus != "ok" ? "degraded" : "ready"
        var response = try HTTPSupport.json(
            HealthStatus(status: status, postgres: postgresStatus, redis: redisStatus), status: postgresStatus == "ok" ? .ok : .serviceUnavailable)
        if postgresStatus != "ok" { response.headers[.retryAfter] = "2" }
        return response
    }

    /// Handles `GET /metrics`.
    @Sendable func metrics(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
    }

    /// Handles `GET /openapi.json`.
    @Sendable func openAPI(_ request: Request, context: PodiumRequestContext) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try OpenAPIDocument.data())))
    }

    /// "ok" or "unavailable"; the cause goes to the log only, since the probe needs no key and libpq's
    /// messages name hosts, ports, users and databases.
    private static func check(_ server: String, logger: Logger, _ probe: () async throws -> Void) async -> String {
        do {
            try await probe()
            return "ok"
        } catch {
            logger.warning("readiness check failed", metadata: ["server": "\(server)", "error": "\(error)"])
            return "unavailable"
        }
    }
}

/// The answer of the health probes.
struct HealthStatus: Codable, Sendable {
    /// `ok`, `ready` or `not ready`.
    var status: String
    /// PostgreSQL check result (readiness only).
    var postgres: String?
    /// Redis check result (readiness only).
    var redis: String?
}
