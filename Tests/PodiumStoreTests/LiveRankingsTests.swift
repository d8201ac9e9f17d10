import Foundation
import PodiumCore
@testable import PodiumStore
import PodiumTestSupport
import Testing

@Suite("Live rankings: change notices over Redis pub/sub", .serialized, .timeLimit(.minutes(5)))
struct LiveRankingsTests {
    let now = instant("2026-11-25T12:00:00Z")

    @Test("a completion notifies the listeners of its board periods only; Redis down says not live, and back says live and changed")
    func noticesAndOutage() async throws {
        let server = ownRedis()
        try await server.start()
        let storage = try await StoreTestEnvironment.storage(now: now, redisURL: server.url)
        // Marked ready rather than rebuilt: a rebuild takes a lease in the shared database that other suites' rebuilds hold.
        try await markRankingsReady(storage.redis)
        let topic = StoreTestEnvironment.unique("live")
        let hooked = HookRecorder()
        storage.live.onChange { hooked.record($0) }
        let service = Task { try await storage.live.run() }
        defer { service.cancel() }
        let deadline = Date().addingTimeInterval(30)
        while !storage.live.isLive && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(storage.live.isLive)

        let week = Period.containing(now, window: .week, timeZone: .gmt).key
        let mine = BoardPeriodKey(board: "topic:\(topic)", window: .week, period: week)
        let other = BoardPeriodKey(board: "topic:\(topic)-other", window: .week, period: week)
        let signals = SignalLog(storage.live.listen(to: mine).signals)
        let otherSignals = SignalLog(storage.live.listen(to: other).signals)
        #expect(await signals.wait(for: 1) == [.live(true)])
        #expect(await otherSignals.wait(for: 1) == [.live(true)])

        _ = try await storage.writer.record(try completion(id: "\(topic)-1", user: "\(topic)-u", topic: topic, now: now))
        #expect(await signals.wait(for: 2) == [.live(true), .changed])
        try await Task.sleep(for: .milliseconds(500))
        #expect(otherSignals.signals == [.live(true)], "a board nobody wrote hears nothing")
        #expect(hooked.keys.contains(mine), "the hook hears the notice with the board periods it names")

        server.stop()
        #expect(await signals.wait(for: 3, seconds: 30) == [.live(true), .changed, .live(false)])
        try await server.start()
        // Notices may have been missed while Redis was down: listeners are told to read again.
        #expect(await signals.wait(for: 5, seconds: 20) == [.live(true), .changed, .live(false), .live(true), .changed])
        server.stop()
    }

    @Test("a frozen Redis (SIGSTOP) is noticed by the subscription's heartbeat: not live, then live and changed once it thaws")
    func frozenRedisIsNoticed() async throws {
        let server = ownRedis()
        try await server.start()
        defer { server.stop() }
        let storage = try await StoreTestEnvironment.storage(now: now, redisURL: server.url)
        let service = Task { try await storage.live.run() }
        defer { service.cancel() }
        let key = BoardPeriodKey(board: "topic:\(StoreTestEnvironment.unique("frozen"))", window: .week, period: "2026-W48")
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while !storage.live.isLive && clock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let signals = SignalLog(storage.live.listen(to: key).signals)
        #expect(await signals.wait(for: 1) == [.live(true)])

        // Nothing closes the connection: only the heartbeat (a PING each second, given up after 3 s of silence) can tell.
        server.freeze()
        let frozen = clock.now
        let heard = await signals.wait(for: 2, seconds: 30)
        let noticedAfter = clock.now - frozen
        server.thaw()
        #expect(heard == [.live(true), .live(false)])
        #expect(await signals.wait(for: 4, seconds: 30) == [.live(true), .live(false), .live(true), .changed])
        print("a frozen Redis was noticed by the live subscription after \(noticedAfter)")
    }

