import CLibPQ

/// Connection settings for a ``PostgresPool``.
///
/// The connection string is handed to libpq unchanged (key/value conninfo or a
/// `postgres://` URI); the pool adds `connect_timeout` and `client_encoding`
/// from these settings so they cannot be forgotten in a deployment's URL, and
/// TCP keepalive settings the URL may override (`PostgresConnection.deadPeerDetection`).
public struct PostgresConfiguration: Sendable {
    /// The libpq conninfo string or `postgres://` URI of the server.
    public var connectionString: String
    /// The most connections the pool keeps open at once.
    ///
    /// It is also the number of blocking threads the pool owns, one per connection.
    public var poolSize: Int
    /// How long opening one connection may take (libpq `connect_timeout`, whole seconds, rounded up).
    public var connectTimeout: Duration
    /// How long a caller waits for a free connection before failing with ``PostgresError/Kind/timeout``.
    public var acquireTimeout: Duration
    /// The server-side `statement_timeout` set on every new connection; `nil` keeps the server default.
    public var statementTimeout: Duration?

    /// Connections per pool when the caller does not say: what `podium serve` opens per replica
    /// (`PODIUM_PG_POOL_SIZE`'s default is read from here). Connections open lazily, on first use.
    public static let defaultPoolSize = 16

    /// Creates settings; only the connection string has no sensible default.
    public init(
        connectionString: String,
        poolSize: Int = defaultPoolSize,
        connectTimeout: Duration = .seconds(5),
        acquireTimeout: Duration = .seconds(10),
        statementTimeout: Duration? = .seconds(30)
    ) {
        self.connectionString = connectionString
        self.poolSize = poolSize
        self.connectTimeout = connectTimeout
        self.acquireTimeout = acquireTimeout
        self.statementTimeout = statementTimeout
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded up so a positive duration never becomes zero.
    var roundedUpMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let millis = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return attoseconds % 1_000_000_000_000_000 > 0 ? millis + 1 : millis
    }
}

extension PostgresConfiguration {
    /// Whether libpq can read `connectionString` as a conninfo string (`key=value …`), a `postgres://`
    /// URI or a bare database name.
    ///
    /// libpq's own parse and connection errors quote the text they could not read, which may hold a
    /// password; a caller that checks first can refuse the setting without echoing it. A bare name
    /// with `:`, `/` or `@` in it is refused too: it is almost always a mistyped URI, which libpq would
    /// otherwise try as a database name and quote whole in its error.
    public static func isReadable(connectionString text: String) -> Bool {
        guard text.contains("=") || text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") else {
            return !text.isEmpty && !text.contains(where: { ":/@".contains($0) })
        }
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(text, &error) else {
            if let error { PQfreemem(error) }
            return false
        }
        PQconninfoFree(options)
        return true
    }
}
