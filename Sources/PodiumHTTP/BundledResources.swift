import Foundation
import Hummingbird
import NIOCore

/// Files shipped in this target's `Resources` folder.
enum BundledResources {
    /// The bytes of `Resources/<name>.<ext>`; a missing file is a broken build, answered as a 500.
    static func data(_ name: String, _ ext: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Resources") else {
            throw APIError.internalError
        }
        return try Data(contentsOf: url)
    }
}

/// The OpenAPI 3.1 document shipped as a resource.
public enum OpenAPIDocument {
    /// The document's bytes.
    public static func data() throws -> Data {
        try BundledResources.data("openapi", "json")
    }
}

/// The HTML leaderboard display shipped as a resource (`GET /display/{board}/{window}`).
enum DisplayPage {
    /// What the page may do: run its own inline script and style, and talk to this server only.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'"

    private static let loaded = (try? BundledResources.data("display", "html")).map { ByteBuffer(bytes: $0) }

    /// The page's bytes, read once.
    static func body() throws -> ByteBuffer {
        guard let loaded else { throw APIError.internalError }
        return loaded
    }

    /// An HTML answer under the page's content security policy.
    static func response(status: HTTPResponse.Status, body: ByteBuffer) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }

    /// A page that says why a display address does not work, for the person who opened it (every text escaped).
    static func explanation(of problem: APIError) -> ByteBuffer {
        let reasons = problem.errors.isEmpty ? [problem.detail] : problem.errors.map { "\($0.field) \($0.message)" }
        let items = reasons.map { "<li>\(escaped($0))</li>" }.joined()
        return ByteBuffer(string: """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>This leaderboard link does not work</title>
            <style>:root { color-scheme: light dark; font-family: system-ui, sans-serif; } body { margin: 4vmin; max-width: 40em; }</style>
            </head><body>
            <h1>This leaderboard link does not work</h1>
            <ul>\(items)</ul>
            <p>A display address looks like <code>/display/global/week</code>, <code>/display/topic:math/month</code> or
            <code>/display/group:class-4b/week?period=2026-W48&amp;limit=10</code>, with the display key after a
            <code>#key=</code> at the end. Ask whoever gave you the link for a new one.</p>
            </body></html>
            """)
    }

    /// `text` with the five characters HTML treats specially written as entities.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
