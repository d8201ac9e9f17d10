import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A folder of `Resources` served as a small web app: the ops console (`/console`) and the API docs (`/docs`).
///
/// Every file is read once per process (`console`, `docs`), and answered under a strict content security policy: scripts, styles
/// and fonts come from this server only (no inline script, no third party), and the page may call this server only.
/// Only files that exist in the folder are served; any other name is a 404.
struct StaticSite: Sendable {
    /// The address prefix, such as `/console`.
    let path: String
    /// The files, by name, with their content types.
    private let files: [String: (type: String, body: ByteBuffer)]

    /// What the pages may do: load this server's own scripts, styles, images and fonts, and call this server.
    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "font-src 'self'",
        "connect-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// The ops console.
    static let console = StaticSite(path: "/console", folder: "console")
    /// The API docs.
    static let docs = StaticSite(path: "/docs", folder: "docs")

    /// Loads `Resources/<folder>`; a missing folder serves nothing (a broken build answers 404).
    private init(path: String, folder: String) {
        self.path = path
        var files: [String: (type: String, body: ByteBuffer)] = [:]
        if let url = Bundle.module.url(forResource: folder, withExtension: nil, subdirectory: "Resources"),
           let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) {
            for name in names {
                guard let type = Self.contentType(of: name),
                      let data = FileManager.default.contents(atPath: url.appendingPathComponent(name).path) else { continue }
                files[name] = (type, ByteBuffer(bytes: data))
            }
        }
        self.files = files
    }

    /// Registers `GET <path>` (the folder's `index.html`) and `GET <path>/<file>`.
    func addRoutes(to router: some RouterMethods<PodiumRequestContext>) {
        router.get(RouterPath(path)) { _, _ in try self.response(for: "index.html") }
        router.get(RouterPath("\(path)/:file")) { _, context in
            try self.response(for: context.parameters.get("file") ?? "")
        }
    }

    /// The named file under the policy, or 404.
    func response(for name: String) throws -> Response {
        guard let file = files[name] else { throw APIError.notFound("no such file") }
        var headers = HTTPFields()
        headers[.contentType] = file.type
        headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: file.body))
    }

    /// The content type of the file kinds a site may hold; other files are not served.
    static func contentType(of name: String) -> String? {
        switch (name as NSString).pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "woff2": "font/woff2"
        case "txt": "text/plain; charset=utf-8"
        default: nil
        }
    }
}
