import Logging
import NIOPosix
import Synchronization

/// A Redis Cluster: a pool per primary, each command sent to the primary that serves its key's slot.
///
/// The slot map comes from `CLUSTER SLOTS`, asked of the known primaries, then of the seeds. A `MOVED` answer moves
/// its slot in the map and the command goes again to the node it names; `ASK` sends the command once to the node
/// it names, after `ASKING` on the same connection (a slot being migrated); `TRYAGAIN` (keys of one call split by a
/// migration) and `CLUSTERDOWN` (a failover under way) are retried after a short, growing pause, the latter with the
/// map read anew; a node that does not answer makes the map be read anew, and the command goes to the slot's new
/// primary if a failover named one. At most `configuration.clusterAttempts` tries in all, and never past a read's deadline.
///
/// Commands Podium retries this way are safe to repeat: absolute writes (`ZADD … LT`, `HSET`), reads, and scripts
/// built of them. A rate-limit share taken twice after a lost answer only spends tokens early.
final class RedisCluster: Sendable {
    /// The settings of every node's pool; `clusterSeeds` names where the map is first read.
    let configuration: RedisConfiguration
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var map = RedisSlotMap()
        var pools: [RedisNode: RedisPool] = [:]
        /// The map read under way, which concurrent callers wait for instead of starting their own.
        var refresh: Task<Void, Never>?
        /// When the last map read ended: reads closer together than `refreshInterval` are skipped.
        var refreshed: ContinuousClock.Instant?
        /// How many map reads found a primary of the map before them serving no slot.
        var primariesGone = 0
        var closed = false
    }

    /// A cluster reached through `configuration.clusterSeeds`; the map is read on first use.
    init(configuration: RedisConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    // MARK: - Routing

    /// Runs `body` on a connection to the primary serving `slot`, following redirects and retrying as the type says.
    /// A thrown error is the last one met; a `.server` error that is no redirect is thrown at once.
    func run<T: Sendable>(slot: Int, deadline: Duration?, _ body: @escaping @Sendable (RedisConnection) throws -> T) async throws -> T {
        let end = deadline.map { ContinuousClock.now + $0 }
        var node = try await node(forSlot: slot)
        var asking = false
        var attempt = 0
        while true {
            attempt += 1
            do {
                let pool = try pool(for: node)
                let ask = asking
                let remaining = end.map { $0 - .now }
                if let remaining, remaining <= .zero {
                    throw RedisError(kind: .timeout, message: "no answer within the read deadline", operation: "read deadline")
                }
                return try await pool.withConnection(deadline: remaining) { connection in
                    connection.asking = ask
                    defer { connection.asking = false }
                    return try body(connection)
                }
            } catch let error as RedisError {
                guard attempt < configuration.clusterAttempts, end.map({ ContinuousClock.now < $0 }) ?? true,
                      let next = try await recover(from: error, slot: slot, node: node, asking: asking, attempt: attempt)
                else { throw error }
                (node, asking) = next
            }
        }
    }

    /// Sends `items` grouped by the primary of each one's `slot`: one `send` per primary (a pipeline), all at once,
    /// within `deadline` when given. Answers come in `items`' order; an item answered with a redirect or a retry goes
    /// again alone, through `run` with `single`, and an error reply then stays in its place as `.error`. When a
    /// primary does not answer, the map is read anew and its items go again, once, if a failover gave their slots to
    /// another primary; otherwise the error is thrown.
    func batch<Item: Sendable>(
        _ items: [Item], slot: @escaping @Sendable (Item) -> Int, deadline: Duration?,
        send: @escaping @Sendable (RedisConnection, [Item]) throws -> [RedisReply],
        single: @escaping @Sendable (RedisConnection, Item) throws -> RedisReply,
        resending: Bool = false
    ) async throws -> [RedisReply] {
        let slots = items.map(slot)
        // One deadline for everything below: sends, the resend after a failover, redirected items.
        let end = deadline.map { ContinuousClock.now + $0 }
        @Sendable func remaining() -> Duration? { end.map { $0 - .now } }
        var groups: [RedisNode: [Int]] = [:]
        for index in items.indices {
            groups[try await node(forSlot: slots[index]), default: []].append(index)
        }
        // One primary's items, in one pipeline.
        @Sendable func sendGroup(_ node: RedisNode, _ indices: [Int]) async throws -> [RedisReply] {
            let chosen = indices.map { items[$0] }
            do {
                return try await pool(for: node).withConnection(deadline: remaining()) { try send($0, chosen) }
            } catch let error as RedisError where error.kind == .connection && !resending {
                await refreshMap()
                for index in indices where try await self.node(forSlot: slots[index]) == node { throw error }
                return try await batch(chosen, slot: slot, deadline: remaining(), send: send, single: single, resending: true)
            }
        }
        var replies = [RedisReply](repeating: .null, count: items.count)
        if groups.count == 1, let (node, indices) = groups.first {
            // The common case of a read on one slot: no task to wait for.
            replies = try await sendGroup(node, indices)
        } else {
            try await withThrowingTaskGroup(of: (indices: [Int], replies: [RedisReply]).self) { group in
                for (node, indices) in groups {
                    group.addTask { (indices, try await sendGroup(node, indices)) }
                }
                for try await answered in group {
                    for (index, reply) in zip(answered.indices, answered.replies) {
                        replies[index] = reply
                    }
                }
            }
        }
        for index in replies.indices where replies[index].asksClusterToRetry {
            let item = items[index]
            do {
                replies[index] = try await run(slot: slots[index], deadline: remaining()) { try single($0, item) }
            } catch let error as RedisError where error.kind == .server {
                replies[index] = .error(error.message)
            }
        }
        return replies
    }

    /// Where to try next after `error` from `node` for `slot`, or nil when the error is the caller's to see.
    private func recover(
        from error: RedisError, slot: Int, node: RedisNode, asking: Bool, attempt: Int
    ) async throws -> (node: RedisNode, asking: Bool)? {
        switch error.kind {
        case .server:
            switch ClusterAnswer(error.message, from: node) {
            case .moved(let movedSlot, let target):
                state.withLock { $0.map.assign(slot: movedSlot, to: target) }
                // The rest of the map may have moved too (a failover the client saw no error of): read it again.
                Task { await self.refreshMap() }
                return (target, false)
            case .ask(_, let target):
                return (target, true)
            case .tryAgain:
                try await Task.sleep(for: Self.pause(before: attempt))
                return (node, asking)
            case .clusterDown:
                try await Task.sleep(for: Self.pause(before: attempt))
                await refreshMap()
                return (try await self.node(forSlot: slot), false)
            case nil:
                return nil
            }
        case .connection:
            await refreshMap()
            let current = try await self.node(forSlot: slot)
            if current == node { try await Task.sleep(for: Self.pause(before: attempt)) }
            return (current, false)
        case .timeout, .protocolError, .configuration, .poolClosed:
            return nil
        }
    }

    /// The pause before retry `attempt`: 25 ms, doubling, at most 400 ms.
    static func pause(before attempt: Int) -> Duration {
        .milliseconds(25 << min(attempt - 1, 4))
    }

    /// The primary serving `slot`, reading the map first when it names none; throws `CLUSTERDOWN` when no node does.
    func node(forSlot slot: Int) async throws -> RedisNode {
        if let node = state.withLock({ $0.map.node(forSlot: slot) }) { return node }
        await refreshMap()
        guard let node = state.withLock({ $0.map.node(forSlot: slot) }) else {
            throw RedisError(kind: .connection, message: "CLUSTERDOWN no node of the cluster serves slot \(slot)", operation: "route to slot")
        }
        return node
    }

    /// The pool of `node`, made on first use.
    func pool(for node: RedisNode) throws -> RedisPool {
        try state.withLock { state in
            guard !state.closed else {
                throw RedisError(kind: .poolClosed, message: "the Redis cluster client is closed", operation: "acquire connection")
            }
            if let pool = state.pools[node] { return pool }
            let pool = RedisPool(configuration: configuration.node(node), logger: logger)
            state.pools[node] = pool
            return pool
        }
    }

    /// The primaries serving slots now, by the map (read first when it is empty).
    func primaries() async throws -> [RedisNode] {
        if state.withLock({ $0.map.primaries.isEmpty }) { await refreshMap() }
        let primaries = state.withLock { $0.map.primaries }
        guard !primaries.isEmpty else {
            throw RedisError(kind: .connection, message: "no node of the cluster answered CLUSTER SLOTS", operation: "read cluster slot map")
        }
        return primaries
    }

    /// The lowest slot each primary serves now, by the map (read first when it is empty).
    func firstSlots() async throws -> [Int] {
        _ = try await primaries()
        return state.withLock { $0.map.firstSlots }
    }

    // MARK: - The slot map

    /// The least time between two map reads: while a node is down, every failed command asks for one.
    static let refreshInterval = Duration.milliseconds(100)

    /// Reads the slot map anew, or waits for the read already under way; does nothing when the last one ended less
    /// than `refreshInterval` ago. Never throws: when no node answers, the old map stays and the warning is logged.
    func refreshMap() async {
        let task = state.withLock { state -> Task<Void, Never>? in
            if let running = state.refresh { return running }
            if let refreshed = state.refreshed, ContinuousClock.now - refreshed < Self.refreshInterval { return nil }
            let task = Task {
                await self.readMap()
                self.state.withLock { state in
                    state.refresh = nil
                    state.refreshed = .now
                }
            }
            state.refresh = task
            return task
        }
        await task?.value
    }

    /// Asks the known primaries, then the seeds, for `CLUSTER SLOTS`, and keeps the first map that serves a slot.
    private func readMap() async {
        let known = state.withLock { $0.map.primaries }
        var asked = Set<RedisNode>()
        var lastError: (any Error)?
        for node in known + (configuration.clusterSeeds ?? []) where asked.insert(node).inserted {
            do {
                let settings = configuration.node(node)
                let reply = try await NIOThreadPool.singleton.runIfActive {
                    try RedisConnection.connect(settings).command(["CLUSTER", "SLOTS"])
                }
                let map = try RedisSlotMap(clusterSlots: reply, answeredBy: node)
                guard !map.primaries.isEmpty else { continue }
                let changed = state.withLock { state in
                    defer { state.map = map }
                    // A primary that served slots and serves none now: a failover (or a reshard that emptied it).
                    if !Set(state.map.primaries).isSubset(of: map.primaries) { state.primariesGone += 1 }
                    return state.map != map
                }
                if changed {
                    logger.info("Redis cluster slot map read", metadata: [
                        "redis.node": "\(node)", "redis.primaries": "\(map.primaries.map(\.description).joined(separator: " "))",
                    ])
                }
                return
            } catch {
                lastError = error
            }
        }
        logger.warning("no Redis cluster node answered CLUSTER SLOTS", metadata: ["error": "\(lastError.map { "\($0)" } ?? "no nodes")"])
    }

    // MARK: - Lifecycle and figures

    /// Closes every node's pool; later calls throw `.poolClosed`.
    func close() async {
        let pools = state.withLock { state -> [RedisPool] in
            state.closed = true
            return Array(state.pools.values)
        }
        for pool in pools {
            await pool.close()
        }
    }

    /// How many map reads found a primary of the map before them serving no slot: a failover replaced it (or a
    /// reshard moved all its slots away).
    var primariesGone: Int {
        state.withLock(\.primariesGone)
    }

    /// Every pool made so far.
    var pools: [RedisPool] {
        state.withLock { Array($0.pools.values) }
    }
}

