import Foundation
import Redis

extension RedisScript {
    /// The Lua script `name`.lua bundled with the store (`Rankings/Lua`, `Support/Lua`).
    ///
    /// A missing script is a packaging fault every test that touches Redis would hit, so it stops the process
    /// with the name rather than running without it.
    static func bundled(_ name: String) -> RedisScript {
        guard let url = Bundle.module.url(forResource: name, withExtension: "lua"),
              let source = try? String(contentsOf: url, encoding: .utf8)
        else {
            preconditionFailure("the Lua script \(name).lua is missing from PodiumStore's resources")
        }
        return RedisScript(source)
    }
}
