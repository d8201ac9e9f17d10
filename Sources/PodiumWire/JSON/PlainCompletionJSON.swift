/// Reads the common shape of a completion body without Foundation's JSON decoder, which with the duplicate-key scan
/// took about 6% of Podium's CPU per completion (perf, `ops/bench/bench.sh`'s ingest phase).
///
/// The shape is one flat object whose keys are the field names exactly as documented (`user_id`, never `userId`),
/// each at most once, with values that are `null`, a string without escapes or control characters (valid UTF-8),
/// an integer without sign, fraction or exponent that fits in `Int`, or for `groups` an array of such strings.
/// Anything else (an unknown key, an escape, a number the decoder might read differently, a value of the wrong type)
/// makes `read` return nil and the caller uses the full path, the duplicate-key scan and `JSONDecoder`, which also
/// words every error. For a body of this shape both paths give the same `CompletionRequest` (a differential test
/// checks it on generated bodies).
public enum PlainCompletionJSON {
    /// The request in `bytes`, or nil when the body is not of the plain shape.
    public static func read(_ bytes: UnsafeRawBufferPointer) -> CompletionRequest? {
        var reader = Reader(bytes: bytes)
        return reader.request()
    }
}

/// The fields, in the order of `CompletionRequest`'s properties.
private enum Field: Int, CaseIterable {
    case id, userID, quizID, topic, difficulty, correct, total, durationMS, completedAt, groups, displayName

    /// The key as the API documents it.
    var key: StaticString {
        switch self {
        case .id: "id"
        case .userID: "user_id"
        case .quizID: "quiz_id"
        case .topic: "topic"
        case .difficulty: "difficulty"
        case .correct: "correct"
        case .total: "total"
        case .durationMS: "duration_ms"
        case .completedAt: "completed_at"
        case .groups: "groups"
        case .displayName: "display_name"
        }
    }

    /// The field's bit in a set of fields read.
    var bit: UInt16 { 1 << UInt16(rawValue) }

    /// The field whose key is `bytes`, compared byte for byte.
    static func named(_ bytes: UnsafeRawBufferPointer) -> Field? {
        allCases.first { field in field.key.withUTF8Buffer { $0.elementsEqual(bytes) } }
    }
}

/// A position in the body; every method returns nil (or false) as soon as the text leaves the plain shape.
private struct Reader {
    /// The body.
    let bytes: UnsafeRawBufferPointer
    /// The next byte to read.
    var index = 0

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The whole body as a request, or nil.
    mutating func request() -> CompletionRequest? {
        guard bytes.baseAddress != nil, skipSpace(), take(UInt8(ascii: "{")), skipSpace() else { return nil }
        var result = CompletionRequest()
        var seen: UInt16 = 0  // one bit per field read
        if !take(UInt8(ascii: "}")) {
            repeat {
                guard skipSpace(), let key = stringBytes(), let field = Field.named(key), seen & field.bit == 0,
                      skipSpace(), take(UInt8(ascii: ":")), skipSpace(), value(of: field, into: &result), skipSpace()
                else { return nil }
                seen |= field.bit
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        guard skipSpace(), index == bytes.count else { return nil }
        return result
    }

    /// Reads the value of `field` into `request`.
    private mutating func value(of field: Field, into request: inout CompletionRequest) -> Bool {
        if takeNull() { return true }
        switch field {
        case .correct, .total, .durationMS:
            guard let number = integer() else { return false }
            switch field {
            case .correct: request.correct = number
            case .total: request.total = number
            default: request.durationMs = number
            }
        case .groups:
            guard let groups = stringArray() else { return false }
            request.groups = groups
        default:
            guard let text = string() else { return false }
            switch field {
            case .id: request.id = text
            case .userID: request.userId = text
            case .quizID: request.quizId = text
            case .topic: request.topic = text
            case .difficulty: request.difficulty = text
            case .completedAt: request.completedAt = text
            default: request.displayName = text
            }
        }
        return true
    }

    /// JSON whitespace; always true, so it chains in a condition.
    private mutating func skipSpace() -> Bool {
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { break }
            index += 1
        }
        return true
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func takeNull() -> Bool {
        guard bytes.count - index >= 4, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
              bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
        else { return false }
        index += 4
        return true
    }

    /// A string's bytes between its quotes, when it has no escape and no control character.
    private mutating func stringBytes() -> UnsafeRawBufferPointer? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return UnsafeRawBufferPointer(rebasing: bytes[start..<index - 1])
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            index += 1
        }
        return nil
    }

    /// A string value, when it is also valid UTF-8.
    private mutating func string() -> String? {
        guard let text = stringBytes() else { return nil }
        return String(validating: text, as: UTF8.self)
    }

    /// `[` strings `]`, possibly empty.
    private mutating func stringArray() -> [String]? {
        guard take(UInt8(ascii: "[")), skipSpace() else { return nil }
        var strings: [String] = []
        if take(UInt8(ascii: "]")) { return strings }
        repeat {
            guard skipSpace(), let text = string(), skipSpace() else { return nil }
            strings.append(text)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? strings : nil
    }

    /// Digits without a leading zero (or a lone `0`) that fit in `Int`, not followed by a fraction or exponent.
    private mutating func integer() -> Int? {
        let start = index
        var value = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(Int(bytes[index] - UInt8(ascii: "0")))
            guard !overflowTimes, !overflowSum else { return nil }
            value = sum
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") { return nil }
        return value
    }
}
