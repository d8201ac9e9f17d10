import Foundation
import Logging
import Postgres
import ServiceLifecycle
import Synchronization

/// Something the replicas' background loops follow, with its PostgreSQL notification channel `podium_<topic>`.
public enum ChangeTopic: String, CaseIterable, Sendable {
    /// API keys created or revoked (the key directories read them again).
    case keys
    /// Contests created or cancelled, leagues created, paused, resumed or ended (the contest registries read them again).
    case contests
    /// Jobs paused or resumed, runs asked for by hand or claimed (the schedulers tick).
    case jobs
    /// Work for the webhook sender: events written by a period close or a reminder check, a dead delivery sent again.
    /// Completions tell only their own replica's sender (`ChangeNotices.noteLocally`): a notification in every
    /// completion batch would make their commits queue behind one another.
    case outbox
    /// Work for the ranking sync: an erasure to repeat in Redis, a display name Redis missed; completions recorded while
    /// Redis failed tell only their own replica's sync.
    case rankings

    /// The notification channel.
    public var channel: String { "podium_\(rawValue)" }
}

/// Wakes this replica's background loops when something they poll for changed, on any replica.
///
/// A write that others must see sends `pg_notify('podium_<topic>', '')` in its own transaction (`notify(_:)`), so
/// the notification goes out exactly when the change commits. This service holds one `PostgresListener` on every
/// topic's channel and moves the topic's `ChangeSignal` for each notification it hears. The loops wait on their
/// signal, or for a slow safety-net poll (`safetyNet`) in case a notification was lost; while the listener is not
/// connected (PostgreSQL down, the session killed) they poll at their old, quick intervals instead (`pause(fallback:)`).
/// Connecting and losing the connection both move every signal, so the loops read at once what they may have missed
/// and pick the right pace. Reconnecting waits 0.5 s, doubling to 30 s.
public final class ChangeNotices: Service, Sendable {
    /// How long a loop waits without a notification while the listener is connected: the safety net for a lost one.
    public static let safetyNet = Duration.seconds(30)

    private let configuration: PostgresConfiguration?
    private let logger: Logger
    private let signals: [ChangeTopic: ChangeSignal]
    private let listening = Atomic<Bool>(false)
    private let localNotes = Mutex<[ChangeTopic: ContinuousClock.Instant]>([:])

    /// Notices that listen with `configuration` once `run()` runs (nil: never listen, as in commands and tests, so
    /// every loop keeps its quick interval).
    public init(configuration: PostgresConfiguration?, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        signals = Dictionary(uniqueKeysWithValues: ChangeTopic.allCases.map { ($0, ChangeSignal()) })
    }

    /// The signal of `topic`.
    public func signal(_ topic: ChangeTopic) -> ChangeSignal {
        signals[topic]!  // Every topic has one (init).
    }

    /// Whether notifications arrive now (the listener is connected).
    public var isListening: Bool { listening.load(ordering: .acquiring) }

    /// How long a loop whose quick interval is `fallback` may wait for a notification: the safety net while they
    /// arrive, `fallback` while they do not.
    public func pause(fallback: Duration) -> Duration {
        isListening ? max(fallback, Self.safetyNet) : fallback
    }

    /// Moves `topic`'s signal on this replica only, for a change the other replicas need not hear of.
    public func noteLocally(_ topic: ChangeTopic) {
        localNotes.withLock { $0[topic] = .now }
        signal(topic).signal()
    }

    /// When `noteLocally(topic)` was last called; nil if never.
    public func lastLocalNote(_ topic: ChangeTopic) -> ContinuousClock.Instant? {
        localNotes.withLock { $0[topic] }
    }

