import Crypto

/// A Lua script, run by name with `EVALSHA`; sent whole (`EVAL`, which also caches it) only when the
/// server answers NOSCRIPT: after a restart or `SCRIPT FLUSH`.
public struct RedisScript: Sendable {
    /// The Lua source.
    public let source: String
    /// The name Redis knows the script by: the SHA1 of its source, in lowercase hex.
    public let sha1: String

    /// Wraps a Lua source.
    public init(_ source: String) {
        self.source = source
        let digits = Array("0123456789abcdef".utf8)
        self.sha1 = String(decoding: Insecure.SHA1.hash(data: Array(source.utf8)).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xf)]] },
                           as: UTF8.self)
    }
}

/// One run of a script: what `RedisConnection.evaluateAll(_:)` sends, by name or whole.
public struct RedisScriptCall: Sendable {
    /// The script to run.
    public let script: RedisScript
    /// Its `KEYS`.
    public let keys: [String]
    /// Its `ARGV`.
    public let arguments: [String]

    /// A call of `script` with `keys` and `arguments`.
    public init(_ script: RedisScript, keys: [String], arguments: [String]) {
        self.script = script
        self.keys = keys
        self.arguments = arguments
    }

    /// The command that runs it by name: `EVALSHA sha1 numkeys keys… arguments…`.
    var byName: [String] { ["EVALSHA", script.sha1, String(keys.count)] + keys + arguments }
    /// The command that sends it whole: `EVAL source numkeys keys… arguments…`.
    var whole: [String] { ["EVAL", script.source, String(keys.count)] + keys + arguments }
}

extension RedisReply {
    /// True for the error a server answers `EVALSHA` with when it does not have the script.
    var isNoScript: Bool {
        if case .error(let message) = self { message.hasPrefix("NOSCRIPT") } else { false }
    }
}
