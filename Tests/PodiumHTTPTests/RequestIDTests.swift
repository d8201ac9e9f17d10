@testable import PodiumHTTP
import Testing

@Suite("Request ids", .timeLimit(.minutes(5)))
struct RequestIDTests {
    @Test("a usable client id is kept; otherwise a new one of 16 hexadecimal digits, never the same twice")
    func acceptsOrMakesIds() {
        #expect(RequestID.accept("trace-42") == "trace-42")
        let made = (0..<100_000).map { _ in RequestID.accept(nil) }
        #expect(made.allSatisfy { $0.utf8.count == 16 && $0.allSatisfy(\.isHexDigit) })
        #expect(Set(made).count == made.count)
        for refused in ["", "has space", String(repeating: "x", count: 129), "tab\there"] {
            let id = RequestID.accept(refused)
            #expect(id != refused && id.utf8.count == 16)
        }
    }
}
