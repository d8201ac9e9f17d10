import Redis
import PodiumTestSupport
import Testing

@Suite("Redis commands", .timeLimit(.minutes(5)))
struct RedisCommandTests {
    @Test func setGetRoundTripIsBinarySafe() async throws {
        try await withTestPool { pool, prefix in
            let values = [
                "hello world", "  leading and trailing  ", #"with "double" and 'single' quotes"#, "line1\nline2\r\nline3",
                "tab\there", "héllo wörld 🎉 日本語", "", "%s %d %b %%", "a\u{0}b", "$3\r\nfoo\r\n", "*1\r\n",
                String(repeating: "x", count: 1 << 20),
            ]
            for (index, value) in values.enumerated() {
                let key = "\(prefix)string \(index) with space"
                let set = try await pool.command(["SET", key, value])
                let get = try await pool.command(["GET", key])
                let length = try await pool.command(["STRLEN", key])
                #expect(set == .string("OK"))
                #expect(get == .string(value))
                #expect(length == .integer(Int64(value.utf8.count)))
            }
        }
    }

    @Test func integerNullAndArrayReplies() async throws {
        try await withTestPool { pool, prefix in
            let counter = prefix + "counter"
            #expect(try await pool.command(["INCR", counter]) == .integer(1))
            #expect(try await pool.command(["INCRBY", counter, "-43"]) == .integer(-42))
            let text = try await pool.command(["GET", counter])
            #expect(text == .string("-42"))
            #expect(text.integer == -42)
            #expect(text.double == -42)
            #expect(text.array == nil)

            let missing = try await pool.command(["GET", prefix + "missing"])
            #expect(missing == .null)
            #expect(missing.string == nil)
            #expect(missing.integer == nil)

            let list = prefix + "list"
            #expect(try await pool.command(["RPUSH", list, "a", "b b", "", "ç"]) == .integer(4))
            let range = try await pool.command(["LRANGE", list, "0", "-1"])
            #expect(range == .array([.string("a"), .string("b b"), .string(""), .string("ç")]))
            #expect(range.array?.count == 4)
            #expect(try await pool.command(["LRANGE", prefix + "absent", "0", "-1"]) == .array([]))
            #expect(try await pool.command(["EXISTS", list, counter, prefix + "missing"]) == .integer(2))
            #expect(try await pool.command(["BLPOP", prefix + "empty", "0.05"]) == .null)
            #expect(try await pool.command(["ECHO", "3.25"]).double == 3.25)
        }
    }

