import Logging
import ServiceLifecycle

/// Podium's Redis: one server behind one pool, or a Redis Cluster behind a pool per primary (`RedisCluster`),
/// with the same calls for both.
///
/// A command names its key first (`arguments[1]`), as Podium's keyed commands do; on a cluster that key's slot picks
/// the primary, and a command without arguments goes to any primary. Scripts go to their first key's slot, and all
/// their keys must share it (the server refuses others with `CROSSSLOT`). Pipelines and script batches are split by
/// primary and sent to all of them at once; their answers keep the order of the calls.
public final class RedisClient: Sendable {
    /// The settings: one server's, or a cluster's seeds with every node's pool settings.
    public let configuration: RedisConfiguration
    private let backend: Backend

    private enum Backend: Sendable {
        case server(RedisPool)
        case cluster(RedisCluster)
    }

    /// A client for `configuration`: a cluster when it names seeds, else one server. Connects on first use.
    public init(configuration: RedisConfiguration, logger: Logger) {
        self.configuration = configuration
        if configuration.clusterSeeds != nil {
            backend = .cluster(RedisCluster(configuration: configuration, logger: logger))
        } else {
            backend = .server(RedisPool(configuration: configuration, logger: logger))
        }
    }

    /// Whether this is a cluster's client (keys must then be designed for slots).
    public var isCluster: Bool {
        if case .cluster = backend { true } else { false }
    }

    /// How many times a cluster's slot map was read and a primary of the map before it served no slot any more: a
    /// failover replaced it (or a reshard moved all its slots away). The replica promoted may have missed the last
    /// writes of its primary (replication is asynchronous), so a caller that keeps Redis equal to another store writes
    /// its recent changes again when this grows. Always 0 on one server.
    public var primariesReplaced: Int {
        if case .cluster(let cluster) = backend { cluster.primariesGone } else { 0 }
    }

    /// Runs one command (see `RedisConnection.command(_:)`), on a cluster on the primary of `arguments[1]`'s slot.
    @discardableResult
    public func command(_ arguments: [String]) async throws -> RedisReply {
        switch backend {
        case .server(let pool):
            return try await pool.command(arguments)
        case .cluster(let cluster):
            guard arguments.count >= 2 else {
                return try await cluster.pool(for: try await cluster.primaries()[0]).command(arguments)
            }
            return try await cluster.run(slot: RedisSlot.of(arguments[1]), deadline: nil) { try $0.command(arguments) }
        }
    }

    /// Runs several commands in one round trip per node (see `RedisConnection.pipeline(_:)`), each with a key, within
    /// `deadline` when given (see `RedisPool.withConnection(deadline:_:)`).
    public func pipeline(_ commands: [[String]], deadline: Duration? = nil) async throws -> [RedisReply] {
        switch backend {
        case .server(let pool):
            return try await pool.pipeline(commands, deadline: deadline)
        case .cluster(let cluster):
            return try await cluster.batch(
                commands, slot: { RedisSlot.of($0.count >= 2 ? $0[1] : "") }, deadline: deadline,
                send: { try $0.pipeline($1) }, single: { try $0.command($1) })
        }
    }

    /// Runs a Lua script (see `RedisConnection.evaluate(_:keys:arguments:)`), on a cluster on its first key's slot.
    public func evaluate(_ script: RedisScript, keys: [String], arguments: [String]) async throws -> RedisReply {
        switch backend {
        case .server(let pool):
            return try await pool.evaluate(script, keys: keys, arguments: arguments)
        case .cluster(let cluster):
            return try await cluster.run(slot: RedisSlot.of(keys.first ?? ""), deadline: nil) {
                try $0.evaluate(script, keys: keys, arguments: arguments)
            }
        }
    }

    /// Runs several scripts in one round trip per node (see `RedisConnection.evaluateAll(_:)`), within `deadline`
    /// when given (see `RedisPool.withConnection(deadline:_:)`).
    public func evaluateAll(_ calls: [RedisScriptCall], deadline: Duration? = nil) async throws -> [RedisReply] {
        switch backend {
        case .server(let pool):
            return try await pool.evaluateAll(calls, deadline: deadline)
        case .cluster(let cluster):
            return try await cluster.batch(
                calls, slot: { RedisSlot.of($0.keys.first ?? "") }, deadline: deadline,
                send: { try $0.evaluateAll($1) }, single: { try $0.evaluate($1.script, keys: $1.keys, arguments: $1.arguments) })
        }
    }

