import Postgres

extension PostgresResult {
    /// The integer `column` of the first row; a test failure, not a crash, when there is no row.
    func onlyInt(_ column: String) throws -> Int {
        guard let row = rows.first else { throw TestFailure("no row for \(column)") }
        return try row.int(column)
    }

    /// The boolean `column` of the first row; a test failure when there is no row.
    func onlyBool(_ column: String) throws -> Bool {
        guard let row = rows.first else { throw TestFailure("no row for \(column)") }
        return try row.bool(column)
    }

    /// The text `column` of the first row; a test failure when there is no row.
    func onlyString(_ column: String) throws -> String {
        guard let row = rows.first else { throw TestFailure("no row for \(column)") }
        return try row.string(column)
    }
}
