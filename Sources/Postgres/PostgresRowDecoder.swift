import Foundation

/// Decodes a `Decodable` row type from a ``PostgresRow`` by column name.
///
/// Each property reads the column named as the property in snake case (`userID` and `userId` read `user_id`,
/// `closesAt` reads `closes_at`), or the name its `CodingKeys` give; names are matched ignoring case and underscores,
/// one dictionary lookup per property. Values arrive in PostgreSQL's text format:
/// integers, numbers, booleans (`t`/`f`), `timestamptz` as `Date`, `text[]` as `[String]`, string-backed enums,
/// and optionals for columns that may be NULL. A missing column or a value of the wrong kind throws
/// ``PostgresError/Kind/decoding`` naming the column.
public struct PostgresRowDecoder: Decoder {
    /// The row being read.
    let row: PostgresRow

    /// A decoder over `row`.
    public init(row: PostgresRow) {
        self.row = row
    }

    /// No coding path: a row is flat.
    public var codingPath: [any CodingKey] { [] }
    /// No user info.
    public var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The row's columns by key.
    public func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Columns(row: row))
    }

    /// Rows are read by name only.
    public func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw PostgresError(kind: .decoding, message: "a row is read by column name, not as a list", operation: "decode row")
    }

    /// A row with one column may be read as that column's value.
    public func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard row.columns.count == 1 else {
            throw PostgresError(kind: .decoding, message: "a row of \(row.columns.count) columns is not one value", operation: "decode row")
        }
        return Column(name: row.columns[0], text: row[0])
    }

    /// The snake-case column name of a property (`userID` → `user_id`).
    public static func columnName(_ key: some CodingKey) -> String {
        let name = key.stringValue
        var column = ""
        column.reserveCapacity(name.utf8.count + 4)
        var previous: Character?
        for character in name {
            if character.isUppercase, let previous, previous.isLowercase || previous.isNumber {
                column.append("_")
            }
            column.append(contentsOf: character.lowercased())
            previous = character
        }
        return column
    }
}

/// The keyed view of a row.
private struct Columns<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let row: PostgresRow
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { row.columns.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool {
        row.position(ofProperty: key.stringValue) != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try column(key).text == nil
    }

    // The common scalar types are read directly: the generic path boxes a decoder per column.
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try column(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try column(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try column(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try column(key).decode(type) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try column(key).decode(type) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try column(key).text }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key) { try $0.decode(type) } }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(key) { try $0.decode(type) } }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key) { try $0.decode(type) } }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key) { try $0.decode(type) } }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try column(key).decode(type)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try present(key) { try $0.decode(type) }
    }

    /// The value of column `key` read by `read`, or nil for SQL NULL.
    private func present<T>(_ key: Key, _ read: (Column) throws -> T) throws -> T? {
        let column = try column(key)
        return column.text == nil ? nil : try read(column)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw PostgresError(kind: .decoding, message: "column \"\(key.stringValue)\" is one value, not a row", operation: "decode row")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw PostgresError(kind: .decoding, message: "column \"\(key.stringValue)\" is one value, not a list", operation: "decode row")
    }

    func superDecoder() throws -> any Decoder { PostgresRowDecoder(row: row) }

    func superDecoder(forKey key: Key) throws -> any Decoder { PostgresRowDecoder(row: row) }

    /// The column `key` names; throws for a column the result does not have.
    private func column(_ key: Key) throws -> Column {
        guard let position = row.position(ofProperty: key.stringValue) else {
            let name = PostgresRowDecoder.columnName(key)
            throw PostgresError(
                kind: .decoding, message: "column \"\(name)\" no such column (columns: \(row.columns.joined(separator: ", ")))",
                operation: "decode column")
        }
        return Column(name: row.columns[position], text: row[position])
    }
}

/// One column's text value, read as a Swift value.
private struct Column: Decoder, SingleValueDecodingContainer {
    let name: String
    let text: String?

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw failure("is one value, not a row")
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw failure("is one value, not a list")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { text == nil }

    func decode(_ type: String.Type) throws -> String {
        guard let text else { throw failure("is NULL") }
        return text
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        switch try decode(String.self) {
        case "t": return true
        case "f": return false
        case let text: throw failure("\"\(text)\" is not a boolean")
        }
    }

    func decode(_ type: Int.Type) throws -> Int {
        guard let value = Int(exactly: try decode(Int64.self)) else { throw failure("does not fit an Int") }
        return value
    }

    func decode(_ type: Int64.Type) throws -> Int64 {
        let text = try decode(String.self)
        guard let value = PostgresRow.integer(text) else { throw failure("\"\(text)\" is not an integer") }
        return value
    }

    func decode(_ type: Int32.Type) throws -> Int32 {
        guard let value = Int32(exactly: try decode(Int64.self)) else { throw failure("does not fit an Int32") }
        return value
    }

    func decode(_ type: Double.Type) throws -> Double {
        let text = try decode(String.self)
        guard let value = Double(text) else { throw failure("\"\(text)\" is not a number") }
        return value
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    func decode(_ type: Int8.Type) throws -> Int8 { try narrow(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try narrow(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try narrow(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try narrow(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try narrow(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try narrow(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try narrow(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if type == Date.self {
            let text = try decode(String.self)
            guard let date = PostgresTimestamp.parse(text) else { throw failure("\"\(text)\" is not a timestamp") }
            return date as! T
        }
        if type == [String].self {
            return PostgresArrayText.strings(try decode(String.self)) as! T
        }
        return try T(from: self)
    }

    /// An integer of another width, checked to fit.
    private func narrow<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard let value = T(exactly: try decode(Int64.self)) else { throw failure("does not fit \(T.self)") }
        return value
    }

    private func failure(_ problem: String) -> PostgresError {
        PostgresError(kind: .decoding, message: "column \"\(name)\" \(problem)", operation: "decode column")
    }
}

/// Reads PostgreSQL's text form of a one-dimensional `text[]` whose elements need no escapes (ids, board names).
public enum PostgresArrayText {
    /// `{a,b}` to `["a", "b"]`; quotes around an element are dropped.
    public static func strings(_ text: String) -> [String] {
        let inner = text.dropFirst().dropLast()
        return inner.isEmpty ? [] : inner.split(separator: ",").map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
    }
}
