import Foundation
import Logging
import Redis

/// A Redis Cluster of the test's own on loopback: six `redis-server`s in cluster mode, made into three primaries
/// with a replica each by `redis-cli --cluster create`, to kill, fail over and reshard at will.
///
/// `start()` returns once every node sees all 16,384 slots served; `stop()` kills every node and runs on every
/// path, also from `deinit`. Nodes fail over after `nodeTimeout` of silence.
public final class OwnRedisCluster: OwnRedis, @unchecked Sendable {
    /// The nodes, the first three made primaries by `--cluster create`.
    public let nodes: [OwnRedisServer]
    /// The nodes' folders: a replica's first sync writes a dump there, which no other server may load at its start.
    private let folders: [URL]

    /// How long a node may be silent before the others count it failed and its replica takes over.
    public static let nodeTimeout = Duration.milliseconds(1500)

    /// Six nodes on free ports, each with a free cluster bus port and a folder of its own. Not started yet.
    public init() {
        var folders: [URL] = []
        nodes = (0..<6).map { _ in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("podium-test-cluster-\(UUID().uuidString)")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            folders.append(folder)
            // The later --dir wins over OwnRedisServer's own.
            return OwnRedisServer(arguments: [
                "--dir", folder.path, "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                "--cluster-port", String(OwnRedisServer.freePort()),
                "--cluster-node-timeout", String(Self.nodeTimeout.components.seconds * 1000 + Self.nodeTimeout.components.attoseconds / 1_000_000_000_000_000),
            ])
        }
        self.folders = folders
    }

    deinit {
        stop()
        for folder in folders {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// `redis+cluster://127.0.0.1:P1,…` naming every node as a seed.
    public var url: String {
        "redis+cluster://" + nodes.map { "127.0.0.1:\($0.port)" }.joined(separator: ",")
    }

    /// A configuration for the cluster with short timeouts, for tests that kill nodes.
    public func configuration(poolSize: Int = 2) throws -> RedisConfiguration {
        var configuration = try RedisConfiguration(url: url)
        configuration.poolSize = poolSize
        configuration.connectTimeout = .seconds(1)
        configuration.commandTimeout = .seconds(1)
        configuration.acquireTimeout = .seconds(2)
        return configuration
    }

    /// Whether `--cluster create` made the nodes a cluster (their folders keep it across restarts).
    private var created = false

    /// Starts the nodes, makes them a cluster the first time (later starts bring the same cluster back, empty, as after
    /// a restart of every node without persistence), and waits until every node sees every slot served.
    public func start() async throws {
        do {
            for node in nodes {
                try await node.start()
            }
            if !created {
                try await Self.runRedisCLI(["--cluster", "create"] + nodes.map { "127.0.0.1:\($0.port)" } + ["--cluster-replicas", "1", "--cluster-yes"])
                created = true
            }
            try await waitUntilServed()
        } catch {
            stop()
            throw error
        }
    }

    /// Waits until every running node reports the cluster `ok` with all slots served and knows every other running node.
    public func waitUntilServed() async throws {
        let deadline = ContinuousClock.now + OwnRedisServer.startDeadline
        var last = ""
        while ContinuousClock.now < deadline {
            var served = true
            for node in nodes where node.isRunning {
                let info = (try? await Self.ask(node, ["CLUSTER", "INFO"]))?.string ?? ""
                last = "node \(node.port): " + info.split(separator: "\r\n").prefix(3).joined(separator: " ")
                guard info.contains("cluster_state:ok"), info.contains("cluster_slots_ok:16384") else {
                    served = false
                    break
                }
            }
            if served { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw OwnRedisServerError(description: "the cluster was not served within \(OwnRedisServer.startDeadline): \(last)")
    }

    /// The nodes that serve slots now, by the first running node's `CLUSTER SLOTS`.
    public func primaries() async throws -> [OwnRedisServer] {
        guard let anyNode = nodes.first(where: \.isRunning) else { return [] }
        let ports = Set(try await Self.ask(anyNode, ["CLUSTER", "SLOTS"]).array?.compactMap { range in
            range.array?[safeIndex: 2]?.array?[safeIndex: 1]?.integer.map(Int.init)
        } ?? [])
        return nodes.filter { ports.contains($0.port) }
    }

    /// The node that serves `slot` now, by the first running node's `CLUSTER SLOTS`.
    public func primary(ofSlot slot: Int) async throws -> OwnRedisServer? {
        guard let anyNode = nodes.first(where: \.isRunning) else { return nil }
        for range in try await Self.ask(anyNode, ["CLUSTER", "SLOTS"]).array ?? [] {
            guard let parts = range.array, parts.count >= 3, let first = parts[0].integer, let last = parts[1].integer,
                  (first...last).contains(Int64(slot)), let port = parts[2].array?[safeIndex: 1]?.integer else { continue }
            return nodes.first { $0.port == Int(port) }
        }
        return nil
    }

    /// Kills every node.
    public func stop() {
        for node in nodes {
            node.stop()
        }
    }

    /// Freezes every node (SIGSTOP), as a Redis that hangs.
    public func freeze() {
        for node in nodes {
            node.freeze()
        }
    }

    /// Lets every frozen node run again (SIGCONT).
    public func thaw() {
        for node in nodes {
            node.thaw()
        }
    }

    /// One command on `node` alone, on a connection of its own.
    @discardableResult
    public static func ask(_ node: OwnRedisServer, _ arguments: [String]) async throws -> RedisReply {
        let pool = RedisPool(configuration: node.configuration(poolSize: 1), logger: Logger(label: "podium-test-cluster"))
        do {
            let reply = try await pool.command(arguments)
            await pool.close()
            return reply
        } catch {
            await pool.close()
            throw error
        }
    }

    /// Runs `redis-cli` with `arguments` and waits for it (polling, never blocking a thread); throws with its output
    /// when it fails or runs past the start deadline.
    public static func runRedisCLI(_ arguments: [String]) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["redis-cli"] + arguments
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "LD_PRELOAD" }
        // A file, not a pipe: a pipe that fills up would stop redis-cli until the deadline.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("podium-test-redis-cli-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try FileHandle(forWritingTo: file)
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? output.close()
        let deadline = ContinuousClock.now + OwnRedisServer.startDeadline
        while process.isRunning && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let said = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw OwnRedisServerError(description: "redis-cli \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(said.suffix(500))")
        }
    }
}

extension Array {
    /// The element at `index`, or nil when out of range.
    fileprivate subscript(safeIndex index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
