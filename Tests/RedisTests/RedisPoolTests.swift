import Foundation
@testable import Redis
import PodiumTestSupport
import Testing

@Suite("RedisPool", .timeLimit(.minutes(5)))
struct RedisPoolTests {
    @Test func poolNeverOpensMoreThanItsSize() async throws {
        // Waiters wait as long as a loaded machine needs: the test counts connections, it does not time the pool.
        try await withTestPool({ $0.poolSize = 2; $0.acquireTimeout = .seconds(120) }) { pool, prefix in
            let probe = Probe()
            let start = ContinuousClock.now
            let results = try await withThrowingTaskGroup(of: (Int64, RedisReply).self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await pool.withConnection { connection in
                            probe.enter(open: pool.openConnections)
                            defer { probe.leave() }
                            let id = try connection.command(["CLIENT", "ID"]).integer ?? -1
                            return (id, try connection.command(["BLPOP", prefix + "absent", "0.2"]))
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let elapsed = ContinuousClock.now - start
            #expect(results.count == 10)
            #expect(results.allSatisfy { $0.1 == .null })
            #expect(Set(results.map(\.0)).count == 2)
            #expect(probe.maxActive == 2)
            #expect(probe.maxOpen <= 2)
            #expect(pool.openConnections == 2)
            // Ten 0.2 s commands, two at a time: at least five rounds.
            #expect(elapsed >= .milliseconds(950))
        }
    }

    @Test func acquireTimesOutWhenAllConnectionsAreBusy() async throws {
        // The holder keeps its connection until the waiter has failed (a BLPOP that a push from another pool ends),
        // so the outcome does not depend on how fast a loaded machine wakes the timeout. Nothing between the hold
        // and the push throws, and the BLPOP gives up after 30 s: the test cannot wait forever on its own holder.
        try await withTestPool({ $0.poolSize = 1; $0.acquireTimeout = .milliseconds(200); $0.commandTimeout = .seconds(60) }) { pool, prefix in
            let probe = Probe()
            async let held = pool.withConnection { connection in
                probe.enter(open: 1)
                return try connection.command(["BLPOP", prefix + "release", "30"])
            }
            #expect((try? await probe.waitUntilEntered()) != nil)
            let start = ContinuousClock.now
            let error = await #expect(throws: RedisError.self) { try await pool.command(["PING"]) }
            let waited = ContinuousClock.now - start
            #expect(error?.kind == .timeout)
            #expect(error?.operation == "acquire connection")
            #expect(waited >= .milliseconds(190))

            let releaser = RedisPool(configuration: pool.configuration, logger: TestRedis.logger)
            _ = try? await releaser.command(["LPUSH", prefix + "release", "go"])
            await releaser.close()
            #expect(try await held == .array([.string(prefix + "release"), .string("go")]))
            try await pool.ping()
            #expect(pool.openConnections == 1)
        }
    }

    @Test func waitersAreServedInOrder() async throws {
        try await withTestPool({ $0.poolSize = 1 }) { pool, prefix in
            let probe = Probe()
            let list = prefix + "order"
            // The only connection stays taken until every waiter has queued, however slow the machine.
            let release = DispatchSemaphore(value: 0)
            async let held: RedisReply = pool.withConnection { connection in
                probe.enter(open: 1)
                release.wait()
                return try connection.command(["BLPOP", prefix + "absent", "0.01"])
            }
            try await probe.waitUntilEntered()
            var waiters: [Task<RedisReply, any Error>] = []
            for index in 0..<5 {
                waiters.append(Task { try await pool.command(["RPUSH", list, String(index)]) })
                while pool.waiterCount < index + 1 { try await Task.sleep(for: .milliseconds(1)) }
            }
            release.signal()
            for waiter in waiters {
                _ = try await waiter.value
            }
            #expect(try await held == .null)
            #expect(try await pool.command(["LRANGE", list, "0", "-1"]) == .array((0..<5).map { .string(String($0)) }))
        }
    }

    @Test func cancelledWaiterDoesNotLeakTheConnection() async throws {
        try await withTestPool({ $0.poolSize = 1 }) { pool, prefix in
            let probe = Probe()
            // The only connection stays taken until the waiter's outcome is known, however slow the machine.
            let release = DispatchSemaphore(value: 0)
            async let held = pool.withConnection { connection in
                probe.enter(open: 1)
                release.wait()
                return try connection.command(["BLPOP", prefix + "absent", "0.01"])
            }
            try await probe.waitUntilEntered()
            let waiter = Task { try await pool.command(["PING"]) }
            try await Task.sleep(for: .milliseconds(50))
            waiter.cancel()
            await #expect(throws: CancellationError.self) { try await waiter.value }
            release.signal()

            #expect(try await held == .null)
            for _ in 0..<3 {
                try await pool.ping()
            }
            #expect(pool.openConnections == 1)
        }
    }

    @Test func commandTimeoutDiscardsTheConnection() async throws {
        // A timeout long enough for the commands that must answer on a loaded machine (over stunnel too); the BLPOP
        // waits for ever.
        try await withTestPool({ $0.poolSize = 1; $0.commandTimeout = .seconds(2) }) { pool, prefix in
            let first = try await pool.command(["CLIENT", "ID"])
            let error = await #expect(throws: RedisError.self) {
                try await pool.command(["BLPOP", prefix + "absent", "0"])
            }
            #expect(error?.kind == .timeout)
            #expect(error?.operation == "redisCommandArgv BLPOP")
            #expect(pool.openConnections == 0)

            let second = try await pool.command(["CLIENT", "ID"])
            #expect(second != first)
            #expect(pool.openConnections == 1)
        }
    }

    @Test("a deadline read of a frozen server throws .timeout; reads in the suspension after it throw at once; a thawed server answers")
    func deadlineReadsOfAFrozenServer() async throws {
        let server = OwnRedisServer()
        try await server.start()
        defer { server.stop() }
        var configuration = server.configuration()
        configuration.readDeadline = .milliseconds(250)
        configuration.readSuspension = .seconds(600)
        let pool = RedisPool(configuration: configuration, logger: TestRedis.logger)
        let read = { try await pool.withConnection(deadline: configuration.readDeadline) { try $0.command(["PING"]) } }
        // Connected first without a deadline: a loaded machine may take longer than 250 ms for the first answer.
        #expect(try await pool.command(["PING"]) == .string("PONG"))

        server.freeze()
        let missed = await #expect(throws: RedisError.self) { try await read() }
        #expect(missed?.kind == .timeout)
        #expect(missed?.operation == "read deadline")
        // Within the suspension the server is not asked (it is still frozen; an ask would miss its deadline again).
        let suspended = await #expect(throws: RedisError.self) { try await read() }
        #expect(suspended?.operation == "read (suspended)")
        // Reads without a deadline are not suspended: they wait for the thawed server.
        server.thaw()
        let unbounded: Result<RedisReply, any Error>
        do {
            unbounded = .success(try await pool.command(["PING"]))
        } catch {
            unbounded = .failure(error)
        }
        await pool.close()
        #expect(try unbounded.get() == .string("PONG"))
    }

    @Test("a deadline read that missed its deadline waiting for a busy pool's connection leaves the queue and suspends nothing")
    func busyPoolIsNotAHungServer() async throws {
        try await withTestPool({ $0.poolSize = 1; $0.readDeadline = .milliseconds(200); $0.readSuspension = .seconds(600); $0.commandTimeout = .seconds(60) }) { pool, prefix in
            let probe = Probe()
            async let held = pool.withConnection { connection in
                probe.enter(open: 1)
                return try connection.command(["BLPOP", prefix + "release", "30"])
            }
            #expect((try? await probe.waitUntilEntered()) != nil)
            let queued = await #expect(throws: RedisError.self) {
                try await pool.withConnection(deadline: pool.configuration.readDeadline) { try $0.command(["PING"]) }
            }
            #expect(queued?.operation == "read deadline")
            #expect(pool.waiterCount == 0, "the caller that gave up left the queue")
            let releaser = RedisPool(configuration: pool.configuration, logger: TestRedis.logger)
            _ = try? await releaser.command(["LPUSH", prefix + "release", "go"])
            await releaser.close()
            _ = try await held
            // Not suspended (for ten minutes, had it been): the next deadline read asks the server. A loaded machine may
            // make it miss its own deadline, but it is never refused unasked.
            do {
                #expect(try await pool.withConnection(deadline: pool.configuration.readDeadline) { try $0.command(["PING"]) } == .string("PONG"))
            } catch let error as RedisError {
                #expect(error.operation == "read deadline", "\(error)")
            }
        }
    }

