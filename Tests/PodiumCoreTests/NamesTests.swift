import Foundation
import PodiumCore
import PodiumWire
import Testing

/// Accepted and rejected scope ids, identifiers, scope names and display names; FieldError encoding.
@Suite("BoardScope and NameRules", .timeLimit(.minutes(5)))
struct NamesTests {
    @Test("each scope's kind holds its id and no other kind does; the kinds are spelled in one list")
    func kinds() {
        let scopes: [BoardScope] = [
            .global, .topic("maths"), .group("5c"), .quiz("Fractions:3@v2"), .team("houses"), .contest("spring"),
            .league("l", tier: "gold", cohort: 3),
        ]
        #expect(scopes.map(\.kind) == BoardScope.Kind.allCases)
        for scope in scopes {
            #expect(BoardScope.Kind.allCases.filter { $0.holds(boardID: scope.id) } == [scope.kind])
        }
        #expect(!BoardScope.Kind.global.holds(boardID: "globalx"))
        #expect(!BoardScope.Kind.topic.holds(boardID: "topics:x"))
        #expect(BoardScope.Kind.spelled == "global, topic, group, quiz, team, contest or league")
    }

    @Test("valid scope ids parse and round-trip", arguments: [
        ("global", BoardScope.global), ("topic:math", .topic("math")), ("group:class-7b", .group("class-7b")),
        ("topic:a.b_c-1", .topic("a.b_c-1")), ("quiz:Fractions:3@v2", .quiz("Fractions:3@v2")), ("group:" + String(repeating: "g", count: 64), .group(String(repeating: "g", count: 64))),
    ])
    func validScopes(id: String, scope: BoardScope) {
        #expect(BoardScope(id: id) == scope)
        #expect(scope.id == id)
        #expect(scope.description == id)
    }

