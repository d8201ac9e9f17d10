import Foundation
import Logging
import NIOConcurrencyHelpers
import PodiumCore
import Redis
import ServiceLifecycle

/// What a live stream hears about its board period.
public enum LiveSignal: Sendable, Equatable {
    /// The board period may have changed: read it again.
    case changed
    /// Whether change notices arrive: false while Redis is unreachable (clients then poll), true once they do again.
    case live(Bool)
    /// Time to read it again anyway (the listener's refresh interval: changes no notice names, such as a close).
    case refresh
}

/// One listener of a board period: the signals it hears, and a way to add its own (`refresh`) or end them.
public struct LiveListener: Sendable {
    /// The signals, in order; a change notice is held only once while unread.
    public let signals: AsyncStream<LiveSignal>
    /// Where the hub, and the listener itself, put signals.
    public let continuation: AsyncStream<LiveSignal>.Continuation
}

/// Change notices of board periods, for live streams: one Redis subscription per replica, however many listen.
///
/// Every ranking update publishes the board periods it changed on `RankingKeys.liveChannel` (from its Lua script,
/// so on every replica's writes). This service holds the replica's one subscription to that channel and hands each
/// notice to the listeners of those board periods. When the subscription breaks (Redis down), listeners hear
/// `.live(false)` and it is opened again with backoff; once it is back they hear `.live(true)` and `.changed`, since
/// notices may have been missed meanwhile.
public final class LiveRankings: Service, Sendable {
    /// One listener, with its refresh and end times when it has them.
    private struct Entry {
        let continuation: AsyncStream<LiveSignal>.Continuation
        let refreshInterval: Duration?
        var nextRefresh: ContinuousClock.Instant?
        let end: ContinuousClock.Instant?
        /// Whether the clock has anything to do for it.
        var isTimed: Bool { refreshInterval != nil || end != nil }
    }

    private struct State {
        var listeners: [BoardPeriodKey: [UUID: Entry]] = [:]
        /// Whether the clock task runs (while any listener has a refresh interval or an end).
        var clockRunning = false
        /// When each board period's listeners were last told of a change.
        var lastTold: [BoardPeriodKey: ContinuousClock.Instant] = [:]
        /// Board periods with a change to tell once their interval ends.
        var waiting: Set<BoardPeriodKey> = []
        var isLive = false
        var onChange: (@Sendable ([BoardPeriodKey]) -> Void)?
        /// Whether `endAll` ran: a listener that starts now is ended at once.
        var ended = false
    }

    private let redis: RedisClient
    private let logger: Logger
    private let state = NIOLockedValueBox(State())

    /// Creates the service; it subscribes through `redis` when run (on a cluster, on any node: see `RedisClient.subscribe`).
    public init(redis: RedisClient, logger: Logger) {
        self.redis = redis
        self.logger = logger
    }

    /// Whether notices arrive now.
    public var isLive: Bool { state.withLockedValue { $0.isLive } }

    /// Calls `handler` once per notice with the board periods it names, before any listener hears of it (the HTTP
    /// layer drops its cached pages there, so that the listeners' reads see the change).
    public func onChange(_ handler: @escaping @Sendable ([BoardPeriodKey]) -> Void) {
        state.withLockedValue { $0.onChange = handler }
    }

    /// A listener of `key`, told first whether notices arrive now; it is removed when its stream ends.
    ///
    /// With `refreshInterval` it also hears `.refresh` that often, and with `lifetime` its signals end (the stream
    /// finishes) once that has passed, both within `clockTick`. One clock task serves every listener of the replica,
    /// rather than a task and a timer per listener.
    public func listen(to key: BoardPeriodKey, refreshingEvery refreshInterval: Duration? = nil, endingAfter lifetime: Duration? = nil) -> LiveListener {
        let id = UUID()
        let now = ContinuousClock.now
        let (stream, continuation) = AsyncStream.makeStream(of: LiveSignal.self, bufferingPolicy: .bufferingNewest(3))
        continuation.onTermination = { [weak self] _ in
            self?.state.withLockedValue { state in
                state.listeners[key]?[id] = nil
                if state.listeners[key]?.isEmpty == true { state.listeners[key] = nil }
            }
        }
        let entry = Entry(
            continuation: continuation, refreshInterval: refreshInterval, nextRefresh: refreshInterval.map { now + $0 },
            end: lifetime.map { now + $0 })
        let (startClock, ended) = state.withLockedValue { state -> (Bool, Bool) in
            guard !state.ended else { return (false, true) }
            state.listeners[key, default: [:]][id] = entry
            continuation.yield(.live(state.isLive))
            guard entry.isTimed, !state.clockRunning else { return (false, false) }
            state.clockRunning = true
            return (true, false)
        }
        if startClock { runClock() }
        if ended { continuation.finish() }
        return LiveListener(signals: stream, continuation: continuation)
    }

    /// Ends every listener's signals (their streams then end), and any that start listening later: for a graceful
    /// shutdown, before the HTTP server waits for its open requests to finish.
    public func endAll() {
        let continuations = state.withLockedValue { state in
            state.ended = true
            return state.listeners.values.flatMap { $0.values.map(\.continuation) }
        }
        // Outside the lock: finishing runs `onTermination`, which takes it.
        for continuation in continuations { continuation.finish() }
    }

