import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PodiumStore

/// Writes the audit trail: each admin action (changes, and a webhook's test event, which sends data out), with who did
/// it and when.
///
/// An action is a `POST`, `PUT` or `DELETE` on a `/v1/admin/…` route, or erasing a player (`DELETE /v1/users/{id}`),
/// that an API key or the bootstrap key sent and that was answered 2xx; a dry run (`dry_run=true`) changes nothing and
/// is left out. The entry is written after the action: if PostgreSQL refuses it, the action stands and the failure is
/// logged at `error` (docs/ARCHITECTURE.md, "The audit trail").
struct AuditMiddleware: RouterMiddleware {
    /// Podium's request context (who the caller is).
    typealias Context = PodiumRequestContext

    /// Where entries go.
    let audit: AuditStore
    /// Where an entry PostgreSQL refused is logged.
    let logger: Logger
    /// The clock entries are stamped with.
    let now: @Sendable () -> Date

    /// The erasure route, the one audited action outside `/v1/admin/`.
    static let erasure = "/v1/users/{id}"

    /// The response header in which a route says what its action changed, when its path does not (a new key's id, role
    /// and expiry): recorded as the entry's `detail`, and taken off the response.
    static let detail = HTTPField.Name("X-Podium-Audit-Detail")!

    /// Answers the request, then records it when it was an admin change.
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        let detail = response.headers[Self.detail]
        response.headers[Self.detail] = nil
        guard [.post, .put, .delete].contains(request.method), (200..<300).contains(response.status.code),
              case .key(let grant) = context.caller, let template = context.endpointPath,
              template.hasPrefix("/v1/admin/") || (request.method == .delete && template == Self.erasure),
              request.uri.queryParameters.get("dry_run") != "true"
        else { return response }
        let record = AuditRecord(
            at: now(), actor: grant.id, action: "\(request.method.rawValue) \(template)",
            target: Self.target(of: request, template: template), status: response.status.code, requestID: RequestID.current ?? "",
            detail: detail)
        do {
            try await audit.record(record)
        } catch {
            logger.error("the audit trail did not take an admin action", metadata: [
                "action": .string(record.action), "target": .string(record.target), "actor": .string(record.actor), "error": "\(error)",
            ])
        }
        return response
    }

    /// The path with its query; an erased player's id only as its hash.
    static func target(of request: Request, template: String) -> String {
        if template == erasure {
            let id = request.uri.path.split(separator: "/").last.map { String($0).removingPercentEncoding ?? String($0) } ?? ""
            return "/v1/users/" + AuditStore.erasedPlayer(id)
        }
        return request.uri.query.map { "\(request.uri.path)?\($0)" } ?? request.uri.path
    }
}
