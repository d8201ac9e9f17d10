import Foundation
import HTTPTypes
import OpenAPIRuntime
import PodiumAPI
import PodiumClient

/// The real `podium serve` that `clients/swift/test.sh` starts, and the fault proxy in front of it
/// (clients/testing/fault_proxy.py): addresses, admin key and a player's tokens come in the environment. Without them
/// the tests fail: they are never skipped.
struct Server {
    let url: URL
    /// The fault proxy: requests pass to Podium until faults are queued there.
    let proxy: URL
    let adminKey: String
    /// A player of group `playerGroup`, with a token that expired an hour ago and a fresh one.
    let player: String
    let playerGroup: String
    let staleToken: String
    let freshToken: String

    static func fromEnvironment() throws -> Server {
        let environment = ProcessInfo.processInfo.environment
        let names = ["URL", "PROXY_URL", "ADMIN_KEY", "PLAYER", "PLAYER_GROUP", "STALE_TOKEN", "FRESH_TOKEN"]
        let values = names.compactMap { environment["PODIUM_CLIENT_TEST_\($0)"] }
        guard values.count == names.count, let base = URL(string: values[0]), let proxy = URL(string: values[1]) else {
            throw TestFailure("run clients/swift/test.sh: it starts a Podium and names it in PODIUM_CLIENT_TEST_URL")
        }
        return Server(url: base, proxy: proxy, adminKey: values[2], player: values[3], playerGroup: values[4],
                      staleToken: values[5], freshToken: values[6])
    }

    /// A client sending the admin key, straight to Podium or through the proxy, noting its waits in `waits`.
    func admin(throughProxy: Bool = false, transport: any ClientTransport = Podium.defaultTransport(), waits: Waits? = nil) -> Podium {
        Podium(serverURL: throughProxy ? proxy : url, token: { [adminKey] _ in adminKey }, transport: transport,
               sleep: { duration in waits?.note(duration) })
    }

    /// Queues `faults` at the proxy (`POST /__faults`), each as fault_proxy.py takes it.
    func fault(_ faults: [[String: Any]]) async throws {
        let body = try JSONSerialization.data(withJSONObject: faults)
        let (response, _) = try await Podium.defaultTransport().send(
            HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/__faults", headerFields: [.contentType: "application/json"]),
            body: HTTPBody(body), baseURL: proxy, operationID: "faults")
        guard response.status == .noContent else { throw TestFailure("the proxy answered \(response.status) to the faults") }
    }

    /// Every request the proxy saw: method, path, the status it answered (0: none), and whether it carried a credential.
    func proxyLog() async throws -> [(method: String, path: String, answer: Int, authorized: Bool)] {
        let (_, body) = try await Podium.defaultTransport().send(
            HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/__faults/log"), body: nil, baseURL: proxy, operationID: "log")
        let data = try await Data(collecting: body ?? HTTPBody(), upTo: 16 << 20)
        let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return entries.map { ($0["method"] as? String ?? "", $0["path"] as? String ?? "", $0["answer"] as? Int ?? -1, $0["authorized"] as? Bool ?? false) }
    }
}

/// What a token supply was asked, in order.
final class Asked: @unchecked Sendable {
    private let lock = NSLock()
    private var refreshes: [Bool] = []
    func note(_ refresh: Bool) { lock.withLock { refreshes.append(refresh) } }
    var all: [Bool] { lock.withLock { refreshes } }
}

/// The waits a client asked for between attempts, in order.
final class Waits: @unchecked Sendable {
    private let lock = NSLock()
    private var durations: [Duration] = []
    func note(_ duration: Duration) { lock.withLock { durations.append(duration) } }
    var all: [Duration] { lock.withLock { durations } }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A completion of `user` in `group`, played `minutesAgo` minutes ago (whole seconds).
func completion(_ id: String, user: String, group: String, minutesAgo: Int = 0, correct: Int = 4) -> Completion {
    let playedAt = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) - Double(minutesAgo * 60))
    return .init(id: id, userId: user, quizId: "q-swift", topic: "math", difficulty: .medium, correct: correct, total: 5,
                 durationMs: 90_000, completedAt: playedAt, groups: [group])
}

/// How many completions Podium counts for `user`.
func completions(of user: String, podium: Podium) async throws -> Int {
    try await podium.profile(userId: user).totals.completions
}

/// A transport with event streams blocked (a proxy that buffers them): the live operation fails, the rest passes.
struct NoStreams: ClientTransport {
    let inner = Podium.defaultTransport()
    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        if operationID == "streamLeaderboard" { throw URLError(.cannotConnectToHost) }
        return try await inner.send(request, body: body, baseURL: baseURL, operationID: operationID)
    }
}

/// A transport that runs `onBatch` while a batch is being sent (before passing it on), as an app adding to its queue
/// during a sync would.
final class AddingTransport: ClientTransport, @unchecked Sendable {
    private let inner = Podium.defaultTransport()
    var onBatch: (@Sendable () async throws -> Void)?

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        if operationID == "recordCompletionBatch" { try await onBatch?() }
        return try await inner.send(request, body: body, baseURL: baseURL, operationID: operationID)
    }
}