    /// How often the clock looks for listeners due a refresh or past their end.
    static let clockTick = Duration.milliseconds(100)

    /// The clock task: ticks until no listener has a refresh interval or an end left.
    private func runClock() {
        Task { [weak self] in
            while true {
                try? await Task.sleep(for: Self.clockTick)
                guard let self, self.tick(now: .now) else { return }
            }
        }
    }

    /// Tells the listeners due a refresh, ends those past their end; false (the clock then stops) when no timed listener is left.
    private func tick(now: ContinuousClock.Instant) -> Bool {
        var refreshing: [AsyncStream<LiveSignal>.Continuation] = []
        var ending: [AsyncStream<LiveSignal>.Continuation] = []
        let running = state.withLockedValue { state in
            var timed = false
            // Written after the walk: a write during it would copy the tables the walk holds.
            var refreshed: [(BoardPeriodKey, UUID, ContinuousClock.Instant)] = []
            for (key, entries) in state.listeners {
                for (id, entry) in entries where entry.isTimed {
                    timed = true
                    if let end = entry.end, end <= now {
                        ending.append(entry.continuation)
                    } else if let due = entry.nextRefresh, let interval = entry.refreshInterval, due <= now {
                        refreshing.append(entry.continuation)
                        refreshed.append((key, id, now + interval))
                    }
                }
            }
            for (key, id, next) in refreshed { state.listeners[key]?[id]?.nextRefresh = next }
            if !timed { state.clockRunning = false }
            return timed
        }
        for listener in refreshing { listener.yield(.refresh) }
        // Outside the lock: finishing runs `onTermination`, which takes it.
        for listener in ending { listener.finish() }
        return running
    }

    /// The least time between two change signals of one board period: notices in between are told together.
    public static let minimumInterval = Duration.milliseconds(250)

    /// Keeps the subscription open until graceful shutdown or cancellation, reopening it after failures (0.5 s
    /// doubling to 2 s, so that listeners are live again soon after Redis is back). The subscription's heartbeat
    /// notices a Redis that hangs without closing the connection, which counts as a failure.
    public func run() async throws {
        var delay = Duration.milliseconds(500)
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                let subscription = try await redis.subscribe(RankingKeys.liveChannel)
                defer { subscription.close() }
                delay = .milliseconds(500)
                setLive(true)
                logger.info("live rankings subscribed", metadata: ["channel": "\(RankingKeys.liveChannel)"])
                try await withGracefulShutdownHandler {
                    for try await message in subscription.messages {
                        notify(message.split(separator: " ").compactMap { RankingKeys.period(ofBoardKey: String($0)) })
                    }
                } onGracefulShutdown: {
                    subscription.close()
                }
                setLive(false)
            } catch {
                setLive(false)
                logger.warning("live rankings unsubscribed; retrying", metadata: ["error": "\(error)", "retry_in": "\(delay)"])
            }
            let wait = delay
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: wait) }
            delay = min(delay * 2, .seconds(2))
        }
    }

    /// Hands a notice to the hook at once, and to the listeners of `keys` at most once per `minimumInterval` per
    /// board period (a notice inside the interval is told when it ends, with any others that came meanwhile).
    func notify(_ keys: [BoardPeriodKey]) {
        let now = ContinuousClock.now
        let (hook, due, later) = state.withLockedValue { state in
            var due: [BoardPeriodKey] = []
            var later: [(BoardPeriodKey, ContinuousClock.Instant)] = []
            for key in keys where state.listeners[key] != nil && !state.waiting.contains(key) {
                let next = (state.lastTold[key] ?? now - Self.minimumInterval) + Self.minimumInterval
                if next <= now {
                    due.append(key)
                    state.lastTold[key] = now
                } else {
                    state.waiting.insert(key)
                    later.append((key, next))
                }
            }
            return (state.onChange, due, later)
        }
        hook?(keys)
        tell(due)
        for (key, at) in later {
            Task {
                try? await Task.sleep(until: at)
                state.withLockedValue { state in
                    state.waiting.remove(key)
                    state.lastTold[key] = .now
                }
                tell([key])
            }
        }
    }

    /// Signals `.changed` to the listeners of `keys`.
    private func tell(_ keys: [BoardPeriodKey]) {
        let listeners = state.withLockedValue { state in
            keys.flatMap { key -> [AsyncStream<LiveSignal>.Continuation] in
                if state.listeners[key] == nil { state.lastTold[key] = nil }
                return state.listeners[key].map { $0.values.map(\.continuation) } ?? []
            }
        }
        for listener in listeners { listener.yield(.changed) }
    }

    /// Records whether notices arrive and tells every listener when that changes (with `.changed` on recovery).
    private func setLive(_ live: Bool) {
        let (changed, listeners, hook, keys) = state.withLockedValue { state in
            let changed = state.isLive != live
            state.isLive = live
            return (changed, state.listeners.values.flatMap { $0.values.map(\.continuation) }, state.onChange, Array(state.listeners.keys))
        }
        guard changed else { return }
        if live { hook?(keys) }
        for listener in listeners {
            listener.yield(.live(live))
            if live { listener.yield(.changed) }
        }
    }
}
