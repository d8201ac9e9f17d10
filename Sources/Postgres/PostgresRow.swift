import Foundation

/// One result row; columns by name or index, values in PostgreSQL text format.
///
/// All rows of a result share one column-name index, so a row costs only its
/// values. Typed accessors throw ``PostgresError/Kind/decoding`` naming the
/// column, so a schema mismatch surfaces as a clear error instead of a crash.
public struct PostgresRow: Sendable {
    /// The column names in result order.
    public let columns: [String]
    private let index: ColumnIndex
    private let values: [String?]

    /// Creates a row from its result's shared column index and its values in column order.
    init(index: ColumnIndex, values: [String?]) {
        self.columns = index.names
        self.index = index
        self.values = values
    }

    /// The text value of the first column called `name`; nil for SQL NULL or an unknown column.
    public subscript(_ name: String) -> String? {
        index.positions[name].flatMap { values[$0] }
    }

    /// The position of the column a property named `property` reads (see ``PostgresRowDecoder``), nil when none.
    func position(ofProperty property: String) -> Int? {
        index.foldedPositions[ColumnIndex.folded(property)]
    }

    /// The text value at `index`; nil for SQL NULL or an index out of range.
    public subscript(_ index: Int) -> String? {
        values.indices.contains(index) ? values[index] : nil
    }

    /// The text value of `name`; throws if it is NULL or missing.
    public func string(_ name: String) throws -> String {
        guard let value = try values[position(name)] else { throw decodingError(name, "is NULL") }
        return value
    }

    /// The value of `name` as a string-backed enum case; throws if the text names no case.
    public func value<Value: RawRepresentable>(_ name: String, as type: Value.Type = Value.self) throws -> Value where Value.RawValue == String {
        let text = try string(name)
        guard let value = Value(rawValue: text) else { throw decodingError(name, "\"\(text)\" is not a \(Value.self)") }
        return value
    }

    /// The value of `name` as an `Int`; accepts integer and integral NUMERIC text such as "42.00".
    public func int(_ name: String) throws -> Int {
        let text = try string(name)
        guard let value = Self.integer(text).flatMap(Int.init(exactly:)) else {
            throw decodingError(name, "\"\(text)\" is not an integer")
        }
        return value
    }

    /// The value of `name` as an `Int64`; accepts integer and integral NUMERIC text such as "42.00".
    public func int64(_ name: String) throws -> Int64 {
        let text = try string(name)
        guard let value = Self.integer(text) else { throw decodingError(name, "\"\(text)\" is not an integer") }
        return value
    }

    /// The value of `name` as a `Double`, including "NaN" and "±Infinity".
    public func double(_ name: String) throws -> Double {
        let text = try string(name)
        guard let value = Double(text) else { throw decodingError(name, "\"\(text)\" is not a number") }
        return value
    }

    /// The value of `name` as a `Bool` from PostgreSQL's "t"/"f".
    public func bool(_ name: String) throws -> Bool {
        switch try string(name) {
        case "t": return true
        case "f": return false
        case let text: throw decodingError(name, "\"\(text)\" is not a boolean")
        }
    }

    /// The value of `name` as a `Date` from `timestamptz` text such as "2026-11-21 10:00:00.123+00".
    public func date(_ name: String) throws -> Date {
        let text = try string(name)
        guard let value = PostgresTimestamp.parse(text) else { throw decodingError(name, "\"\(text)\" is not a timestamp") }
        return value
    }

    /// The text value of `name`, or nil for SQL NULL or an unknown column.
    public func optionalString(_ name: String) -> String? {
        self[name]
    }

    /// The value of `name` as an `Int`, nil for SQL NULL; throws for an unknown column or non-integer text.
    public func optionalInt(_ name: String) throws -> Int? {
        try isNull(name) ? nil : int(name)
    }

    /// The value of `name` as a `Date`, nil for SQL NULL; throws for an unknown column or non-timestamp text.
    public func optionalDate(_ name: String) throws -> Date? {
        try isNull(name) ? nil : date(name)
    }

    /// Whether `name` exists and is NULL; throws for an unknown column so typos are not read as NULL.
    private func isNull(_ name: String) throws -> Bool {
        try values[position(name)] == nil
    }

    /// The position of column `name`; throws for an unknown column, listing the known ones.
    private func position(_ name: String) throws -> Int {
        guard let position = index.positions[name] else {
            throw decodingError(name, "no such column (columns: \(columns.joined(separator: ", ")))")
        }
        return position
    }

    /// A `.decoding` error naming the column.
    private func decodingError(_ name: String, _ problem: String) -> PostgresError {
        PostgresError(kind: .decoding, message: "column \"\(name)\" \(problem)", operation: "decode column")
    }

    /// Parses integer text, also accepting NUMERIC output with an all-zero fraction ("42.000").
    static func integer(_ text: String) -> Int64? {
        if let value = Int64(text) { return value }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].allSatisfy({ $0 == "0" }) else { return nil }
        return Int64(parts[0])
    }
}

/// The column names of one result and their positions, shared by all its rows.
final class ColumnIndex: Sendable {
    /// The column names in result order.
    let names: [String]
    /// The position of the first column with each name.
    let positions: [String: Int]
    /// The position of the first column with each name folded for matching a property (``ColumnIndex/folded(_:)``).
    let foldedPositions: [String: Int]

    /// Indexes `names`; for duplicate names (e.g. two unaliased `count(*)`) the first column wins.
    init(names: [String]) {
        self.names = names
        self.positions = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        self.foldedPositions = Dictionary(names.enumerated().map { (Self.folded($1), $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// `name` in ASCII lower case without underscores: a column `user_id` and a property `userID` or `userId` fold
    /// alike, so a row decodes by a dictionary lookup rather than a conversion of each property's name per row.
    static func folded(_ name: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        for byte in name.utf8 where byte != UInt8(ascii: "_") {
            bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The outcome of one statement.
public struct PostgresResult: Sendable {
    /// The rows returned, empty for statements that return none.
    public let rows: [PostgresRow]
    /// The rows inserted, updated, deleted, selected, … (`PQcmdTuples`), 0 when the command reports none.
    public let affectedRows: Int
}
