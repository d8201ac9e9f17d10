import Foundation
import Hummingbird
import Logging
@testable import PodiumHTTP
import PodiumTestSupport
import ServiceLifecycle
import Testing

/// Podium's own connection handling (`PodiumApplication.application`: timeouts, early answers, the connection limit)
/// on a real loopback port, with clients that behave as real slow, vanishing and idle clients do.
@Suite("Connection handling over real sockets", .timeLimit(.minutes(5)))
struct ConnectionHandlingTests {
    /// Runs `body` with the port of Podium's application over `harness`'s router, with `limits`; shuts it down after.
    static func withServer(
        _ harness: HTTPHarness, limits: ConnectionLimits, _ body: @Sendable (Int) async throws -> Void
    ) async throws {
        let logger = Logger(label: "connection-handling-tests")
        let (ports, announce) = AsyncStream.makeStream(of: Int.self)
        let app = PodiumApplication.application(
            router: harness.router, settings: HTTPSettings(host: "127.0.0.1", port: 0, connections: limits), logger: logger,
            onServerRunning: { channel in announce.yield(channel.localAddress?.port ?? 0) })
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            do {
                try await body(port)
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    /// The samples of `/metrics` on `port`, keyed by series (`name{labels}`).
    static func metrics(port: Int) async throws -> [String: Double] {
        let response = try await onThread {
            try RawHTTPConnection(port: port).exchange("GET /metrics HTTP/1.1\r\nHost: podium\r\nConnection: close\r\n\r\n")
        }
        var samples: [String: Double] = [:]
        for line in String(decoding: response.body, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    /// How much each of `series` grew from `before` to `after`.
    static func growth(_ series: [String], from before: [String: Double], to after: [String: Double]) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: series.map { ($0, (after[$0] ?? 0) - (before[$0] ?? 0)) })
    }

    /// The head of a request to `target` (`POST /v1/completions`) with `length` bytes of JSON body to come.
    static func bodyHead(_ target: String = "POST /v1/completions", key: String?, length: Int) -> String {
        "\(target) HTTP/1.1\r\nHost: podium\r\n" + (key.map { "Authorization: Bearer \($0)\r\n" } ?? "")
            + "Content-Type: application/json\r\nContent-Length: \(length)\r\n\r\n"
    }

    @Test("a body that stops arriving is answered 408 and its connection closed; a client that gives up mid-body is counted as aborted; neither is a 5xx")
    func slowAndVanishingBodiesAreTheClientsDoing() async throws {
        let harness = try await HTTPHarness()
        // The clients that give up mid-body talk to a server with the default body timeout (30 s): a slow machine must
        // not turn them into 408s. The one that stops talks to a server of its own that times bodies out after 1 s.
        try await Self.withServer(harness, limits: ConnectionLimits()) { port in
            // The metrics are the test process's: a route no other test makes fail, so that any 5xx here is this test's.
            let series = [
                #"podium_http_requests_total{method="PUT",route="/v1/users/{id}/preferences",status="408"}"#,
                #"podium_http_requests_total{method="PUT",route="/v1/users/{id}/preferences",status="500"}"#,
                #"podium_http_request_errors_total{method="PUT",route="/v1/users/{id}/preferences",status_class="5xx"}"#,
                #"podium_http_requests_aborted_total{reason="client_closed"}"#,
            ]
            let before = try await Self.metrics(port: port)
            let head = Self.bodyHead("PUT /v1/users/\(unique("slow"))/preferences", key: harness.ingestKey, length: 200)

            // A client that sends part of its body and then nothing: 408 within the body timeout, then the connection closes.
            try await Self.withServer(harness, limits: ConnectionLimits(bodyTimeout: .seconds(1))) { strictPort in
                let (timedOut, closedAfter) = try await onThread {
                    let slow = try RawHTTPConnection(port: strictPort, timeout: .seconds(20))
                    try slow.send(head + #"{"display_name": "Sl"#)
                    let answer = try slow.readResponse()
                    return (answer, slow.isClosedByServer())
                }
                #expect(timedOut.status == 408)
                #expect(timedOut.closes, "the answer says Connection: close")
                #expect(String(decoding: timedOut.body, as: UTF8.self).contains(#""code":"request-timeout""#))
                #expect(closedAfter)
            }

            // Two clients that give up mid-body: one resets the connection (no one to answer), one stops sending and still
            // reads (told 400, not a bare 500). Both counted as aborted, neither under a status.
            let halfClosed = try await onThread {
                let vanishing = try RawHTTPConnection(port: port)
                try vanishing.send(head + #"{"display_name": "Go"#)
                let leaving = try RawHTTPConnection(port: port, timeout: .seconds(20))
                try leaving.send(head + #"{"display_name": "Go"#)
                Thread.sleep(forTimeInterval: 0.2)
                vanishing.reset()
                leaving.stopSending()
                return try leaving.readResponse()
            }
            #expect(halfClosed.status == 400)
            #expect(halfClosed.closes)
            var grown: [String: Double] = [:]
            for _ in 0..<100 {
                grown = Self.growth(series, from: before, to: try await Self.metrics(port: port))
                if grown[series[3]] == 2 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(grown == [series[0]: 1, series[1]: 0, series[2]: 0, series[3]: 2])
        }
    }

    @Test("a request refused before its body is read is answered and its connection closed, without reading the rest of the body")
    func earlyAnswersCloseTheConnection() async throws {
        let harness = try await HTTPHarness()
        // The body and idle timeouts far beyond the client's wait: only the early answer's own close can end the
        // connection within it, however slowly a loaded machine gets there.
        let limits = ConnectionLimits(headerTimeout: .seconds(600), bodyTimeout: .seconds(600), idleTimeout: .seconds(600))
        try await Self.withServer(harness, limits: limits) { port in
            // Without a key (401), and over the 2 MiB limit (413): the client sends 256 KiB of a larger body and waits.
            for (key, length, status) in [(nil, 2_000_000, 401), (harness.ingestKey, 3_000_000, 413)] {
                let (answer, closed) = try await onThread {
                    let client = try RawHTTPConnection(port: port, timeout: .seconds(120))
                    try client.send(Self.bodyHead(key: key, length: length))
                    let sent = status == 413 ? (2 << 20) + 65_536 : 262_144
                    try client.send(Data(repeating: UInt8(ascii: " "), count: sent))
                    let answer = try client.readResponse()
                    // Closed by the early answer (after its 2 s linger), not by a timeout: those are 600 s away.
                    return (answer, client.isClosedByServer())
                }
                #expect(answer.status == status)
                #expect(answer.closes, "a \(status) before the body ends says Connection: close")
                #expect(closed, "the \(status)'s connection is closed without waiting for the rest of the body")
            }
        }
    }

    @Test("at the connection limit a new client is served and the longest-idle keep-alive connection is closed for it")
    func limitClosesTheLongestIdleConnection() async throws {
        let harness = try await HTTPHarness()
        // An idle timeout far beyond the test's waits: only the limit's own choice can close an idle connection here.
        try await Self.withServer(harness, limits: ConnectionLimits(idleTimeout: .seconds(600), maxConnections: 4)) { port in
            let request = "GET /healthz HTTP/1.1\r\nHost: podium\r\n\r\n"
            let (idle, statuses) = try await onThread {
                let idle = try (0..<4).map { _ in try RawHTTPConnection(port: port, timeout: .seconds(5)) }
                return (idle, try idle.map { try $0.exchange(request).status })
            }
            #expect(statuses == [200, 200, 200, 200])
            let newcomer = try await onThread {
                try RawHTTPConnection(port: port, timeout: .seconds(30)).exchange(request)
            }
            #expect(newcomer.status == 200, "the fifth client is answered while four idle keep-alive connections fill the limit")
            // Each still-open connection waits out its 5 s read timeout: all four at once.
            let closed = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for (index, connection) in idle.enumerated() {
                    group.addTask { (index, try await onThread { connection.isClosedByServer() }) }
                }
                return try await group.reduce(into: [Bool](repeating: false, count: idle.count)) { $0[$1.0] = $1.1 }
            }
            #expect(closed == [true, false, false, false], "exactly one idle connection, the one idle longest, was closed")
        }
    }
}