    @Test func sortedSetReplies() async throws {
        try await withTestPool { pool, prefix in
            let board = prefix + "board"
            #expect(try await pool.command(["ZADD", board, "1", "alice", "2", "bob", "-12", "carol", "1.5", "dave"]) == .integer(4))

            let withScores = try await pool.command(["ZRANGE", board, "0", "-1", "WITHSCORES"])
            #expect(withScores == .array([
                .string("carol"), .string("-12"), .string("alice"), .string("1"),
                .string("dave"), .string("1.5"), .string("bob"), .string("2"),
            ]))
            let scores = try #require(withScores.array).enumerated().filter { $0.offset % 2 == 1 }.map { $0.element.double }
            #expect(scores == [-12, 1, 1.5, 2])

            #expect(try await pool.command(["ZCOUNT", board, "-inf", "+inf"]) == .integer(4))
            #expect(try await pool.command(["ZCOUNT", board, "(1", "2"]) == .integer(2))
            #expect(try await pool.command(["ZMSCORE", board, "alice", "nobody", "carol"]) == .array([.string("1"), .null, .string("-12")]))

            #expect(try await pool.command(["ZADD", board, "GT", "CH", "5", "alice"]) == .integer(1))
            #expect(try await pool.command(["ZADD", board, "GT", "CH", "0", "alice"]) == .integer(0))
            #expect(try await pool.command(["ZADD", board, "GT", "CH", "7", "erin"]) == .integer(1))
            #expect(try await pool.command(["ZSCORE", board, "alice"]) == .string("5"))
            #expect(try await pool.command(["ZREVRANK", board, "alice"]) == .integer(1))
            #expect(try await pool.command(["ZSCORE", board, "nobody"]) == .null)
            #expect(try await pool.command(["ZINCRBY", board, "inf", "bob"]).double == .infinity)
        }
    }

    @Test func topLevelErrorReplyIsThrownAndKeepsTheConnection() async throws {
        try await withTestPool { pool, prefix in
            let key = prefix + "text"
            try await pool.command(["SET", key, "not a number"])
            let before = try await pool.command(["CLIENT", "ID"])
            let error = await #expect(throws: RedisError.self) { try await pool.command(["INCR", key]) }
            #expect(error?.kind == .server)
            #expect(error?.message == "ERR value is not an integer or out of range")
            #expect(error?.operation == "redisCommandArgv INCR")

            let wrongType = await #expect(throws: RedisError.self) { try await pool.command(["LPUSH", key, "x"]) }
            #expect(wrongType?.kind == .server)
            #expect(wrongType?.message.hasPrefix("WRONGTYPE") == true)

            // A server error does not break the connection: the same one is reused.
            #expect(try await pool.command(["CLIENT", "ID"]) == before)
            #expect(pool.openConnections == 1)
        }
    }

    @Test func emptyCommandIsRejected() async throws {
        try await withTestPool { pool, _ in
            let error = await #expect(throws: RedisError.self) { try await pool.command([]) }
            #expect(error?.kind == .protocolError)
            try await pool.ping()
        }
    }

    @Test func connectionSelectsTheConfiguredDatabase() async throws {
        let database = try TestRedis.configuration().database
        try await withTestPool { pool, _ in
            let info = try #require(try await pool.command(["CLIENT", "INFO"]).string)
            #expect(info.contains(" db=\(database) "))
        }
    }

    @Test func pipelineReturnsErrorsInPlace() async throws {
        try await withTestPool { pool, prefix in
            let replies = try await pool.pipeline([
                ["SET", prefix + "a", "not a number"],
                ["INCR", prefix + "a"],
                ["GET", prefix + "a"],
                ["INCR", prefix + "b"],
                ["GET", prefix + "missing"],
                ["NOSUCHCOMMAND", "x"],
                ["RPUSH", prefix + "l", "1", "2"],
                ["LRANGE", prefix + "l", "0", "-1"],
            ])
            #expect(replies.count == 8)
            #expect(replies[0] == .string("OK"))
            #expect(replies[1] == .error("ERR value is not an integer or out of range"))
            #expect(replies[2] == .string("not a number"))
            #expect(replies[3] == .integer(1))
            #expect(replies[4] == .null)
            guard case .error(let unknown) = replies[5] else {
                Issue.record("expected an error reply, got \(replies[5])")
                return
            }
            #expect(unknown.hasPrefix("ERR unknown command"))
            #expect(replies[6] == .integer(2))
            #expect(replies[7] == .array([.string("1"), .string("2")]))
        }
    }

    @Test func pipelineOfThousandCommandsKeepsOrder() async throws {
        try await withTestPool { pool, prefix in
            let key = prefix + "counter"
            let replies = try await pool.pipeline(Array(repeating: ["INCR", key], count: 1000))
            #expect(replies == (1...1000).map { .integer(Int64($0)) })
            let echoes = try await pool.pipeline((0..<1000).map { ["ECHO", "value \($0)"] })
            #expect(echoes == (0..<1000).map { .string("value \($0)") })
            #expect(try await pool.pipeline([]) == [])
        }
    }

    @Test func luaScriptSurvivesScriptFlush() async throws {
        try await withOwnServerPool { pool in
            let script = RedisScript("return redis.call('INCRBY', KEYS[1], ARGV[1])")
            let key = "lua counter"
            #expect(try await pool.evaluate(script, keys: [key], arguments: ["5"]) == .integer(5))
            #expect(try await pool.evaluate(script, keys: [key], arguments: ["2"]) == .integer(7))

            #expect(try await pool.command(["SCRIPT", "LOAD", script.source]) == .string(script.sha1), "the name is the server's")

            try await pool.command(["SCRIPT", "FLUSH"])
            // The server no longer knows the script by name: NOSCRIPT, then EVAL with the source, run once.
            #expect(try await pool.evaluate(script, keys: [key], arguments: ["3"]) == .integer(10))
            #expect(try await pool.command(["GET", key]) == .string("10"))
            #expect(try await pool.command(["SCRIPT", "EXISTS", script.sha1]) == .array([.integer(1)]), "EVAL cached it again")

            let table = RedisScript("return {KEYS[1], ARGV[1], 3, redis.error_reply('inner'), false}")
            #expect(try await pool.evaluate(table, keys: [key], arguments: ["x y"]) == .array([
                .string(key), .string("x y"), .integer(3), .error("ERR inner"), .null,
            ]))

            // A new script's first run goes whole, later ones by name; a script's error reply is thrown either way.
            let failing = RedisScript("return redis.error_reply('boom')")
            for operation in ["redisCommandArgv EVAL", "redisCommandArgv EVALSHA"] {
                let error = await #expect(throws: RedisError.self) { try await pool.evaluate(failing, keys: [], arguments: []) }
                #expect(error?.kind == .server)
                #expect(error?.message == "ERR boom")
                #expect(error?.operation == operation)
            }
        }
    }

    @Test("scripts run together in one pipeline; those the server lacks go again whole, each run once")
    func scriptsRunTogetherAndSurviveScriptFlush() async throws {
        try await withOwnServerPool { pool in
            let add = RedisScript("return redis.call('INCRBY', KEYS[1], ARGV[1])")
            let echo = RedisScript("return ARGV[1] .. '!'")
            let failing = RedisScript("return redis.error_reply(ARGV[1])")
            let key = "pipelined counter"
            let calls = [
                RedisScriptCall(add, keys: [key], arguments: ["4"]), RedisScriptCall(echo, keys: [], arguments: ["hi"]),
                RedisScriptCall(failing, keys: [], arguments: ["luck"]), RedisScriptCall(add, keys: [key], arguments: ["1"]),
            ]
            let expected: [RedisReply] = [.integer(4), .string("hi!"), .error("ERR luck"), .integer(5)]
            try await pool.command(["SCRIPT", "FLUSH"])
            #expect(try await pool.evaluateAll(calls) == expected)
            #expect(try await pool.command(["SCRIPT", "EXISTS", add.sha1, echo.sha1, failing.sha1])
                == .array([.integer(1), .integer(1), .integer(1)]))
            #expect(try await pool.evaluateAll(calls) == [.integer(9), .string("hi!"), .error("ERR luck"), .integer(10)])
            #expect(try await pool.command(["GET", key]) == .string("10"), "no run counted twice")
            #expect(try await pool.evaluateAll([]) == [])
        }
    }

    /// Runs `body` with a pool on a redis-server of its own: `SCRIPT FLUSH` empties a whole server's
    /// script cache, and the tests count which runs go by name and which whole.
    func withOwnServerPool(_ body: (RedisPool) async throws -> Void) async throws {
        let server = OwnRedisServer()
        try await server.start()
        let pool = RedisPool(configuration: server.configuration(), logger: TestRedis.logger)
        do {
            try await body(pool)
        } catch {
            await pool.close()
            server.stop()
            throw error
        }
        await pool.close()
        server.stop()
    }
}
