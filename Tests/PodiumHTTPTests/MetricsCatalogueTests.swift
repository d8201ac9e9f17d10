import Foundation
@testable import PodiumHTTP
import Testing

@Suite("The metric catalogue", .timeLimit(.minutes(5)))
struct MetricsCatalogueTests {
    @Test("the catalogue that writes # HELP lines names exactly the metrics the dashboard and alerts are checked against")
    func catalogueMatchesTheMonitoringList() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let listed = try String(contentsOf: root.appendingPathComponent("ops/monitoring/metrics.txt"), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        #expect(Set(listed) == Set(PodiumMetrics.catalogue.keys))
        #expect(listed.count == Set(listed).count, "each once")
    }
}