    /// Every key matching `pattern`, by `SCAN` on every primary (never blocking Redis as `KEYS` would).
    public func scanKeys(matching pattern: String) async throws -> [String] {
        var keys: [String] = []
        for pool in try await primaryPools() {
            var cursor = "0"
            repeat {
                let reply = try await pool.command(["SCAN", cursor, "MATCH", pattern, "COUNT", "1000"])
                guard let parts = reply.array, parts.count == 2, let next = parts[0].string else {
                    throw RedisError(kind: .protocolError, message: "unexpected SCAN reply \(reply)", operation: "redisCommandArgv SCAN")
                }
                keys += parts[1].array?.compactMap(\.string) ?? []
                cursor = next
            } while cursor != "0"
        }
        return keys
    }

    /// The lowest slot each primary serves now (one server: slot 0), for keys that stand for a whole node.
    public func firstSlotOfEachPrimary() async throws -> [Int] {
        switch backend {
        case .server: [0]
        case .cluster(let cluster): try await cluster.firstSlots()
        }
    }

    /// PING on every primary; throws if one does not answer PONG. On a cluster a primary that does not answer makes
    /// the map be read anew, and the primaries it names are asked once more (a failover replaced one).
    public func ping() async throws {
        do {
            for pool in try await primaryPools() {
                try await pool.ping()
            }
        } catch let error as RedisError where error.kind == .connection {
            guard case .cluster(let cluster) = backend else { throw error }
            await cluster.refreshMap()
            for pool in try await primaryPools() {
                try await pool.ping()
            }
        }
    }

    /// Subscribes to `channel` on a connection of its own (see `RedisSubscription`). On a cluster, where a message
    /// published on any node reaches every node, it subscribes on the first primary that accepts, then the seeds.
    public func subscribe(_ channel: String) async throws -> RedisSubscription {
        switch backend {
        case .server:
            return try await RedisSubscription.open(configuration, channel: channel)
        case .cluster(let cluster):
            await cluster.refreshMap()
            let known = (try? await cluster.primaries()) ?? []
            var lastError: any Error = RedisError(kind: .connection, message: "no cluster node to subscribe on", operation: "SUBSCRIBE")
            for node in known + (configuration.clusterSeeds ?? []) {
                do {
                    return try await RedisSubscription.open(configuration.node(node), channel: channel)
                } catch {
                    lastError = error
                }
            }
            throw lastError
        }
    }

    /// Closes every pool; later calls throw `.poolClosed`. Calling it again does nothing.
    public func close() async {
        switch backend {
        case .server(let pool): await pool.close()
        case .cluster(let cluster): await cluster.close()
        }
    }

    /// The pools' sizes, the slots borrowed now and the callers waiting for one, summed over every node, for metrics.
    public var usage: (size: Int, inUse: Int, waiters: Int) {
        pools.reduce(into: (size: 0, inUse: 0, waiters: 0)) { sum, pool in
            let usage = pool.usage
            sum = (sum.size + usage.size, sum.inUse + usage.inUse, sum.waiters + usage.waiters)
        }
    }

    /// Connections open to Redis now, over every node.
    public var openConnections: Int {
        pools.reduce(0) { $0 + $1.openConnections }
    }

    /// Every pool made so far.
    private var pools: [RedisPool] {
        switch backend {
        case .server(let pool): [pool]
        case .cluster(let cluster): cluster.pools
        }
    }

    /// The pools of the primaries serving slots now (one server: its pool).
    private func primaryPools() async throws -> [RedisPool] {
        switch backend {
        case .server(let pool): [pool]
        case .cluster(let cluster): try await cluster.primaries().map { try cluster.pool(for: $0) }
        }
    }
}

extension RedisClient: Service {
    /// Serves until the service group shuts down gracefully, then closes the pools: first in a group, it is the last to
    /// stop, after everything that uses it. When the group is cancelled instead (its shutdown ran past its limit), the
    /// pools stay open for whatever still winds down beside them (a cancelled job recording its outcome); the process
    /// ends next.
    public func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            return
        }
        await close()
    }
}
