import Foundation
import Postgres

/// A table partitioned by month (UTC) on one time column, as `events` (migration 021) and `completions` (022) are:
/// partitions `<table>_YYYY_MM` beside `<table>_default`, which holds rows of a month with no partition yet.
struct MonthlyPartitions: Sendable {
    /// The partitioned table.
    let table: String
    /// The column it is partitioned on.
    let timeColumn: String

    /// The outbox, by the month its events occurred in.
    static let events = MonthlyPartitions(table: "events", timeColumn: "occurred_at")
    /// The completions, by the month they were completed in.
    static let completions = MonthlyPartitions(table: "completions", timeColumn: "completed_at")

    /// The default partition's name.
    var defaultPartition: String { table + "_default" }

    /// The names of the monthly partitions, oldest first (the default partition left out).
    func partitions(on connection: PostgresConnection) throws -> [String] {
        try connection.run(MonthPartitionNames(table: table)).map(\.name)
    }

    /// The monthly partitions whose whole month ended by `cutoff`, oldest first.
    func partitions(endingBy cutoff: Date, on connection: PostgresConnection) throws -> [String] {
        try partitions(on: connection).filter { name in end(ofPartition: name).map { $0 <= cutoff } == true }
    }

    /// Drops (see `maintaining`) the rows before `cutoff` left in the default partition with `leftovers` (a statement
    /// answering `n`, how many it deleted: ``RemovedRows``), then every month that ended by `cutoff`, a whole partition
    /// at a time. `counting` is asked first about each partition: it removes whatever depends on its rows and says how
    /// many there are. The table is locked (ACCESS EXCLUSIVE) only for the detaching and dropping, after the counting.
    /// Returns how many rows went.
    func prune<Leftovers: PostgresRunnable>(
        before cutoff: Date, on postgres: PostgresPool, leftovers: Leftovers,
        counting: @escaping @Sendable (_ partition: String, PostgresConnection) throws -> Int
    ) async throws -> Int where Leftovers.Row == RemovedRows {
        try await prune(before: cutoff, on: postgres, removingLeftovers: { try $0.run(leftovers).first?.n }, counting: counting)
    }

    /// `prune`, with the default partition's old rows deleted by `removingLeftovers` (nil: no answer, none).
    private func prune(
        before cutoff: Date, on postgres: PostgresPool,
        removingLeftovers: @escaping @Sendable (PostgresConnection) throws -> Int?,
        counting: @escaping @Sendable (_ partition: String, PostgresConnection) throws -> Int
    ) async throws -> Int {
        try await maintaining(on: postgres) { connection in
            let months = try partitions(endingBy: cutoff, on: connection)
            // The default partition's old rows first: a scan of it under the table's lock would hold every request up.
            var removed = try removingLeftovers(connection) ?? 0
            removed += try months.reduce(0) { total, name in total + (try counting(name, connection)) }
            if !months.isEmpty {
                // The table before its partitions, as every query locks them (migration 023): no deadlock with one.
                try connection.execute("LOCK TABLE \(table) IN ACCESS EXCLUSIVE MODE")
                for name in months { try connection.execute("ALTER TABLE \(table) DETACH PARTITION \(name); DROP TABLE \(name)") }
            }
            return removed
        }
    }

    /// Makes the partitions of the month of `now` (UTC) and the two after it, where missing, moving their rows out of
    /// the default partition; returns how many it made (see `maintaining`).
    func prepare(now: Date, on postgres: PostgresPool) async throws -> Int {
        try await maintaining(on: postgres) { connection in
            try Self.starts(from: now, count: 3).reduce(0) { made, month in
                let row = try connection.run(MakeMonthPartition(table: table, timeColumn: timeColumn, month: month)).first
                return made + (row?.made == true ? 1 : 0)
            }
        }
    }

    /// How long making or dropping a partition waits for any lock before it gives up and tries again: far below
    /// PostgreSQL's deadlock timeout (1 s), so when it would close a cycle with a query, it is the one that yields.
    static let lockWait = "100ms"

    /// Runs `body` in a transaction under the table's months lock (``LockMonths``) that waits at most `lockWait` for each
    /// lock, trying again (up to 30 times, 50 ms apart, doubling to 1 s) while a lock could not be had; then the last
    /// error is thrown.
    private func maintaining<T: Sendable>(
        on postgres: PostgresPool, _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        var pause = Duration.milliseconds(50)
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await postgres.withTransaction { connection in
                    try connection.run(LockMonths(table: table))
                    try connection.execute("SET LOCAL lock_timeout = '\(Self.lockWait)'")
                    return try body(connection)
                }
            } catch let error as PostgresError where error.sqlState == "55P03" && attempt < 30 {
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(1))
            }
        }
    }

    /// When the month of partition `name` (`<table>_YYYY_MM`) ends, or nil for any other name.
    func end(ofPartition name: String) -> Date? {
        guard name.hasPrefix(table + "_") else { return nil }
        let parts = name.dropFirst(table.count + 1).split(separator: "_")
        guard parts.count == 2, let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month) else { return nil }
        return Self.utc.date(from: DateComponents(year: month == 12 ? year + 1 : year, month: month == 12 ? 1 : month + 1, day: 1))
    }

    /// The first day (UTC, as `YYYY-MM-DD`) of the month of `now` and of the `count - 1` months after it.
    static func starts(from now: Date, count: Int) -> [String] {
        let first = utc.dateComponents([.year, .month], from: now)
        return (0..<count).compactMap { offset in
            guard let year = first.year, let month = first.month else { return nil }
            let index = year * 12 + (month - 1) + offset
            return String(format: "%04d-%02d-01", index / 12, index % 12 + 1)
        }
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}

/// What a statement pruning a partitioned table's default partition answers: how many rows it deleted.
struct RemovedRows: Decodable, Sendable {
    /// The rows deleted.
    let n: Int
}

/// Serializes the jobs that make and drop one table's partitions, across replicas (the transaction's advisory lock).
/// A statement of its own, so the statements after it see what the holder before committed.
private struct LockMonths: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT pg_advisory_xact_lock(hashtextextended(\(\.key), 0))"
    typealias Row = NoRows
    /// The partitioned table.
    let table: String
    /// The lock's key text.
    var key: String { "podium months of " + table }
}

/// The names of one table's monthly partitions (`<table>_YYYY_MM`), sorted.
private struct MonthPartitionNames: PostgresStatement {
    static let sql: PostgresSQL<Self> = """
        SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = \(\.table)::regclass AND c.relname ~ ('^' || \(\.table) || '_[0-9]{4}_[0-9]{2}$') ORDER BY 1
        """
    struct Row: Decodable, Sendable { let name: String }
    /// The partitioned table.
    let table: String
}

/// Makes the partition of one month where it is missing (`podium_month_partition`, migration 022), moving its rows out
/// of the default partition; answers whether it made one.
private struct MakeMonthPartition: PostgresStatement {
    static let sql: PostgresSQL<Self> = "SELECT podium_month_partition(\(\.table), \(\.timeColumn), \(\.month)::date) AS made"
    struct Row: Decodable, Sendable { let made: Bool }
    /// The partitioned table.
    let table: String
    /// The column it is partitioned on.
    let timeColumn: String
    /// The month's first day, `YYYY-MM-DD`.
    let month: String
}
