import Foundation
import PodiumCore
@testable import PodiumStore
import Postgres
import Testing

@Suite("The player lock against real PostgreSQL", .timeLimit(.minutes(5)))
struct PlayerLockTests {
    let now = instant("2026-11-24T12:00:00Z")

    /// Whether a session waits for the transaction lock of `user`'s player key, seen in `pg_locks`.
    static func someoneWaits(for user: String, _ postgres: PostgresPool) async throws -> Bool {
        try await postgres.query("""
            SELECT count(*) AS waiting FROM pg_locks
            WHERE locktype = 'advisory' AND NOT granted AND objsubid = 1
              AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1 || $2, 0)
            """, [BatchStanding.playerLockPrefix, user]).rows[0].int("waiting") > 0
    }

    @Test("an erasure waits for a batch of the player (which holds the player's lock from its first read) and then erases")
    func erasureWaitsForTheBatchOfItsPlayer() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let user = StoreTestEnvironment.unique("locked")
        _ = try await storage.completions.record([try completion(id: "\(user)-1", user: user, topic: "t-\(user)", now: now)], now: now)
        @Sendable func players() async throws -> Int {
            try await storage.postgres.query("SELECT count(*) AS n FROM users WHERE user_id = $1", [user]).rows[0].int("n")
        }
        let (waited, duringWait, erased) = try await storage.postgres.withSession { session in
            // A batch of the player between its first round trip and its commit holds exactly this lock.
            try await session.run { connection in
                _ = try connection.query("BEGIN")
                _ = try connection.query(BatchStanding.lockPlayer(user))
            }
            let erasing = Task { try await storage.users.erase(userID: user, now: now) }
            var waited = false
            var duringWait = -1
            do {
                // Seen waiting, by the lock table: ordered by what PostgreSQL shows, not by time.
                let deadline = ContinuousClock.now + .seconds(60)
                while !waited && ContinuousClock.now < deadline {
                    waited = try await Self.someoneWaits(for: user, storage.postgres)
                    if !waited { try await Task.sleep(for: .milliseconds(20)) }
                }
                duringWait = try await players()
            } catch {
                _ = try? await session.run { try $0.query("ROLLBACK") }
                _ = try? await erasing.value
                throw error
            }
            _ = try await session.run { try $0.query("COMMIT") }
            return (waited, duringWait, try await erasing.value)
        }
        #expect(waited, "the erasure waited for the player's lock")
        #expect(duringWait == 1, "nothing of the player was erased while the batch held the lock")
        #expect(erased)
        #expect(try await players() == 0)
    }
}
