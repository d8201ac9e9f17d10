import Foundation
import HTTPTypes
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import PodiumAPI
import PodiumClient
import Testing

/// The Swift client against a real `podium serve` that `clients/swift/test.sh` starts: its address, admin key and
/// player-token secret (key id `k1`) come in the environment. Without them the tests fail: they are never skipped.
struct Server {
    let url: URL
    let adminKey: String
    /// A player of group `playerGroup`, with a token that expired an hour ago and a fresh one.
    let player: String
    let playerGroup: String
    let staleToken: String
    let freshToken: String

    static func fromEnvironment() throws -> Server {
        let environment = ProcessInfo.processInfo.environment
        let names = ["URL", "ADMIN_KEY", "PLAYER", "PLAYER_GROUP", "STALE_TOKEN", "FRESH_TOKEN"]
        let values = names.compactMap { environment["PODIUM_CLIENT_TEST_\($0)"] }
        guard values.count == names.count, let base = URL(string: values[0]) else {
            throw TestFailure("run clients/swift/test.sh: it starts a Podium and names it in PODIUM_CLIENT_TEST_URL")
        }
        return Server(url: base, adminKey: values[1], player: values[2], playerGroup: values[3], staleToken: values[4], freshToken: values[5])
    }

    /// A client sending the admin key.
    func admin(transport: any ClientTransport = AsyncHTTPClientTransport()) -> Podium {
        Podium(serverURL: url, token: { [adminKey] _ in adminKey }, transport: transport, sleep: { _ in })
    }
}

/// What a token supply was asked, in order.
final class Asked: @unchecked Sendable {
    private let lock = NSLock()
    private var refreshes: [Bool] = []
    func note(_ refresh: Bool) { lock.withLock { refreshes.append(refresh) } }
    var all: [Bool] { lock.withLock { refreshes } }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A transport that fails the first `failures` sends as a network outage would (no answer), before or after the
/// request reached Podium, then passes every request on.
final class FlakyTransport: ClientTransport, @unchecked Sendable {
    enum When { case beforeSending, afterSending }
    private let inner = AsyncHTTPClientTransport()
    private let lock = NSLock()
    private var failures: Int
    private let when: When
    private(set) var sends = 0

    init(failures: Int, when: When) {
        self.failures = failures
        self.when = when
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let fail = lock.withLock { () -> Bool in
            sends += 1
            guard failures > 0 else { return false }
            failures -= 1
            return true
        }
        if fail && when == .beforeSending { throw URLError(.cannotConnectToHost) }
        let answer = try await inner.send(request, body: body, baseURL: baseURL, operationID: operationID)
        if fail { throw URLError(.networkConnectionLost) }  // Podium recorded it; its answer never arrived
        return answer
    }
}

func completion(_ id: String, user: String, group: String, minutesAgo: Int = 0, correct: Int = 4) -> Components.Schemas.CompletionRequest {
    let playedAt = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 1).rounded(.down) - Double(minutesAgo * 60))
    return .init(id: id, userId: user, quizId: "q-swift", topic: "math", difficulty: .medium, correct: correct, total: 5,
                 durationMs: 90_000, completedAt: playedAt, groups: [group])
}

func completions(of user: String, podium: Podium) async throws -> Int {
    guard case .ok(let ok) = try await podium.api.fetchUserProfile(path: .init(id: user)) else { throw TestFailure("no profile of \(user)") }
    return try ok.body.json.totals.completions
}

@Suite("The Swift client against a real Podium", .serialized, .timeLimit(.minutes(5)))
struct PodiumClientTests {
    let server: Server
    let run = String(UInt32.random(in: 0...UInt32.max), radix: 16)

    init() throws {
        server = try Server.fromEnvironment()
    }

    @Test("a player records a completion with a token refreshed after a 401, and reads its board")
    func playerTokenAndBoard() async throws {
        let (user, group) = (server.player, server.playerGroup)
        let asked = Asked()
        // The first token expired an hour ago; the refreshed one is good for ten minutes (test.sh signs both).
        let podium = Podium(serverURL: server.url, token: { [server] refresh in
            asked.note(refresh)
            return refresh ? server.freshToken : server.staleToken
        })
        let answer = try await podium.record(completion("\(user)-\(run)", user: user, group: group))
        #expect(answer.completion.id == "\(user)-\(run)" && answer.pointsAwarded == 3)
        #expect(asked.all == [false, true])
        guard case .ok(let page) = try await podium.api.fetchLeaderboardPage(path: .init(board: "group:\(group)", window: .week)) else {
            throw TestFailure("no page")
        }
        #expect(try page.body.json.entries.map(\.userId) == [user])
        guard case .forbidden = try await podium.api.fetchUserProfile(path: .init(id: "u-swift-somebody-else")) else {
            throw TestFailure("another player's profile was not refused")
        }
    }

