import Foundation
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
}
