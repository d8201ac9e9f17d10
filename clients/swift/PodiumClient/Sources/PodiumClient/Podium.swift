import Foundation
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import PodiumAPI

/// Why a completion was not recorded.
public enum CompletionError: Error, Equatable {
    /// Podium answered that it cannot be recorded (400, 403, 409, 413 or 422): sending it again cannot help.
    case refused(status: Int)
    /// Podium could not take it now (429, 5xx), and the attempts ran out: send it again later (an `OfflineQueue`).
    case unavailable(status: Int)
}

/// A Podium client: the generated API (`api`) with a token supply, plus `record`.
public struct Podium: Sendable {
    /// The generated client, every operation of openapi.json.
    public let api: Client
    /// Waits between retries (tests pass their own).
    let sleep: @Sendable (Duration) async throws -> Void

    /// A client of the Podium at `serverURL` sending the tokens `token` gives, over `transport` (AsyncHTTPClient by
    /// default; on Apple platforms `URLSessionTransport` from swift-openapi-urlsession works the same).
    public init(
        serverURL: URL, token: @escaping TokenSupply, transport: any ClientTransport = AsyncHTTPClientTransport(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        // Podium writes instants with milliseconds (2026-11-27T14:00:00.000Z).
        api = Client(
            serverURL: serverURL, configuration: Configuration(dateTranscoder: PodiumJSON.transcoder), transport: transport,
            middlewares: [BearerTokenMiddleware(supply: token)])
        self.sleep = sleep
    }

    /// Records `completion` (give it `completedAt`, when the quiz was played). After a network error, a 429 or a 5xx
    /// it is sent again with the same id, up to `attempts` times in all (waiting a 429's `Retry-After`, else 0.5 s, then
    /// twice as long each time): Podium answers a completion it already has as a replay, so a retry whose first answer was lost counts
    /// once. Throws `CompletionError.refused` at once for answers a retry cannot change.
    public func record(_ completion: Components.Schemas.CompletionRequest, attempts: Int = 4) async throws -> Components.Schemas.CompletionResponse {
        var wait = Duration.milliseconds(500)
        for attempt in 1...max(1, attempts) {
            let status: Int
            var retryAfter: Int?
            do {
                switch try await api.recordCompletion(body: .json(completion)) {
                case .created(let created): return try created.body.json
                case .ok(let replayed): return try replayed.body.json
                case .badRequest: throw CompletionError.refused(status: 400)
                case .unauthorized: throw CompletionError.refused(status: 401)
                case .forbidden: throw CompletionError.refused(status: 403)
                case .conflict: throw CompletionError.refused(status: 409)
                case .contentTooLarge: throw CompletionError.refused(status: 413)
                case .unprocessableContent: throw CompletionError.refused(status: 422)
                case .requestTimeout: status = 408
                case .tooManyRequests(let limited):
                    status = 429
                    retryAfter = limited.headers.retryAfter
                case .internalServerError: status = 500
                case .serviceUnavailable: status = 503
                case .undocumented(let code, _):
                    guard [502, 504].contains(code) else { throw CompletionError.refused(status: code) }
                    status = code
                }
            } catch let error as ClientError {
                // No answer (refused connection, reset, timeout): Podium may or may not have it; the same id is safe.
                if attempt == attempts { throw error }
                try await sleep(wait)
                wait *= 2
                continue
            }
            if attempt == attempts { throw CompletionError.unavailable(status: status) }
            try await sleep(retryAfter.map { .seconds(min(60, max(1, $0))) } ?? wait)
            wait *= 2
        }
        throw CompletionError.unavailable(status: 0)
    }
}
