/// Where and how the Redis pool connects.
public struct RedisConfiguration: Sendable {
    /// Host name or IP address of the server.
    public var host: String
    /// TCP port of the server.
    public var port: Int
    /// Database selected with `SELECT` on every new connection.
    public var database: Int
    /// Password sent with `AUTH` on every new connection, if set.
    public var password: String?
    /// ACL user sent with the password (`AUTH user password`); nil for the default user (`AUTH password`).
    public var user: String?
    /// Most connections the pool keeps open at once; also the number of blocking threads.
    public var poolSize: Int
    /// Longest wait for a TCP connection to be established.
    public var connectTimeout: Duration
    /// Socket read/write timeout of every command (`redisSetTimeout`).
    public var commandTimeout: Duration
    /// Longest wait for a free connection when all are borrowed.
    public var acquireTimeout: Duration
    /// Longest wait for a read that has a fallback (`RedisPool.withConnection(deadline:)`), acquiring included; nil: none.
    ///
    /// A hung server (stopped, or behind a path that drops packets) answers nothing, and the socket timeout of
    /// `commandTimeout` is meant for writes that have no other place to go; reads give up sooner and answer from
    /// PostgreSQL.
    public var readDeadline: Duration?
    /// How long a pool that saw a read miss its deadline sends deadline reads straight to their fallback,
    /// instead of making every read wait out the deadline while the server hangs.
    public var readSuspension: Duration

    /// Creates a configuration from its parts.
    public init(
        host: String = "127.0.0.1", port: Int = 6379, database: Int = 0, password: String? = nil, user: String? = nil, poolSize: Int = 8,
        connectTimeout: Duration = .seconds(2), commandTimeout: Duration = .seconds(2), acquireTimeout: Duration = .seconds(5),
        readDeadline: Duration? = nil, readSuspension: Duration = .seconds(1)
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.password = password
        self.user = user
        self.poolSize = poolSize
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.acquireTimeout = acquireTimeout
        self.readDeadline = readDeadline
        self.readSuspension = readSuspension
    }

    /// Parses `redis://[[user]:password@]host[:port][/db]`; throws `RedisError(kind: .configuration)` on anything else.
    ///
    /// A user names a Redis 6+ ACL user (`AUTH user password`). User and password may be percent-encoded; an IPv6 host is written in brackets (`redis://[::1]:6379`).
    /// Pool size and timeouts keep their defaults.
    public init(url: String) throws {
        func invalid(_ reason: String) -> RedisError {
            RedisError(kind: .configuration, message: "invalid Redis URL (\(reason))", operation: "parse Redis URL")
        }
        let scheme = "redis://"
        if url.lowercased().hasPrefix("rediss://") {
            throw invalid("rediss:// (TLS) is not supported by this hiredis build; reach a TLS-only Redis through a local TLS "
                          + "tunnel such as stunnel and give its redis:// address (see ops/README.md, \"Redis over TLS\")")
        }
        guard url.lowercased().hasPrefix(scheme) else { throw invalid("expected redis://") }
        var rest = Substring(url.dropFirst(scheme.count))

        var password: String?
        var user: String?
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            guard let colon = userInfo.firstIndex(of: ":") else { throw invalid("expected [user]:password@ before the host") }
            guard let decoded = Self.percentDecoded(userInfo[userInfo.index(after: colon)...]) else {
                throw invalid("bad percent-encoding in password")
            }
            guard let name = Self.percentDecoded(userInfo[..<colon]) else { throw invalid("bad percent-encoding in user") }
            password = decoded.isEmpty ? nil : decoded
            user = name.isEmpty ? nil : name
            guard user == nil || password != nil else { throw invalid("a user needs a password") }
        }

        let path: Substring
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        } else {
            path = ""
        }

        let host: Substring
        var portText: Substring?
        if rest.first == "[" {
            guard let close = rest.firstIndex(of: "]") else { throw invalid("unterminated IPv6 address") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let afterHost = rest[rest.index(after: close)...]
            if !afterHost.isEmpty {
                guard afterHost.first == ":" else { throw invalid("unexpected text after IPv6 address") }
                portText = afterHost.dropFirst()
            }
        } else if let colon = rest.firstIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty, !host.contains(where: { $0 == "?" || $0 == "#" || $0 == " " }) else { throw invalid("bad host") }

        var port = 6379
        if let portText {
            guard portText.allSatisfy(\.isASCIIDigit), let value = Int(portText), (1...65_535).contains(value) else {
                throw invalid("bad port")
            }
            port = value
        }

        var database = 0
        if !path.isEmpty {
            guard path.allSatisfy(\.isASCIIDigit), let value = Int(path) else { throw invalid("bad database number") }
            database = value
        }

        self.init(host: String(host), port: port, database: database, password: password, user: user)
    }

    /// Decodes `%XX` escapes; nil if an escape is malformed.
    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(),
                  let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Character {
    /// True for the ten ASCII digits only (not other Unicode numerals).
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