    @Test("invalid scope ids are rejected", arguments: [
        "", "Global", "GLOBAL", "global:", " global", "global ", "topic", "topic:", "topic:Math", "topic:math:x",
        "topic:ma th", "topic:é", "teams:x", "team:X", "quiz:", "quiz:a b", "Topic:math", "group:" + String(repeating: "g", count: 65), ":math",
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
        #expect(!NameRules.isValidUserID(s))
    }

    @Test("user ids made only of dots are refused; dots beside anything else are fine", arguments: [
        (".", false), ("..", false), ("...", false), (String(repeating: ".", count: 128), false),
        ("a.b", true), (".a", true), ("a.", true), ("..a", true), ("_", true), ("u-42", true),
    ])
    func dotOnlyUserIDs(id: String, valid: Bool) {
        #expect(NameRules.isValidIdentifier(id), "still an identifier (completion and quiz ids keep their dots)")
        #expect(NameRules.isValidUserID(id) == valid)
    }

    @Test("a completion with a dot-only user_id names the field and why", arguments: [".", "..", "..."])
    func dotOnlyUserIDInACompletion(id: String) throws {
        let request = completion(userId: id)
        let now = try instant("2026-11-25T12:00:00Z")
        #expect(throws: ValidationFailure(errors: [
            FieldError(field: "completions[3].user_id", message: "must not be only dots, which cannot be a URL path segment"),
        ])) {
            try request.validated(now: now, rules: GameRules(), fieldPrefix: "completions[3].")
        }
    }

    @Test("a completion with a user_id that has dots beside other characters is valid", arguments: ["a.b", ".a", "a..", "u.42.x"])
    func dottedUserIDInACompletion(id: String) throws {
        let valid = try completion(userId: id).validated(now: try instant("2026-11-25T12:00:00Z"), rules: GameRules())
        #expect(valid.userID == id)
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
        "\u{1F469}\u{200D}\u{1F3EB}", // 👩‍🏫: woman, ZERO WIDTH JOINER, school
        "\u{1F469}\u{1F3FD}\u{200D}\u{1F3EB} Ada", // the same with a skin tone: the joiner follows the modifier
        "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}", // 🏳️‍🌈: the joiner follows a variation selector
        "\u{0645}\u{06CC}\u{200C}\u{062E}\u{0648}\u{0627}\u{0647}\u{0645}", // می‌خواهم: Persian with a ZERO WIDTH NON-JOINER
        "\u{0915}\u{094D}\u{200D}\u{0937}", // Devanagari: ka, virama, ZERO WIDTH JOINER, ssa
        "\u{0D2E}\u{0D4B}\u{0D39}\u{0D28}\u{0D4D}\u{200D} K", // Malayalam chillu spelled with a word-final joiner
        "\u{2764}\u{FE0F} Ada", // ❤️ Ada: heart, VARIATION SELECTOR-16
        "1\u{FE0F}\u{20E3}", // keycap 1️⃣: a variation selector and an enclosing mark
        "e\u{301}\u{323}", // two combining marks on one letter (ẹ́)
        "a\u{300}\u{301}\u{302}\u{303}b\u{300}\u{301}\u{302}\u{303}", // four on each of two letters: the limit is per character
    ])
    func validDisplayNames(s: String) {
        #expect(NameRules.isValidDisplayName(s))
        #expect(NameRules.displayNameProblem(s) == nil)
    }

    @Test("invalid display names", arguments: [
        "", " ", "   ", "\t", "\u{00A0}", "\u{3000}", "a\u{0}b", "a\nb", "a\tb", "\u{7F}", "a\u{202E}b",
        "a\u{200B}b", "\u{FEFF}x", String(repeating: "é", count: 65),
        String(repeating: "e\u{301}", count: 33), // 33 characters but 66 scalars
        "a\u{202A}b", "a\u{2066}b", "a\u{2069}b", "a\u{200E}b", "\u{05D0}\u{200F}", "a\u{2060}b", "a\u{00AD}b",
        "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", // the flag of Scotland: tag characters
        "a\u{200D}b", "A\u{200C}da", "Ada\u{200D}", // a joiner after an ASCII letter only hides in the name
        "\u{200D}\u{1F3EB}", "\u{1F469} \u{200D}\u{1F3EB}", "\u{1F469}\u{200D}\u{200D}\u{1F3EB}", // first, after a space, doubled
        "a\u{300}\u{301}\u{302}\u{303}\u{304}", // five combining marks on one letter
        "Z\u{36B}\u{342}\u{337}\u{31B}\u{353}\u{32A}algo", // six
    ])
    func invalidDisplayNames(s: String) {
        #expect(!NameRules.isValidDisplayName(s))
        #expect(NameRules.displayNameProblem(s) != nil)
    }

    @Test("each display name fault has its message", arguments: [
        ("a\u{1}b", "must be 1-64 characters without control characters"),
        (String(repeating: "x", count: 65), "must be 1-64 characters without control characters"),
        ("\u{3000}", "must be 1-64 characters without control characters"),
        ("a\u{202E}b", "must not contain invisible format characters (bidi controls, zero-width spaces)"),
        ("a\u{2066}b", "must not contain invisible format characters (bidi controls, zero-width spaces)"),
        ("a\u{200B}b", "must not contain invisible format characters (bidi controls, zero-width spaces)"),
        ("A\u{200D}da", "must have zero-width joiners and non-joiners only after a non-ASCII character"),
        ("e\u{300}\u{301}\u{302}\u{303}\u{304}\u{305}", "must have at most 4 combining marks on one character"),
    ])
    func displayNameMessages(name: String, message: String) {
        #expect(NameRules.displayNameProblem(name) == message)
    }

    @Test("a completion's display_name fault is its message")
    func displayNameInACompletion() throws {
        let request = completion(displayName: "Ada\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}")
        let now = try instant("2026-11-25T12:00:00Z")
        #expect(throws: ValidationFailure(errors: [
            FieldError(field: "display_name", message: "must have at most 4 combining marks on one character"),
        ])) {
            try request.validated(now: now, rules: GameRules())
        }
        let named = try completion(displayName: "\u{1F469}\u{200D}\u{1F3EB}").validated(now: now, rules: GameRules())
        #expect(named.displayName == "\u{1F469}\u{200D}\u{1F3EB}")
    }

    /// A valid completion with the given user id and display name.
    private func completion(userId: String = "u-1", displayName: String? = nil) -> CompletionRequest {
        CompletionRequest(id: "c-1", userId: userId, quizId: "q-1", topic: "math", difficulty: "easy", correct: 1, total: 2,
                          displayName: displayName)
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

    @Test("zones print as configured: UTC stays UTC (Foundation on Linux says GMT), others keep their name")
    func zonesPrintAsConfigured() throws {
        #expect(try zone("UTC").configuredName == "UTC")
        #expect(try zone("Europe/Paris").configuredName == "Europe/Paris")
        #expect(TimeZone.gmt.configuredName == "UTC")
    }
}
