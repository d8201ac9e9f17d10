/// Which primary serves each of a cluster's slots, as `CLUSTER SLOTS` tells it. Two maps are equal when every slot has
/// the same node in both.
struct RedisSlotMap: Sendable, Equatable {
    /// Per slot, the index in `nodes` of the node that serves it; -1 where none does.
    private var owners: [Int16]
    /// Every node the map has named for a slot, in the order it named them.
    private var nodes: [RedisNode]

    /// A map that knows no node.
    init() {
        owners = Array(repeating: -1, count: RedisSlot.count)
        nodes = []
    }

    /// Reads a `CLUSTER SLOTS` reply from `node`: ranges of `[first slot, last slot, [host, port, id, …], replicas…]`.
    ///
    /// An empty host stands for the node that answered (a cluster that announces no address); a range whose primary
    /// has an unknown address (`?`) is left unserved.
    init(clusterSlots reply: RedisReply, answeredBy node: RedisNode) throws {
        self.init()
        guard let ranges = reply.array else { throw Self.malformed(reply) }
        for range in ranges {
            guard let parts = range.array, parts.count >= 3, let first = parts[0].integer, let last = parts[1].integer,
                  0 <= first, first <= last, last < RedisSlot.count,
                  let address = parts[2].array, address.count >= 2, let host = address[0].string, let port = address[1].integer
            else { throw Self.malformed(range) }
            guard host != "?" else { continue }
            let primary = RedisNode(host: host.isEmpty ? node.host : host, port: Int(port))
            for slot in Int(first)...Int(last) {
                assign(slot: slot, to: primary)
            }
        }
    }

    /// The node serving `slot`, if the map knows one.
    func node(forSlot slot: Int) -> RedisNode? {
        let index = Int(owners[slot])
        return index < 0 ? nil : nodes[index]
    }

    /// The nodes that serve at least one slot now, in the order the map named them.
    var primaries: [RedisNode] {
        let serving = Set(owners)
        return nodes.indices.filter { serving.contains(Int16($0)) }.map { nodes[$0] }
    }

    /// The lowest slot each of `primaries` serves, in their order.
    var firstSlots: [Int] {
        var first: [Int16: Int] = [:]
        for (slot, owner) in owners.enumerated() where owner >= 0 && first[owner] == nil {
            first[owner] = slot
        }
        return nodes.indices.compactMap { first[Int16($0)] }
    }

    /// Records that `node` serves `slot` (a `MOVED` redirect said so).
    mutating func assign(slot: Int, to node: RedisNode) {
        if let index = nodes.firstIndex(of: node) {
            owners[slot] = Int16(index)
        } else {
            nodes.append(node)
            owners[slot] = Int16(nodes.count - 1)
        }
    }

    static func == (lhs: RedisSlotMap, rhs: RedisSlotMap) -> Bool {
        (0..<RedisSlot.count).allSatisfy { lhs.node(forSlot: $0) == rhs.node(forSlot: $0) }
    }

    /// The error for a reply that is not a slot map.
    private static func malformed(_ reply: RedisReply) -> RedisError {
        RedisError(kind: .protocolError, message: "unexpected CLUSTER SLOTS reply \(reply)", operation: "read cluster slot map")
    }
}