    /// Keeps the listener connected until graceful shutdown or cancellation (does nothing without a configuration).
    public func run() async throws {
        guard let configuration else {
            try? await gracefulShutdown()
            return
        }
        let failures = ThrottledLog(logger)
        var delay = Duration.milliseconds(500)
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                let listener = try await PostgresListener.open(
                    configuration, channels: ChangeTopic.allCases.map(\.channel), logger: logger)
                defer { listener.close() }
                delay = .milliseconds(500)
                setListening(true)
                logger.info("listening for changes", metadata: ["channels": "\(ChangeTopic.allCases.map(\.channel))"])
                try await withTaskCancellationHandler {
                    try await withGracefulShutdownHandler {
                        for try await notification in listener.notifications {
                            if let topic = ChangeTopic.allCases.first(where: { $0.channel == notification.channel }) { signal(topic).signal() }
                        }
                    } onGracefulShutdown: {
                        listener.close()
                    }
                } onCancel: {
                    listener.close()
                }
            } catch {
                failures.log("not listening for changes; polling at the quick intervals meanwhile", metadata: [
                    "error": "\(error)", "retry_in": "\(delay)"])
            }
            setListening(false)
            let wait = delay
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: wait) }
            delay = min(delay * 2, .seconds(30))
        }
    }

    /// Records whether notifications arrive; a change moves every signal, so waiting loops poll and take the new pace.
    private func setListening(_ now: Bool) {
        guard listening.exchange(now, ordering: .acquiringAndReleasing) != now else { return }
        for signal in signals.values { signal.signal() }
    }
}

/// Tells every replica that `topic` changed (`pg_notify` on its channel): run it in the transaction that makes the
/// change, and the notification goes out when that transaction commits.
public struct NotifyChange: PostgresStatement {
    public static let sql: PostgresSQL<Self> = "SELECT pg_notify(\(\.topic.channel), '')"
    public typealias Row = NoRows
    /// What changed.
    public let topic: ChangeTopic

    /// The notice of `topic`.
    public init(_ topic: ChangeTopic) {
        self.topic = topic
    }
}

/// A count of the changes of one topic that a loop waits on: each notification, local change, or connection or loss of
/// the listener moves it on.
///
/// A loop reads `generation` before it polls and then waits `after` it, so a change that comes while it polls is
/// not missed: the wait returns at once.
public final class ChangeSignal: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var observers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    /// Creates a signal that has not moved.
    public init() {}

    /// How often the signal moved so far.
    public var generation: UInt64 { state.withLock { $0.generation } }

    /// Moves the signal: wakes every waiter and calls every observer.
    public func signal() {
        let (waiters, observers) = state.withLock { state in
            state.generation += 1
            defer { state.waiters = [:] }
            return (Array(state.waiters.values), state.observers)
        }
        for observer in observers { observer() }
        for waiter in waiters { waiter.resume() }
    }

    /// Calls `observer` (synchronously, so keep it short) every time the signal moves.
    public func observe(_ observer: @escaping @Sendable () -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Waits until the signal moved past `seen`, for at most `timeout` (or until the task is cancelled); returns
    /// whether it moved.
    @discardableResult
    public func wait(after seen: UInt64, upTo timeout: Duration) async -> Bool {
        if generation > seen { return true }
        if timeout > .zero {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.moved(after: seen) }
                group.addTask { try? await Task.sleep(for: timeout) }
                await group.next()
                group.cancelAll()
            }
        }
        return generation > seen
    }

    /// What a loop over this signal does after a pass (`loop`).
    public enum NextPass: Sendable, Equatable {
        /// Runs the next pass at once (the last one left work).
        case now
        /// Sleeps this long whatever changes (the pass failed, or changes come too fast to wait on).
        case after(Duration)
        /// Waits for a change made since the pass began, for at most `upTo`; once woken by one, not before `notBefore`.
        case onChange(upTo: Duration, notBefore: ContinuousClock.Instant? = nil)
    }

    /// The loop of a background service: until graceful shutdown or cancellation, runs `pass` and waits as it
    /// answers. The generation is read before each pass, so a change that comes while it runs wakes the wait at once.
    public func loop(_ pass: () async -> NextPass) async {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let seen = generation
            switch await pass() {
            case .now:
                continue
            case .after(let pause):
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: pause) }
            case .onChange(let pause, let notBefore):
                try? await cancelWhenGracefulShutdown {
                    let woken = await self.wait(after: seen, upTo: pause)
                    if woken, let notBefore { try await Task.sleep(until: notBefore) }
                }
            }
        }
    }

    /// Returns once the signal moved past `seen`, or the task is cancelled.
    private func moved(after seen: UInt64) async {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // The cancellation handler runs after the task is marked cancelled: either it finds the waiter
                // registered here, or this check sees the cancellation.
                let now = state.withLock { state in
                    if state.generation > seen || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