    @Test("a completion is retried with the same id after an outage, and counts once even when its answer was lost")
    func retries() async throws {
        let group = "swift-\(run)"
        let before = FlakyTransport(failures: 2, when: .beforeSending)
        let answer = try await server.admin(transport: before).record(completion("r-\(run)-1", user: "u-swift-r-\(run)", group: group))
        #expect(answer.completion.id == "r-\(run)-1" && before.sends == 3)
        let lost = FlakyTransport(failures: 1, when: .afterSending)
        _ = try await server.admin(transport: lost).record(completion("r-\(run)-2", user: "u-swift-r-\(run)", group: group, minutesAgo: 5))
        #expect(lost.sends == 2)
        #expect(try await completions(of: "u-swift-r-\(run)", podium: server.admin()) == 2, "no completion counted twice")
        await #expect(throws: CompletionError.refused(status: 400)) {
            try await server.admin().record(completion("r-\(run)-3", user: "u-swift-r-\(run)", group: group, correct: 9))
        }
        await #expect(throws: CompletionError.refused(status: 409)) {
            try await server.admin().record(completion("r-\(run)-1", user: "u-swift-r-\(run)", group: group, correct: 5))
        }
    }

    @Test("an offline queue syncs through the batch route with no loss and no doubles")
    func offlineQueue() async throws {
        let user = "u-swift-q-\(run)"
        let group = "swift-\(run)"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("podium-queue-\(run).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let offline = OfflineQueue(file: file, podium: server.admin(transport: FlakyTransport(failures: 1, when: .beforeSending)))
        let played = (0..<3).map { completion("q-\(run)-\($0)", user: user, group: group, minutesAgo: 10 - 2 * $0) }
        for item in played { try await offline.add(item) }
        try await offline.add(completion("q-\(run)-bad", user: user, group: group, correct: 9))
        #expect(try await offline.sync() == SyncReport(left: 4))
        // The same file, read by a queue that reaches Podium (an app started again, online).
        let online = OfflineQueue(file: file, podium: server.admin())
        #expect(try await online.sync() == SyncReport(recorded: played.map(\.id), refused: [("q-\(run)-bad", 400)], left: 0))
        for item in played { try await online.add(item) }
        #expect(try await online.sync() == SyncReport(replayed: played.map(\.id), left: 0))
        #expect(try await completions(of: user, podium: server.admin()) == 3)

        // A completion added while a sync's batch is on its way stays queued for the next sync.
        let late = completion("q-\(run)-late", user: user, group: group)
        let adding = AddingTransport()
        let queue = OfflineQueue(file: file, podium: server.admin(transport: adding))
        adding.onBatch = { try await queue.add(late) }
        try await queue.add(completion("q-\(run)-3", user: user, group: group, minutesAgo: 1))
        #expect(try await queue.sync() == SyncReport(recorded: ["q-\(run)-3"], left: 1))
        #expect(try await queue.pending().map(\.id) == [late.id])
    }

    @Test("a live board shows a new completion, over the stream or by polling when the stream cannot be had")
    func liveBoard() async throws {
        let group = "swift-live-\(run)"
        for (name, transport) in [("stream", AsyncHTTPClientTransport() as any ClientTransport), ("polling", NoStreams())] {
            let board = LiveBoard.pages(of: "group:\(group)", window: .week, limit: 50, podium: Podium(
                serverURL: server.url, token: { [server] _ in server.adminKey }, transport: transport, sleep: { _ in try await Task.sleep(for: .milliseconds(200)) }),
                pollEvery: .milliseconds(300))
            // Bounded: a board that shows nothing new within 30 s fails, rather than waiting for the suite's limit.
            let newcomer = "u-swift-\(name)-\(run)"
            let shown = try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    var pages = board.makeAsyncIterator()
                    guard await pages.next() != nil else { return false }
                    _ = try await server.admin().record(completion("live-\(name)-\(run)", user: newcomer, group: "swift-live-\(run)"))
                    while let page = await pages.next() {
                        if page.entries.contains(where: { $0.userId == newcomer }) { return true }
                    }
                    return false
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(30))
                    return false
                }
                let first = try await group.next() ?? false
                group.cancelAll()
                return first
            }
            #expect(shown, "\(name): the newcomer's page arrived")
        }
    }
}

/// A transport with event streams blocked (a proxy that buffers them): the live operation fails, the rest passes.
struct NoStreams: ClientTransport {
    let inner = AsyncHTTPClientTransport()
    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        if operationID == "streamLeaderboard" { throw URLError(.cannotConnectToHost) }
        return try await inner.send(request, body: body, baseURL: baseURL, operationID: operationID)
    }
}

/// A transport that runs `onBatch` while a batch is being sent (before passing it on), as an app adding to its queue
/// during a sync would.
final class AddingTransport: ClientTransport, @unchecked Sendable {
    private let inner = AsyncHTTPClientTransport()
    var onBatch: (@Sendable () async throws -> Void)?

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        if operationID == "recordCompletionBatch" { try await onBatch?() }
        return try await inner.send(request, body: body, baseURL: baseURL, operationID: operationID)
    }
}
