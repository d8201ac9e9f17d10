import Foundation
import Hummingbird
import Synchronization

/// Which web origins may call the API from a browser (CORS); none by default.
public struct CORSPolicy: Sendable {
    /// Allowed origins as browsers send them (`https://quiz.example.org`, no path or trailing slash). An entry ending
    /// in `:*` (`http://localhost:*`) allows its scheme and host on any port, for pages served by development servers.
    public let origins: Set<String>
    /// The entries naming one origin.
    private let exact: Set<String>
    /// The entries ending in `:*`, without it.
    private let anyPort: Set<String>

    /// Creates a policy allowing `origins`.
    public init(origins: Set<String> = []) {
        self.origins = origins
        exact = origins.filter { !$0.hasSuffix(":*") }
        anyPort = Set(origins.filter { $0.hasSuffix(":*") }.map { String($0.dropLast(2)) })
    }

    /// Request headers a browser may send: credentials, JSON bodies and revalidation.
    static let allowedHeaders = "Authorization, Content-Type, If-None-Match, Last-Event-ID, Accept"
    /// Response headers a browser script may read.
    static let exposedHeaders = "ETag, Retry-After, RateLimit, RateLimit-Policy"
    /// How long a browser may reuse a preflight answer, in seconds.
    static let maxAge = "600"

    /// Whether `origin` may call the API: it is listed, or its scheme and host are listed with `:*`.
    func allows(_ origin: String) -> Bool {
        if exact.contains(origin) { return true }
        guard !anyPort.isEmpty else { return false }
        return anyPort.contains(Self.withoutPort(origin))
    }

    /// `origin` without its `:port` (`http://localhost:5173` → `http://localhost`); unchanged when it names none.
    static func withoutPort(_ origin: String) -> String {
        guard let colon = origin.lastIndex(of: ":") else { return origin }
        let port = origin[origin.index(after: colon)...]
        guard !port.isEmpty, port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber) else { return origin }
        return String(origin[..<colon])
    }
}

/// Adds CORS headers to the answers of allowed origins, and `Vary: Origin` to every answer once any origin is allowed.
///
/// Answers are the same for every caller except these headers, so `Vary: Origin` keeps a shared cache from handing
/// one origin's grant to another. Credentials travel in `Authorization`, never cookies, so no
/// `Access-Control-Allow-Credentials`. It sits outside every other middleware: problem answers (401, 429) carry the
/// headers too, so a browser script can read them.
struct CORSMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The allowed origins.
    let policy: CORSPolicy

    /// Adds the headers to the answer.
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard !policy.origins.isEmpty else { return response }
        response.headers[values: .vary].append("Origin")
        if let origin = request.headers[.origin], policy.allows(origin) {
            response.headers[.accessControlAllowOrigin] = origin
            response.headers[.accessControlExposeHeaders] = CORSPolicy.exposedHeaders
        }
        return response
    }
}

/// The paths the router serves and the methods of each, filled once every route is added.
final class RouteTable: Sendable {
    private let paths = Mutex<[(segments: [Substring], methods: Set<HTTPRequest.Method>)]>([])

    /// Records `router`'s routes; call it after the last route is added.
    func fill<Context: RequestContext>(from router: Router<Context>) {
        var byPath: [String: Set<HTTPRequest.Method>] = [:]
        for route in router.routes { byPath[route.path.description, default: []].insert(route.method) }
        paths.withLock { paths in
            paths = byPath.sorted { $0.key < $1.key }.map { (Self.segments($0.key), $0.value) }
        }
    }

    /// The methods of the route whose path matches `path` (a `{name}` segment matches any one segment), nil if none does.
    func methods(for path: String) -> Set<HTTPRequest.Method>? {
        let wanted = Self.segments(path)
        return paths.withLock { paths in
            paths.first { route in
                route.segments.count == wanted.count
                    && zip(route.segments, wanted).allSatisfy { pattern, segment in pattern.hasPrefix("{") || pattern == segment }
            }?.methods
        }
    }

    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }
}

/// Answers a request whose path exists but not with its method: OPTIONS lists the path's methods (and grants a
/// CORS preflight from an allowed origin), any other method gets 405 with `Allow`, as RFC 9110 asks, instead of a
/// 404 that would say the path does not exist. HEAD is answered like GET where a path has GET (the router does it).
///
/// It turns the router's own not-found answer into these, so the document's routes stay the router's routes.
struct MethodAnswersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The router's paths and methods.
    let routes: RouteTable
    /// The allowed origins, for preflights.
    let cors: CORSPolicy

    /// The methods Podium names in `Allow`, in this order.
    static var methods: [HTTPRequest.Method] { [.get, .head, .post, .put, .patch, .delete, .options] }

    /// Turns the router's 404 for a known path into 405 or an OPTIONS answer.
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            guard var present = routes.methods(for: request.uri.path) else { throw error }
            if present.contains(.get) { present.insert(.head) }
            present.insert(.options)
            let allow = Self.methods.filter(present.contains).map(\.rawValue).joined(separator: ", ")
            var headers = HTTPFields()
            headers[.allow] = allow
            guard request.method == .options else {
                throw APIError(.methodNotAllowed, code: "method-not-allowed", title: "Method Not Allowed",
                               detail: "\(request.uri.path) answers \(allow)", headers: headers)
            }
            if let origin = request.headers[.origin], cors.allows(origin), request.headers[.accessControlRequestMethod] != nil {
                headers[.accessControlAllowOrigin] = origin
                headers[.accessControlAllowMethods] = allow
                headers[.accessControlAllowHeaders] = CORSPolicy.allowedHeaders
                headers[.accessControlMaxAge] = CORSPolicy.maxAge
            }
            return Response(status: .noContent, headers: headers)
        }
    }
}
