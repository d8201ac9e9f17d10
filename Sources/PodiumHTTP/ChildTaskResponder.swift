import Hummingbird

/// Serves each live-stream request (`…/live`) in a child task of the connection's task, which waits for its answer.
///
/// Swift's task allocator keeps every slab a task ever needed until the task ends, and Hummingbird serves all of a
/// connection's requests, and then writes a streamed answer, in the connection's task. So without this each live
/// stream would hold, for as long as it lasts, the memory of the deepest chain of awaits its request went through (the
/// middleware, the route, the stores): measured at about 22 KiB each of the 55 KiB a live listener took. A child
/// task's slabs go back as soon as the answer is made; the stream's writing stays in the connection's task.
///
/// Other requests are answered in the connection's task: a child task costs every request a task and two hops
/// between threads, and a kept-alive connection's slabs matter only by the thousand, as live listeners come.
struct ChildTaskResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context: Sendable {
    /// The responder that makes the answers.
    let inner: Inner

    /// The inner responder's answer, made in a child task for a live stream.
    @Sendable func respond(to request: Request, context: Inner.Context) async throws -> Response {
        guard Self.isLiveStream(request) else { return try await inner.respond(to: request, context: context) }
        return try await inChildTask { try await inner.respond(to: request, context: context) }
    }

    /// Whether `request` asks for a live stream, the one answer that outlasts its request by minutes.
    static func isLiveStream(_ request: Request) -> Bool {
        request.uri.path.hasSuffix("/live")
    }
}

/// `operation`'s result, computed in a child task this task waits for: its deep awaits take memory from the child's
/// allocator, which is freed when it ends, rather than from this (long-lived) task's, which would keep it.
func inChildTask<Result: Sendable>(_ operation: @escaping @Sendable () async throws -> Result) async throws -> Result {
    try await withThrowingTaskGroup(of: Result.self) { group in
        group.addTask(operation: operation)
        // The one child either returns or throws; the group has no other outcome.
        guard let result = try await group.next() else { throw CancellationError() }
        return result
    }
}

/// Builds a `ChildTaskResponder` over another builder's responder (a router).
struct ChildTaskResponderBuilder<Inner: HTTPResponderBuilder>: HTTPResponderBuilder where Inner.Responder.Context: Sendable {
    /// The builder of the responder that makes the answers.
    let inner: Inner

    /// The inner builder's responder, wrapped.
    func buildResponder() -> ChildTaskResponder<Inner.Responder> {
        ChildTaskResponder(inner: inner.buildResponder())
    }
}
