import Foundation

/// The shape of a JSON object by key names alone: which keys it has, which of them every answer carries, and what each holds.
///
/// Every answer is spelled up to three times: by its `Codable` type (`init(recording:)`), by `openapi.json`
/// (`OpenAPIContract.fieldTree(ofSchema:)`) and, for the hottest answers, by the hand-written `jsonBytes()`
/// (`init(json:)`). Trees from any two compare with `differences(from:root:mine:theirs:comparingRequired:)`,
/// which names every key one side has and the other lacks, so a field added in one place only fails a test
/// with the field's path in the message.
struct FieldTree: Equatable, Sendable, CustomStringConvertible {
    /// What a key holds.
    indirect enum Shape: Equatable, Sendable {
        /// A value whose keys, if it has any, are data and not fields: a string, number, boolean or null, or a
        /// free-form object (counts by name, event data).
        case value
        /// An object with fields.
        case object(FieldTree)
        /// An array; the associated shape is its elements'.
        case array(Shape)
        /// Not seen: a nil optional of a nested type, or an empty array, so what it would hold is unknown.
        case unseen
    }

    /// One key of an object.
    struct Field: Equatable, Sendable {
        /// Whether every answer carries the key: a non-optional property, or a name in a schema's `required`;
        /// false for a key left out when its value is nil.
        var isRequired: Bool
        /// What it holds.
        var shape: Shape
    }

    /// The fields by JSON key.
    var fields: [String: Field]

    /// The tree as nested braces, optional keys marked `?`: `{entries: [{medal?, rank}], live}`.
    var description: String {
        let members = fields.sorted { $0.key < $1.key }.map { key, field in
            let name = field.isRequired ? key : key + "?"
            return field.shape == .value ? name : "\(name): \(field.shape)"
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// Every difference from `other`, one sentence each, e.g.
    /// `LeaderboardPage.entries[].medal: written by the Codable type, missing from openapi.json LeaderboardPage`.
    ///
    /// - Parameters:
    ///   - root: the name paths start with, usually the Swift type's.
    ///   - mine: what this tree comes from, as the sentences name it.
    ///   - theirs: what `other` comes from.
    ///   - comparingRequired: whether `isRequired` must agree too; a JSON body cannot tell a required key from
    ///     an optional one that was set, so trees read from bodies compare keys only.
    func differences(from other: FieldTree, root: String, mine: String, theirs: String, comparingRequired: Bool = true) -> [String] {
        differences(from: other, at: root, Sides(mine: mine, theirs: theirs, comparingRequired: comparingRequired))
    }

    /// The two sides of a comparison, as its sentences name them.
    fileprivate struct Sides {
        let mine: String
        let theirs: String
        let comparingRequired: Bool
    }

    private func differences(from other: FieldTree, at path: String, _ sides: Sides) -> [String] {
        Set(fields.keys).union(other.fields.keys).sorted().flatMap { key -> [String] in
            let place = "\(path).\(key)"
            guard let field = fields[key] else { return ["\(place): in \(sides.theirs), not written by \(sides.mine)"] }
            guard let otherField = other.fields[key] else { return ["\(place): written by \(sides.mine), missing from \(sides.theirs)"] }
            var found: [String] = []
            if sides.comparingRequired, field.isRequired != otherField.isRequired {
                found.append(field.isRequired
                    ? "\(place): \(sides.mine) always writes it, \(sides.theirs) does not require it"
                    : "\(place): \(sides.mine) leaves it out when nil, \(sides.theirs) requires it")
            }
            return found + field.shape.differences(from: otherField.shape, at: place, sides)
        }
    }

    /// Two elements of one array as one: every key of either, required only where both require it.
    func merged(with other: FieldTree) -> FieldTree {
        var merged: [String: Field] = [:]
        for key in Set(fields.keys).union(other.fields.keys) {
            switch (fields[key], other.fields[key]) {
            case (let mine?, let theirs?):
                merged[key] = Field(isRequired: mine.isRequired && theirs.isRequired, shape: mine.shape.merged(with: theirs.shape))
            case (let one?, nil), (nil, let one?):
                merged[key] = Field(isRequired: false, shape: one.shape)
            case (nil, nil):
                break
            }
        }
        return FieldTree(fields: merged)
    }
}

extension FieldTree.Shape {
    /// A short name for messages: `a value`, `an object`, `an array`, `nothing (nil or empty in the sample)`.
    var summary: String {
        switch self {
        case .value: "a value"
        case .object: "an object"
        case .array: "an array"
        case .unseen: "nothing (nil or empty in the sample, so what it holds is unseen)"
        }
    }

    /// The tree for objects, `[element]` for arrays, `?` when unseen (fields of value shape print bare).
    var description: String {
        switch self {
        case .value: "value"
        case .object(let tree): tree.description
        case .array(let element): "[\(element.description)]"
        case .unseen: "?"
        }
    }

    /// Two elements' shapes as one; an unseen side takes the other's shape.
    func merged(with other: Self) -> Self {
        switch (self, other) {
        case (.unseen, _): other
        case (.object(let mine), .object(let theirs)): .object(mine.merged(with: theirs))
        case (.array(let mine), .array(let theirs)): .array(mine.merged(with: theirs))
        default: self
        }
    }

    fileprivate func differences(from other: Self, at path: String, _ sides: FieldTree.Sides) -> [String] {
        switch (self, other) {
        case (.object(let mine), .object(let theirs)):
            mine.differences(from: theirs, at: path, sides)
        case (.array(let mine), .array(let theirs)):
            mine.differences(from: theirs, at: path + "[]", sides)
        case (.value, .value):
            []
        default:
            ["\(path): \(sides.mine) has \(summary), \(sides.theirs) has \(other.summary)"]
        }
    }
}
