import Foundation
import Hummingbird
import Logging
import PodiumCore
import PodiumStore
import PodiumWire

/// Every error the API answers with, rendered once as RFC 9457 `application/problem+json`.
///
/// `code` is stable: clients may switch on it. `type` is `https://podium.dev/problems/<code>`.
public struct APIError: Error, HTTPResponseError, Sendable {
    /// HTTP status.
    public let status: HTTPResponse.Status
    /// Stable machine-readable code.
    public let code: String
    /// Short summary of the kind of problem.
    public let title: String
    /// What went wrong this time.
    public let detail: String
    /// Field-level problems (validation).
    public let errors: [FieldError]
    /// Headers the answer carries besides the problem's own (`Allow` with a 405, `Retry-After` and `RateLimit` with a 429).
    public let headers: HTTPFields

    /// Creates an error.
    public init(
        _ status: HTTPResponse.Status, code: String, title: String, detail: String, errors: [FieldError] = [], headers: HTTPFields = [:]
    ) {
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.errors = errors
        self.headers = headers
    }

    /// 400: the body or query failed validation; `errors` lists each field.
    public static func validation(_ errors: [FieldError]) -> APIError {
        APIError(.badRequest, code: "validation-failed", title: "Invalid request",
                 detail: errors.map { "\($0.field) \($0.message)" }.joined(separator: "; "), errors: errors)
    }

    /// 400: the body is not the JSON expected.
    public static func malformedBody(_ detail: String) -> APIError {
        APIError(.badRequest, code: "malformed-body", title: "Malformed request body", detail: detail)
    }

    /// 401: no credential.
    public static let unauthorized = APIError(
        .unauthorized, code: "unauthorized", title: "Unauthorized",
        detail: "send an API key or a player token as 'Authorization: Bearer <credential>'")

    /// 401: the credential sent is not valid; `detail` says why (never echoing it).
    public static func unauthorized(_ detail: String) -> APIError {
        APIError(.unauthorized, code: "unauthorized", title: "Unauthorized", detail: detail)
    }

    /// 403: the key's role may not do this.
    public static func forbidden(_ required: String) -> APIError {
        APIError(.forbidden, code: "forbidden", title: "Forbidden", detail: "this needs a key with the \(required) role")
    }

    /// 403: the credential is valid but does not reach this; `detail` says what it is limited to.
    public static func denied(_ detail: String) -> APIError {
        APIError(.forbidden, code: "forbidden", title: "Forbidden", detail: detail)
    }

    /// 404: no such resource.
    public static func notFound(_ detail: String) -> APIError {
        APIError(.notFound, code: "not-found", title: "Not found", detail: detail)
    }

    /// 409: the same completion id was posted with a different body.
    public static func conflict(_ detail: String) -> APIError {
        APIError(.conflict, code: "conflict", title: "Conflict", detail: detail)
    }

    /// 503: a dependency is unavailable.
    public static func unavailable(_ detail: String) -> APIError {
        APIError(.serviceUnavailable, code: "unavailable", title: "Service unavailable", detail: detail)
    }

    /// 500: something failed that the client cannot fix; the detail stays generic (the log has the cause).
    public static let internalError = APIError(
        .internalServerError, code: "internal-error", title: "Internal error", detail: "the request failed; it has been logged")

    /// The problem document.
    public var problem: Problem {
        Problem(type: "https://podium.dev/problems/\(code)", title: title, status: Int(status.code), detail: detail,
                code: code, errors: errors.isEmpty ? nil : errors)
    }

    /// Renders the problem document.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/problem+json"
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        // Every 503 says when to come back: what it waits for (a database, Redis) is usually back within seconds.
        if status == .serviceUnavailable && headers[.retryAfter] == nil { headers[.retryAfter] = "2" }
        var problem = self.problem
        problem.requestId = RequestID.current
        let body = (try? PodiumJSON.encoder().encode(problem)) ?? Data()
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// Turns every error into a problem+json answer: Hummingbird's own (404 no route, 413 too large) and unexpected ones (500, logged).
///
/// The answer is returned, not thrown, so the metrics middleware outside records its latency under its
/// status like any other answer (it times only returned responses).
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    /// While a server is down every request fails the same way: one line per 10 s says so, with the count.
    private let postgresDown: ThrottledLog
    private let redisDown: ThrottledLog

    /// Creates the middleware, logging on `logger`.
    init(logger: Logger) {
        postgresDown = ThrottledLog(logger, level: .error)
        redisDown = ThrottledLog(logger, level: .error)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let aborted as RequestAborted {
            throw aborted  // The client left: no server error, and not an answer to count (the observer notes it).
        } catch {
            return try problem(for: error, request: request, context: context).response(from: request, context: context)
        }
    }

    /// The problem an error is answered with.
    private func problem(for error: any Error, request: Request, context: Context) -> APIError {
        switch StoreError(classifying: error) {
        case .unavailable(.postgreSQL, let cause):
            postgresDown.log("requests fail: PostgreSQL unavailable", metadata: ["error": "\(cause)"])
            return APIError.unavailable("the database is unavailable; retry shortly (recorded completions are safe to resend)")
        case .unavailable(.redis, let cause):
            redisDown.log("requests fail: Redis unavailable", metadata: ["error": "\(cause)"])
            return APIError.unavailable("the rankings store is unavailable; retry shortly")
        case .conflict(let text):
            return APIError.conflict(text)
        case .rejected, nil:
            break
        }
        switch error {
        case let error as APIError:
            return error
        case let error as ValidationFailure:
            return APIError.validation(error.errors)
        case let error as any HTTPResponseError:
            let status = error.status
            let code: String = switch status {
            case .notFound: "not-found"
            case .contentTooLarge: "body-too-large"
            case .methodNotAllowed: "method-not-allowed"
            case .unsupportedMediaType: "unsupported-media-type"
            default: status.code < 500 ? "bad-request" : "internal-error"
            }
            let detail: String = switch status {
            case .notFound: "no route for \(request.method) \(request.uri.path)"
            case .contentTooLarge: "the body is larger than the limit of \(context.maxUploadSize) bytes"
            default: status.reasonPhrase
            }
            return APIError(status, code: code, title: status.reasonPhrase, detail: detail)
        default:
            context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            return APIError.internalError
        }
    }
}