    @Test func recoversAfterServerRestart() async throws {
        let server = OwnRedisServer()
        try await server.start()
        defer { server.stop() }
        let pool = RedisPool(configuration: server.configuration(), logger: TestRedis.logger)
        try await pool.command(["SET", "restart", "before"])
        #expect(try await pool.command(["GET", "restart"]) == .string("before"))
        #expect(pool.openConnections == 1)

        server.stop()
        let broken = await #expect(throws: RedisError.self) { try await pool.command(["GET", "restart"]) }
        #expect(broken?.kind == .connection)
        #expect(pool.openConnections == 0)

        let refused = await #expect(throws: RedisError.self) { try await pool.command(["GET", "restart"]) }
        #expect(refused?.kind == .connection)
        #expect(refused?.operation == "redisConnectWithTimeout")

        try await server.start()
        #expect(try await pool.command(["GET", "restart"]) == .null)
        #expect(try await pool.command(["SET", "restart", "after"]) == .string("OK"))
        try await pool.ping()
        #expect(pool.openConnections == 1)

        // Restarted between two calls: the idle connection is found closed and replaced, and the call succeeds.
        server.stop()
        try await server.start()
        #expect(try await pool.command(["GET", "restart"]) == .null)
        #expect(pool.openConnections == 1)
        await pool.close()
    }

