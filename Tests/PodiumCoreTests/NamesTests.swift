import Foundation
import PodiumCore
import Testing

/// Accepted and rejected scope ids, identifiers, scope names and display names; FieldError encoding.
@Suite("BoardScope and NameRules")
struct NamesTests {
    @Test("valid scope ids parse and round-trip", arguments: [
        ("global", BoardScope.global), ("topic:math", .topic("math")), ("group:class-7b", .group("class-7b")),
        ("topic:a.b_c-1", .topic("a.b_c-1")), ("group:" + String(repeating: "g", count: 64), .group(String(repeating: "g", count: 64))),
    ])
    func validScopes(id: String, scope: BoardScope) {
        #expect(BoardScope(id: id) == scope)
        #expect(scope.id == id)
        #expect(scope.description == id)
    }

    @Test("invalid scope ids are rejected", arguments: [
        "", "Global", "GLOBAL", "global:", " global", "global ", "topic", "topic:", "topic:Math", "topic:math:x",
        "topic:ma th", "topic:é", "team:x", "Topic:math", "group:" + String(repeating: "g", count: 65), ":math",
        "topic::", "group:a/b",
    ])
    func invalidScopes(id: String) {
        #expect(BoardScope(id: id) == nil)
    }

    @Test("scopes encode as their id string")
    func scopeCodable() throws {
        let scopes: [BoardScope] = [.global, .topic("math"), .group("g1")]
        let data = try JSONEncoder().encode(scopes)
        #expect(String(decoding: data, as: UTF8.self) == #"["global","topic:math","group:g1"]"#)
        #expect(try JSONDecoder().decode([BoardScope].self, from: data) == scopes)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(BoardScope.self, from: Data(#""topic:Math""#.utf8))
        }
    }

    @Test("valid identifiers", arguments: [
        "u", "user-42", "a.b_c:d@e-f", "ABCxyz0189", "quiz:2026-11",
        String(repeating: "x", count: 128),
    ])
    func validIdentifiers(s: String) {
        #expect(NameRules.isValidIdentifier(s))
    }

    @Test("invalid identifiers", arguments: [
        "", String(repeating: "x", count: 129), "a b", "ü", "a/b", "a\n", "a#b", "a+b", "é", "a\u{0}", "🙂", "a,b",
    ])
    func invalidIdentifiers(s: String) {
        #expect(!NameRules.isValidIdentifier(s))
    }

    @Test("valid scope names", arguments: ["math", "class-7b", "a.b_c", "0", String(repeating: "z", count: 64)])
    func validScopeNames(s: String) {
        #expect(NameRules.isValidScopeName(s))
    }

    @Test("invalid scope names", arguments: [
        "", "Math", "MATH", String(repeating: "z", count: 65), "a:b", "a b", "é", "a@b", "a/b", "ß",
    ])
    func invalidScopeNames(s: String) {
        #expect(!NameRules.isValidScopeName(s))
    }

    @Test("valid display names", arguments: [
        "Ada", "Zoë", "李小龍", "  x  ", "🙂", "Ana María", "🇫🇷 Léa", "👍🏽", String(repeating: "é", count: 64),
        "e\u{301}", // e + combining acute (Mn) is fine
    ])
    func validDisplayNames(s: String) {
        #expect(NameRules.isValidDisplayName(s))
    }

    @Test("invalid display names", arguments: [
        "", " ", "   ", "\t", "\u{00A0}", "\u{3000}", "a\u{0}b", "a\nb", "a\tb", "\u{7F}", "a\u{202E}b",
        "a\u{200B}b", "\u{FEFF}x", "a\u{200D}b", String(repeating: "é", count: 65),
        String(repeating: "e\u{301}", count: 33), // 33 characters but 66 scalars
    ])
    func invalidDisplayNames(s: String) {
        #expect(!NameRules.isValidDisplayName(s))
    }

    @Test("API key names: 1 to 100 characters without control characters")
    func keyNames() {
        #expect(["frontend", "Quiz app (staging)", "é", String(repeating: "k", count: 100)].allSatisfy(NameRules.isValidKeyName))
        #expect(!["", "tab\tname", "line\nbreak", "\u{0}", String(repeating: "k", count: 101)].contains(where: NameRules.isValidKeyName))
    }

    @Test("field errors carry field and message and encode as such")
    func fieldError() throws {
        let error = FieldError(field: "correct", message: "must not exceed total")
        let data = try JSONEncoder().encode(error)
        #expect(try JSONDecoder().decode(FieldError.self, from: data) == error)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(object == ["field": "correct", "message": "must not exceed total"])
    }
}
