import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PodiumCore
import Synchronization

/// `podium bench`: a load generator against a running Podium, printing throughput and latency.
///
/// Phases (each `--duration` seconds at `--concurrency` clients): ingest (POST /v1/completions
/// with random players, as fast as the clients go or paced by `--rate`), then reads of the same
/// server: `/healthz` (the ceiling), a top-10 page, 304 revalidations of it, and around-me pages.
/// `ops/bench/bench.sh` runs it beside pgbench.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench", abstract: "Load-test a running Podium and print figures.")

    @Option(help: "Podium's base URL.") var url = "http://127.0.0.1:8080"
    @Option(help: "An admin API key (default: $PODIUM_ADMIN_KEY).") var key: String?
    @Option(help: "Players to spread completions over.") var players = 10_000
    @Option(help: "Concurrent clients.") var concurrency = 64
    @Option(help: "Seconds per phase.") var duration = 10.0
    @Option(help: "Phases to run, comma-separated: seed, ingest, reads.") var phases = "seed,ingest,reads"
    @Option(help: "Topic the benchmark's completions use.") var topic = "bench"
    @Option(help: "The reads phase's loads, comma-separated: healthz, top (a top-10 page), revalidate (its 304), around (around-me pages), profile, history (a player's newest 20 completions), feed (the events feed's first 100); the ratios to /healthz are printed when the first four run.")
    var reads = "healthz,top,revalidate,around"
    @Option(help: "Ingest at this many completions per second in all (an open loop: latency counts from each request's scheduled start) instead of as fast as the clients go.")
    var rate: Double?

    func run() async throws {
        // The server's own rule; its characters need no escaping in the hand-written request bodies.
        guard NameRules.isValidScopeName(topic) else {
            throw ValidationError("--topic takes 1 to 64 of a-z, 0-9, '.', '_' and '-'")
        }
        if let rate, !(rate > 0 && rate.isFinite) { throw ValidationError("--rate takes a positive number") }
        let readKinds = Set(reads.split(separator: ",").map(String.init))
        guard !readKinds.isEmpty, readKinds.isSubset(of: Bench.allReadKinds) else {
            throw ValidationError("--reads takes some of \(Bench.allReadKinds.sorted().joined(separator: ", "))")
        }
        guard let key = key ?? ProcessInfo.processInfo.environment["PODIUM_ADMIN_KEY"] else {
            throw ValidationError("pass --key or set PODIUM_ADMIN_KEY")
        }
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(30))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let bench = Bench(client: client, base: url, key: key, players: players, concurrency: concurrency,
                          duration: duration, topic: topic, rate: rate, readKinds: readKinds)
        do {
            let wanted = Set(phases.split(separator: ",").map(String.init))
            if wanted.contains("seed") { try await bench.seed() }
            if wanted.contains("ingest") { try await bench.ingest() }
            if wanted.contains("reads") { try await bench.reads() }
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }
}

/// The benchmark's phases.
struct Bench: Sendable {
    let client: HTTPClient
    let base: String
    let key: String
    let players: Int
    let concurrency: Int
    let duration: Double
    let topic: String
    /// Completions per second the ingest phase offers in all, or nil for as fast as the clients go.
    let rate: Double?
    /// The loads the reads phase runs (some of `allReadKinds`).
    let readKinds: Set<String>
    let run = UUID().uuidString.prefix(8)

    /// The reads phase's loads, by the names `--reads` takes.
    static let allReadKinds: Set<String> = ["healthz", "top", "revalidate", "around", "profile", "history", "feed"]

