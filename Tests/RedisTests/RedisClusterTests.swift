import Foundation
import Logging
import PodiumTestSupport
@testable import Redis
import Testing

/// Runs `body` with a cluster of its own (`OwnRedisCluster`) and a client of it (trying each command at most
/// `attempts` times, when given), and stops both on every path.
func withOwnCluster<T>(attempts: Int? = nil, _ body: (OwnRedisCluster, RedisClient) async throws -> T) async throws -> T {
    let cluster = OwnRedisCluster()
    try await cluster.start()
    var configuration = try cluster.configuration()
    if let attempts { configuration.clusterAttempts = attempts }
    let client = RedisClient(configuration: configuration, logger: TestRedis.logger)
    let result: Result<T, any Error>
    do {
        result = .success(try await body(cluster, client))
    } catch {
        result = .failure(error)
    }
    await client.close()
    cluster.stop()
    return try result.get()
}

@Suite("Redis Cluster slots and URLs", .timeLimit(.minutes(5)))
struct RedisSlotTests {
    @Test("slots follow Redis Cluster's CRC16 and hash tags")
    func knownSlots() {
        // CRC16-XMODEM's check value: "123456789" -> 0x31C3.
        #expect(RedisSlot.of("123456789") == 0x31C3)
        #expect(RedisSlot.of("foo") == 12_182)
        #expect(RedisSlot.of("{user1000}.following") == RedisSlot.of("{user1000}.followers"))
        #expect(RedisSlot.of("{user1000}.following") == RedisSlot.of("user1000"))
        // An empty tag hashes the whole key; only the first tag counts.
        #expect(RedisSlot.of("foo{}{bar}") == RedisSlot.of("foo{}{bar}"))
        #expect(RedisSlot.of("foo{}{bar}") != RedisSlot.of("bar"))
        #expect(RedisSlot.of("foo{{bar}}zap") == RedisSlot.of("{bar"))
        #expect(RedisSlot.of("foo{bar}{zap}") == RedisSlot.of("bar"))
    }

    @Test("a redis+cluster URL names seeds, with the first as host; a database is refused")
    func parsesClusterURL() throws {
        let configuration = try RedisConfiguration(url: "redis+cluster://podium:s%40cret@a.internal:7001,b.internal,[::1]:7003")
        #expect(configuration.clusterSeeds == [
            RedisNode(host: "a.internal", port: 7001), RedisNode(host: "b.internal", port: 6379), RedisNode(host: "::1", port: 7003),
        ])
        #expect(configuration.host == "a.internal" && configuration.port == 7001)
        #expect(configuration.user == "podium" && configuration.password == "s@cret")
        #expect(try RedisConfiguration(url: "redis://a.internal:7001").clusterSeeds == nil)
        let database = #expect(throws: RedisError.self) { try RedisConfiguration(url: "redis+cluster://a:7001/2") }
        #expect(database?.message == "invalid Redis URL (a cluster has only database 0: no /db)")
        let emptySeed = #expect(throws: RedisError.self) { try RedisConfiguration(url: "redis+cluster://a:7001,,b:7002") }
        #expect(emptySeed?.message == "invalid Redis URL (bad host)")
    }

    @Test("redirect answers are read with their slot and node; an empty host is the asked node's")
    func readsRedirects() {
        let asked = RedisNode(host: "10.0.0.1", port: 7000)
        #expect(ClusterAnswer("MOVED 3999 127.0.0.1:6381", from: asked) == .moved(slot: 3999, node: RedisNode(host: "127.0.0.1", port: 6381)))
        #expect(ClusterAnswer("ASK 12 :6390", from: asked) == .ask(slot: 12, node: RedisNode(host: "10.0.0.1", port: 6390)))
        #expect(ClusterAnswer("MOVED 1 [::1]:7001", from: asked) == .moved(slot: 1, node: RedisNode(host: "::1", port: 7001)))
        #expect(ClusterAnswer("TRYAGAIN Multiple keys request during rehashing of slot", from: asked) == .tryAgain)
        #expect(ClusterAnswer("CLUSTERDOWN The cluster is down", from: asked) == .clusterDown)
        #expect(ClusterAnswer("MOVED 16384 127.0.0.1:6381", from: asked) == nil)
        #expect(ClusterAnswer("ERR wrong number of arguments", from: asked) == nil)
        #expect(RedisCluster.pause(before: 1) == .milliseconds(25))
        #expect(RedisCluster.pause(before: 5) == .milliseconds(400))
        #expect(RedisCluster.pause(before: 8) == .milliseconds(400))
    }
}

