import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PodiumCore
import PodiumStore
import PodiumTestSupport
import Postgres
import Testing

/// Three real `podium serve` processes on one PostgreSQL: a slot runs exactly once, also when its runner is killed.
///
/// The processes get a database of their own (created here, dropped afterwards), so their
/// scheduled jobs, which run on the real clock, cannot touch the data of tests running beside them.
@Suite("Scheduler across processes", .serialized, .timeLimit(.minutes(5)))
struct MultiProcessTests {
    static let adminKey = "pdm_multi_process_admin_key_0001"

    @Test("a requested slot runs once across three replicas, and again exactly once after its runner is SIGKILLed")
    func slotRunsOnceAcrossProcessesAndSurvivesAKill() async throws {
        let database = "podium_mp_\(UUID().uuidString.prefix(8).lowercased())"
        let admin = try await SchedulerTestEnvironment.postgres()
        try await admin.query("CREATE DATABASE \(database)")
        let replicas = try ReplicaGroup(database: database, count: 3)
        defer { replicas.killAll() }
        let postgres = PostgresPool(
            configuration: PostgresConfiguration(connectionString: replicas.databaseURL, poolSize: 2), logger: SchedulerTestEnvironment.logger)
        try await replicas.waitUntilReady()

        // 1. Run-now on one replica: any of the three may claim it; exactly one attempt runs it.
        let slot = "2026-01-02T03:04:05.000Z"
        let requested = try await replicas.post(0, "/v1/admin/jobs/prune/run", body: "{\"slot\": \"\(slot)\"}")
        #expect(requested == 202)
        let pruned = try await Self.waitForRun(postgres, job: "prune", slot: slot, status: "succeeded")
        #expect(pruned.attempts == 1)

        // 2. A run held at the gate before it works (its lease of 6 s renewed every 2 s meanwhile): kill whoever runs it
        // while it waits there, then open the gate.
        let gate = try await Self.shutGate(replicas.databaseURL)
        let slow = "2026-01-02T03:04:06.000Z"
        let running: (attempts: Int, replica: String)
        do {
            #expect(try await replicas.post(1, "/v1/admin/jobs/snapshot-leaderboards/run", body: "{\"slot\": \"\(slow)\"}") == 202)
            running = try await Self.waitForRun(postgres, job: "snapshot-leaderboards", slot: slow, status: "running")
            try await Self.waitAtGate(postgres)
            replicas.kill(try #require(replicas.names.firstIndex(of: running.replica)))
        } catch {
            await gate.close()
            throw error
        }
        await gate.close()
        let finished = try await Self.waitForRun(postgres, job: "snapshot-leaderboards", slot: slow, status: "succeeded", timeout: 40)
        #expect(finished.replica != running.replica)
        let attempts = try await postgres.query("""
            SELECT attempt, replica, outcome FROM job_attempts WHERE job = 'snapshot-leaderboards' AND slot = $1 ORDER BY attempt
            """, [RFC3339.parse(slow)]).rows.map { "\(try $0.int("attempt")):\(try $0.string("replica")):\($0["outcome"] ?? "-")" }
        #expect(attempts == ["1:\(running.replica):lease-lost", "2:\(finished.replica):succeeded"])

        // 3. Whatever the replicas ran meanwhile (start-up catch-up, minute slots): never two successes for one slot.
        let doubles = try await postgres.query("""
            SELECT count(*) AS n FROM (SELECT job, slot FROM job_attempts WHERE outcome = 'succeeded' GROUP BY job, slot HAVING count(*) > 1) d
            """).rows[0].int("n")
        #expect(doubles == 0)
        let closeRuns = try await postgres.query(
            "SELECT count(*) AS n FROM job_runs WHERE job = 'close-periods' AND status = 'succeeded'").rows[0].int("n")
        #expect(closeRuns >= 1, "the start-up catch-up ran close-periods")

        replicas.killAll()
        await postgres.close()
        try await admin.query("DROP DATABASE \(database) WITH (FORCE)")
        await admin.close()
    }

    /// The advisory lock of the replicas' test gate (`serve --test-job-gate`, `--test-close-pages`): a replica's job waits
    /// at it while a test holds the lock.
    static let gateLock: Int64 = 7_001

    /// Shuts the replicas' test gate on `databaseURL` (advisory locks belong to one database): a pool of one connection
    /// holding `gateLock` until the pool is closed, which opens the gate.
    static func shutGate(_ databaseURL: String) async throws -> PostgresPool {
        let gate = PostgresPool(
            configuration: PostgresConfiguration(connectionString: databaseURL, poolSize: 1), logger: SchedulerTestEnvironment.logger)
        do {
            _ = try await gate.query("SELECT pg_advisory_lock($1)", [gateLock])
        } catch {
            await gate.close()
            throw error
        }
        return gate
    }

    /// Polls `pg_locks` until at least `count` sessions wait at the test gate (ordered by what PostgreSQL shows, not by
    /// time).
    static func waitAtGate(_ postgres: PostgresPool, count: Int = 1, timeout: TimeInterval = 30) async throws {
        guard try await AdvisoryLock.key(gateLock).waitForWaiters(count, on: postgres, timeout: timeout) else {
            throw TestTimeout("fewer than \(count) sessions ever waited at the test gate")
        }
    }

    /// Polls `job_runs` until the run of `slot` has `status`; returns its attempt count and replica.
    static func waitForRun(
        _ postgres: PostgresPool, job: String, slot: String, status: String, timeout: TimeInterval = 30
    ) async throws -> (attempts: Int, replica: String) {
        let deadline = Date().addingTimeInterval(timeout)
        var last = "none"
        while Date() < deadline {
            if let row = try await postgres.query(
                "SELECT status, attempt, replica FROM job_runs WHERE job = $1 AND slot = $2", [job, RFC3339.parse(slot)]).rows.first {
                last = try row.string("status")
                if last == status { return (try row.int("attempt"), row["replica"] ?? "") }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestTimeout("\(job) \(slot) never reached \(status) (last: \(last))")
    }
}

/// Waiting ran out.
struct TestTimeout: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `podium serve` processes on loopback ports, sharing one database.
final class ReplicaGroup: @unchecked Sendable {
    let databaseURL: String
    let ports: [Int]
    let names: [String]
    private var processes: [Process?]
    /// Each replica's output.
    private var logs: [URL] = []

    /// Starts `count` replicas of `podium serve` with `arguments` on `database`, with `jobs` as the rules file's job
    /// settings and `boards` as its board rules (a JSON array), on Redis db `redis`.
    init(
        database: String, count: Int, arguments: [String] = ["--test-job-gate", "snapshot-leaderboards=\(MultiProcessTests.gateLock)"],
        jobs: String = #"[{"name": "snapshot-leaderboards", "lease_seconds": 6, "backoff_seconds": 1}]"#,
        boards: String = "[]", redis: TestRedisDatabase = .multiProcess
    ) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let binary = ProcessInfo.processInfo.environment["PODIUM_BINARY"] ?? root.appendingPathComponent(".build/debug/podium").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw TestTimeout("no podium binary at \(binary): build the package first (`swift build`)")
        }
        let base = SchedulerTestEnvironment.databaseURL.split(separator: " ").filter { !$0.hasPrefix("dbname=") }.joined(separator: " ")
        databaseURL = base + " dbname=\(database)"
        let rules = FileManager.default.temporaryDirectory.appendingPathComponent("\(database)-rules.json")
        try Data(#"{"boards": \#(boards), "scheduler": {"jobs": \#(jobs)}}"#.utf8).write(to: rules)
        ports = try (0..<count).map { _ in try freeLoopbackPort() }
        names = (0..<count).map { "\(database)-r\($0)" }
        processes = []
        for index in 0..<count {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["serve"] + arguments
            var environment = ProcessInfo.processInfo.environment
            environment["PODIUM_DATABASE_URL"] = databaseURL
            // Few connections each: the suite's other tests share the server's connection limit.
            environment["PODIUM_PG_POOL_SIZE"] = "4"
            environment["PODIUM_REDIS_URL"] = try redis.url()
            environment["PODIUM_PORT"] = String(ports[index])
            environment["PODIUM_ADMIN_KEY"] = MultiProcessTests.adminKey
            environment["PODIUM_REPLICA_NAME"] = names[index]
            environment["PODIUM_SCHEDULER_TICK_MS"] = "100"
            environment["PODIUM_RULES_FILE"] = rules.path
            environment["PODIUM_LOG_LEVEL"] = "warning"
            process.environment = environment
            // Its output goes to a file, shown when it never becomes ready.
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("\(names[index]).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            logs.append(log)
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            processes.append(process)
        }
    }

    /// Waits until every replica answers `/readyz` with 200; one that does not within 30 s fails the test with the end
    /// of its output.
    func waitUntilReady() async throws {
        for (index, port) in ports.enumerated() {
            let deadline = Date().addingTimeInterval(30)
            while try await status("GET", port: port, path: "/readyz", body: nil) != 200 {
                guard Date() < deadline, processes[index]?.isRunning == true else {
                    let output = (try? String(contentsOf: logs[index], encoding: .utf8)) ?? ""
                    let state = processes[index]?.isRunning == true ? "still running" : "exited"
                    throw TestTimeout("replica on port \(port) never became ready (\(state)); its output ends:\n\(output.suffix(2_000))")
                }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// POSTs `body` as admin to replica `index`; returns the status code.
    func post(_ index: Int, _ path: String, body: String) async throws -> Int {
        try await status("POST", port: ports[index], path: path, body: body) ?? 0
    }

    /// SIGKILLs replica `index` (processes started from the test runner block SIGTERM).
    func kill(_ index: Int) {
        guard let process = processes[index] else { return }
        // Only one still running: the pid of one that exited (and was reaped) may belong to another process by now.
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        processes[index] = nil
    }

    /// SIGKILLs every replica still running and removes their output files.
    func killAll() {
        for index in processes.indices { kill(index) }
        for log in logs { try? FileManager.default.removeItem(at: log) }
    }

    private func status(_ method: String, port: Int, path: String, body: String?) async throws -> Int? {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.setValue("Bearer \(MultiProcessTests.adminKey)", forHTTPHeaderField: "Authorization")
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        request.timeoutInterval = 30
        do {
            let (_, response) = try await URLSession.shared.data(for: request)
            return (response as? HTTPURLResponse)?.statusCode
        } catch {
            return nil
        }
    }
}