    /// One completion per player (batches of 500), so every board has `players` entries.
    func seed() async throws {
        let started = Date()
        let batches = stride(from: 0, to: players, by: 500).map { $0..<min($0 + 500, players) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = batches.makeIterator()
            func addNext() {
                guard let range = next.next() else { return }
                group.addTask {
                    let items = range.map { completionJSON(id: "seed-\(run)-\($0)", player: $0) }
                    let body = Data(#"{"completions":["#.utf8) + Data(items.joined(separator: ",").utf8) + Data("]}".utf8)
                    let status = try await send(.POST, "/v1/completions/batch", body: body).status
                    guard status.code == 200 else { throw CommandFailure("seed batch answered \(status)") }
                }
            }
            for _ in 0..<4 { addNext() }
            while try await group.next() != nil { addNext() }
        }
        print(String(format: "seed: %d players in %.1f s", players, Date().timeIntervalSince(started)))
    }

    /// Completions from random players: at full concurrency, or at `rate` per second in all.
    func ingest() async throws {
        let counter = FailureCount()
        let name = rate.map { String(format: "ingest at %.0f/s", $0) } ?? "ingest"
        let result = try await load(name: name, seconds: duration, rate: rate) { worker, index in
            let body = Data(completionJSON(id: "bench-\(run)-\(worker)-\(index)", player: Int.random(in: 0..<players)).utf8)
            let response = try await send(.POST, "/v1/completions", body: body)
            if response.status.code != 201 { counter.add() }
        }
        print(result.line + (counter.value > 0 ? "  (\(counter.value) not 201)" : ""))
    }

    /// Reads: /healthz, a top-10 page, 304 revalidations, around-me pages, profiles, history pages and events feed pages
    /// (those of `readKinds`; by default the first four).
    ///
    /// They take turns in slices of about two seconds until each has had `duration` seconds, so
    /// a noisy neighbour or a background vacuum slows them alike and the ratios stay comparable; the ratios to
    /// `/healthz` are printed when the first four ran.
    /// An answer with another status than the one expected is counted and printed beside its line
    /// (a fast error must not pass for a fast page); a 200 instead of a 304 means the page changed mid-run.
    func reads() async throws {
        let page = "/v1/leaderboards/topic:\(topic)/all?limit=10"
        let first = try await send(.GET, page)
        guard first.status.code == 200, let etag = first.headers.first(name: "etag") else {
            throw CommandFailure("top page answered \(first.status) without an ETag")
        }
        let all: [(kind: String, name: String, expected: UInt, request: @Sendable () async throws -> HTTPClientResponse)] = [
            ("healthz", "healthz", 200, { try await send(.GET, "/healthz") }),
            ("top", "top-10 page", 200, { try await send(.GET, page) }),
            ("revalidate", "304 revalidation", 304, { try await send(.GET, page, headers: [("If-None-Match", etag)]) }),
            ("around", "around-me page", 200, {
                try await send(.GET, "/v1/leaderboards/topic:\(topic)/all?around=player-\(Int.random(in: 0..<players))&radius=5")
            }),
            ("profile", "profile", 200, { try await send(.GET, "/v1/users/player-\(Int.random(in: 0..<players))") }),
            ("history", "history page", 200, {
                try await send(.GET, "/v1/users/player-\(Int.random(in: 0..<players))/completions?limit=20")
            }),
            ("feed", "events feed page", 200, { try await send(.GET, "/v1/events?limit=100") }),
        ]
        let kinds = all.filter { readKinds.contains($0.kind) }
        let unexpected = kinds.map { _ in FailureCount() }
        let rounds = max(1, Int((duration / 2).rounded()))
        var results = kinds.map { LoadResult(name: $0.name, count: 0, seconds: 0, sortedLatencies: []) }
        for _ in 0..<rounds {
            for (index, kind) in kinds.enumerated() {
                let slice = try await load(name: kind.name, seconds: duration / Double(rounds)) { _, _ in
                    if try await kind.request().status.code != kind.expected { unexpected[index].add() }
                }
                results[index] = results[index].adding(slice)
            }
        }
        for (index, result) in results.enumerated() {
            let count = unexpected[index].value
            print(result.line + (count > 0 ? "  (\(count) not \(kinds[index].expected))" : ""))
        }
        guard kinds.prefix(4).map(\.kind) == ["healthz", "top", "revalidate", "around"] else { return }
        let (health, top, revalidate, around) = (results[0], results[1], results[2], results[3])
        print(String(format: "ratios to /healthz: top-10 %.2f (target >= 0.9), 304 %.2f (target >= 1.0 and >= top-10), around-me %.2f (target >= 0.6)",
                     top.rate / health.rate, revalidate.rate / health.rate, around.rate / health.rate))
    }

    /// A completion of `player` as JSON text, written directly: the load generator shares the machine's
    /// CPU with the server, so it should spend as little as it can (`topic` is a valid scope name: no escaping).
    private func completionJSON(id: String, player: Int) -> String {
        #"{"id":"\#(id)","user_id":"player-\#(player)","quiz_id":"q-\#(player % 50)","topic":"\#(topic)","#
            + #""difficulty":"\#(["easy", "medium", "hard"][player % 3])","correct":\#(4 + player % 7),"total":10,"#
            + #""groups":["class-\#(player % 100)"],"display_name":"Player \#(player)"}"#
    }

    private func send(_ method: HTTPMethod, _ path: String, body: Data? = nil, headers: [(String, String)] = []) async throws -> HTTPClientResponse {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(key)")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 22)
        return response
    }

    /// Runs `operation` from `concurrency` workers for `seconds`; returns rate and latency percentiles.
    ///
    /// Without `rate` each worker starts its next request when its last one ends (a closed loop).
    /// With `rate` the requests are due at even intervals, `rate` per second in all, and a free
    /// worker takes the next one due; its latency counts from when it was due, so a request that
    /// waited for a free worker shows that wait (no coordinated omission).
    private func load(
        name: String, seconds: Double, rate: Double? = nil, _ operation: @escaping @Sendable (Int, Int) async throws -> Void
    ) async throws -> LoadResult {
        let clock = ContinuousClock()
        let started = clock.now
        let deadline = started + .seconds(seconds)
        let tickets = TicketDispenser()
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var samples: [Double] = []
                    var index = 0
                    while true {
                        var due = clock.now
                        if let rate {
                            due = started + .seconds(Double(tickets.take()) / rate)
                            if due < deadline { try await clock.sleep(until: due) }
                        }
                        guard due < deadline else { break }
                        try await operation(worker, index)
                        samples.append((clock.now - due).inSeconds * 1000)
                        index += 1
                    }
                    return samples
                }
            }
            return try await group.reduce(into: [Double]()) { $0 += $1 }.sorted()
        }
        return LoadResult(name: name, count: latencies.count, seconds: (clock.now - started).inSeconds, sortedLatencies: latencies)
    }
}

