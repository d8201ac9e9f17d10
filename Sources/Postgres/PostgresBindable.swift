import Foundation

/// A value that can be bound as a text-format query parameter.
///
/// Parameters travel in PostgreSQL's text format and the server infers or casts
/// their types, so a conformance only has to produce the text PostgreSQL would
/// accept as a literal. `nil` binds SQL NULL.
public protocol PostgresBindable: Sendable {
    /// The parameter's PostgreSQL text representation, or nil for SQL NULL.
    var postgresText: String? { get }
}

/// A value that can be an element of a bound array (`text[]`, `bigint[]`, …).
///
/// A separate protocol so only scalars form arrays: nested Swift arrays and
/// optionals would need multi-dimensional and NULL-element literals.
public protocol PostgresArrayElement: PostgresBindable {}

extension String: PostgresArrayElement {
    /// The string itself.
    public var postgresText: String? { self }
}

extension Int: PostgresArrayElement {
    /// The decimal digits.
    public var postgresText: String? { String(self) }
}

extension Int64: PostgresArrayElement {
    /// The decimal digits.
    public var postgresText: String? { String(self) }
}

extension Int32: PostgresArrayElement {
    /// The decimal digits.
    public var postgresText: String? { String(self) }
}

extension Double: PostgresArrayElement {
    /// The shortest text that reads back as the same value; NaN and infinities in PostgreSQL's spelling.
    public var postgresText: String? {
        if isNaN { return "NaN" }
        if isInfinite { return self < 0 ? "-Infinity" : "Infinity" }
        return description
    }
}

extension Bool: PostgresArrayElement {
    /// "t" or "f".
    public var postgresText: String? { self ? "t" : "f" }
}

extension Date: PostgresArrayElement {
    /// RFC 3339 in UTC with milliseconds, e.g. "2026-11-21T10:00:00.123Z", which `timestamptz` accepts.
    public var postgresText: String? { PostgresTimestamp.format(self) }
}

extension UUID: PostgresArrayElement {
    /// The lowercase hyphenated form PostgreSQL itself prints.
    public var postgresText: String? { uuidString.lowercased() }
}

extension Optional: PostgresBindable where Wrapped: PostgresBindable {
    /// The wrapped value's text, or nil (SQL NULL) for `.none`.
    public var postgresText: String? { flatMap(\.postgresText) }
}

extension Array: PostgresBindable where Element: PostgresArrayElement {
    /// A one-dimensional array literal with every element double-quoted, e.g. `{"a","b\"c"}`.
    ///
    /// Quoting every element makes commas, braces, spaces and the word NULL safe;
    /// inside quotes only `"` and `\` need a backslash.
    public var postgresText: String? {
        let elements = map { element -> String in
            var quoted = "\""
            for character in element.postgresText ?? "" {
                if character == "\"" || character == "\\" { quoted.append("\\") }
                quoted.append(character)
            }
            quoted.append("\"")
            return quoted
        }
        return "{" + elements.joined(separator: ",") + "}"
    }
}
