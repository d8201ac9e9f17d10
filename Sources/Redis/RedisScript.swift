import Synchronization

/// A Lua script run with EVALSHA, loaded with SCRIPT LOAD on NOSCRIPT.
public struct RedisScript: Sendable {
    /// The Lua source.
    public let source: String

    /// Wraps a Lua source.
    public init(_ source: String) {
        self.source = source
    }
}

/// The SHA1 that SCRIPT LOAD returned for each script source, shared by all connections of one pool.
final class ScriptCache: Sendable {
    private let shas = Mutex<[String: String]>([:])

    /// The cached SHA1 of `source`, if it was loaded before.
    func sha(for source: String) -> String? {
        shas.withLock { $0[source] }
    }

    /// Remembers the SHA1 that SCRIPT LOAD returned for `source`.
    func store(_ sha: String, for source: String) {
        shas.withLock { $0[source] = sha }
    }
}
