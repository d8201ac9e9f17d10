import Foundation
import HTTPTypes
import OpenAPIRuntime
import PodiumAPI

/// What went wrong, as Podium said it (an RFC 9457 problem), or as the client describes an answer that was not
/// Podium's (a proxy's HTML page).
public struct Problem: Sendable, Equatable, CustomStringConvertible {
    /// The problem's type, a URL naming it (`https://podium.dev/problems/conflict`); `about:blank` for an answer that
    /// was not Podium's.
    public var type: String
    /// A short summary (`Conflict`).
    public var title: String
    /// The HTTP status.
    public var status: Int
    /// What happened to this request.
    public var detail: String
    /// Seconds to wait before sending again, from `Retry-After` (a 429 or 503).
    public var retryAfter: Int?
    /// The fields a 400 names, each with its message.
    public var errors: [Components.Schemas.FieldError]

    /// A problem with these parts.
    public init(type: String, title: String, status: Int, detail: String, retryAfter: Int? = nil,
                errors: [Components.Schemas.FieldError] = []) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.retryAfter = retryAfter
        self.errors = errors
    }

    /// The problem Podium wrote (a batch item's, say).
    public init(_ problem: Components.Schemas.Problem, retryAfter: Int? = nil) {
        self.init(type: problem._type, title: problem.title, status: problem.status, detail: problem.detail,
                  retryAfter: retryAfter, errors: problem.errors ?? [])
    }

    /// `409 Conflict: <detail> (<type>)`.
    public var description: String { "\(status) \(title): \(detail) (\(type))" }
}

/// Why a request did not go through. Every call of `Podium` and of its `api` throws these (the `api` wraps them in
/// the runtime's `ClientError`, as `underlyingError`).
public enum PodiumError: Error, Equatable, CustomStringConvertible {
    /// Podium refused the request, and sending it again cannot change that (400, 403, 404, 409, 413, 422).
    case refused(Problem)
    /// Podium refused the credential (401) even after the token supply gave a fresh one: sign the player in again.
    case authentication(Problem)
    /// Podium could not be reached or could not take the request now, and the attempts ran out: send it again later.
    case unavailable(Unavailability)

    /// The problem behind the error: Podium's, or the client's description (nil when no answer came at all).
    public var problem: Problem? {
        switch self {
        case .refused(let problem), .authentication(let problem): problem
        case .unavailable(let unavailable): unavailable.problem
        }
    }

    /// What to show or log.
    public var description: String {
        switch self {
        case .refused(let problem): "refused: \(problem)"
        case .authentication(let problem): "credential refused: \(problem)"
        case .unavailable(let unavailable): "unavailable (\(unavailable.reason.rawValue)): \(unavailable.problem?.description ?? "no answer")"
        }
    }

    /// The `PodiumError` inside `error` (as `Podium.api` throws it, in a `ClientError`), if there is one.
    public static func from(_ error: any Error) -> PodiumError? {
        if let error = error as? PodiumError { return error }
        if let error = error as? ClientError { return from(error.underlyingError) }
        return nil
    }

    /// What `error` means: the `PodiumError` inside it, or `.unavailable(.offline)` for a `ClientError` holding none
    /// (no answer came); nil for an error that is not the client's (a cancellation, say).
    static func classify(_ error: any Error) -> PodiumError? {
        if let podiumError = from(error) { return podiumError }
        return error is ClientError ? .unavailable(Unavailability(reason: .offline)) : nil
    }
}

/// Why Podium could not take a request now.
public struct Unavailability: Sendable, Equatable {
    /// The kinds of unavailability.
    public enum Reason: String, Sendable {
        /// No answer: no network, Podium down, a connection reset.
        case offline
        /// 429: too many requests; wait `retryAfter`.
        case rateLimited = "rate_limited"
        /// 5xx, or an answer that was not Podium's (a proxy's HTML page).
        case unavailable
    }

    /// The kind.
    public var reason: Reason
    /// The answer's problem, when an answer came.
    public var problem: Problem?
    /// From `Podium.record`: the completion as it was sent (its `completedAt` stamped), to queue as it is, so that a
    /// lost attempt Podium did record is answered as a replay, never as a conflicting copy.
    public var completion: Completion?

    /// Seconds the answer asked to wait.
    public var retryAfter: Int? { problem?.retryAfter }

    /// An unavailability of `reason`.
    public init(reason: Reason, problem: Problem? = nil, completion: Completion? = nil) {
        self.reason = reason
        self.problem = problem
        self.completion = completion
    }
}

/// Turns every answer that is not a success (2xx) or a 304 into a `PodiumError`, reading Podium's problem+json, so
/// the generated client never hands back a problem as a value and a proxy's HTML page is "unavailable", never a
/// decoding failure. It sits outside `BearerTokenMiddleware`, so a 401 it sees has already had its one refresh.
struct ProblemMiddleware: ClientMiddleware {
    /// The most of an error answer read (Podium's problems are far smaller).
    static let bodyLimit = 64 << 10

    /// Passes successes on; throws the error an answer means.
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        let code = response.status.code
        if (200..<300).contains(code) || code == 304 { return (response, responseBody) }
        var bytes: [UInt8] = []
        if let responseBody { bytes = (try? await [UInt8](collecting: responseBody, upTo: Self.bodyLimit)) ?? [] }
        throw Self.error(for: response, body: bytes)
    }

    /// The error an answer means: Podium's problem by its status, or "unavailable" for an answer that is not Podium's.
    static func error(for response: HTTPResponse, body: [UInt8]) -> PodiumError {
        let code = response.status.code
        let retryAfter = response.headerFields[.retryAfter].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let isProblem = response.headerFields[.contentType]?.lowercased().hasPrefix("application/problem+json") == true
        guard isProblem, let written = try? PodiumJSON.decoder.decode(Components.Schemas.Problem.self, from: Data(body)) else {
            let kind = response.headerFields[.contentType] ?? "no content type"
            // Transports differ in keeping the answer's reason phrase: the status's standard one stands in.
            let title = response.status.reasonPhrase.isEmpty ? Self.standardPhrase(code) : response.status.reasonPhrase
            let problem = Problem(type: "about:blank", title: title, status: code,
                                  detail: "the answer was not Podium's (\(kind)): a proxy or load balancer in front of it answered",
                                  retryAfter: retryAfter)
            // A 401 refuses the credential whoever says it (an authentication gateway): sending it again cannot help.
            if code == 401 { return .authentication(problem) }
            // A proxy's page (or none): Podium never judged the request, so it is worth sending again.
            return .unavailable(Unavailability(reason: code == 429 ? .rateLimited : .unavailable, problem: problem))
        }
        let problem = Problem(written, retryAfter: retryAfter)
        switch code {
        case 401: return .authentication(problem)
        case 429: return .unavailable(Unavailability(reason: .rateLimited, problem: problem))
        case 408, 500...: return .unavailable(Unavailability(reason: .unavailable, problem: problem))
        default: return .refused(problem)
        }
    }

    /// The standard reason phrase of the statuses proxies answer with, else `HTTP <code>`.
    static func standardPhrase(_ code: Int) -> String {
        let known: [HTTPResponse.Status] = [
            .badRequest, .unauthorized, .forbidden, .notFound, .requestTimeout, .contentTooLarge, .tooManyRequests,
            .internalServerError, .badGateway, .serviceUnavailable, .gatewayTimeout,
        ]
        return known.first { $0.code == code }?.reasonPhrase ?? "HTTP \(code)"
    }
}
