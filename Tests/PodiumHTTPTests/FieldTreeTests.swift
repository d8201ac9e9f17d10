import Foundation
import PodiumWire
import Testing

/// The field trees themselves: what the recorder, a JSON body and a schema give, and how differences read.
@Suite("FieldTree", .timeLimit(.minutes(5)))
struct FieldTreeTests {
    /// A type writing keys every way the answers do: required and optional scalars, arrays of objects, a nil of a
    /// nested type, an empty array and a free-form object.
    private struct Specimen: Encodable {
        /// An element of `items`.
        struct Item: Encodable {
            var itemName: String
            var note: String?
        }

        var userId = "u-1"
        var displayName: String?
        var items = [Item(itemName: "a", note: nil), Item(itemName: "b", note: "n")]
        var lastItem: Item?
        var tags: [String] = []
        var counts = ["closedPeriods": 2]
    }

    /// A required field holding `shape`.
    static func required(_ shape: FieldTree.Shape = .value) -> FieldTree.Field {
        FieldTree.Field(isRequired: true, shape: shape)
    }

    /// An optional field holding `shape`.
    static func optional(_ shape: FieldTree.Shape = .value) -> FieldTree.Field {
        FieldTree.Field(isRequired: false, shape: shape)
    }

    @Test("the recorder names keys as the encoder does and records nils, elements and free-form objects")
    func recordsEveryKey() throws {
        let item = FieldTree(fields: ["item_name": Self.required(), "note": Self.optional()])
        #expect(try FieldTree(recording: Specimen()) == FieldTree(fields: [
            "user_id": Self.required(), "display_name": Self.optional(), "items": Self.required(.array(.object(item))),
            "last_item": Self.optional(.unseen), "tags": Self.required(.array(.unseen)), "counts": Self.required(),
        ]))
        var full = Specimen()
        full.displayName = "Al"
        full.lastItem = Specimen.Item(itemName: "c", note: "m")
        full.tags = ["x"]
        #expect(try FieldTree(recording: full).fields["last_item"] == Self.optional(.object(item)))
        #expect(try FieldTree(recording: full).fields["tags"] == Self.required(.array(.value)))
        #expect(throws: FieldTree.ReadError.self) { try FieldTree(recording: ["not", "an", "object"]) }
    }

    @Test("a JSON body gives its keys, every one required, and merges array elements")
    func readsJSONBodies() throws {
        let body = #"{"a": 1, "list": [{"x": 1}, {"x": 2, "y": null}], "empty": [], "plain": ["s"]}"#
        #expect(try FieldTree(json: OpenAPIContract.JSONValue(parsing: Data(body.utf8))) == FieldTree(fields: [
            "a": Self.required(), "empty": Self.required(.array(.unseen)), "plain": Self.required(.array(.value)),
            "list": Self.required(.array(.object(FieldTree(fields: ["x": Self.required(), "y": Self.optional()])))),
        ]))
    }

    @Test("differences name the path, the field and which side lacks it")
    func differencesNameTheField() {
        let written = FieldTree(fields: [
            "rank": Self.required(), "live": Self.required(),
            "entries": Self.required(.array(.object(FieldTree(fields: ["medal": Self.optional(), "score": Self.required()])))),
        ])
        let declared = FieldTree(fields: [
            "rank": Self.optional(), "live": Self.required(.object(FieldTree(fields: [:]))),
            "entries": Self.required(.array(.object(FieldTree(fields: ["badge": Self.optional(), "score": Self.required()])))),
        ])
        #expect(written.differences(from: declared, root: "Page", mine: "the Codable type", theirs: "openapi.json Page") == [
            "Page.entries[].badge: in openapi.json Page, not written by the Codable type",
            "Page.entries[].medal: written by the Codable type, missing from openapi.json Page",
            "Page.live: the Codable type has a value, openapi.json Page has an object",
            "Page.rank: the Codable type always writes it, openapi.json Page does not require it",
        ])
        #expect(declared.differences(from: written, root: "Page", mine: "openapi.json", theirs: "Swift", comparingRequired: false).count == 3)
        #expect(written.differences(from: written, root: "Page", mine: "a", theirs: "b") == [])
        #expect(FieldTree(fields: ["live": Self.required(.unseen)]).differences(
            from: FieldTree(fields: ["live": Self.required()]), root: "T", mine: "a", theirs: "b")
            == ["T.live: a has nothing (nil or empty in the sample, so what it holds is unseen), b has a value"])
    }

    @Test("a schema's tree follows $ref, items and anyOf, and takes required from its list")
    func readsSchemas() throws {
        let contract = try OpenAPIContract(document: Data(OpenAPIContractTests.document.utf8))
        #expect(try contract.fieldTree(ofSchema: "User") == FieldTree(fields: [
            "user_id": Self.required(), "points": Self.required(), "live": Self.required(), "accuracy": Self.optional(),
            "difficulty": Self.optional(), "status": Self.optional(), "tags": Self.optional(.array(.value)), "nickname": Self.optional(),
        ]))
        #expect(contract.answerSchemaNames == ["User", "Me", "Problem"])
        #expect(throws: OpenAPIContract.DocumentError.self) { try contract.fieldTree(ofSchema: "Difficulty") }
        #expect(throws: OpenAPIContract.DocumentError.self) { try contract.fieldTree(ofSchema: "Nobody") }
        let nullable = OpenAPIContractTests.document.replacingOccurrences(
            of: ##""$ref": "#/components/schemas/Difficulty", "description": "favourite""##,
            with: ##""anyOf": [{"$ref": "#/components/schemas/Me"}, {"type": "null"}]"##)
        let me = FieldTree(fields: ["me": Self.required()])
        #expect(try OpenAPIContract(document: Data(nullable.utf8)).fieldTree(ofSchema: "User").fields["difficulty"]
            == Self.optional(.object(me)))
        let stray = OpenAPIContractTests.document.replacingOccurrences(of: #""required": ["me"]"#, with: #""required": ["you"]"#)
        #expect(throws: OpenAPIContract.DocumentError.self) { try OpenAPIContract(document: Data(stray.utf8)).fieldTree(ofSchema: "Me") }
    }

    @Test("a oneOf that narrows a schema's own properties is followed; one that adds a field is refused")
    func followsNarrowingOneOf() throws {
        let me = #""Me": { "type": "object", "properties": { "me": { "type": "boolean" } }, "required": ["me"] }"#
        let narrowing = OpenAPIContractTests.document.replacingOccurrences(
            of: me, with: #""Me": { "type": "object", "properties": { "me": { "type": "boolean" } }, "required": ["me"], "#
                + #""oneOf": [{ "properties": { "me": { "const": true } } }, { "properties": { "me": { "const": false } } }] }"#)
        #expect(narrowing != OpenAPIContractTests.document)
        #expect(try OpenAPIContract(document: Data(narrowing.utf8)).fieldTree(ofSchema: "Me") == FieldTree(fields: ["me": Self.required()]))
        let adding = narrowing.replacingOccurrences(of: #"{ "properties": { "me": { "const": false } } }"#, with: #"{ "properties": { "you": {} } }"#)
        #expect(adding != narrowing)
        #expect(throws: OpenAPIContract.DocumentError.self) { try OpenAPIContract(document: Data(adding.utf8)).fieldTree(ofSchema: "Me") }
        let options = OpenAPIContractTests.document.replacingOccurrences(
            of: #""tags": { "type": "array", "items": { "type": "string" }, "minItems": 1, "maxItems": 2 }"#,
            with: #""tags": { "oneOf": [{ "type": "array", "items": { "const": "a" } }, { "type": "array", "items": { "const": "b" } }] }"#)
        #expect(options != OpenAPIContractTests.document)
        #expect(try OpenAPIContract(document: Data(options.utf8)).fieldTree(ofSchema: "User").fields["tags"] == Self.optional(.array(.value)))
    }
}
