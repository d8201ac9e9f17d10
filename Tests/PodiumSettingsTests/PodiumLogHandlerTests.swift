import Foundation
import Logging
@testable import PodiumSettings
import Synchronization
import Testing

/// Podium's text log lines are swift-log's `StreamLogHandler` lines, written more cheaply; JSON lines are one object.
@Suite(.timeLimit(.minutes(5)))
struct PodiumLogHandlerTests {
    /// Collects what a `StreamLogHandler` writes.
    final class Captured: TextOutputStream, @unchecked Sendable {
        let text = Mutex("")
        func write(_ string: String) { text.withLock { $0 += string } }
    }

    /// The same record, with logger metadata, provided metadata, the line's own and an error, reads the same from both
    /// handlers after the timestamp; of two labels with one key, the later wins.
    @Test func linesMatchStreamLogHandler() {
        let provider = Logger.MetadataProvider { ["request_id": "abc123"] }
        let captured = Captured()
        var reference = StreamLogHandler(label: "podium", stream: captured, metadataProvider: provider)
        reference[metadataKey: "replica"] = "r1"
        struct Failure: Error, CustomStringConvertible { var description: String { "it broke" } }
        let event = LogEvent(
            level: .warning, message: "request", error: Failure(), metadata: ["status": .stringConvertible(404), "tags": .array(["a", "b"])],
            source: "PodiumHTTP", file: #fileID, function: #function, line: #line)
        reference.log(event: event)
        let expected = captured.text.withLock { $0 }
        let labels: [(key: String, value: Logger.Metadata.Value)] = [
            ("replica", "r0"), ("status", "replaced"), ("replica", "r1"), ("request_id", "abc123"), ("status", .stringConvertible(404)),
            ("tags", .array(["a", "b"])), ("error.message", "it broke"), ("error.type", .string(String(reflecting: Failure.self))),
        ]
        let line = PodiumLogHandler.textLine(
            time: "T", level: .warning, label: "podium", labels: labels, source: "PodiumHTTP", message: "request")
        #expect(line.dropFirst(1) == expected.drop { $0 != " " }, "everything after the timestamp")
        #expect(line.hasPrefix("T warning podium: error.message=it broke error.type="))
        #expect(line.hasSuffix(" replica=r1 request_id=abc123 status=404 tags=[\"a\", \"b\"] [PodiumHTTP] request\n"))
    }

    /// Without metadata there is no extra space, as in `StreamLogHandler`.
    @Test func aLineWithoutMetadata() {
        #expect(PodiumLogHandler.textLine(time: "T", level: .info, label: "podium", labels: [], source: "podium", message: "ready")
            == "T info podium: [podium] ready\n")
    }

    /// The timestamp is the local time to the second with its offset, as `StreamLogHandler` writes it.
    @Test func timestampsHaveTheStreamLogHandlersShape() throws {
        let stamp = LogClock.timestamp()
        let shape = try Regex(#"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}$"#)
        #expect(stamp.wholeMatch(of: shape) != nil, "\(stamp)")
    }

    /// A JSON line holds the record and its labels, the later of two with one key winning.
    @Test func jsonLinesHoldTheRecord() throws {
        let event = LogEvent(level: .info, message: "request", metadata: nil, source: "PodiumHTTP", file: #fileID, function: #function, line: #line)
        let line = PodiumLogHandler.jsonLine(event: event, label: "podium", labels: [("status", "200"), ("route", "/x"), ("status", "404")])
        #expect(line.hasSuffix("}\n") && line.filter { $0 == "\n" }.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "info" && object["logger"] as? String == "podium" && object["message"] as? String == "request")
        #expect(object["labels"] as? [String: String] == ["status": "404", "route": "/x"])
    }
}
