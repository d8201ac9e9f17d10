import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PodiumTestSupport
import Synchronization
import Testing

@Suite("The podium command", .timeLimit(.minutes(5)))
struct CommandLineTests {
    /// Runs the built `podium` with `arguments` and extra environment; returns its exit status and what it wrote (both streams).
    static func run(_ arguments: [String], environment extra: [String: String]) async throws -> (status: Int32, error: String) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let binary = ProcessInfo.processInfo.environment["PODIUM_BINARY"] ?? root.appendingPathComponent(".build/debug/podium").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = errors
        let status = try await withCheckedThrowingContinuation { (done: CheckedContinuation<Int32, any Error>) in
            process.terminationHandler = { done.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { done.resume(throwing: error) }
        }
        return (status, String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    @Test("a rules file that is missing or wrong is named with the setting and the path, not a raw Foundation error")
    func rulesFileErrorsNameTheSetting() async throws {
        let missing = try await Self.run(["migrate"], environment: ["PODIUM_RULES_FILE": "/nonexistent/podium-rules.json"])
        #expect(missing.status != 0)
        #expect(missing.error.contains("PODIUM_RULES_FILE names /nonexistent/podium-rules.json, which does not exist"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("podium-bad-rules-\(UUID().uuidString).json")
        try Data(#"{"points": 5}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let wrong = try await Self.run(["migrate"], environment: ["PODIUM_RULES_FILE": file.path])
        #expect(wrong.status != 0)
        #expect(wrong.error.contains("PODIUM_RULES_FILE \(file.path): not a valid rules file"))
    }

    @Test("serve waits for PostgreSQL with backoff, logging each try, and gives up after PODIUM_STARTUP_WAIT_SECONDS")
    func serveWaitsForPostgreSQL() async throws {
        let started = ContinuousClock.now
        let result = try await Self.run(["serve"], environment: [
            "PODIUM_DATABASE_URL": "host=127.0.0.1 port=1 user=postgres dbname=nowhere connect_timeout=1",
            // 6 s: tries at 0, 0.5 and 1.5 s log "trying again" however slowly this machine fails each; 3.5 s is the last.
            "PODIUM_STARTUP_WAIT_SECONDS": "6", "PODIUM_PORT": "1", "PODIUM_LOG_LEVEL": "info",
        ])
        let waited = ContinuousClock.now - started
        #expect(result.status != 0)
        #expect(result.error.components(separatedBy: "PostgreSQL does not answer yet; trying again").count - 1 >= 2, "\(result.error)")
        #expect(result.error.contains("attempt=1") && result.error.contains("attempt=2"))
        #expect(waited >= .seconds(3) && waited < .seconds(60), "bounded by the setting, not at once: \(waited)")
    }
}

/// The operator's commands: version, configuration, rules check, and what `serve` logs.
@Suite("Operating the podium command", .timeLimit(.minutes(5)))
struct OperatorCommandTests {
    @Test("--version names the version and the commit")
    func versionNamesTheCommit() async throws {
        let result = try await CommandLineTests.run(["--version"], environment: [:])
        #expect(result.status == 0)
        #expect(result.error.range(of: #"^podium \d+\.\d+\.\d+ \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)\n$"#, options: .regularExpression) != nil,
                "\(result.error)")
    }

    @Test("config prints the effective settings with every secret masked")
    func configMasksSecrets() async throws {
        let result = try await CommandLineTests.run(["config"], environment: [
            "PODIUM_DATABASE_URL": "host=db user=podium sslpassword=hunter2-ssl password=hunter2-db dbname=podium password='hunter2 quoted'",
            "PODIUM_REDIS_URL": "redis://ops:hunter2-redis@cache:6380/2", "PODIUM_ADMIN_KEY": "pdm_hunter2adminkeyhunter2adminkey",
            "PODIUM_PLAYER_TOKEN_HS256_KEYS": "k1:hunter2-token-secret-of-32-bytes-or-more", "PODIUM_PORT": "9001",
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(!result.error.contains("hunter2"), "\(result.error)")
        let lines = result.error.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) } }
        let values = Dictionary(lines.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }) { first, _ in first }
        #expect(values["PODIUM_DATABASE_URL"] == "host=db user=podium sslpassword=***** password=***** dbname=podium password=*****")
        let uri = try await CommandLineTests.run(["config"], environment: [
            "PODIUM_DATABASE_URL": "postgres://podium:hunter2-uri@db:5432/podium?sslmode=require&password=hunter2-query"])
        #expect(!uri.error.contains("hunter2"), "\(uri.error)")
        #expect(uri.error.contains("postgres://podium:*****@db:5432/podium?sslmode=require&password=*****"))
        #expect(values["PODIUM_REDIS_URL"] == "redis://ops:*****@cache:6380/2")
        #expect(values["PODIUM_ADMIN_KEY"] == "(set, hidden)")
        #expect(values["PODIUM_PLAYER_TOKEN_HS256_KEYS"] == "key ids k1 (secrets hidden)")
        #expect(values["PODIUM_PORT"] == "9001")
        #expect(values["PODIUM_LOG_FORMAT"] == "text")
        let bad = try await CommandLineTests.run(["config"], environment: ["PODIUM_LOG_FORMAT": "xml"])
        #expect(bad.status != 0)
        #expect(bad.error.contains("PODIUM_LOG_FORMAT must be text or json, got xml"))
    }

