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
    /// The nodes through which a Redis Cluster is first reached, or nil for one server at `host` and `port`.
    ///
    /// With seeds, `RedisClient` asks them for the cluster's slot map and keeps a pool per primary, each with these
    /// settings and that primary's address (`host` and `port` are then the first seed's).
    public var clusterSeeds: [RedisNode]?
    /// Most tries of one Redis Cluster command, redirects and retries included (8: about 1.6 s of `TRYAGAIN` pauses).
    /// A test that holds a slot mid-migration for as long as it takes raises it.
    public var clusterAttempts = 8

    /// Connections per pool when the caller does not say: what `podium serve` opens per replica
    /// (`PODIUM_REDIS_POOL_SIZE`'s default is read from here). Connections open lazily, on first use.
    public static let defaultPoolSize = 16

    /// Creates a configuration from its parts.
    public init(
        host: String = "127.0.0.1", port: Int = 6379, database: Int = 0, password: String? = nil, user: String? = nil, poolSize: Int = defaultPoolSize,
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

    /// Parses `redis://[[user]:password@]host[:port][/db]`, or `redis+cluster://[[user]:password@]host[:port][,host[:port]…]`
    /// for a Redis Cluster reached through the listed seed nodes (which has only database 0, so no path); throws
    /// `RedisError(kind: .configuration)` on anything else.
    ///
    /// A user names a Redis 6+ ACL user (`AUTH user password`). User and password may be percent-encoded; an IPv6 host is written in brackets (`redis://[::1]:6379`).
    /// Pool size and timeouts keep their defaults.
    public init(url: String) throws {
        func invalid(_ reason: String) -> RedisError {
            RedisError(kind: .configuration, message: "invalid Redis URL (\(reason))", operation: "parse Redis URL")
        }
        let lowercased = url.lowercased()
        if lowercased.hasPrefix("rediss://") {
            throw invalid("rediss:// (TLS) is not supported by this hiredis build; reach a TLS-only Redis through a local TLS "
                          + "tunnel such as stunnel and give its redis:// address (see ops/README.md, \"Redis over TLS\")")
        }
        let cluster = lowercased.hasPrefix(Self.clusterScheme)
        guard cluster || lowercased.hasPrefix(Self.serverScheme) else { throw invalid("expected redis:// or \(Self.clusterScheme)") }
        var rest = Substring(url.dropFirst(cluster ? Self.clusterScheme.count : Self.serverScheme.count))

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

        var database = 0
        if !path.isEmpty {
            guard !cluster else { throw invalid("a cluster has only database 0: no /db") }
            guard path.allSatisfy(\.isASCIIDigit), let value = Int(path) else { throw invalid("bad database number") }
            database = value
        }

        let nodes = try (cluster ? rest.split(separator: ",", omittingEmptySubsequences: false) : [rest]).map { address in
            do {
                return try RedisNode(parsing: address)
            } catch let reason as RedisNode.ParseFailure {
                throw invalid(reason.rawValue)
            }
        }
        self.init(host: nodes[0].host, port: nodes[0].port, database: database, password: password, user: user)
        clusterSeeds = cluster ? nodes : nil
    }

    /// The scheme of one server's URL.
    private static let serverScheme = "redis://"
    /// The scheme of a cluster's URL.
    private static let clusterScheme = "redis+cluster://"

    /// These settings for one node of a cluster: its address, no seeds.
    func node(_ node: RedisNode) -> RedisConfiguration {
        var configuration = self
        configuration.host = node.host
        configuration.port = node.port
        configuration.clusterSeeds = nil
        return configuration
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

/// A Redis server's address.
public struct RedisNode: Hashable, Sendable, CustomStringConvertible {
    /// Host name or IP address.
    public var host: String
    /// TCP port.
    public var port: Int

    /// The address `host`:`port`.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `host:port`, with an IPv6 host in brackets.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Why an address did not parse.
    enum ParseFailure: String, Error {
        case unterminatedIPv6 = "unterminated IPv6 address"
        case textAfterIPv6 = "unexpected text after IPv6 address"
        case badHost = "bad host"
        case badPort = "bad port"
    }

    /// Parses `host[:port]` (port 6379 when left out; an IPv6 host in brackets).
    init(parsing address: Substring) throws(ParseFailure) {
        let host: Substring
        var portText: Substring?
        if address.first == "[" {
            guard let close = address.firstIndex(of: "]") else { throw .unterminatedIPv6 }
            host = address[address.index(after: address.startIndex)..<close]
            let afterHost = address[address.index(after: close)...]
            if !afterHost.isEmpty {
                guard afterHost.first == ":" else { throw .textAfterIPv6 }
                portText = afterHost.dropFirst()
            }
        } else if let colon = address.firstIndex(of: ":") {
            host = address[..<colon]
            portText = address[address.index(after: colon)...]
        } else {
            host = address
        }
        guard !host.isEmpty, !host.contains(where: { $0 == "?" || $0 == "#" || $0 == " " }) else { throw .badHost }
        var port = 6379
        if let portText {
            guard portText.allSatisfy(\.isASCIIDigit), let value = Int(portText), (1...65_535).contains(value) else { throw .badPort }
            port = value
        }
        self.init(host: String(host), port: port)
    }
}

extension Character {
    /// True for the ten ASCII digits only (not other Unicode numerals).
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
