import Prometheus

/// Prometheus wiring shared by `podium serve` and the tests.
public enum PodiumMetrics {
    /// A metrics factory writing into `registry`, with names and labels made valid for the
    /// Prometheus text format (Hummingbird's `http.server.request.duration` becomes
    /// `http_server_request_duration`).
    public static func factory(registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.nameAndLabelSanitizer = { name, labels in
            (sanitize(name), labels.map { (sanitize($0.0), $0.1) })
        }
        return factory
    }

    /// Replaces every character outside `[A-Za-z0-9_:]` with `_`.
    static func sanitize(_ name: String) -> String {
        String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") ? $0 : "_" })
    }
}
