import Foundation
import PodiumCore
import PodiumWire
import Testing

/// The scan that finds a key repeated in one object of a request body, and its path.
@Suite("Duplicate keys in JSON bodies", .timeLimit(.minutes(5)))
struct DuplicateKeysTests {
    /// The scan's answer for `text`, as UTF-8.
    func duplicate(_ text: String) -> String? {
        DuplicateKeys.firstDuplicate(in: Data(text.utf8))
    }

    @Test("a key repeated in one object is found, with its path", arguments: [
        (#"{"id":"a","id":"b"}"#, "id"),
        (#"{ "id" : 1 , "total": 2,"id"  :3 }"#, "id"),
        (#"{"completions":[{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d","user_id":"u","id":"e"}]}"#, "completions[3].id"),
        (#"{"a":{"b":{"c":1,"c":2}}}"#, "a.b.c"),
        (#"[{"x":1},{"x":1,"x":2}]"#, "[1].x"),
        (#"{"m":[[{"k":1}],[{"k":1,"k":1}]]}"#, "m[1][0].k"),
        (#"{"a":{"b":1,"b":2},"a":3}"#, "a.b"),  // the first in the text
        (#"{"":1,"":2}"#, "\"\""),  // an empty key, written as its JSON
        ("\u{FEFF}{\"id\":1,\"id\":2}", "id"),  // after a UTF-8 byte order mark
    ])
    func found(text: String, path: String) {
        #expect(duplicate(text) == path)
    }

    @Test("keys equal once unescaped, or differing only in case and underscores, are one key", arguments: [
        (#"{"id":"a","\u0069d":"b"}"#, "id"),
        (#"{"\u0069\u0064":"a","id":"b"}"#, "id"),
        (#"{"user_id":1,"user\u005Fid":2}"#, "user_id"),
        (#"{"a/b":1,"a\/b":2}"#, "a/b"),
        (#"{"q\"":1,"q\u0022":2}"#, "q\""),
        (#"{"😀":1,"\ud83d\ude00":2}"#, "😀"),
        (#"{"é":1,"e\u0301":2}"#, "é"),  // canonically equivalent, as Swift compares strings
        (#"{"id":"a","ID":"b"}"#, "ID"),
        (#"{"user_id":"a","userId":"b"}"#, "userId"),  // the decoder reads both as userId
        (#"{"DISPLAY_NAME":"a","display_name":"b"}"#, "display_name"),
        (#"{"id":1,"_id":2}"#, "_id"),
    ])
    func escapedDuplicates(text: String, path: String) {
        #expect(duplicate(text) == path)
    }

    @Test("distinct keys, the same key in sibling or nested objects, and keys inside strings are fine", arguments: [
        #"{"id":"a","i d":"b","i-d":"c","di":"d"}"#,
        #"{"completions":[{"id":"a"},{"id":"a"}],"x":{"id":1},"y":{"id":1}}"#,
        #"{"a":{"a":{"a":1}}}"#,
        #"{"note":"{\"id\":1,\"id\":2}","id":"x"}"#,
        #"{"a":"\"id\":","id":"id","b":["id","id"]}"#,
        #"{"n":-1.5e3,"t":true,"f":false,"z":null,"e":{},"l":[]}"#,
        "{}", "[]", "3", #""x""#, "null", #"[1,2,{"a":[]}]"#,
    ])
    func noDuplicate(text: String) {
        #expect(duplicate(text) == nil)
    }

    @Test("text that is not JSON is left to the decoder, even with a repeated key", arguments: [
        "", "   ", #"{"id":1,"id":2"#, #"{"id":1,"id":2}}"#, #"{"id":1,"id":2} x"#, #"{"id":1,"id":2,}"#,
        #"{"id":1 "id":2}"#, #"{"id" 1,"id":2}"#, #"{"id":1,"id":"abc}"#, #"{"id":1,"id":"\x"}"#, #"{"id":1,"id":"\u12"}"#,
        #"{"id":1,"id":"\ud800"}"#, #"{"id":1,"id":"\udc00"}"#, "{\"id\":1,\"id\":\"a\nb\"}", #"{"id":1,"id":2,"x":}"#,
        "[1,]", "{,}", #"{"id":1,"id":2]"#, #"[{"id":1,"id":2}}"#,
    ])
    func invalidJSON(text: String) {
        #expect(duplicate(text) == nil)
    }

    @Test("nesting is followed as deep as the decoder reads, and no deeper")
    func depthLimit() {
        let deepest = String(repeating: "[", count: DuplicateKeys.maximumDepth - 1) + #"{"a":1,"a":2}"#
            + String(repeating: "]", count: DuplicateKeys.maximumDepth - 1)
        #expect(duplicate(deepest) == String(repeating: "[0]", count: DuplicateKeys.maximumDepth - 1) + ".a")
        let deeper = "[" + deepest + "]"
        #expect(duplicate(deeper) == nil)
        let unclosed = String(repeating: "[", count: 5000)
        #expect(duplicate(unclosed) == nil)
    }
}
