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
public protocol PostgresArrayElement: PostgresBindable {
    /// Appends the element as it is written inside an array literal.
    func appendArrayElement(to literal: inout String)
}

extension PostgresArrayElement {
    /// Double-quoted, so commas, braces, spaces and the word NULL are safe; inside the quotes
    /// only `"` and `\` need a backslash.
    public func appendArrayElement(to literal: inout String) {
        let text = postgresText ?? ""
        literal.append("\"")
        if text.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            for scalar in text.unicodeScalars {
                if scalar == "\"" || scalar == "\\" { literal.append("\\") }
                literal.unicodeScalars.append(scalar)
            }
        } else {
            literal.append(text)
        }
        literal.append("\"")
    }
}

/// Numbers and booleans need no quotes in an array literal: their text has no comma, brace, quote or space.
public protocol PostgresUnquotedArrayElement: PostgresArrayElement {}

extension PostgresUnquotedArrayElement {
    /// The element's text as it is.
    public func appendArrayElement(to literal: inout String) {
        literal.append(postgresText ?? "")
    }
}

extension String: PostgresArrayElement {
    /// The string itself.
    public var postgresText: String? { self }
}

extension Int: PostgresUnquotedArrayElement {
    /// The decimal digits.
    public var postgresText: String? { String(self) }
}

extension Int64: PostgresUnquotedArrayElement {
    /// The decimal digits.
    public var postgresText: String? { String(self) }
}

extension Int32: PostgresUnquotedArrayElement {
    /// The decimal digits.
    public var postgresText: String? { String(self) }
}

extension Double: PostgresUnquotedArrayElement {
    /// The shortest text that reads back as the same value; NaN and infinities in PostgreSQL's spelling.
    public var postgresText: String? {
        if isNaN { return "NaN" }
        if isInfinite { return self < 0 ? "-Infinity" : "Infinity" }
        return description
    }
}

extension Bool: PostgresUnquotedArrayElement {
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
    /// A one-dimensional array literal, e.g. `{"a","b\"c"}` or `{1,2}`.
    public var postgresText: String? {
        var literal = "{"
        literal.reserveCapacity(count * 12 + 2)
        var first = true
        for element in self {
            if first { first = false } else { literal.append(",") }
            element.appendArrayElement(to: &literal)
        }
        literal.append("}")
        return literal
    }
}
