import Foundation
import PodiumCore
import PodiumStore
import PodiumWire

/// Values the recorder takes as one plain value: their keys are data, not fields.
///
/// A JSON object of counts by name (`JobRun.result`) or an event's data has keys that change from answer
/// to answer; `openapi.json` describes each as an object without `properties`, so both sides see a value.
protocol FreeFormJSON {}

extension Dictionary: FreeFormJSON where Key == String {}
extension PodiumWire.JSONValue: FreeFormJSON {}

extension FieldTree {
    /// Why a tree could not be read.
    struct ReadError: Error, CustomStringConvertible {
        /// What went wrong.
        let description: String
    }

    /// The fields `value` writes, named as `PodiumJSON.encoder()` names them, nil optionals included.
    ///
    /// A custom `Encoder` keeps no values, only keys: a key written with `encode` or `encodeNil` is required,
    /// one written with `encodeIfPresent` is not, whether its value is set or nil, so a sample with nils still
    /// gives every key. Nested values are recorded in turn, and an array records its elements' fields, merged.
    /// A nil optional of a nested type and an empty array cannot show what they would hold: they record
    /// `.unseen`, so samples compared with a schema set every optional and fill every array.
    init(recording value: some Encodable) throws {
        let node = Node()
        try node.record(value)
        guard case .object(let tree) = try node.shape() else { throw ReadError(description: "\(type(of: value)) does not encode as a JSON object") }
        self = tree
    }

    /// The keys of a JSON object as written: every key present counts as required, and arrays' elements are merged.
    init(json: OpenAPIContract.JSONValue) throws {
        guard case .object(let tree) = Self.shape(of: json) else { throw ReadError(description: "the JSON is not an object") }
        self = tree
    }

    private static func shape(of json: OpenAPIContract.JSONValue) -> Shape {
        switch json {
        case .object(let members): .object(FieldTree(fields: members.mapValues { Field(isRequired: true, shape: shape(of: $0)) }))
        case .array(let items): .array(items.map(shape(of:)).reduce(Shape.unseen) { $0.merged(with: $1) })
        case .null, .bool, .number, .string: .value
        }
    }

    /// A Swift coding key as `PodiumJSON.encoder()` writes it (`userId` → `user_id`): the encoder's own key strategy, not a copy of it.
    static func jsonKey(_ name: String) throws -> String {
        let written = try OpenAPIContract.JSONValue(parsing: try PodiumJSON.encoder().encode(KeyProbe(name: name)))
        guard let keys = written.objectValue?.keys, keys.count == 1, let key = keys.first else {
            throw ReadError(description: "the encoder wrote no single key for \(name)")
        }
        return key
    }
}

/// An object with the one key `name`, so the encoder shows how it spells it.
private struct KeyProbe: Encodable {
    /// Any key by name.
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }

    let name: String

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeNil(forKey: Key(stringValue: name))
    }
}

/// What one value wrote, filled in while it encodes; containers hold a reference, so a nested container fills its part later.
private final class Node {
    /// What the value wrote so far.
    enum Content {
        /// Nothing yet: a nil optional, or a value not encoded.
        case nothing
        /// A scalar, null or free-form value.
        case value
        /// An object's fields, by Swift key name, in the order written.
        case object([(name: String, isRequired: Bool, node: Node)])
        /// An array's elements.
        case array([Node])
    }

    var content: Content = .nothing

    /// Whether values of `type` are one plain JSON value whatever they hold: strings, booleans, numbers, raw-value enums and free-form objects.
    static func isPlain<T>(_ type: T.Type) -> Bool {
        type == Bool.self || type == String.self || type is any Numeric.Type || type is any FreeFormJSON.Type
            || type is any RawRepresentable.Type
    }

    /// Records what `value` writes: a plain value as such, anything else through its `encode(to:)`.
    ///
    /// Scalars must stop here: `Bool.encode(to:)` writes itself to a single-value container, whose generic
    /// `encode` would bring it back.
    func record<T: Encodable>(_ value: T) throws {
        if Self.isPlain(T.self) || value is any FreeFormJSON {
            content = .value
        } else {
            try value.encode(to: Recorder(node: self))
        }
    }

