import Foundation
import Logging
import NIOConcurrencyHelpers
import Redis
import ServiceLifecycle

/// What a live stream hears about its board period.
public enum LiveSignal: Sendable, Equatable {
    /// The board period may have changed: read it again.
    case changed
    /// Whether change notices arrive: false while Redis is unreachable (clients then poll), true once they do again.
    case live(Bool)
}

/// Change notices of board periods, for live streams: one Redis subscription per replica, however many listen.
///
/// Every ranking update publishes the board periods it changed on `RankingKeys.liveChannel` (from its Lua script,
/// so on every replica's writes). This service holds the replica's one subscription to that channel and hands each
/// notice to the listeners of those board periods. When the subscription breaks (Redis down), listeners hear
/// `.live(false)` and it is opened again with backoff; once it is back they hear `.live(true)` and `.changed`, since
/// notices may have been missed meanwhile.
public final class LiveRankings: Service, Sendable {
    private struct State {
        var listeners: [BoardPeriodKey: [UUID: AsyncStream<LiveSignal>.Continuation]] = [:]
        var isLive = false
        var onChange: (@Sendable ([BoardPeriodKey]) -> Void)?
    }

    private let configuration: RedisConfiguration
    private let logger: Logger
    private let state = NIOLockedValueBox(State())

    /// Creates the service; it subscribes when run.
    public init(configuration: RedisConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Whether notices arrive now.
    public var isLive: Bool { state.withLockedValue { $0.isLive } }

    /// Calls `handler` once per notice with the board periods it names, before any listener hears of it (the HTTP
    /// layer drops its cached pages there, so that the listeners' reads see the change).
    public func onChange(_ handler: @escaping @Sendable ([BoardPeriodKey]) -> Void) {
        state.withLockedValue { $0.onChange = handler }
    }

    /// The signals for `key`, starting with whether notices arrive now; the stream ends when the listener stops
    /// iterating (its termination removes it).
    public func listen(to key: BoardPeriodKey) -> AsyncStream<LiveSignal> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: LiveSignal.self, bufferingPolicy: .bufferingNewest(4))
        continuation.onTermination = { [weak self] _ in
            self?.state.withLockedValue { state in
                state.listeners[key]?[id] = nil
                if state.listeners[key]?.isEmpty == true { state.listeners[key] = nil }
            }
        }
        state.withLockedValue { state in
            state.listeners[key, default: [:]][id] = continuation
            continuation.yield(.live(state.isLive))
        }
        return stream
    }

    /// Keeps the subscription open until graceful shutdown, reopening it after failures (0.5 s doubling to 10 s).
    public func run() async throws {
        var delay = Duration.milliseconds(500)
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                let subscription = try await RedisSubscription.open(configuration, channel: RankingKeys.liveChannel)
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
            delay = min(delay * 2, .seconds(10))
        }
    }

    /// Hands a notice to the hook and the listeners of `keys`.
    func notify(_ keys: [BoardPeriodKey]) {
        let (hook, listeners) = state.withLockedValue { state in
            (state.onChange, keys.flatMap { state.listeners[$0].map { Array($0.values) } ?? [] })
        }
        hook?(keys)
        for listener in listeners { listener.yield(.changed) }
    }

    /// Records whether notices arrive and tells every listener when that changes (with `.changed` on recovery).
    private func setLive(_ live: Bool) {
        let (changed, listeners, hook, keys) = state.withLockedValue { state in
            let changed = state.isLive != live
            state.isLive = live
            return (changed, state.listeners.values.flatMap(\.values), state.onChange, Array(state.listeners.keys))
        }
        guard changed else { return }
        if live { hook?(keys) }
        for listener in listeners {
            listener.yield(.live(live))
            if live { listener.yield(.changed) }
        }
    }
}
