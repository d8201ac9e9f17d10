import Foundation
import PodiumCore
@testable import PodiumStore
import PodiumTestSupport
import Postgres
import Testing

@Suite("The player lock against real PostgreSQL", .timeLimit(.minutes(5)))
struct PlayerLockTests {
    let now = instant("2026-11-24T12:00:00Z")

    @Test("an erasure waits for a batch of the player (which holds the player's lock from its first read) and then erases")
    func erasureWaitsForTheBatchOfItsPlayer() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let user = StoreTestEnvironment.unique("locked")
        _ = try await storage.completions.record([try completion(id: "\(user)-1", user: user, topic: "t-\(user)", now: now)], now: now)
        @Sendable func players() async throws -> Int {
            try await storage.postgres.query("SELECT count(*) AS n FROM users WHERE user_id = $1", [user]).rows[0].int("n")
        }
        // A batch of the player between its first round trip and its commit holds exactly this lock.
        let (waited, duringWait, erased) = try await whileContended(
            on: storage.postgres, hold: { try $0.run(LockPlayer(userID: user)) },
            lock: .hashed(PlayerLocks.prefix + user),
            contender: { try await storage.erasure.erase(userID: user, now: now) }, whileHeld: players)
        #expect(waited, "the erasure waited for the player's lock")
        #expect(duringWait == 1, "nothing of the player was erased while the batch held the lock")
        #expect(erased)
        #expect(try await players() == 0)
    }
}
