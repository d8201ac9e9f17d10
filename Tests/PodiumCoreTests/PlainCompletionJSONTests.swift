import Foundation
import PodiumCore
import PodiumWire
import Testing

/// The reader of plain completion bodies: it reads what the full path reads, and leaves everything else to it.
@Suite("Plain completion bodies", .timeLimit(.minutes(5)))
struct PlainCompletionJSONTests {
    /// The plain reader's answer for `bytes`.
    func plain(_ bytes: [UInt8]) -> CompletionRequest? {
        bytes.withUnsafeBytes { PlainCompletionJSON.read($0) }
    }

    /// The full path's answer: nil when a key repeats or the decoder refuses the body.
    func full(_ bytes: [UInt8]) -> CompletionRequest? {
        let data = Data(bytes)
        guard DuplicateKeys.firstDuplicate(in: data) == nil else { return nil }
        return try? PodiumJSON.decoder().decode(CompletionRequest.self, from: data)
    }

    @Test("a body of the plain shape is read whole")
    func readsPlainBody() {
        let body = #"""
             { "id":"c-1","user_id":"player-7","quiz_id":"q-7","topic":"maths","difficulty":"easy","correct":5,"total":10,
            "duration_ms":0,"completed_at":null,"groups":["class-7", "Zoë 🦊"],"display_name":"Player 7"}
            """#
        let expected = CompletionRequest(
            id: "c-1", userId: "player-7", quizId: "q-7", topic: "maths", difficulty: "easy", correct: 5, total: 10,
            durationMs: 0, completedAt: nil, groups: ["class-7", "Zoë 🦊"], displayName: "Player 7")
        #expect(plain(Array(body.utf8)) == expected)
        #expect(full(Array(body.utf8)) == expected)
        #expect(plain(Array("{}".utf8)) == CompletionRequest())
        #expect(plain(Array(#"{"groups":[]}"#.utf8)) == CompletionRequest(groups: []))
    }

    @Test("anything outside the plain shape is left to the full path", arguments: [
        #"{"userId":"a"}"#,  // a spelling the decoder also reads
        #"{"id":"a","id":"b"}"#,  // a repeated key
        #"{"id":"a\"b"}"#,  // an escape
        #"{"correct":1.0}"#, #"{"correct":1e1}"#, #"{"correct":-1}"#, #"{"correct":01}"#,  // numbers read otherwise
        #"{"correct":99999999999999999999}"#,  // beyond Int
        #"{"correct":"5"}"#, #"{"id":5}"#, #"{"groups":"a"}"#, #"{"groups":[null]}"#, #"{"id":true}"#,  // wrong types
        #"{"extra":1}"#, #"{"id":"a"} x"#, #"{"id":"a",}"#, #"["id"]"#, "", "{",  // unknown key, trailing text, not an object
    ])
    func leavesOthers(text: String) {
        #expect(plain(Array(text.utf8)) == nil)
    }

    @Test("invalid UTF-8 and raw control characters are left to the full path")
    func leavesBadBytes() {
        #expect(plain(Array(#"{"id":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)) == nil)
        #expect(plain(Array(#"{"id":"a"#.utf8) + [0x0A] + Array(#""}"#.utf8)) == nil)
    }

    /// Bodies built from plain and unusual parts: mostly a documented key with a value of its type, sometimes any
    /// key with any value. Wherever the plain reader answers, the full path answers the same, and the plain reader
    /// answers for many bodies with many fields (the test cannot pass by reading nothing).
    @Test("on 20,000 generated bodies the plain reader agrees with the full path")
    func agreesWithDecoder() {
        var random = SeededGenerator(seed: 24)
        let integerKeys = ["correct", "total", "duration_ms"]
        let stringKeys = ["id", "user_id", "quiz_id", "topic", "difficulty", "completed_at", "display_name"]
        let otherKeys = ["groups", "userId", "ID", "extra", "user__id"]
        let plainStrings = [#""a""#, #""player-12""#, #""""#, #""Zoë""#, #""🦊 fox""#, #""x/y""#, #""2026-11-27T10:00:00Z""#]
        let plainIntegers = ["0", "7", "10", "9223372036854775807", "null"]
        let plainGroups = ["[]", #"["g"]"#, #"[ "a" , "b" ]"#, "null"]
        let others = [#""a\nb""#, #""\u00e9""#, "007", "-3", "1.5", "2e3", "12345678901234567890", "9223372036854775808",
                      "true", "{}", "[1]", "[null]", #"["a",]"#, #"{"x":1}"#]
        let spaces = ["", " ", "\n", "\t ", "\r\n"]
        var plainCount = 0
        var fieldsRead = 0
        for _ in 0..<20_000 {
            var parts: [String] = []
            for _ in 0..<Int.random(in: 0...8, using: &random) {
                let (key, value): (String, String)
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<4: (key, value) = (stringKeys.randomElement(using: &random)!, plainStrings.randomElement(using: &random)!)
                case 4..<6: (key, value) = (integerKeys.randomElement(using: &random)!, plainIntegers.randomElement(using: &random)!)
                case 6..<8: (key, value) = ("groups", plainGroups.randomElement(using: &random)!)
                default:
                    key = (stringKeys + integerKeys + otherKeys).randomElement(using: &random)!
                    value = (plainStrings + plainIntegers + plainGroups + others).randomElement(using: &random)!
                }
                let space = { spaces.randomElement(using: &random)! }
                parts.append(space() + "\"\(key)\"" + space() + ":" + space() + value + space())
            }
            var body = Array(("{" + parts.joined(separator: ",") + "}").utf8)
            switch Int.random(in: 0..<20, using: &random) {
            case 0: body.append(UInt8(ascii: "x"))
            case 1: body.insert(0xFF, at: Int.random(in: 0...body.count, using: &random))
            case 2: body.removeLast()
            default: break
            }
            guard let read = plain(body) else { continue }
            plainCount += 1
            fieldsRead += parts.count
            #expect(full(body) == read, "\(String(decoding: body, as: UTF8.self))")
        }
        #expect(plainCount > 3_000)
        #expect(fieldsRead > 5_000)
    }
}