@Suite("Redis Cluster client", .timeLimit(.minutes(5)))
struct RedisClusterTests {
    @Test("slots computed here equal the server's CLUSTER KEYSLOT, tags and all")
    func slotsEqualTheServer() async throws {
        try await withOwnCluster { cluster, client in
            var keys = ["", "{", "}", "{}", "{}x", "a{b}c", "a{}{b}", "{{a}}", "ünï{cödé}", "podium:lb:{global:daily:2026-11-27}"]
            var generator = SystemRandomNumberGenerator()
            let alphabet = Array("ab{}:-_xyz019é")
            for _ in 0..<1_000 {
                keys.append(String((0..<Int.random(in: 1...16, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
            }
            // Routed by its second word, "KEYSLOT", so all to one node: every node answers KEYSLOT for any key.
            let replies = try await client.pipeline(keys.map { ["CLUSTER", "KEYSLOT", $0] })
            for (key, reply) in zip(keys, replies) {
                #expect(reply.integer.map(Int.init) == RedisSlot.of(key), "key \(key)")
            }
            _ = cluster
        }
    }

    @Test("commands, pipelines and script batches reach the primary of their slot, answers in order")
    func routesByslot() async throws {
        try await withOwnCluster { cluster, client in
            let keys = (0..<300).map { "k\($0)" }
            for key in keys.prefix(30) {
                try await client.command(["SET", key, "one \(key)"])
            }
            let written = try await client.pipeline(keys.dropFirst(30).map { ["SET", $0, "one \($0)"] })
            #expect(written == Array(repeating: .string("OK"), count: 270))
            // Each key is on the node the cluster says serves its slot, and the keys are on all three primaries.
            var holders = Set<Int>()
            for key in keys.prefix(60) {
                let primary = try #require(try await cluster.primary(ofSlot: RedisSlot.of(key)))
                #expect(try await OwnRedisCluster.ask(primary, ["GET", key]) == .string("one \(key)"))
                holders.insert(primary.port)
            }
            #expect(holders.count == 3)
            let read = try await client.pipeline(keys.map { ["GET", $0] })
            #expect(read == keys.map { .string("one \($0)") })
            // A script batch: each call's two keys share a tag; the answers come back in the calls' order.
            let script = RedisScript("redis.call('SET', KEYS[2], ARGV[1]) return redis.call('GET', KEYS[1]) .. '+' .. ARGV[1]")
            let tags = (0..<100).map { "{t\($0)}" }
            for tag in tags { try await client.command(["SET", "\(tag)a", tag]) }
            let calls = tags.map { RedisScriptCall(script, keys: ["\($0)a", "\($0)b"], arguments: ["x\($0)"]) }
            #expect(try await client.evaluateAll(calls) == tags.map { .string("\($0)+x\($0)") })
            #expect(try await client.pipeline(tags.map { ["GET", "\($0)b"] }) == tags.map { .string("x\($0)") })
            // A script whose keys hash to different slots is the server's to refuse.
            let crossing = await #expect(throws: RedisError.self) {
                try await client.evaluate(script, keys: ["k1", "k2"], arguments: ["y"])
            }
            #expect(crossing?.message.hasPrefix("CROSSSLOT") == true)
            #expect(try await client.scanKeys(matching: "k*").count == 300)
            var stored: Int64 = 0
            for primary in try await cluster.primaries() {
                stored += try await OwnRedisCluster.ask(primary, ["DBSIZE"]).integer ?? 0
            }
            #expect(stored == 500)
        }
    }

    @Test("a slot moved to another primary is followed (MOVED); keys of a slot under migration are found (ASK)")
    func followsMigrations() async throws {
        // Tries enough for the split call below to wait out the migration however slowly this machine finishes it.
        try await withOwnCluster(attempts: 200) { cluster, client in
            let slot = RedisSlot.of("{m}")
            try await client.command(["SET", "{m}stays", "on the source"])
            try await client.command(["SET", "{m}moves", "on the target"])
            let source = try #require(try await cluster.primary(ofSlot: slot))
            let target = try #require(try await cluster.primaries().first { $0.port != source.port })
            let sourceID = try #require(try await OwnRedisCluster.ask(source, ["CLUSTER", "MYID"]).string)
            let targetID = try #require(try await OwnRedisCluster.ask(target, ["CLUSTER", "MYID"]).string)
            try await OwnRedisCluster.ask(target, ["CLUSTER", "SETSLOT", String(slot), "IMPORTING", sourceID])
            try await OwnRedisCluster.ask(source, ["CLUSTER", "SETSLOT", String(slot), "MIGRATING", targetID])
            try await OwnRedisCluster.ask(source, ["MIGRATE", "127.0.0.1", String(target.port), "{m}moves", "0", "5000"])
            // Mid-migration: the source answers ASK for the key it gave away, and still serves the other.
            #expect(try await client.command(["GET", "{m}moves"]) == .string("on the target"))
            // A script the target has never run: by name it answers NOSCRIPT, and sent whole it needs ASKING again.
            try await OwnRedisCluster.ask(target, ["SCRIPT", "FLUSH"])
            let read = RedisScript("return redis.call('GET', KEYS[1]) .. ' by script'")
            #expect(try await client.evaluate(read, keys: ["{m}moves"], arguments: []) == .string("on the target by script"))
            #expect(try await client.pipeline([["GET", "{m}stays"], ["GET", "{m}moves"]]) == [.string("on the source"), .string("on the target")])
            // Both keys in one script, split by the migration: the source answers TRYAGAIN, and the client tries again
            // until the migration is done, then follows MOVED to the target.
            let both = RedisScript("return redis.call('GET', KEYS[1]) .. ' / ' .. redis.call('GET', KEYS[2])")
            let tryAgainBefore = try await Self.errors("TRYAGAIN", on: source)
            let pending = Task { try await client.evaluate(both, keys: ["{m}stays", "{m}moves"], arguments: []) }
            while try await Self.errors("TRYAGAIN", on: source) == tryAgainBefore {
                try await Task.sleep(for: .milliseconds(5))
            }
            try await OwnRedisCluster.ask(source, ["MIGRATE", "127.0.0.1", String(target.port), "{m}stays", "0", "5000"])
            for node in [target, source] + (try await cluster.primaries()).filter({ $0.port != source.port && $0.port != target.port }) {
                try await OwnRedisCluster.ask(node, ["CLUSTER", "SETSLOT", String(slot), "NODE", targetID])
            }
            #expect(try await pending.value == .string("on the source / on the target"))
            // Done: the client's map names the target now (MOVED), so reads no longer stop at the source.
            #expect(try await client.command(["GET", "{m}stays"]) == .string("on the source"))
            let before = try await Self.calls(of: "get", on: source)
            #expect(try await client.command(["GET", "{m}moves"]) == .string("on the target"))
            #expect(try await Self.calls(of: "get", on: source) == before)
        }
    }

    @Test("after its primary is killed, a slot's keys are served by the promoted replica without a new client")
    func followsFailover() async throws {
        try await withOwnCluster { cluster, client in
            try await client.command(["SET", "{f}key", "kept"])
            let primary = try #require(try await cluster.primary(ofSlot: RedisSlot.of("{f}key")))
            // Acknowledged by the replica before the kill (its first sync may still be under way: asked again until then).
            var acknowledged = false
            for _ in 0..<100 where !acknowledged {
                acknowledged = try await OwnRedisCluster.ask(primary, ["WAIT", "1", "500"]) == .integer(1)
            }
            #expect(acknowledged)
            #expect(client.primariesReplaced == 0)
            primary.stop()
            var answer: RedisReply?
            let deadline = ContinuousClock.now + .seconds(60)
            while answer == nil && ContinuousClock.now < deadline {
                answer = try? await client.command(["GET", "{f}key"])
            }
            #expect(answer == .string("kept"))
            let promoted = try #require(try await cluster.primary(ofSlot: RedisSlot.of("{f}key")))
            #expect(promoted.port != primary.port)
            #expect(client.primariesReplaced >= 1, "the failover shows as a changed map")
            try await client.ping()
        }
    }

    @Test("a subscription on a cluster hears what is published on every primary")
    func subscribesOnCluster() async throws {
        try await withOwnCluster { cluster, client in
            let subscription = try await client.subscribe("podium-test-channel")
            // Published once on each primary; the cluster bus carries each to the subscribed node (in no set order).
            for (index, primary) in try await cluster.primaries().enumerated() {
                try await OwnRedisCluster.ask(primary, ["PUBLISH", "podium-test-channel", "m\(index)"])
            }
            var heard: [String] = []
            for try await message in subscription.messages {
                heard.append(message)
                if heard.count == 3 { break }
            }
            subscription.close()
            #expect(heard.sorted() == ["m0", "m1", "m2"])
        }
    }

    /// How many error replies starting with `prefix` `node` has sent (its `INFO errorstats`).
    private static func errors(_ prefix: String, on node: OwnRedisServer) async throws -> Int {
        let info = try await OwnRedisCluster.ask(node, ["INFO", "errorstats"]).string ?? ""
        guard let line = info.split(separator: "\r\n").first(where: { $0.hasPrefix("errorstat_\(prefix):count=") }) else { return 0 }
        return Int(line.dropFirst("errorstat_\(prefix):count=".count).prefix { $0.isNumber }) ?? 0
    }

    /// How many times `node` has run `command` (its `INFO commandstats`).
    private static func calls(of command: String, on node: OwnRedisServer) async throws -> Int {
        let info = try await OwnRedisCluster.ask(node, ["INFO", "commandstats"]).string ?? ""
        guard let line = info.split(separator: "\r\n").first(where: { $0.hasPrefix("cmdstat_\(command):calls=") }) else { return 0 }
        return Int(line.dropFirst("cmdstat_\(command):calls=".count).prefix { $0.isNumber }) ?? 0
    }
}