extension RedisReply {
    /// True for an error reply that redirects or asks for a retry (`MOVED`, `ASK`, `TRYAGAIN`, `CLUSTERDOWN`).
    var asksClusterToRetry: Bool {
        guard case .error(let message) = self else { return false }
        return ClusterAnswer(message, from: RedisNode(host: "", port: 0)) != nil
    }
}

/// What a cluster node's error reply asks of the client.
enum ClusterAnswer: Equatable {
    /// The slot lives on `node` now: send it there from now on.
    case moved(slot: Int, node: RedisNode)
    /// The slot is being migrated and the key is on `node`: send this command there, after `ASKING`.
    case ask(slot: Int, node: RedisNode)
    /// The keys of a multi-key call are split by a migration: try again shortly.
    case tryAgain
    /// The cluster cannot serve (a failover under way, slots without a node).
    case clusterDown

    /// Reads an error reply `message` from `asked`; nil for any other error. A redirect with an empty host
    /// (`MOVED 3999 :6381`) names a port on the asked node's host.
    init?(_ message: String, from asked: RedisNode) {
        let words = message.split(separator: " ")
        switch words.first {
        case "MOVED", "ASK":
            guard words.count >= 3, let slot = Int(words[1]), (0..<RedisSlot.count).contains(slot),
                  let colon = words[2].lastIndex(of: ":"), let port = Int(words[2][words[2].index(after: colon)...])
            else { return nil }
            var host = String(words[2][..<colon])
            if host.isEmpty { host = asked.host }
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            let node = RedisNode(host: host, port: port)
            self = words[0] == "MOVED" ? .moved(slot: slot, node: node) : .ask(slot: slot, node: node)
        case "TRYAGAIN":
            self = .tryAgain
        case "CLUSTERDOWN":
            self = .clusterDown
        default:
            return nil
        }
    }
}
