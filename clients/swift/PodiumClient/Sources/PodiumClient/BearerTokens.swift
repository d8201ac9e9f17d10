import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Gives the token a request sends: a player token from the app's backend (or an API key). Called with `true` after
/// Podium answered 401, to get a fresh one.
public typealias TokenSupply = @Sendable (_ refresh: Bool) async throws -> String

/// Holds the current token, asking the supply for one when there is none or after a 401.
actor TokenHolder {
    private let supply: TokenSupply
    private var current: String?

    /// A holder asking `supply`.
    init(supply: @escaping TokenSupply) {
        self.supply = supply
    }

    /// The token to send; a fresh one from the supply when `refresh`, or when none is held yet.
    func token(refresh: Bool) async throws -> String {
        if refresh || current == nil { current = try await supply(refresh) }
        return current!
    }
}

/// Sends `Authorization: Bearer <token>` on every request; after a 401 it asks for a fresh token and sends the request
/// once more (its body kept for that, up to 4 MiB, the most Podium takes).
public struct BearerTokenMiddleware: ClientMiddleware {
    /// The current token, shared by every request this middleware sends.
    let holder: TokenHolder

    /// A middleware asking `supply` for its tokens.
    public init(supply: @escaping TokenSupply) {
        holder = TokenHolder(supply: supply)
    }

    /// Adds the token; on 401, refreshes it and sends again.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var kept: HTTPBody?
        if let body { kept = HTTPBody(try await [UInt8](collecting: body, upTo: 4 << 20)) }
        var request = request
        request.headerFields[.authorization] = "Bearer \(try await holder.token(refresh: false))"
        let (response, responseBody) = try await next(request, kept, baseURL)
        guard response.status == .unauthorized else { return (response, responseBody) }
        request.headerFields[.authorization] = "Bearer \(try await holder.token(refresh: true))"
        return try await next(request, kept, baseURL)
    }
}
