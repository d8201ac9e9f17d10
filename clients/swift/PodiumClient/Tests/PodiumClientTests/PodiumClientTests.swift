import Foundation
import PodiumAPI
import PodiumClient
import Testing

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
        #expect(try await podium.leaderboard("group:\(group)", window: .week).entries.map(\.userId) == [user])
        let refused = await #expect(throws: PodiumError.self) { try await podium.profile(userId: "u-swift-somebody-else") }
        #expect(refused?.problem?.status == 403 && refused?.problem?.type.hasSuffix("/forbidden") == true, "\(String(describing: refused))")
    }

    @Test("a completion is retried with the same id after an outage, and counts once even when its answer was lost")
    func retries() async throws {
        let (user, group) = ("u-swift-r-\(run)", "swift-\(run)")
        let waits = Waits()
        try await server.fault([["drop": true, "times": 2, "path": "/v1/completions"]])
        let answer = try await server.admin(throughProxy: true, waits: waits).record(completion("r-\(run)-1", user: user, group: group))
        #expect(answer.completion.id == "r-\(run)-1" && waits.all == [.milliseconds(500), .seconds(1)])
        try await server.fault([["lose_answer": true, "path": "/v1/completions"]])
        let replay = try await server.admin(throughProxy: true).record(completion("r-\(run)-2", user: user, group: group, minutesAgo: 5))
        #expect(replay.completion.id == "r-\(run)-2")
        #expect(try await completions(of: user, podium: server.admin()) == 2, "no completion counted twice")
        let invalid = await #expect(throws: PodiumError.self) {
            try await server.admin().record(completion("r-\(run)-3", user: user, group: group, correct: 9))
        }
        guard case .refused(let problem)? = invalid else { throw TestFailure("not refused: \(String(describing: invalid))") }
        #expect(problem.status == 400 && problem.errors.map(\.field) == ["correct"])
        let conflict = await #expect(throws: PodiumError.self) {
            try await server.admin().record(completion("r-\(run)-1", user: user, group: group, correct: 5))
        }
        #expect(conflict?.problem?.status == 409 && conflict?.description.hasPrefix("refused: 409 Conflict: ") == true, "\(String(describing: conflict))")
    }

    @Test("a proxy's HTML 502 and 503 pages are retried, then reported as unavailable with what the proxy said")
    func proxyPages() async throws {
        let (user, group) = ("u-swift-h-\(run)", "swift-\(run)")
        try await server.fault([["status": 502, "path": "/v1/completions"], ["status": 503, "path": "/v1/completions"]])
        let before = try await server.proxyLog().count
        let answer = try await server.admin(throughProxy: true).record(completion("h-\(run)-1", user: user, group: group))
        #expect(answer.completion.id == "h-\(run)-1")
        #expect(try await server.proxyLog().dropFirst(before).map(\.answer) == [502, 503, 201])

        try await server.fault([["status": 503, "times": 3, "path": "/v1/completions", "retry_after": 2]])
        let waits = Waits()
        let failed = await #expect(throws: PodiumError.self) {
            try await server.admin(throughProxy: true, waits: waits).record(completion("h-\(run)-2", user: user, group: group), attempts: 3)
        }
        guard case .unavailable(let unavailable)? = failed else { throw TestFailure("not unavailable: \(String(describing: failed))") }
        #expect(unavailable.reason == .unavailable && unavailable.problem?.status == 503 && unavailable.retryAfter == 2)
        #expect(unavailable.problem?.title == "Service Unavailable" && unavailable.problem?.detail.contains("text/html") == true,
                "\(String(describing: unavailable.problem))")
        #expect(waits.all == [.seconds(2), .seconds(2)], "Retry-After is waited")
        #expect(unavailable.completion?.id == "h-\(run)-2" && unavailable.completion?.completedAt != nil, "the body sent, to queue")
        #expect(try await completions(of: user, podium: server.admin()) == 1)
    }

    @Test("a rate limit is waited out as Retry-After says; a queue leaves its items as rate-limited")
    func rateLimit() async throws {
        let (user, group) = ("u-swift-l-\(run)", "swift-\(run)")
        let waits = Waits()
        try await server.fault([["status": 429, "retry_after": 7, "problem": true, "path": "/v1/completions"]])
        _ = try await server.admin(throughProxy: true, waits: waits).record(completion("l-\(run)-1", user: user, group: group))
        #expect(waits.all == [.seconds(7)])

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("podium-queue-l-\(run).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let queue = OfflineQueue(file: file, podium: server.admin(throughProxy: true))
        for index in 2...3 { try await queue.add(completion("l-\(run)-\(index)", user: user, group: group, minutesAgo: index)) }
        try await server.fault([["status": 429, "retry_after": 30, "path": "/v1/completions/batch"]])
        let report = try await queue.sync()
        #expect(report.left == ["l-\(run)-2", "l-\(run)-3"] && report.recorded.isEmpty)
        for (_, outcome) in report.items {
            guard case .left(.rateLimited(let problem)) = outcome else { throw TestFailure("not rate-limited: \(outcome)") }
            #expect(problem?.retryAfter == 30 && problem?.status == 429)
        }
        // A whole batch refused (a key that may not post): nothing dropped, each item left for its credential.
        try await server.fault([["status": 403, "problem": true, "path": "/v1/completions/batch"]])
        let forbidden = try await queue.sync()
        #expect(forbidden.left == ["l-\(run)-2", "l-\(run)-3"], "\(forbidden.items)")
        for (_, outcome) in forbidden.items {
            guard case .left(.authentication(let problem)) = outcome else { throw TestFailure("not left for its credential: \(outcome)") }
            #expect(problem.status == 403 && problem.type.hasSuffix("/forbidden"))
        }
        #expect(try await queue.sync().recorded == ["l-\(run)-2", "l-\(run)-3"])
        #expect(try await completions(of: user, podium: server.admin()) == 3)
    }

    @Test("a refused credential is an authentication error after one fresh token, never offline, and ends a live board")
    func refusedCredential() async throws {
        let (user, group) = (server.player, server.playerGroup)
        let asked = Asked()
        let signedOut = Podium(serverURL: server.proxy, token: { [server] refresh in
            asked.note(refresh)
            return server.staleToken  // the app's backend cannot give a good one: the player is signed out
        }, sleep: { _ in })
        let failed = await #expect(throws: PodiumError.self) { try await signedOut.record(completion("a-\(run)-1", user: user, group: group)) }
        guard case .authentication(let problem)? = failed else { throw TestFailure("not an authentication error: \(String(describing: failed))") }
        #expect(problem.status == 401 && asked.all == [false, true])

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("podium-queue-a-\(run).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let queue = OfflineQueue(file: file, podium: signedOut)
        try await queue.add(completion("a-\(run)-2", user: user, group: group))
        let report = try await queue.sync()
        #expect(report.items.map(\.id) == ["a-\(run)-2"])
        guard case .left(.authentication(let refused)) = report.items[0].outcome else { throw TestFailure("not left for authentication: \(report.items)") }
        #expect(refused.status == 401 && asked.all == [false, true, true])

        // A gateway's 401 page (not a problem document) is the same refusal, after the same one refresh.
        try await server.fault([["status": 401, "times": 2, "path": "/v1/completions"]])
        let gateway = await #expect(throws: PodiumError.self) {
            try await server.admin(throughProxy: true).record(completion("a-\(run)-3", user: user, group: group))
        }
        guard case .authentication(let page)? = gateway else { throw TestFailure("a 401 page was not an authentication error: \(String(describing: gateway))") }
        #expect(page.status == 401 && page.type == "about:blank" && page.detail.contains("text/html"))

        // A live board stops, tells the app, and tries again after 30 s, 60 s, 120 s: one request and its one retry
        // with a fresh token each time. The third wait holds until the test ends the board.
        let (backoffs, heard) = AsyncStream<Duration>.makeStream()
        let waits = Waits()
        let boardPodium = Podium(serverURL: server.proxy, token: { [server] refresh in
            asked.note(refresh)
            return server.staleToken
        }, sleep: { duration in
            waits.note(duration)
            guard duration >= .seconds(30) else { return }
            heard.yield(duration)
            if waits.all.filter({ $0 >= .seconds(30) }).count >= 3 { try await Task.sleep(for: .seconds(3600)) }
        })
        let errors = Waits()
        let before = try await server.proxyLog().count
        let asksBefore = asked.all.count
        let board = LiveBoard.pages(of: "group:\(group)", window: .week, podium: boardPodium, pollEvery: .milliseconds(100),
                                    onError: { error in if case .authentication = error { errors.note(.zero) } })
        let consumer = Task { var pages = board.makeAsyncIterator(); _ = try? await pages.next() }
        var seen: [Duration] = []
        for await wait in backoffs {
            seen.append(wait)
            if seen.count == 3 { break }
        }
        #expect(seen == [.seconds(30), .seconds(60), .seconds(120)])
        #expect(errors.all.count == 3, "the app heard of each refusal")
        #expect(try await server.proxyLog().dropFirst(before).map(\.answer) == Array(repeating: 401, count: 6))
        #expect(Array(asked.all.dropFirst(asksBefore)) == [false, true, true, true], "its first token, then one fresh token a try")
        consumer.cancel()
    }

    @Test("an offline queue syncs through the batch route with every item's outcome, no loss and no doubles")
    func offlineQueue() async throws {
        let user = "u-swift-q-\(run)"
        let group = "swift-\(run)"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("podium-queue-\(run).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let queue = OfflineQueue(file: file, podium: server.admin(throughProxy: true))
        let played = (0..<3).map { completion("q-\(run)-\($0)", user: user, group: group, minutesAgo: 10 - 2 * $0) }
        for item in played { try await queue.add(item) }
        try await queue.add(completion("q-\(run)-bad", user: user, group: group, correct: 9))
        try await server.fault([["drop": true, "path": "/v1/completions/batch"]])
        let offline = try await queue.sync()
        #expect(offline == SyncReport(items: (played.map(\.id) + ["q-\(run)-bad"]).map { ($0, .left(.offline)) }))
        // Back online: the same file, read by a queue that reaches Podium (an app started again).
        let online = OfflineQueue(file: file, podium: server.admin())
        let synced = try await online.sync()
        #expect(synced.recorded == played.map(\.id) && synced.left.isEmpty)
        #expect(synced.refused.map(\.id) == ["q-\(run)-bad"] && synced.refused.first?.problem.errors.map(\.field) == ["completions[3].correct"],
                "\(synced.refused)")
        // The same completions queued again (a sync whose answer was lost): replays, never doubles.
        for item in played { try await online.add(item) }
        #expect(try await online.sync() == SyncReport(items: played.map { ($0.id, .replayed) }))
        #expect(try await completions(of: user, podium: server.admin()) == 3)

        // A completion added while a sync's batch is on its way stays queued for the next sync.
        let late = completion("q-\(run)-late", user: user, group: group)
        let adding = AddingTransport()
        let busy = OfflineQueue(file: file, podium: server.admin(transport: adding))
        adding.onBatch = { try await busy.add(late) }
        try await busy.add(completion("q-\(run)-3", user: user, group: group, minutesAgo: 1))
        #expect(try await busy.sync() == SyncReport(items: [("q-\(run)-3", .recorded)]))
        #expect(try await busy.pending().map(\.id) == [late.id])

        // A completion queued without `completedAt` counts when it was queued, not when it is synced.
        var undated = completion("q-\(run)-undated", user: user, group: group)
        undated.completedAt = nil
        let before = Date()
        try await busy.add(undated)
        let stamped = try #require(try await busy.pending().last?.completedAt)
        #expect(stamped >= before.addingTimeInterval(-0.001) && stamped <= Date())
    }

    @Test("a live board shows a new completion, over the stream or by polling when the stream cannot be had")
    func liveBoard() async throws {
        let group = "swift-live-\(run)"
        for (name, transport) in [("stream", Podium.defaultTransport()), ("polling", NoStreams())] {
            let board = LiveBoard.pages(of: "group:\(group)", window: .week, limit: 50, podium: Podium(
                serverURL: server.url, token: { [server] _ in server.adminKey }, transport: transport, sleep: { _ in try await Task.sleep(for: .milliseconds(200)) }),
                pollEvery: .milliseconds(300))
            // Bounded: a board that shows nothing new within 30 s fails, rather than waiting for the suite's limit.
            let newcomer = "u-swift-\(name)-\(run)"
            let shown = try await withThrowingTaskGroup(of: Bool.self) { tasks in
                tasks.addTask {
                    var pages = board.makeAsyncIterator()
                    guard try await pages.next() != nil else { return false }
                    _ = try await server.admin().record(completion("live-\(name)-\(run)", user: newcomer, group: group))
                    while let page = try await pages.next() {
                        if page.entries.contains(where: { $0.userId == newcomer }) { return true }
                    }
                    return false
                }
                tasks.addTask {
                    try await Task.sleep(for: .seconds(30))
                    return false
                }
                let first = try await tasks.next() ?? false
                tasks.cancelAll()
                return first
            }
            #expect(shown, "\(name): the newcomer's page arrived")
        }
    }
}
