import Foundation
import OpenAPIRuntime
import PodiumAPI
#if canImport(Darwin)
import OpenAPIURLSession
#else
import OpenAPIAsyncHTTPClient
#endif

/// A completion as `Podium.record` sends it (`POST /v1/completions`).
public typealias Completion = Components.Schemas.CompletionRequest
/// Podium's answer to a recorded completion: points, level, streak, achievements, goals.
public typealias CompletionAnswer = Components.Schemas.CompletionResponse
/// A page of a board period.
public typealias LeaderboardPage = Components.Schemas.LeaderboardPage
/// A board's period: `day`, `week`, `month` or `all_time`.
public typealias LeaderboardWindow = Components.Schemas.LeaderboardWindow
/// A player's profile: totals, level, streak, achievements, ranks, goals.
public typealias UserProfile = Components.Schemas.UserProfile

/// A Podium client: `record`, `profile` and `leaderboard`, and the generated `api` (every operation of openapi.json)
/// for the rest, all sending the tokens the app's supply gives and throwing `PodiumError`.
public struct Podium: Sendable {
    /// The generated client, every operation of openapi.json. Its calls throw a `ClientError` whose
    /// `underlyingError` is a `PodiumError` (`PodiumError.from(error)` finds it) for every answer but a success or 304.
    public let api: Client
    /// Waits between retries (tests pass their own).
    let sleep: @Sendable (Duration) async throws -> Void

    /// A client of the Podium at `serverURL` sending the tokens `token` gives (a player token from the app's backend,
    /// or an API key), over `transport`: URLSession on Apple platforms, AsyncHTTPClient elsewhere, by default.
    public init(
        serverURL: URL, token: @escaping TokenSupply, transport: any ClientTransport = Podium.defaultTransport(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        // Podium writes instants with milliseconds (2026-11-27T14:00:00.000Z).
        api = Client(
            serverURL: serverURL, configuration: Configuration(dateTranscoder: PodiumJSON.transcoder), transport: transport,
            middlewares: [ProblemMiddleware(), BearerTokenMiddleware(supply: token)])
        self.sleep = sleep
    }

    /// URLSession where it exists whole (Apple platforms), AsyncHTTPClient elsewhere (Linux, Windows, Android).
    public static func defaultTransport() -> any ClientTransport {
        #if canImport(Darwin)
        URLSessionTransport()
        #else
        AsyncHTTPClientTransport()
        #endif
    }

    /// Records `completion` (give it `completedAt`, when the quiz was played: a missing one is the time of the first
    /// attempt; queue the copy `.unavailable` carries). After no answer, a 429, a 5xx or an
    /// answer that was not Podium's, it is sent again with the same id, up to `attempts` times in all (waiting the
    /// answer's `Retry-After`, else 0.5 s, then twice as long each time): Podium answers a completion it already has as
    /// a replay, so a retry whose first answer was lost counts once. Throws `PodiumError.refused` at once for answers
    /// a retry cannot change, `.authentication` when the credential is refused after one fresh token, and
    /// `.unavailable` when the attempts run out (then queue it: `OfflineQueue`).
    public func record(_ completion: Completion, attempts: Int = 4) async throws -> CompletionAnswer {
        // Every attempt sends the same body: a missing `completedAt` is the time of the first.
        var completion = completion
        if completion.completedAt == nil { completion.completedAt = Date() }
        var wait = Duration.milliseconds(500)
        for attempt in 1...max(1, attempts) {
            let unavailable: Unavailability
            do {
                switch try await api.recordCompletion(body: .json(completion)) {
                case .created(let created): return try created.body.json
                case .ok(let replayed): return try replayed.body.json
                default: throw PodiumError.unavailable(Unavailability(reason: .unavailable))
                }
            } catch {
                switch PodiumError.classify(error) {
                case .unavailable(let reason)?: unavailable = reason
                case let podiumError?: throw podiumError
                case nil: throw error
                }
            }
            if attempt >= attempts {
                var exhausted = unavailable
                exhausted.completion = completion
                throw PodiumError.unavailable(exhausted)
            }
            try await sleep(unavailable.retryAfter.map { .seconds(min(60, max(1, $0))) } ?? wait)
            wait *= 2
        }
        throw PodiumError.unavailable(Unavailability(reason: .offline, completion: completion))
    }

    /// `userId`'s profile (`GET /v1/users/{id}`).
    public func profile(userId: String) async throws -> UserProfile {
        try await Self.unwrapping { try await api.fetchUserProfile(path: .init(id: userId)).ok.body.json }
    }

    /// A page of `board`'s current `window` period, from `offset` (`GET /v1/leaderboards/{board}/{window}`).
    public func leaderboard(_ board: String, window: LeaderboardWindow, limit: Int = 10, offset: Int = 0) async throws -> LeaderboardPage {
        try await Self.unwrapping {
            try await api.fetchLeaderboardPage(path: .init(board: board, window: window), query: .init(limit: limit, offset: offset)).ok.body.json
        }
    }

    /// Runs `call`, throwing what its error means (`PodiumError.classify`).
    static func unwrapping<T>(_ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch {
            throw PodiumError.classify(error) ?? error
        }
    }
}
