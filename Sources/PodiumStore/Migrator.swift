import Foundation
import Logging
import Postgres

/// One numbered schema change from `sql/`.
public struct Migration: Sendable, Equatable {
    /// The number that orders it (`001_core.sql` is 1).
    public let version: Int
    /// The file name.
    public let name: String
    /// The SQL it runs.
    public let sql: String

    /// SHA-256 of the SQL, hex: an applied migration whose file changed is refused.
    public var checksum: String {
        Hashing.sha256Hex(sql)
    }

    /// Creates a migration.
    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// The migrations shipped with Podium (the files of `sql/`, bundled as resources), in version order.
    public static func bundled() throws -> [Migration] {
        guard let folder = Bundle.module.url(forResource: "Migrations", withExtension: nil) else {
            throw MigrationError.missingResources
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }
        return try files.map { file in
            guard let version = Int(file.prefix { $0.isNumber }) else { throw MigrationError.badFileName(file) }
            let sql = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            return Migration(version: version, name: file, sql: sql)
        }.sorted { $0.version < $1.version }
    }
}

/// Why migrating stopped.
public enum MigrationError: Error, CustomStringConvertible, Equatable {
    /// The bundle has no Migrations folder (a broken build).
    case missingResources
    /// A file in `sql/` does not start with its number.
    case badFileName(String)
    /// An applied migration's file was edited after it ran.
    case checksumMismatch(version: Int, name: String)
    /// Two files share a number.
    case duplicateVersion(Int)

    /// A sentence for logs and the CLI.
    public var description: String {
        switch self {
        case .missingResources: "the migrations are missing from the build"
        case .badFileName(let name): "migration file \(name) does not start with its number"
        case .checksumMismatch(let version, let name):
            "migration \(version) (\(name)) was edited after it was applied; add a new migration instead"
        case .duplicateVersion(let version): "two migrations have number \(version)"
        }
    }
}

/// Applies migrations once each, in order, recorded with checksums in `schema_migrations`.
///
/// Runs under a session advisory lock, so several replicas starting at once apply each
/// migration exactly once: the others wait, then find nothing left to do. Neither that wait
/// nor a migration's statements are cut off by the pool's statement timeout.
public struct Migrator: Sendable {
    /// Advisory lock key shared by every replica ("podium" in ASCII).
    static let lockKey: Int64 = 0x706F_6469_756D

    private let pool: PostgresPool
    private let logger: Logger

    /// Creates a migrator on `pool`.
    public init(pool: PostgresPool, logger: Logger) {
        self.pool = pool
        self.logger = logger
    }

    /// Applies every migration not yet applied; returns the versions it applied.
    ///
    /// Throws `MigrationError.checksumMismatch` without applying anything if an applied file changed.
    @discardableResult
    public func migrate(_ migrations: [Migration]) async throws -> [Int] {
        if let duplicate = Dictionary(grouping: migrations, by: \.version).first(where: { $0.value.count > 1 }) {
            throw MigrationError.duplicateVersion(duplicate.key)
        }
        let applied = try await pool.withConnection { connection -> [Int] in
            // Waiting for the lock and rewriting a large table may both outlast the pool's statement
            // timeout; the connection gets its own setting back before it returns to the pool.
            let poolTimeout = try connection.run(StatementTimeout())[0].timeout
            try connection.execute("SET statement_timeout = 0")
            defer { _ = try? connection.run(RestoreStatementTimeout(timeout: poolTimeout)) }
            try connection.run(TakeMigrationLock())
            defer { _ = try? connection.run(ReleaseMigrationLock()) }
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL, applied_at timestamptz NOT NULL)
                """)
            var done: [Int: String] = [:]
            for row in try connection.run(AppliedMigrations()) { done[row.version] = row.checksum }
            for migration in migrations {
                if let checksum = done[migration.version], checksum != migration.checksum {
                    throw MigrationError.checksumMismatch(version: migration.version, name: migration.name)
                }
            }
            var appliedNow: [Int] = []
            for migration in migrations where done[migration.version] == nil {
                try connection.transaction {
                    try connection.execute(migration.sql)
                    try connection.run(
                        RecordMigration(version: migration.version, name: migration.name, checksum: migration.checksum))
                }
                appliedNow.append(migration.version)
            }
            return appliedNow
        }
        for version in applied { logger.info("applied migration", metadata: ["version": "\(version)"]) }
        return applied
    }
}

/// The session's statement timeout, as `SET` would take it back.
private struct StatementTimeout: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT current_setting('statement_timeout') AS timeout"
    struct Row: Decodable, Sendable { let timeout: String }
}

/// Sets the session's statement timeout back to what `StatementTimeout` read.
private struct RestoreStatementTimeout: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT set_config('statement_timeout', \(\.timeout), false)"
    typealias Row = NoRows
    /// The setting's text.
    let timeout: String
}

/// Takes the migrations' session advisory lock (`Migrator.lockKey`), waiting for a replica that holds it.
private struct TakeMigrationLock: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT pg_advisory_lock(\(\.key))"
    typealias Row = NoRows
    /// The lock's key.
    var key: Int64 { Migrator.lockKey }
}

/// Releases the migrations' session advisory lock.
private struct ReleaseMigrationLock: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT pg_advisory_unlock(\(\.key))"
    typealias Row = NoRows
    /// The lock's key.
    var key: Int64 { Migrator.lockKey }
}

/// The migrations applied so far, with their files' checksums then.
private struct AppliedMigrations: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT version, checksum FROM schema_migrations"
    struct Row: Decodable, Sendable {
        let version: Int
        let checksum: String
    }
}

/// Records one migration as applied, now (in the transaction that ran it).
private struct RecordMigration: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (\(\.version), \(\.name), \(\.checksum), now())
        """
    typealias Row = NoRows
    let version: Int
    let name: String
    let checksum: String
}
