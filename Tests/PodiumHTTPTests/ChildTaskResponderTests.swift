import Foundation
import Hummingbird
import HummingbirdTesting
@testable import PodiumHTTP
import Testing

@Suite("Requests answered in child tasks", .timeLimit(.minutes(5)))
struct ChildTaskResponderTests {
    @TaskLocal static var marker: String?

    /// No context: the responder under test only passes it on.
    struct NoContext: Sendable {}

    /// A responder that answers with the id of the task it runs in and the marker it sees, or throws for `/fail`.
    struct Reporter: HTTPResponder {
        @Sendable func respond(to request: Request, context: NoContext) async throws -> Response {
            if request.uri.path == "/fail" { throw HTTPError(.conflict) }
            let task = withUnsafeCurrentTask { $0.map { "\($0.hashValue)" } ?? "none" }
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "\(task) \(ChildTaskResponderTests.marker ?? "-")")))
        }
    }

    @Test("a live stream's answer is made in another task, which sees the caller's task-locals; errors come through unchanged")
    func answersInAChildTask() async throws {
        let responder = ChildTaskResponder(inner: Reporter())
        let context = NoContext()
        let request = Request(
            head: .init(method: .get, scheme: "http", authority: "localhost", path: "/v1/leaderboards/global/all/live"),
            body: .init(buffer: ByteBuffer()))
        let caller = withUnsafeCurrentTask { $0.map { "\($0.hashValue)" } ?? "none" }
        let answer = try await Self.$marker.withValue("set by the caller") {
            try await responder.respond(to: request, context: context)
        }
        let collector = Collector()
        try await answer.body.write(collector)
        let text = String(buffer: collector.buffer)
        #expect(text.hasSuffix(" set by the caller"))
        #expect(!text.hasPrefix("\(caller) ") && !text.hasPrefix("none "), "answered by \(text), called from \(caller)")
        let failing = Request(head: .init(method: .get, scheme: "http", authority: "localhost", path: "/fail"), body: .init(buffer: ByteBuffer()))
        await #expect(throws: HTTPError.self) { try await responder.respond(to: failing, context: context) }
    }

    @Test("any other request is answered in the caller's own task")
    func answersOtherRequestsInPlace() async throws {
        let responder = ChildTaskResponder(inner: Reporter())
        let request = Request(
            head: .init(method: .get, scheme: "http", authority: "localhost", path: "/v1/leaderboards/global/all"),
            body: .init(buffer: ByteBuffer()))
        let caller = withUnsafeCurrentTask { $0.map { "\($0.hashValue)" } ?? "none" }
        let answer = try await responder.respond(to: request, context: NoContext())
        let collector = Collector()
        try await answer.body.write(collector)
        #expect(String(buffer: collector.buffer) == "\(caller) -")
    }

    @Test("inChildTask returns what its operation returns and rethrows what it throws")
    func inChildTaskPassesResults() async throws {
        let answer = try await inChildTask { 42 }
        #expect(answer == 42)
        await #expect(throws: CancellationError.self) { try await inChildTask { () async throws -> Int in throw CancellationError() } }
    }
}

/// Collects a response body.
private final class Collector: ResponseBodyWriter {
    var buffer = ByteBuffer()

    func write(_ part: ByteBuffer) async throws {
        var part = part
        buffer.writeBuffer(&part)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
