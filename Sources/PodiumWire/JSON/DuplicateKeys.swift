import Foundation

/// Finds a key written twice in one JSON object, at any depth, in a request body as received.
///
/// Parsers disagree on a repeated key (the first wins, the last wins, or it is an error), so a proxy
/// and Podium could read two different values from one body, such as two idempotency keys: Podium
/// refuses such bodies rather than pick one. The scan follows the structure only: strings with their
/// escapes, objects, arrays, and any other value as the bytes up to the next delimiter.
///
/// Keys are compared unescaped, as Swift compares strings (which is how the decoder matches them),
/// ignoring case and underscores: `"id"` and `"\u0069d"` are one key, and so are `user_id` and
/// `userId` (Podium's decoder converts snake case, so it reads both as one field) and `id` and `ID`
/// (some parsers ignore case). Text the scan cannot follow (not JSON, nested deeper than
/// `maximumDepth`, UTF-16 or UTF-32) is left to the JSON decoder, which refuses it or reads it alone.
public enum DuplicateKeys {
    /// The deepest nesting followed: as deep as Foundation's JSON decoder reads (it refuses deeper text).
    public static let maximumDepth = 512

    /// The path of the first key that repeats another of its object, spelled as that key is (`id`,
    /// `completions[3].id`; an empty key is written `""`), or nil when no object repeats a key or the
    /// scan cannot follow `json`.
    public static func firstDuplicate(in json: Data) -> String? {
        json.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> String? in
            var scanner = KeyScanner(bytes: bytes)
            return scanner.firstDuplicate()
        }
    }
}

/// The scan of one JSON text: the bytes, the position, and one level per object or array open there.
private struct KeyScanner {
    /// An object or array being read.
    struct Level {
        /// The object's keys so far, as compared (see `folded(_:)`); nil for an array.
        var keys: Set<String>?
        /// The key whose value is being read, in an object.
        var key = ""
        /// The position of the element being read, in an array.
        var index = 0
    }

    /// What the text may hold next.
    enum Expected {
        /// A value: at the start, after `:`, after `,` in an array.
        case value
        /// A value or `]`: just after `[`.
        case valueOrEnd
        /// A key or `}`: just after `{`.
        case keyOrEnd
        /// A key: after `,` in an object.
        case key
        /// The `:` after a key.
        case colon
        /// After a value: `,` or the end of the object or array around it (nothing at the top level).
        case separatorOrEnd
    }

    let bytes: UnsafeRawBufferPointer
    var index = 0
    var levels: [Level] = []

    /// Reads the whole text; the path of the first repeated key, or nil (see `DuplicateKeys.firstDuplicate(in:)`).
    mutating func firstDuplicate() -> String? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }  // a UTF-8 byte order mark, which the decoder skips too
        var duplicate: String?
        var expected = Expected.value
        while true {
            skipWhitespace()
            guard index < bytes.count else { break }
            let byte = bytes[index]
            switch expected {
            case .value, .valueOrEnd:
                if byte == UInt8(ascii: "]"), expected == .valueOrEnd {
                    levels.removeLast()
                    index += 1
                    expected = .separatorOrEnd
                } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    guard levels.count < DuplicateKeys.maximumDepth else { return nil }
                    let isObject = byte == UInt8(ascii: "{")
                    levels.append(Level(keys: isObject ? [] : nil))
                    index += 1
                    expected = isObject ? .keyOrEnd : .valueOrEnd
                } else if byte == UInt8(ascii: "\"") {
                    guard string(keeping: false) != nil else { return nil }
                    expected = .separatorOrEnd
                } else {
                    guard skipScalar() else { return nil }
                    expected = .separatorOrEnd
                }
            case .keyOrEnd, .key:
                if byte == UInt8(ascii: "}"), expected == .keyOrEnd {
                    levels.removeLast()
                    index += 1
                    expected = .separatorOrEnd
                } else {
                    guard byte == UInt8(ascii: "\""), let key = string(keeping: true) else { return nil }
                    let top = levels.count - 1
                    if levels[top].keys?.insert(Self.folded(key)).inserted == false, duplicate == nil { duplicate = path(to: key) }
                    levels[top].key = key
                    expected = .colon
                }
            case .colon:
                guard byte == UInt8(ascii: ":") else { return nil }
                index += 1
                expected = .value
            case .separatorOrEnd:
                guard let level = levels.last else { return nil }  // bytes after the top-level value
                let isObject = level.keys != nil
                if byte == UInt8(ascii: ",") {
                    if !isObject { levels[levels.count - 1].index += 1 }
                    expected = isObject ? .key : .value
                } else if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    levels.removeLast()
                    expected = .separatorOrEnd
                } else {
                    return nil
                }
                index += 1
            }
        }
        return expected == .separatorOrEnd && levels.isEmpty ? duplicate : nil
    }

    /// The path of `key` in the innermost object: the keys and array positions leading to it, then `key`.
    func path(to key: String) -> String {
        func name(_ text: String) -> String { text.isEmpty ? "\"\"" : text }
        var leading = ""
        for level in levels.dropLast() {
            if level.keys == nil { leading += "[\(level.index)]" }
            else { leading += leading.isEmpty ? name(level.key) : ".\(name(level.key))" }
        }
        return leading.isEmpty ? name(key) : "\(leading).\(name(key))"
    }

    /// `key` as compared: lowercased, without underscores.
    static func folded(_ key: String) -> String {
        key.lowercased().filter { $0 != "_" }
    }

    /// Moves past spaces, tabs and line ends.
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Moves past a number or literal (`true`, `false`, `null`): the bytes up to the next delimiter;
    /// false when there are none (a delimiter where a value belongs).
    mutating func skipScalar() -> Bool {
        let start = index
        while index < bytes.count, !Self.isDelimiter(bytes[index]) { index += 1 }
        return index > start
    }

    /// Moves past the string whose opening quote is at `index`: its text unescaped when `keeping` (keys),
    /// "" otherwise (values); nil when it is unterminated or holds a raw control character or a bad escape.
    mutating func string(keeping: Bool) -> String? {
        var text: [UInt8] = []
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return keeping ? String(decoding: text, as: UTF8.self) : ""
            case UInt8(ascii: "\\"):
                guard let scalar = escape() else { return nil }
                if keeping { text.append(contentsOf: scalar.utf8) }
            case 0..<0x20:
                return nil
            default:
                if keeping { text.append(byte) }
                index += 1
            }
        }
        return nil
    }

    /// Moves past the escape sequence whose backslash is at `index`: the character it stands for, or nil
    /// when JSON does not allow it (a `\u` surrogate must be a high one followed by an escaped low one).
    mutating func escape() -> Unicode.Scalar? {
        guard index + 1 < bytes.count else { return nil }
        let letter = bytes[index + 1]
        index += 2
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(letter)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let unit = hexUnit() else { return nil }
            guard (0xD800..<0xDC00).contains(unit) else { return Unicode.Scalar(unit) }  // nil for a lone low surrogate
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
            index += 2
            guard let low = hexUnit(), (0xDC00..<0xE000).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
        default:
            return nil
        }
    }

    /// Moves past the four hex digits at `index`: their value, or nil when they are not four hex digits.
    mutating func hexUnit() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var unit: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Self.hexValue(byte) else { return nil }
            unit = (unit << 4) | digit
        }
        index += 4
        return unit
    }

    /// The value of a hex digit, either case; nil for any other byte.
    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Whitespace, a quote, or one of `{ } [ ] , :`: a byte that ends a number or literal.
    static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"),
             UInt8(ascii: ","), UInt8(ascii: ":"):
            true
        default:
            false
        }
    }
}