/// Throughput and latency of one phase.
struct LoadResult {
    let name: String
    let count: Int
    let seconds: Double
    let sortedLatencies: [Double]

    /// Requests per second.
    var rate: Double { seconds > 0 ? Double(count) / seconds : 0 }

    /// This result and `other` (another slice of the same load) as one.
    func adding(_ other: LoadResult) -> LoadResult {
        LoadResult(name: name, count: count + other.count, seconds: seconds + other.seconds,
                   sortedLatencies: (sortedLatencies + other.sortedLatencies).sorted())
    }

    /// The latency below which `fraction` of requests finished, in milliseconds.
    func percentile(_ fraction: Double) -> Double {
        guard !sortedLatencies.isEmpty else { return 0 }
        return sortedLatencies[min(sortedLatencies.count - 1, Int(Double(sortedLatencies.count) * fraction))]
    }

    /// One printed line.
    var line: String {
        name + String(format: ": %.0f req/s (%d in %.1f s), latency ms p50 %.2f p90 %.2f p99 %.2f max %.2f", rate, count, seconds,
               percentile(0.5), percentile(0.9), percentile(0.99), sortedLatencies.last ?? 0)
    }
}

/// Hands out 0, 1, 2, … to concurrent workers: the numbers of the paced requests due next.
final class TicketDispenser: Sendable {
    private let next = Atomic(0)

    /// The next number, never handed out before.
    func take() -> Int { next.wrappingAdd(1, ordering: .relaxed).oldValue }
}

/// A thread-safe count of failed requests.
final class FailureCount: Sendable {
    private let storage = Mutex(0)

    /// Counts one more.
    func add() { storage.withLock { $0 += 1 } }

    /// The count so far.
    var value: Int { storage.withLock { $0 } }
}
