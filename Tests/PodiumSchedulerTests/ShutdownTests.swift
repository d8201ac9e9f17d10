import Foundation
import PodiumTestSupport
import Synchronization
import Testing

/// Real `podium serve` processes: stopped with SIGTERM while clients use them, and under a low descriptor limit.
///
/// Each gets a database of its own and Redis db 1 (one process at a time: the suite is serialized), so that its
/// start-up rebuild and its jobs touch no other test's data.
@Suite("podium serve: graceful shutdown and the descriptor limit", .serialized, .timeLimit(.minutes(10)))
struct ShutdownTests {
    static let adminKey = "pdm_shutdown_test_admin_key_0001"
    static let clients = 16

    /// How one kept-alive client's requests ended.
    struct ClientRun: Sendable {
        /// Requests written.
        var sent = 0
        /// Whole answers read.
        var answered = 0
        /// What ended the client: `close` (an answer said `Connection: close`) or the failure.
        var end = ""
    }

    /// Requests on one kept-alive connection, one after the other, until an answer says `Connection: close`, is not a
    /// 200, or the connection fails; counts every answer in `progress` too.
    static func client(port: Int, progress: ClientProgress) -> ClientRun {
        var run = ClientRun()
        defer { progress.finished.add(1, ordering: .relaxed) }
        do {
            let connection = try RawHTTPConnection(port: port, timeout: .seconds(30))
            while true {
                try connection.send("GET /v1/leaderboards/global/week HTTP/1.1\r\nHost: podium\r\nAuthorization: Bearer \(adminKey)\r\n\r\n")
                run.sent += 1
                let answer = try connection.readResponse()
                run.answered += 1
                guard answer.status == 200 else {
                    run.end = "status \(answer.status)"
                    return run
                }
                progress.answers.add(1, ordering: .relaxed)
                if answer.closes {
                    run.end = "close"
                    return run
                }
            }
        } catch {
            run.end = "\(error)"
            return run
        }
    }