    @Test("one clock refreshes timed listeners at their interval and ends them after their lifetime; untimed ones hear neither")
    func clockRefreshesAndEndsTimedListeners() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let key = BoardPeriodKey(board: "topic:\(StoreTestEnvironment.unique("clock"))", window: .week, period: "2026-W48")
        let started = ContinuousClock.now
        let timed = SignalLog(storage.live.listen(to: key, refreshingEvery: .milliseconds(300), endingAfter: .milliseconds(2_000)).signals)
        let refreshing = SignalLog(storage.live.listen(to: key, refreshingEvery: .milliseconds(300)).signals)
        let untimed = SignalLog(storage.live.listen(to: key).signals)
        while !timed.finished && ContinuousClock.now - started < .seconds(60) { try await Task.sleep(for: .milliseconds(10)) }
        let lasted = ContinuousClock.now - started
        #expect(timed.finished)
        #expect(lasted >= .milliseconds(2_000), "never before its lifetime: \(lasted)")
        // Refreshes fall due 300 ms after the last is told, so at most six fit in 2 s however late the clock ticks,
        // and all come before the end, which ends the signals. How many came depends on the machine's speed; that
        // they come at all is shown by the listener without an end.
        #expect(timed.signals.first == .live(false))
        #expect(timed.signals.dropFirst().allSatisfy { $0 == .refresh } && timed.signals.count <= 7, "\(timed.signals)")
        #expect(await refreshing.wait(for: 3, seconds: 60).prefix(3) == [.live(false), .refresh, .refresh])
        #expect(!refreshing.finished)
        #expect(untimed.signals == [.live(false)])
        #expect(!untimed.finished)
    }

    @Test("notices of one board period within 250 ms are told together: the first at once, the rest once, at the interval's end")
    func noticesAreCoalescedPerBoardPeriod() async throws {
        let storage = try await StoreTestEnvironment.storage(now: now)
        let key = BoardPeriodKey(board: "topic:\(StoreTestEnvironment.unique("burst"))", window: .week, period: "2026-W48")
        let first = SignalLog(storage.live.listen(to: key).signals)
        let second = SignalLog(storage.live.listen(to: key).signals)
        let started = ContinuousClock.now
        for _ in 0..<10 { storage.live.notify([key]) }
        #expect(await first.wait(for: 2) == [.live(false), .changed], "not subscribed here: not live; the first notice at once")
        #expect(await first.wait(for: 3) == [.live(false), .changed, .changed])
        #expect(ContinuousClock.now - started >= LiveRankings.minimumInterval)
        try await Task.sleep(for: .milliseconds(400))
        #expect(first.signals == [.live(false), .changed, .changed], "nine notices in the interval were told once")
        #expect(second.signals == first.signals)
    }

    @Test("board keys name their board period back, whatever colons the board id holds")
    func boardKeysParse() {
        let key = BoardPeriodKey(board: "group:class-4b", window: .week, period: "2026-W48")
        #expect(RankingKeys.period(ofBoardKey: RankingKeys.board(key.board, key.window, key.period)) == key)
        #expect(RankingKeys.period(ofBoardKey: RankingLayout(cluster: true).playersHash(ofMember: "AAAAAB")) == nil)
        #expect(RankingKeys.board(key.board, key.window, key.period) == "podium:lb:{group:class-4b:week:2026-W48}")
        #expect(RankingKeys.period(ofBoardKey: "podium:lb:{global:fortnight:2026}") == nil)
        #expect(RankingKeys.period(ofBoardKey: "podium:lb:group:class-4b:week:2026-W48") == nil, "a key from before hash tags")
    }
}

/// The board periods a hook was called with.
final class HookRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [BoardPeriodKey] = []

    func record(_ keys: [BoardPeriodKey]) {
        lock.withLock { seen += keys }
    }

    var keys: [BoardPeriodKey] { lock.withLock { seen } }
}

/// Every signal a listener heard, collected as they come.
final class SignalLog: @unchecked Sendable {
    private let lock = NSLock()
    private var heard: [LiveSignal] = []
    private var ended = false
    private var task: Task<Void, Never>?

    init(_ stream: AsyncStream<LiveSignal>) {
        task = Task { [weak self] in
            for await signal in stream { self?.lock.withLock { self?.heard.append(signal) } }
            self?.lock.withLock { self?.ended = true }
        }
    }

    /// Whether the stream has ended.
    var finished: Bool { lock.withLock { ended } }

    deinit { task?.cancel() }

    var signals: [LiveSignal] { lock.withLock { heard } }

    /// The signals once there are `count` of them, or all there are after `seconds`.
    func wait(for count: Int, seconds: Double = 30) async -> [LiveSignal] {
        let deadline = Date().addingTimeInterval(seconds)
        while signals.count < count && Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        return signals
    }
}
