import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import PodiumCore
@testable import PodiumStore
import Testing

@Suite("Live leaderboard streams (Server-Sent Events)", .timeLimit(.minutes(5)))
struct LiveStreamTests {
    /// The events of a stream as they arrive, split at blank lines.
    final class EventLog: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""

        func append(_ chunk: String) { lock.withLock { text += chunk } }

        /// The complete events so far (each the lines of one event).
        var events: [String] { lock.withLock { text.components(separatedBy: "\n\n").dropLast().map { $0 } } }

        /// The events once one satisfies `condition`, or nil after `seconds`.
        func wait(seconds: Double = 30, until condition: (String) -> Bool) async -> [String]? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if events.contains(where: condition) { return events }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return nil
        }
    }

    /// Reads `url` as a stream into `log` until the task is cancelled.
    static func listen(_ http: HTTPClient, url: String, key: String, lastEventID: String? = nil, into log: EventLog) -> Task<Void, any Error> {
        Task {
            var request = HTTPClientRequest(url: url)
            request.headers.add(name: "Authorization", value: "Bearer \(key)")
            if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
            let response = try await http.execute(request, timeout: .seconds(60))
            log.append("status: \(response.status.code)\ncontent-type: \(response.headers.first(name: "content-type") ?? "")\n\n")
            for try await chunk in response.body { log.append(String(buffer: chunk)) }
        }
    }

    @Test("a completion recorded on one replica reaches a listener on another; Last-Event-ID skips the page the client has")
    func completionReachesAnotherReplica() async throws {
        let writer = try await HTTPHarness()
        let reader = try await HTTPHarness(liveStreamLifetime: .seconds(20))
        let service = Task { try await reader.storage.live.run() }
        defer { service.cancel() }
        let deadline = Date().addingTimeInterval(30)
        while !reader.storage.live.isLive && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let topic = unique("live")
        let (first, second) = (unique("first"), unique("second"))
        let created = try await writer.run { client in
            try await client.send(.post, "/v1/completions", key: writer.ingestKey, json: completionBody(id: "\(first)-1", user: first, topic: topic))
        }
        #expect(created.status == .created)
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let app = Application(router: reader.router)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let url = "http://127.0.0.1:\(port)/v1/leaderboards/topic:\(topic)/week/live?limit=5"
            let log = EventLog()
            let listener = Self.listen(http, url: url, key: reader.readKey, into: log)
            defer { listener.cancel() }
            _ = try #require(await log.wait { $0.contains("event: page") && $0.contains(first) })
            let opened = try #require(await log.wait { $0.contains("event: status") })
            #expect(opened.first == "status: 200\ncontent-type: text/event-stream; charset=utf-8")
            #expect(opened.contains("retry: 2000"))
            #expect(opened.contains("event: status\ndata: {\"live\":true}"))
            let page = try #require(opened.first { $0.contains("event: page") })
            let etag = try #require(page.split(separator: "\n").first { $0.hasPrefix("id: ") }).dropFirst(4)

            // Written through the other replica: its notice reaches this one, whose cached page (60 s in tests) is dropped.
            let posted = ContinuousClock.now
            let recorded = try await writer.run { client in
                try await client.send(
                    .post, "/v1/completions", key: writer.ingestKey, json: completionBody(id: "\(second)-1", user: second, topic: topic, difficulty: "hard"))
            }
            #expect(recorded.status == .created)
            let changed = try #require(await log.wait { $0.contains("event: page") && $0.contains(second) })
            print("live update reached the other replica's listener after \(ContinuousClock.now - posted)")
            let update = try #require(changed.last { $0.contains("event: page") })
            let json = try #require(update.split(separator: "\n").first { $0.hasPrefix("data: ") }).dropFirst(6)
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])["entries"] as? [[String: Any]]
            #expect(entries?.compactMap { $0["user_id"] as? String } == [second, first], "hard beats medium")

            // A client coming back with the first page's id gets no page until something changes.
            let resumed = EventLog()
            let again = Self.listen(http, url: url, key: reader.readKey, lastEventID: String(etag), into: resumed)
            defer { again.cancel() }
            #expect(await resumed.wait { $0.contains("event: status") } != nil)
            #expect(await resumed.wait { $0.contains("event: page") }?.isEmpty == false, "the page changed since that id")
            let current = try #require(update.split(separator: "\n").first { $0.hasPrefix("id: ") }).dropFirst(4)
            let upToDate = EventLog()
            let third = Self.listen(http, url: url, key: reader.readKey, lastEventID: String(current), into: upToDate)
            defer { third.cancel() }
            #expect(await upToDate.wait { $0.contains("event: status") } != nil)
            #expect(await upToDate.wait(seconds: 1) { $0.contains("event: page") } == nil, "the client has the current page")
        }
        try await http.shutdown()
    }

    @Test("a live stream checks what a page checks: credentials, board scope, parameters; CSV is not offered")
    func liveChecksLikeAPage() async throws {
        let harness = try await HTTPHarness()
        try await harness.run { client in
            let anonymous = try await client.send(.get, "/v1/leaderboards/global/week/live", key: nil)
            #expect(anonymous.status == .unauthorized)
            #expect(try await client.send(.get, "/v1/leaderboards/global/week/live?limit=0", key: harness.readKey).errorFields == ["limit"])
            #expect(try await client.send(.get, "/v1/leaderboards/global/fortnight/live", key: harness.readKey).errorFields == ["window"])
            // The test harness ends streams after 0.3 s: a stream is the page as its first event.
            let stream = try await client.send(.get, "/v1/leaderboards/global/week/live?limit=3", key: harness.readKey)
            #expect(stream.status == .ok)
            let text = String(buffer: stream.body)
            #expect(text.hasPrefix("retry: 2000\n\nid: \""))
            #expect(text.contains("\nevent: page\ndata: {\"aggregate\":\"sum\",\"board\":\"global\","))
            #expect(text.hasSuffix("\n\nevent: status\ndata: {\"live\":false}\n\n"), "this harness runs no subscription: not live")
        }
    }
}
