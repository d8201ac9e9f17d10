import Foundation
import Logging
import Postgres
import Testing

@Suite("Listener: LISTEN on a connection of its own", .timeLimit(.minutes(3)))
struct ListenerTests {
    /// A channel no other test uses.
    static func channel() -> String { TestDatabase.uniqueName("podium_listen") }

    /// Opens a listener on `channels` of the test database.
    static func listener(_ channels: [String]) async throws -> PostgresListener {
        try await PostgresListener.open(
            PostgresConfiguration(connectionString: TestDatabase.connectionString), channels: channels, logger: Logger(label: "PostgresTests"))
    }

    /// Whether the server still has a session with process id `pid`.
    static func sessionExists(_ pid: Int32, using pool: PostgresPool) async throws -> Bool {
        try await pool.query("SELECT count(*) AS n FROM pg_stat_activity WHERE pid = $1", [Int(pid)]).rows[0].int("n") == 1
    }

    @Test("a committed notification arrives with its channel and payload; a rolled-back one, another channel's and an unheard one do not")
    func notificationArrives() async throws {
        let (heard, other) = (Self.channel(), Self.channel())
        let listener = try await Self.listener([heard])
        defer { listener.close() }
        try await TestDatabase.withPool(poolSize: 2) { pool in
            #expect(try await Self.sessionExists(listener.backendPID, using: pool))
            await #expect(throws: TestFailure.self) {
                try await pool.withTransaction { connection in
                    try connection.query("SELECT pg_notify($1, 'rolled back')", [heard])
                    throw TestFailure()
                }
            }
            try await pool.query("SELECT pg_notify($1, 'not listened to')", [other])
            try await pool.withTransaction { connection in
                try connection.query("SELECT pg_notify($1, 'first')", [heard])
                try connection.query("SELECT pg_notify($1, 'second')", [heard])
            }
            let sender = try await pool.withConnection { connection in
                try connection.query("SELECT pg_notify($1, 'third') AS sent, pg_backend_pid() AS pid", [heard]).rows[0].int("pid")
            }
            var received: [PostgresNotification] = []
            for try await notification in listener.notifications {
                received.append(notification)
                if received.count == 3 { break }
            }
            #expect(received.map(\.payload) == ["first", "second", "third"])
            #expect(received.allSatisfy { $0.channel == heard })
            #expect(received.last?.senderPID == Int32(sender))
        }
    }

    @Test("close() ends the stream without an error and the listening session with it; closing again is harmless")
    func closeEndsTheStream() async throws {
        let listener = try await Self.listener([Self.channel()])
        let ended = Task {
            var count = 0
            for try await _ in listener.notifications { count += 1 }
            return count
        }
        listener.close()
        // The thread finishes the stream only after it closed the connection: no error, nothing received.
        #expect(try await ended.value == 0)
        listener.close()
        try await TestDatabase.withPool(poolSize: 1) { pool in
            // The server notices the closed socket on its own schedule: wait for the session to go (the suite's time limit bounds it).
            while try await Self.sessionExists(listener.backendPID, using: pool) { try await Task.sleep(for: .milliseconds(20)) }
        }
    }

    @Test("a terminated session finishes the stream with a connection error")
    func terminatedBackendFinishesWithAnError() async throws {
        let listener = try await Self.listener([Self.channel()])
        defer { listener.close() }
        try await TestDatabase.withPool(poolSize: 1) { pool in
            try await TestDatabase.terminate(Int(listener.backendPID), using: pool)
        }
        do {
            for try await notification in listener.notifications { Issue.record("unexpected notification \(notification)") }
            Issue.record("the stream ended without an error")
        } catch let error as PostgresError {
            #expect(error.kind == .connection)
        }
    }

    @Test("channel names are checked before connecting: lower-case letters, digits and underscores")
    func channelNamesAreChecked() async throws {
        #expect(PostgresListener.isChannelName("podium_keys"))
        #expect(PostgresListener.isChannelName("_x9"))
        for bad in ["", "Podium", "9lives", "two words", "semi;colon", String(repeating: "a", count: 64)] {
            #expect(!PostgresListener.isChannelName(bad), "\(bad)")
        }
        await #expect(throws: PostgresError.self) { _ = try await Self.listener(["podium_keys", "keys; DROP TABLE x"]) }
    }
}
