import Foundation
import Postgres

/// A PostgreSQL advisory lock, named as `pg_locks` shows it: for tests that order events by who waits for what,
/// not by time.
public enum AdvisoryLock: Sendable {
    /// `pg_advisory_lock(key)`: one bigint key.
    case key(Int64)
    /// `pg_advisory_xact_lock(hashtextextended(text, 0))`: one bigint key hashed from `text`.
    case hashed(String)
    /// `pg_advisory_xact_lock(lockClass, hashtext(text))`: two int keys, the second hashed from `text`.
    case pair(lockClass: Int32, text: String)

    /// The `objsubid` of the lock in `pg_locks`, the SQL of its two keys as one bigint, and that SQL's parameter.
    private var row: (subid: Int, key: String, parameter: any PostgresBindable) {
        switch self {
        case .key(let key): (1, "$1::bigint", key)
        case .hashed(let text): (1, "hashtextextended($1, 0)", text)
        case .pair(let lockClass, let text): (2, "(\(lockClass)::bigint << 32) | (hashtext($1)::bigint & 4294967295)", text)
        }
    }

    /// How many sessions on `postgres`'s database wait for the lock now.
    public func waiters(on postgres: PostgresPool) async throws -> Int {
        let row = row
        return try await postgres.query("""
            SELECT count(*) AS n FROM pg_locks
            WHERE locktype = 'advisory' AND NOT granted AND objsubid = \(row.subid)
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND ((classid::bigint << 32) | objid::bigint) = \(row.key)
            """, [row.parameter]).rows[0].int("n")
    }

    /// Polls `pg_locks` until at least `count` sessions wait for the lock; returns whether they did within `timeout`
    /// seconds.
    public func waitForWaiters(_ count: Int = 1, on postgres: PostgresPool, timeout: TimeInterval = 60) async throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try await waiters(on: postgres) >= count { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}

/// Holds a lock in an open transaction of a session of `postgres` (what `hold` takes, as a batch would), starts
/// `contender`, and waits until `lock` has a waiter (60 s at most); then runs `whileHeld`, commits, and waits for
/// `contender`. Returns whether the waiter was seen, what `whileHeld` found, and what `contender` returned. On every
/// path the transaction ends and `contender` is awaited.
public func whileContended<Seen: Sendable, Outcome: Sendable>(
    on postgres: PostgresPool, hold: @escaping @Sendable (PostgresConnection) throws -> Void, lock: AdvisoryLock,
    contender: @escaping @Sendable () async throws -> Outcome, whileHeld: @escaping @Sendable () async throws -> Seen
) async throws -> (waited: Bool, seen: Seen, outcome: Outcome) {
    try await postgres.withSession { session in
        try await session.run { connection in
            _ = try connection.query("BEGIN")
            try hold(connection)
        }
        let contending = Task { try await contender() }
        let waited: Bool
        let seen: Seen
        do {
            waited = try await lock.waitForWaiters(on: postgres)
            seen = try await whileHeld()
        } catch {
            _ = try? await session.run { try $0.query("ROLLBACK") }
            _ = try? await contending.value
            throw error
        }
        _ = try await session.run { try $0.query("COMMIT") }
        return (waited, seen, try await contending.value)
    }
}