    /// A new node for the field `name` of this object.
    func field(_ name: String, isRequired: Bool) -> Node {
        let child = Node()
        if case .object(let fields) = content { content = .object(fields + [(name, isRequired, child)]) }
        return child
    }

    /// A new element of this array.
    func element() -> Node {
        let child = Node()
        if case .array(let elements) = content { content = .array(elements + [child]) }
        return child
    }

    /// The shape written, keys spelled as the encoder spells them.
    func shape() throws -> FieldTree.Shape {
        switch content {
        case .nothing:
            return .unseen
        case .value:
            return .value
        case .object(let fields):
            let named = try fields.map { field in
                (try FieldTree.jsonKey(field.name), FieldTree.Field(isRequired: field.isRequired, shape: try field.node.shape()))
            }
            return .object(FieldTree(fields: Dictionary(named) { _, last in last }))
        case .array(let elements):
            return .array(try elements.map { try $0.shape() }.reduce(FieldTree.Shape.unseen) { $0.merged(with: $1) })
        }
    }
}

/// The `Encoder` handed to each value; its containers write into `node`.
///
/// Each container's generic `encode` also stands for its scalar overloads (`encode(_: Bool)`, …): Swift lets a
/// generic method satisfy those requirements, and `Node.record` takes scalars as plain values.
private struct Recorder: Encoder {
    let node: Node
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([]) }
        return KeyedEncodingContainer(KeyedRecorder(node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedRecorder(node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueRecorder(node: node)
    }
}

/// An array: every element becomes a node of its own.
private struct UnkeyedRecorder: UnkeyedEncodingContainer {
    let node: Node
    var codingPath: [any CodingKey] { [] }

    var count: Int {
        if case .array(let elements) = node.content { elements.count } else { 0 }
    }

    mutating func encodeNil() throws {
        node.element().content = .value
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try node.element().record(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        Recorder(node: node.element()).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        Recorder(node: node.element()).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        Recorder(node: node.element())
    }
}

/// One value: a scalar, or whatever the value it wraps writes.
private struct SingleValueRecorder: SingleValueEncodingContainer {
    let node: Node
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws {
        node.content = .value
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try node.record(value)
    }
}

/// An object: `encode` and `encodeNil` record a required key; `encodeIfPresent` records a key that is not
/// required, set or nil.
///
/// Every `encodeIfPresent` overload is written out: the standard library's defaults for the scalar ones (which
/// win over a generic method here) skip a nil without a trace.
private struct KeyedRecorder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        node.field(key.stringValue, isRequired: true).content = .value
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.field(key.stringValue, isRequired: true).record(value)
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        try record(value, forKey: key)
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try record(value, forKey: key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try record(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try record(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try record(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try record(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try record(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try record(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try record(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try record(value, forKey: key) }
    @available(macOS 15.0, *)
    mutating func encodeIfPresent(_ value: Int128?, forKey key: Key) throws { try record(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try record(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try record(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try record(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try record(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try record(value, forKey: key) }
    @available(macOS 15.0, *)
    mutating func encodeIfPresent(_ value: UInt128?, forKey key: Key) throws { try record(value, forKey: key) }

    /// Records an optional value, set or nil; a nil shows the key, and what it would hold only when that is a plain value.
    private func record<T: Encodable>(_ value: T?, forKey key: Key) throws {
        let child = node.field(key.stringValue, isRequired: false)
        if let value {
            try child.record(value)
        } else if Node.isPlain(T.self) {
            child.content = .value
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        Recorder(node: node.field(key.stringValue, isRequired: true)).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        Recorder(node: node.field(key.stringValue, isRequired: true)).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        Recorder(node: node.field("super", isRequired: true))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        Recorder(node: node.field(key.stringValue, isRequired: true))
    }
}