    @Test("rules check prints the effective rules, which check again unchanged, and names every problem")
    func rulesCheck() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("podium-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("rules.json")
        try Data(#"{"points": {"hard": 7}, "close_grace_minutes": 5}"#.utf8).write(to: file)
        let checked = try await CommandLineTests.run(["rules", "check", file.path], environment: [:])
        #expect(checked.status == 0, "\(checked.error)")
        let effective = try JSONSerialization.jsonObject(with: Data(checked.error.utf8)) as? [String: Any] ?? [:]
        #expect((effective["points"] as? [String: Any])?["hard"] as? Int == 7)
        #expect((effective["points"] as? [String: Any])?["easy"] as? Int == 2, "defaults filled in")
        #expect(effective["close_grace_minutes"] as? Double == 5)
        let jobs = (effective["scheduler"] as? [String: Any])?["jobs"] as? [[String: Any]] ?? []
        #expect(jobs.first { $0["name"] as? String == "close-periods" }?["time_zone"] as? String == "UTC")
        let again = folder.appendingPathComponent("effective.json")
        try Data(checked.error.utf8).write(to: again)
        let rechecked = try await CommandLineTests.run(["rules", "check", again.path], environment: [:])
        #expect(rechecked.status == 0)
        #expect(rechecked.error == checked.error, "the printed rules are a valid rules file with the same rules")

        try Data(#"{"points": {"hard": -1}, "colour": "red"}"#.utf8).write(to: file)
        let wrong = try await CommandLineTests.run(["rules", "check", file.path], environment: [:])
        #expect(wrong.status != 0)
        #expect(wrong.error.contains("\(file.path): colour: unknown key"), "\(wrong.error)")
        let missing = try await CommandLineTests.run(["rules", "check", folder.appendingPathComponent("none.json").path], environment: [:])
        #expect(missing.status != 0)
        #expect(missing.error.contains("none.json does not exist"))
    }
}

/// What `podium serve` logs, read from a real process.
@Suite("What serve logs", .timeLimit(.minutes(5)))
struct ServeLogTests {
    static let adminKey = "pdm_serve-log-test-key-never-logged-0123456789"

    /// Runs `serve` with `environment` on a database and a Redis of its own (its scheduler runs on the real clock, and
    /// would close periods that tests on a pinned clock still write to; its start rebuilds the rankings of its Redis),
    /// lets `body` use its port, then stops it with SIGTERM; returns what it wrote to standard error.
    static func serve(_ environment: [String: String], _ body: (Int) async throws -> Void) async throws -> String {
        let redis = OwnRedisServer()
        try await redis.start()
        defer { redis.stop() }
        return try await withOwnDatabase(on: SchedulerTestEnvironment.databaseURL) { database in
            try await serve(databaseURL: database, redisURL: redis.url, environment, body)
        }
    }

    private static func serve(
        databaseURL: String, redisURL: String, _ environment: [String: String], _ body: (Int) async throws -> Void
    ) async throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let binary = ProcessInfo.processInfo.environment["PODIUM_BINARY"] ?? root.appendingPathComponent(".build/debug/podium").path
        let port = try freeLoopbackPort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve"]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "PODIUM_DATABASE_URL": databaseURL,
            "PODIUM_REDIS_URL": redisURL,
            "PODIUM_PORT": String(port), "PODIUM_ADMIN_KEY": adminKey, "PODIUM_LOG_LEVEL": "info",
        ].merging(environment) { $1 }) { $1 }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("podium-serve-log-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        process.standardError = handle
        process.standardOutput = handle
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let deadline = ContinuousClock.now + .seconds(30)
        while try await ServeLogTests.get(port: port, path: "/healthz", headers: [:]) == nil {
            guard ContinuousClock.now < deadline, process.isRunning else {
                let how = process.isRunning ? "still running" : "exited (\(process.terminationReason == .uncaughtSignal ? "signal" : "status") \(process.terminationStatus))"
                throw TestTimeout("serve never answered /healthz, \(how): \(String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self))")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        try await body(port)
        kill(process.processIdentifier, SIGTERM)
        let stopDeadline = ContinuousClock.now + .seconds(30)
        while process.isRunning, ContinuousClock.now < stopDeadline { try await Task.sleep(for: .milliseconds(50)) }
        try handle.close()
        return String(decoding: try Data(contentsOf: output), as: UTF8.self)
    }

    /// One GET; the status and headers, or nil when nothing answered.
    static func get(port: Int, path: String, headers: [String: String]) async throws -> HTTPURLResponse? {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.timeoutInterval = 30
        do {
            return try await URLSession.shared.data(for: request).1 as? HTTPURLResponse
        } catch {
            return nil
        }
    }

    @Test("JSON lines: start-up with version and masked configuration, an access line with the request id, each shutdown step; an open live stream ends with the shutdown")
    func serveLogsJSONLines() async throws {
        let stream = Mutex<URLSessionDataTask?>(nil)
        let text = try await Self.serve(["PODIUM_LOG_FORMAT": "json", "PODIUM_LIVE_STREAM_SECONDS": "600"]) { port in
            let answer = try await Self.get(port: port, path: "/v1/users/nobody-here", headers: [
                "X-Request-Id": "log-test-1", "Authorization": "Bearer \(Self.adminKey)"])
            #expect(answer?.statusCode == 404)
            #expect(answer?.value(forHTTPHeaderField: "X-Request-Id") == "log-test-1")
            // A live stream left open (for ten minutes, unless the shutdown ends it): the shutdown must not wait for it.
            var live = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/leaderboards/global/week/live")!)
            live.setValue("Bearer \(Self.adminKey)", forHTTPHeaderField: "Authorization")
            live.setValue("live-stream-1", forHTTPHeaderField: "X-Request-Id")
            live.timeoutInterval = 600
            let task = URLSession.shared.dataTask(with: live)
            task.resume()
            stream.withLock { $0 = task }
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline {
                let metrics = try? await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/metrics")!).0
                if String(decoding: metrics ?? Data(), as: UTF8.self).contains("podium_live_listeners 1") { break }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        stream.withLock { $0?.cancel() }
        #expect(!text.contains(Self.adminKey), "the key is never logged")
        let lines = text.split(separator: "\n").filter { !$0.isEmpty }
        let records = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(records.count == lines.count, "every line is one JSON object: \(lines.filter { !$0.hasPrefix("{") })")
        #expect(records.allSatisfy { $0["time"] is String && $0["level"] is String && $0["message"] is String && $0["labels"] is [String: Any] })
        func labels(_ message: String) -> [[String: String]] {
            records.filter { $0["message"] as? String == message }.map { ($0["labels"] as? [String: String]) ?? [:] }
        }
        #expect(labels("podium starting").first?["version"] != nil)
        #expect(labels("configuration").first?["PODIUM_ADMIN_KEY"] == "(set, hidden)")
        #expect(labels("configuration").first?["PODIUM_LOG_FORMAT"] == "json")
        let access = labels("request").first { $0["request_id"] == "log-test-1" }
        #expect(access?["route"] == "/v1/users/{id}")
        #expect(access?["status"] == "404")
        #expect(access?["method"] == "GET")
        #expect(access?["principal"] == "key:bootstrap")
        #expect(Int(access?["bytes"] ?? "") ?? 0 > 0)
        let messages = records.compactMap { $0["message"] as? String }
        let steps = ["shutdown requested: live streams end, and the HTTP server stops taking requests and drains open ones", "podium stopped"]
        let streamed = labels("request").first { $0["request_id"] == "live-stream-1" }
        #expect(streamed?["route"] == "/v1/leaderboards/{board}/{window}/live" && streamed?["status"] == "200", "the stream was open, then ended")
        let positions = steps.map { step in messages.firstIndex { $0 == step } }
        #expect(positions.allSatisfy { $0 != nil }, "\(messages.suffix(6))")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    }

    @Test("PODIUM_ACCESS_LOG=false writes no access lines; the text format stays text")
    func accessLogOff() async throws {
        let text = try await Self.serve(["PODIUM_ACCESS_LOG": "false"]) { port in
            let answer = try await Self.get(port: port, path: "/healthz", headers: ["X-Request-Id": "quiet-1"])
            #expect(answer?.statusCode == 200)
        }
        #expect(!text.contains("quiet-1"))
        #expect(text.contains("podium starting"))
        #expect(!text.contains("{\"labels\""))
    }
}