    @Test func replacesAnIdleConnectionTheServerClosed() async throws {
        try await withTestPool({ $0.poolSize = 1 }) { pool, _ in
            let first = try await pool.command(["CLIENT", "ID"])
            let id = try #require(first.integer)
            let killed = try await withTestPool { admin, _ in try await admin.command(["CLIENT", "KILL", "ID", String(id)]) }
            #expect(killed == .integer(1))
            try await Task.sleep(for: .milliseconds(100))  // the closed socket reaches the client
            let second = try await pool.command(["CLIENT", "ID"])
            #expect(second != first)
            #expect(pool.openConnections == 1)
        }
    }

    @Test func pipelineWithAnEmptyCommandSendsNothing() async throws {
        try await withTestPool({ $0.poolSize = 1 }) { pool, prefix async throws in
            let error = await #expect(throws: RedisError.self) {
                try await pool.pipeline([["SET", prefix + "queued", "1"], []])
            }
            #expect(error?.kind == .protocolError)
            // Nothing of the refused pipeline was sent, and the connection answers its next command with its own reply.
            #expect(try await pool.command(["GET", prefix + "queued"]) == .null)
            #expect(try await pool.command(["ECHO", "next"]) == .string("next"))
            #expect(pool.openConnections == 1)
        }
    }

    @Test func authenticatesAndSelectsOnEveryConnection() async throws {
        let server = OwnRedisServer(password: "s3cret pass")
        try await server.start()
        defer { server.stop() }
        let pool = RedisPool(configuration: server.configuration(database: 3), logger: TestRedis.logger)
        let info = try #require(try await pool.command(["CLIENT", "INFO"]).string)
        #expect(info.contains(" db=3 "))
        try await pool.command(["SET", "in-db-3", "yes"])
        await pool.close()

        var wrong = server.configuration()
        wrong.password = "wrong"
        let unauthorized = RedisPool(configuration: wrong, logger: TestRedis.logger)
        let error = await #expect(throws: RedisError.self) { try await unauthorized.ping() }
        #expect(error?.kind == .server)
        #expect(error?.message.hasPrefix("WRONGPASS") == true)
        #expect(unauthorized.openConnections == 0)
        await unauthorized.close()

        let database0 = RedisPool(configuration: server.configuration(database: 0), logger: TestRedis.logger)
        #expect(try await database0.command(["GET", "in-db-3"]) == .null)
        #expect(try await database0.command(["SELECT", "3"]) == .string("OK"))
        await database0.close()
    }

    @Test func closeFailsWaitersAndLaterCalls() async throws {
        var configuration = try TestRedis.configuration()
        configuration.poolSize = 1
        let pool = RedisPool(configuration: configuration, logger: TestRedis.logger)
        try await pool.ping()
        let probe = Probe()
        let key = "podium-test:\(UUID().uuidString):absent"
        // The only connection stays taken until close() has failed the waiter, however slow the machine.
        let release = DispatchSemaphore(value: 0)
        async let held = pool.withConnection { connection in
            probe.enter(open: 1)
            release.wait()
            return try connection.command(["BLPOP", key, "0.01"])
        }
        try await probe.waitUntilEntered()
        let waiter = Task { try await pool.command(["PING"]) }
        try await Task.sleep(for: .milliseconds(50))

        let closing = Task { await pool.close() }
        let waiterError = await #expect(throws: RedisError.self) { try await waiter.value }
        release.signal()
        await closing.value
        // close() waited for the running command.
        #expect(try await held == .null)
        #expect(waiterError?.kind == .poolClosed)

        let error = await #expect(throws: RedisError.self) { try await pool.command(["PING"]) }
        #expect(error?.kind == .poolClosed)
        #expect(pool.openConnections == 0)
        await pool.close()
    }

    @Test func unreachableServerThrowsConnection() async throws {
        let pool = RedisPool(configuration: RedisConfiguration(port: 1, connectTimeout: .milliseconds(500)), logger: TestRedis.logger)
        let error = await #expect(throws: RedisError.self) { try await pool.ping() }
        #expect(error?.kind == .connection)
        #expect(error?.operation == "redisConnectWithTimeout")
        #expect(pool.openConnections == 0)
        await pool.close()
    }
}
