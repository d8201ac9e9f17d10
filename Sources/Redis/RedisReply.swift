import CHiredis

/// A decoded reply.
public enum RedisReply: Sendable, Equatable {
    /// A bulk string (decoded as UTF-8, lossily) or a status reply such as `OK`.
    case string(String)
    /// An integer reply.
    case integer(Int64)
    /// A RESP3 double reply.
    case double(Double)
    /// An array reply, for example from `ZRANGE` or a pipeline.
    case array([RedisReply])
    /// A null bulk string or null array.
    case null
    /// An error reply nested inside an array or pipeline; top-level errors are thrown instead.
    case error(String)

    /// The value of a `.string`, else nil.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The value of an `.integer`, or a `.string` that parses as `Int64`, else nil.
    public var integer: Int64? {
        switch self {
        case .integer(let value): return value
        case .string(let text): return Int64(text)
        default: return nil
        }
    }

    /// The value of a `.double` or `.integer`, or a `.string` that parses as `Double` (Redis sends scores as bulk strings), else nil.
    public var double: Double? {
        switch self {
        case .double(let value): return value
        case .integer(let value): return Double(value)
        case .string(let text): return Double(text)
        default: return nil
        }
    }

    /// The elements of an `.array`, else nil.
    public var array: [RedisReply]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}

extension RedisReply {
    /// Decodes a hiredis reply tree; the caller still owns and frees it.
    init(_ reply: UnsafePointer<redisReply>) {
        let value = reply.pointee
        switch value.type {
        case REDIS_REPLY_STRING, REDIS_REPLY_STATUS:
            self = .string(Self.text(value))
        case REDIS_REPLY_ERROR:
            self = .error(Self.text(value))
        case REDIS_REPLY_INTEGER:
            self = .integer(Int64(value.integer))
        case REDIS_REPLY_ARRAY:
            let elements = UnsafeBufferPointer(start: value.element, count: value.elements)
            self = .array(elements.map { element in element.map { RedisReply(UnsafePointer($0)) } ?? .null })
        default:
            self = .null
        }
    }

    /// The `str`/`len` bytes of a reply as UTF-8 text.
    private static func text(_ reply: redisReply) -> String {
        guard let bytes = reply.str else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: reply.len), as: UTF8.self)
    }
}