    @Test("SIGTERM under load: 16 kept-alive clients get an answer to every request they sent, the last saying Connection: close; five runs")
    func sigtermAnswersEveryRequestAlreadySent() async throws {
        try await withOwnDatabase(on: SchedulerTestEnvironment.databaseURL) { databaseURL in
            for run in 1...5 {
                let port = try freeLoopbackPort()
                let server = try ServeProcess(environment: [
                    "PODIUM_DATABASE_URL": databaseURL, "PODIUM_PG_POOL_SIZE": "4", "PODIUM_PORT": String(port), "PODIUM_ADMIN_KEY": Self.adminKey,
                    "PODIUM_REDIS_URL": try TestRedisDatabase.shutdown.url(),
                    "PODIUM_LOG_LEVEL": "info", "PODIUM_ACCESS_LOG": "false", "PODIUM_SHUTDOWN_GRACE_S": "10",
                    // The bootstrap admin key's bucket (600 a minute, kept in Redis across the runs) is not what is tested.
                    "PODIUM_RATE_LIMITS": "admin=100000000",
                ])
                defer { server.kill() }
                try await server.waitUntilReady(port: port)
                let progress = ClientProgress()
                let runs = try await withThrowingTaskGroup(of: ClientRun.self) { group in
                    for _ in 0..<Self.clients {
                        group.addTask { try await onThread { Self.client(port: port, progress: progress) } }
                    }
                    // Mid-load: once every client could have had a few answers, whichever way the threads were scheduled
                    // (or, should they all have ended already, at once: the checks below then say why).
                    while progress.answers.load(ordering: .relaxed) < Self.clients * 10,
                          progress.finished.load(ordering: .relaxed) < Self.clients {
                        try await Task.sleep(for: .milliseconds(10))
                    }
                    server.terminate()
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                let status = try await server.waitForExit(seconds: 60)
                let lost = runs.map { $0.sent - $0.answered }.reduce(0, +)
                #expect(lost == 0, "run \(run): \(lost) requests without an answer; ends \(runs.map(\.end)); log:\n\(server.log())")
                #expect(runs.allSatisfy { $0.end == "close" }, "run \(run): \(runs.map(\.end))")
                #expect(status == 0, "run \(run): exit status \(String(describing: status)); log:\n\(server.log())")
                print("shutdown run \(run): \(runs.map(\.sent).reduce(0, +)) requests, all answered; exit \(String(describing: status))")
            }
        }
    }

    @Test("a client stalled mid-body does not hold the shutdown past PODIUM_SHUTDOWN_GRACE_S")
    func graceBoundsTheShutdown() async throws {
        try await withOwnDatabase(on: SchedulerTestEnvironment.databaseURL) { databaseURL in
            let port = try freeLoopbackPort()
            let server = try ServeProcess(environment: [
                "PODIUM_DATABASE_URL": databaseURL, "PODIUM_PG_POOL_SIZE": "4", "PODIUM_PORT": String(port), "PODIUM_ADMIN_KEY": Self.adminKey,
                "PODIUM_REDIS_URL": try TestRedisDatabase.shutdown.url(),
                "PODIUM_LOG_LEVEL": "info", "PODIUM_SHUTDOWN_GRACE_S": "2", "PODIUM_BODY_TIMEOUT_MS": "600000",
            ])
            defer { server.kill() }
            try await server.waitUntilReady(port: port)
            // Headers and part of a body, then nothing: without the grace, the drain would wait for the 10-minute body timeout.
            let stalled = try await onThread {
                let connection = try RawHTTPConnection(port: port)
                try connection.send("POST /v1/completions HTTP/1.1\r\nHost: podium\r\nAuthorization: Bearer \(Self.adminKey)\r\n"
                                    + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\": ")
                return connection
            }
            // SIGTERM only once the request is being served (counted in flight beside the /metrics request reading it):
            // then the drain must wait for it, and the connection was handed to the server before its listener closes
            // (swift-nio#2813: a connection accepted in the instant the listener closes makes the process trap).
            var inFlight = 0
            for _ in 0..<300 where inFlight < 2 {
                inFlight = try await server.requestsInFlight(port: port)
                if inFlight < 2 { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(inFlight >= 2, "the stalled request was in flight before SIGTERM")
            server.terminate()
            // Generous next to the 2 s grace, and short of the 50 s the shutdown used to allow.
            let status = try await server.waitForExit(seconds: 30)
            #expect(status == 0, "exit status \(String(describing: status)); log:\n\(server.log())")
            #expect(try await onThread { stalled.isClosedByServer() })
        }
    }

    @Test("with 300 descriptors and PODIUM_MAX_CONNECTIONS 20000, serve lowers the limit, says so, and answers every new client while older ones stay open")
    func descriptorLimitBoundsTheConnectionLimit() async throws {
        try await withOwnDatabase(on: SchedulerTestEnvironment.databaseURL) { databaseURL in
            let port = try freeLoopbackPort()
            let server = try ServeProcess(environment: [
                "PODIUM_DATABASE_URL": databaseURL, "PODIUM_PG_POOL_SIZE": "4", "PODIUM_PORT": String(port), "PODIUM_ACCESS_LOG": "false",
                "PODIUM_REDIS_URL": try TestRedisDatabase.shutdown.url(),
                "PODIUM_MAX_CONNECTIONS": "20000", "PODIUM_IDLE_TIMEOUT_MS": "600000", "PODIUM_LOG_LEVEL": "info",
            ], descriptorLimit: 300)
            defer { server.kill() }
            try await server.waitUntilReady(port: port)
            // 320 clients one after the other, each kept open after its answer: more than the process has descriptors
            // for. Without a limit below the descriptor limit, accepting fails from about the 250th on, and the rest
            // wait unanswered in the kernel's backlog.
            let statuses = try await onThread {
                var held: [RawHTTPConnection] = []
                var statuses: [Int] = []
                for _ in 0..<320 {
                    let connection = try RawHTTPConnection(port: port, timeout: .seconds(20))
                    statuses.append((try? connection.exchange("GET /healthz HTTP/1.1\r\nHost: podium\r\n\r\n"))?.status ?? 0)
                    held.append(connection)
                    if statuses.last != 200 { break }  // One lost client is enough; the next would wait as long.
                }
                return statuses
            }
            #expect(statuses == [Int](repeating: 200, count: 320), "client \(statuses.count) got \(statuses.last ?? 0)")
            // 300 descriptors, less the pools (4 + 16) and 128 spare.
            #expect(server.log().contains("configured=20000 descriptor_limit=300 using=152"), "\(server.log().suffix(2000))")
        }
    }
}

/// How far the clients of one run got.
final class ClientProgress: Sendable {
    /// 200 answers read by all the clients so far.
    let answers = Atomic<Int>(0)
    /// Clients that ended.
    let finished = Atomic<Int>(0)
}

/// One `podium serve` process started from the built binary, its output kept in a temporary file.
final class ServeProcess: @unchecked Sendable {
    private let process = Process()
    private let output: URL

    /// Starts `podium serve` with the test environment plus `environment`, under a descriptor limit (`ulimit -n`, soft
    /// and hard) when one is given.
    init(environment: [String: String], descriptorLimit: Int? = nil) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let binary = ProcessInfo.processInfo.environment["PODIUM_BINARY"] ?? root.appendingPathComponent(".build/debug/podium").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw TestTimeout("no podium binary at \(binary): build the package first (`swift build`)")
        }
        output = FileManager.default.temporaryDirectory.appendingPathComponent("podium-serve-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else { throw TestTimeout("cannot create \(output.path)") }
        if let descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" serve", binary]
        } else {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["serve"]
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
    }

    deinit {
        try? FileManager.default.removeItem(at: output)
    }

    /// Waits (at most 60 s: a busy machine migrates slowly) until `/readyz` on `port` answers 200.
    func waitUntilReady(port: Int) async throws {
        for _ in 0..<600 {
            guard process.isRunning else { throw TestTimeout("podium serve exited at start:\n\(log())") }
            let ready = try? await onThread {
                try RawHTTPConnection(port: port, timeout: .seconds(5)).exchange("GET /readyz HTTP/1.1\r\nHost: podium\r\nConnection: close\r\n\r\n")
            }
            if ready?.status == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestTimeout("podium serve on port \(port) was not ready within 60 s:\n\(log())")
    }

    /// `podium_http_requests_in_flight` as `/metrics` on `port` reports it (the `/metrics` request itself included).
    func requestsInFlight(port: Int) async throws -> Int {
        let answer = try await onThread {
            try RawHTTPConnection(port: port, timeout: .seconds(30)).exchange("GET /metrics HTTP/1.1\r\nHost: podium\r\nConnection: close\r\n\r\n")
        }
        let line = String(decoding: answer.body, as: UTF8.self).split(separator: "\n")
            .first { $0.hasPrefix("podium_http_requests_in_flight ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }.map { Int($0) } ?? 0
    }

    /// Sends SIGTERM.
    func terminate() {
        process.terminate()
    }

    /// The exit status once the process ended, or nil (after a SIGKILL) when it still ran after `seconds`.
    func waitForExit(seconds: Int) async throws -> Int32? {
        for _ in 0..<(seconds * 10) {
            if !process.isRunning { return process.terminationStatus }
            try await Task.sleep(for: .milliseconds(100))
        }
        kill()
        return nil
    }

    /// SIGKILLs the process if it still runs.
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    /// What the process wrote so far.
    func log() -> String {
        (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    }
}
