import Foundation
import Logging
import Redis
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A redis-server of the test's own on a loopback port, to stop, freeze and start at will.
///
/// The one way tests start a private Redis: it waits for the server with `Task.sleep` and a pool's `PING` (never by
/// blocking a thread), gives a busy machine `startDeadline` to start it, and says why when it does not (the
/// server's own output, and whether it exited). `stop()` runs on every path, also from `deinit`.
public final class OwnRedisServer: OwnRedis, @unchecked Sendable {
    /// The port, the same across restarts.
    public let port: Int
    /// The password the server requires, if any.
    public let password: String?
    /// Further `redis-server` arguments (a cluster node's settings).
    private let arguments: [String]
    private var process: Process?
    private let output: URL

    /// How long `start()` waits for the server to answer: generous, since a loaded two-core machine may take seconds.
    public static let startDeadline = Duration.seconds(30)

    /// A server on a free port below Linux's ephemeral range (32768-60999), so that no outgoing connection takes the
    /// port between a stop and a restart. Not started yet.
    public init(password: String? = nil, arguments: [String] = []) {
        self.password = password
        self.arguments = arguments
        port = Self.freePort()
        output = FileManager.default.temporaryDirectory.appendingPathComponent("podium-test-redis-\(port)-\(UUID().uuidString).log")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: output)
    }

    /// `redis://[:password@]127.0.0.1:port/0`.
    public var url: String {
        "redis://" + (password.map { ":\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0)@" } ?? "")
            + "127.0.0.1:\(port)/0"
    }

    /// A configuration for this server with short timeouts, for tests that stop it.
    public func configuration(database: Int = 0, poolSize: Int = 2) -> RedisConfiguration {
        RedisConfiguration(
            port: port, database: database, password: password, poolSize: poolSize,
            connectTimeout: .seconds(1), commandTimeout: .seconds(1), acquireTimeout: .seconds(2))
    }

    /// Starts the server (empty: no persistence) and waits until it answers; throws, saying why, when it does not
    /// within `startDeadline` or exits first.
    public func start() async throws {
        let process = Process()
        // The server keeps the real clock, like the shared PostgreSQL and Redis, when ops/test/date-shift.sh
        // runs the tests with a preload library that shifts the clock.
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "LD_PRELOAD" }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["redis-server", "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", FileManager.default.temporaryDirectory.path]
            + (password.map { ["--requirepass", $0] } ?? []) + arguments
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let log = try FileHandle(forWritingTo: output)
        process.standardOutput = log
        process.standardError = log
        try process.run()
        try? log.close()
        self.process = process
        var configuration = configuration(poolSize: 1)
        configuration.connectTimeout = .milliseconds(500)
        let pool = RedisPool(configuration: configuration, logger: Logger(label: "podium-test-redis"))
        let deadline = ContinuousClock.now + Self.startDeadline
        var lastError: (any Error)?
        while ContinuousClock.now < deadline && process.isRunning {
            do {
                // Ready only when the server that answers is ours: one that failed to bind may leave the port to
                // another test's server, which would answer the PING.
                let info = try await pool.command(["INFO", "server"]).string ?? ""
                if info.contains("process_id:\(process.processIdentifier)\r\n") {
                    await pool.close()
                    return
                }
                lastError = OwnRedisServerError(description: "another redis-server answers on port \(port)")
            } catch {
                lastError = error
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        await pool.close()
        let exited = process.isRunning ? "still running" : "exited with status \(process.terminationStatus)"
        stop()
        let said = (try? String(contentsOf: output, encoding: .utf8))?.split(separator: "\n").suffix(5).joined(separator: " | ") ?? ""
        throw OwnRedisServerError(description: """
            redis-server on port \(port) did not answer within \(Self.startDeadline) (\(exited)); \
            last error: \(lastError.map { "\($0)" } ?? "none"); its output: \(said.isEmpty ? "(none)" : said)
            """)
    }

    /// Kills the server (its data is lost, as with an unpersisted Redis that restarts) and waits for it to exit.
    ///
    /// SIGKILL, not SIGTERM: processes started from the test runner inherit a signal mask
    /// that blocks SIGTERM, so a terminated server would never exit. A frozen server is killed too.
    public func stop() {
        guard let process else { return }
        // Only a server still running: the pid of one that exited (and was reaped) may belong to another process by now.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        self.process = nil
    }

    /// Whether the server's process runs (started, not stopped, not exited).
    public var isRunning: Bool { process?.isRunning ?? false }

    /// Freezes the server (SIGSTOP): its connections stay open and it answers nothing, as a hung Redis.
    public func freeze() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGSTOP)
    }

    /// Lets a frozen server run again (SIGCONT).
    public func thaw() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGCONT)
    }

    /// A port in 20000-32000 that nothing is bound to now and that this process has not handed out before: a server
    /// binds its port only when it starts, so two servers (or a cluster node and its bus) must not draw the same one.
    static func freePort() -> Int {
        while true {
            let port = Int.random(in: 20_000...32_000)
            if isFree(port), handedOut.withLock({ $0.insert(port).inserted }) { return port }
        }
    }

    /// Every port `freePort()` has handed out in this process.
    private static let handedOut = Mutex<Set<Int>>([])

    /// Whether a loopback listener can bind `port` now.
    private static func isFree(_ port: Int) -> Bool {
        withLoopbackSocket(port: port) { bind($0, $1, $2) == 0 }
    }
}

/// Why a private redis-server did not start.
public struct OwnRedisServerError: Error, CustomStringConvertible {
    /// What happened, with the server's own last words.
    public let description: String
}
