import CLibPQ
import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One open libpq connection.
///
/// Not Sendable: every call blocks its thread, so connections are only used
/// inside ``PostgresPool``'s closures, which run on the pool's own threads. The
/// object owns its `PGconn`; ``finish()`` (or deinit) closes it.
public final class PostgresConnection {
    /// The libpq connection; dangling after ``finish()``, which only happens once the pool dropped the object.
    private let handle: OpaquePointer
    private let logger: Logger
    private var isFinished = false
    /// Set when the connection must not be reused although libpq still reports it open (a failed ROLLBACK, a stuck pipeline).
    private(set) var mustDiscard = false
    /// Server-side prepared statements of this session, by SQL text: each is parsed and planned once per connection.
    private var prepared: [String: String] = [:]
    /// At most this many statements are kept prepared per connection (Podium's own SQL is a few dozen).
    private static let preparedLimit = 256

    /// TCP settings that let a call waiting on a server that vanished (power loss, network partition) fail
    /// within about half a minute, instead of the system's two hours of keepalive silence; a live server
    /// answers the probes however long its statement runs.
    /// - `keepalives_idle` 10 s, `keepalives_interval` 5 s, `keepalives_count` 3: a silent peer is
    ///   dropped about 25 s after it went quiet.
    /// - `tcp_user_timeout` 30 s: a request the peer never acknowledges fails after 30 s.
    static let deadPeerDetection: [(keyword: String, value: String)] = [
        ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "3"),
        ("tcp_user_timeout", "30000"),
    ]

    private init(handle: OpaquePointer, logger: Logger) {
        self.handle = handle
        self.logger = logger
    }

    deinit {
        finish()
    }

    /// Opens a connection and prepares the session (UTC, ISO dates, statement timeout).
    ///
    /// libpq takes repeated keywords from the last place they appear. The TCP settings come before
    /// the connection string, which may override them. `connect_timeout` and `client_encoding` come
    /// after it, so they override whatever it says: the configuration decides.
    static func connect(configuration: PostgresConfiguration, logger: Logger) throws -> PostgresConnection {
        let timeoutSeconds = max(1, (configuration.connectTimeout.roundedUpMilliseconds + 999) / 1000)
        let keywords = Self.deadPeerDetection.map(\.keyword) + ["dbname", "connect_timeout", "client_encoding"]
        let values = Self.deadPeerDetection.map(\.value) + [configuration.connectionString, String(timeoutSeconds), "UTF8"]
        let handle = withCStrings(keywords + [nil]) { keywords in
            withCStrings(values + [nil]) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let handle else {
            throw PostgresError(kind: .connection, message: "out of memory", operation: "PQconnectdbParams")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = errorMessage(handle)
            PQfinish(handle)
            throw PostgresError(kind: .connection, message: message, operation: "PQconnectdbParams")
        }
        var sessionLogger = logger
        sessionLogger[metadataKey: "postgres.pid"] = "\(PQbackendPID(handle))"
        let connection = PostgresConnection(handle: handle, logger: sessionLogger)
        PQsetNoticeReceiver(handle, noticeReceiver, Unmanaged.passUnretained(connection).toOpaque())
        var setup = "SET TimeZone = 'UTC'; SET DateStyle = 'ISO'"
        if let timeout = configuration.statementTimeout {
            setup += "; SET statement_timeout = \(timeout.roundedUpMilliseconds)"
        }
        try connection.execute(setup)
        sessionLogger.debug("opened PostgreSQL connection")
        return connection
    }

    /// Runs one statement with bound parameters (text format, one round trip).
    ///
    /// Parameters are `$1`, `$2`, … in `sql`; their types are inferred by the
    /// server, so add casts (`$1::bigint`) where the context does not fix them.
    /// A SELECT, INSERT, UPDATE, DELETE or WITH statement is prepared on the
    /// connection the first time it runs there (one extra round trip) and then
    /// executed by name, so PostgreSQL parses and plans it once per connection.
    @discardableResult
    public func query(_ sql: String, _ parameters: [(any PostgresBindable)?] = []) throws -> PostgresResult {
        let name = try preparedName(of: sql)
        let texts = parameters.map { $0?.postgresText }
        let result = withCStrings(texts) { values in
            if let name {
                PQexecPrepared(handle, name, Int32(values.count), values, nil, nil, 0)
            } else {
                PQexecParams(handle, sql, Int32(values.count), nil, values, nil, nil, 0)
            }
        }
        return try consume(result, operation: name == nil ? "PQexecParams" : "PQexecPrepared")
    }

    /// The name `sql` is prepared under on this connection, preparing it now if it is new; nil for
    /// statements run unprepared (utility statements, or once the limit is reached).
    private func preparedName(of sql: String) throws -> String? {
        if let name = prepared[sql] { return name }
        guard prepared.count < Self.preparedLimit, Self.isPreparable(sql) else { return nil }
        let name = "podium_\(prepared.count + 1)"
        try consume(PQprepare(handle, name, sql, 0, nil), operation: "PQprepare")
        prepared[sql] = name
        return name
    }

    /// Whether `sql` is a statement PostgreSQL can prepare: SELECT, INSERT, UPDATE, DELETE or WITH.
    static func isPreparable(_ sql: String) -> Bool {
        let head = sql.utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\t") }.prefix(6)
        let word = String(decoding: head, as: UTF8.self).uppercased()
        return ["SELECT", "INSERT", "UPDATE", "DELETE"].contains(word) || word.hasPrefix("WITH")
    }

    /// Runs a simple statement without parameters (may contain several statements; PQexec).
    ///
    /// For DDL, session settings and scripts; libpq stops at the first failing statement.
    public func execute(_ sql: String) throws {
        try consume(PQexec(handle, sql), operation: "PQexec")
    }

    /// Runs several parameterised statements in one round trip using libpq pipeline mode.
    ///
    /// Returns one result per statement, in order. Outside an explicit
    /// transaction the statements up to the single sync point form one
    /// implicit transaction: if one fails, the earlier ones are rolled back and
    /// the later ones skipped. The first error is thrown after all results are
    /// drained, leaving the connection usable. Meant for a handful of
    /// statements: libpq blocks on writes, so a huge pipeline could stall.
    public func pipeline(_ statements: [(sql: String, parameters: [(any PostgresBindable)?])]) throws -> [PostgresResult] {
        guard !statements.isEmpty else { return [] }
        // Statements new to this connection are prepared first, outside pipeline mode.
        let names = try statements.map { try preparedName(of: $0.sql) }
        guard PQenterPipelineMode(handle) == 1 else {
            throw error(from: nil, operation: "PQenterPipelineMode")
        }
        var sendError: PostgresError?
        var sent = 0
        for (statement, name) in zip(statements, names) {
            let texts = statement.parameters.map { $0?.postgresText }
            let accepted = withCStrings(texts) { values in
                if let name {
                    PQsendQueryPrepared(handle, name, Int32(values.count), values, nil, nil, 0)
                } else {
                    PQsendQueryParams(handle, statement.sql, Int32(values.count), nil, values, nil, nil, 0)
                }
            }
            guard accepted == 1 else {
                sendError = error(from: nil, operation: name == nil ? "PQsendQueryParams" : "PQsendQueryPrepared")
                break
            }
            sent += 1
        }
        if PQpipelineSync(handle) != 1 {
            sendError = sendError ?? error(from: nil, operation: "PQpipelineSync")
        }
        let results = drainPipeline(expecting: sent)
        if PQexitPipelineMode(handle) != 1 { mustDiscard = true }
        if let sendError { throw sendError }
        return try results.map { try $0.get() }
    }

    /// Reads the results of `count` pipelined statements up to the sync point.
    ///
    /// Each statement yields one result followed by a NULL; statements after a
    /// failure yield PGRES_PIPELINE_ABORTED. Stops early if the connection breaks.
    private func drainPipeline(expecting count: Int) -> [Result<PostgresResult, PostgresError>] {
        var results: [Result<PostgresResult, PostgresError>] = []
        var current: Result<PostgresResult, PostgresError>?
        while true {
            if let result = PQgetResult(handle) {
                if PQresultStatus(result) == PGRES_PIPELINE_SYNC {
                    PQclear(result)
                    break
                }
                do {
                    current = .success(try consume(result, operation: "PQgetResult (pipeline statement \(results.count + 1))"))
                } catch {
                    current = .failure(error)
                }
            } else if let finished = current, PQstatus(handle) == CONNECTION_OK {
                results.append(finished)
                current = nil
            } else {
                // A NULL without a pending result, or a broken connection: the sync point will not come.
                if let finished = current { results.append(finished) }
                mustDiscard = true
                break
            }
        }
        let missing = PostgresError(kind: .connection, message: Self.errorMessage(handle), operation: "PQgetResult")
        return results + Array(repeating: .failure(missing), count: max(0, count - results.count))
    }

    /// The value libpq uses for connection option `keyword` (e.g. `keepalives_idle`), nil if unset.
    func option(_ keyword: String) -> String? {
        guard let options = PQconninfo(handle) else { return nil }
        defer { PQconninfoFree(options) }
        var option = options
        while let name = option.pointee.keyword {
            if String(cString: name) == keyword { return option.pointee.val.map { String(cString: $0) } }
            option += 1
        }
        return nil
    }

    /// Whether the idle connection is still usable, reading anything the server sent meanwhile.
    ///
    /// A server that terminated the session (restart, pg_terminate_backend) has
    /// sent an error and closed the socket; reading it here marks the connection
    /// bad so the pool replaces it instead of failing the caller's first statement.
    func isAlive() -> Bool {
        guard !mustDiscard, PQstatus(handle) == CONNECTION_OK else { return false }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, 0) > 0 {
            guard PQconsumeInput(handle) == 1 else { return false }
        }
        // Parses what was read, so stray messages are not taken for the next statement's results.
        _ = PQisBusy(handle)
        return PQstatus(handle) == CONNECTION_OK
    }

    /// The connection's socket, to wait on with poll() for what the server sends (a listener's notifications).
    var socketDescriptor: Int32 { PQsocket(handle) }

    /// The server process serving this connection (`pg_backend_pid()`).
    var backendPID: Int32 { PQbackendPID(handle) }

    /// Reads what the server sent (PQconsumeInput) and returns the notifications among it, in order; throws a
    /// ``PostgresError/Kind/connection`` error when the connection broke (the server closed it or terminated the session).
    func receiveNotifications() throws(PostgresError) -> [PostgresNotification] {
        guard PQconsumeInput(handle) == 1 else {
            throw PostgresError(kind: .connection, message: Self.errorMessage(handle), operation: "PQconsumeInput")
        }
        var received: [PostgresNotification] = []
        while let notice = PQnotifies(handle) {
            received.append(PostgresNotification(
                channel: String(cString: notice.pointee.relname), payload: String(cString: notice.pointee.extra),
                senderPID: notice.pointee.be_pid))
            PQfreemem(notice)
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            throw PostgresError(kind: .connection, message: Self.errorMessage(handle), operation: "PQnotifies")
        }
        return received
    }

    /// Rolls back an open or failed transaction; returns whether the connection is now idle and usable.
    @discardableResult
    func rollbackIfInTransaction() -> Bool {
        guard !mustDiscard, PQstatus(handle) == CONNECTION_OK else { return false }
        switch PQtransactionStatus(handle) {
        case PQTRANS_IDLE:
            return true
        case PQTRANS_INTRANS, PQTRANS_INERROR:
            do {
                try execute("ROLLBACK")
            } catch {
                logger.warning("ROLLBACK failed, discarding connection", metadata: ["error": "\(error)"])
                mustDiscard = true
            }
            return !mustDiscard && PQtransactionStatus(handle) == PQTRANS_IDLE
        default:
            return false
        }
    }

    /// Whether the session is inside a transaction that already failed, where COMMIT would silently roll back.
    var isInFailedTransaction: Bool {
        PQtransactionStatus(handle) == PQTRANS_INERROR
    }

    /// Whether the session is inside an open (or failed) transaction block.
    var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Closes the connection (PQfinish); safe to call more than once.
    func finish() {
        guard !isFinished else { return }
        isFinished = true
        PQfinish(handle)
    }

    /// Converts a PGresult into a result or error, always clearing it.
    @discardableResult
    private func consume(_ result: OpaquePointer?, operation: String) throws(PostgresError) -> PostgresResult {
        guard let result else { throw error(from: nil, operation: operation) }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return Self.makeResult(result)
        case PGRES_FATAL_ERROR, PGRES_NONFATAL_ERROR, PGRES_BAD_RESPONSE, PGRES_PIPELINE_ABORTED:
            throw error(from: result, operation: operation)
        default:
            // COPY and other streaming states leave the session mid-protocol.
            mustDiscard = true
            let status = String(cString: PQresStatus(PQresultStatus(result)))
            throw PostgresError(kind: .query, message: "unsupported result status \(status)", operation: operation)
        }
    }

    /// Builds an error from a failed result, or from the connection's last error when there is no result.
    ///
    /// The kind is `.connection` when the session broke (libpq reports it bad,
    /// or the server says it is shutting the session down), `.timeout` for a
    /// cancelled statement (57014, e.g. `statement_timeout`), else `.query`.
    private func error(from result: OpaquePointer?, operation: String) -> PostgresError {
        let sqlState = result.flatMap { Self.field($0, DiagnosticField.sqlState) }
        var message: String
        if let result, let primary = Self.field(result, DiagnosticField.primary) {
            message = primary
            if let detail = Self.field(result, DiagnosticField.detail) { message += " (\(detail))" }
        } else if let result, let text = Self.nonEmpty(PQresultErrorMessage(result)) {
            message = text
        } else {
            message = Self.errorMessage(handle)
        }
        let kind: PostgresError.Kind
        if PQstatus(handle) != CONNECTION_OK || Self.isConnectionFailure(sqlState) {
            kind = .connection
        } else if sqlState == "57014" {
            kind = .timeout
        } else {
            kind = .query
        }
        return PostgresError(kind: kind, sqlState: sqlState, message: message, operation: operation)
    }

    /// Whether a SQLSTATE means the session is gone: class 08 (connection exception) or 57P01–57P03 (shutdown).
    private static func isConnectionFailure(_ sqlState: String?) -> Bool {
        guard let sqlState else { return false }
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
    }

    /// Copies a successful PGresult's rows and affected-row count.
    private static func makeResult(_ result: OpaquePointer) -> PostgresResult {
        let columnCount = PQnfields(result)
        let index = ColumnIndex(names: (0..<columnCount).map { String(cString: PQfname(result, $0)) })
        let rows = (0..<PQntuples(result)).map { row in
            PostgresRow(index: index, values: (0..<columnCount).map { column -> String? in
                guard PQgetisnull(result, row, column) == 0, let value = PQgetvalue(result, row, column) else { return nil }
                let bytes = UnsafeRawBufferPointer(start: value, count: Int(PQgetlength(result, row, column)))
                return String(decoding: bytes, as: UTF8.self)
            })
        }
        let affected = PQcmdTuples(result).flatMap { Int(String(cString: $0)) } ?? 0
        return PostgresResult(rows: rows, affectedRows: affected)
    }

    /// One diagnostic field of a result, nil when absent or empty.
    private static func field(_ result: OpaquePointer, _ code: Int32) -> String? {
        nonEmpty(PQresultErrorField(result, code))
    }

    /// The connection's last error message, trimmed.
    private static func errorMessage(_ handle: OpaquePointer) -> String {
        nonEmpty(PQerrorMessage(handle)) ?? "unknown libpq error"
    }

    /// A C string as trimmed Swift text, nil when null or blank.
    private static func nonEmpty(_ text: UnsafePointer<CChar>?) -> String? {
        guard let text else { return nil }
        let string = String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
        return string.isEmpty ? nil : string
    }

    /// Logs a server notice or warning through the connection's logger instead of libpq's default stderr print.
    fileprivate func log(notice result: OpaquePointer) {
        let severity = Self.field(result, DiagnosticField.severity) ?? "NOTICE"
        let message = Self.field(result, DiagnosticField.primary) ?? ""
        let level: Logger.Level = ["NOTICE", "INFO", "LOG", "DEBUG"].contains(severity) ? .debug : .warning
        logger.log(level: level, "PostgreSQL \(severity): \(message)", metadata: ["postgres.sqlstate": "\(Self.field(result, DiagnosticField.sqlState) ?? "")"])
    }
}

/// libpq's `PG_DIAG_*` field codes, which are character macros Swift does not import.
private enum DiagnosticField {
    /// `PG_DIAG_SQLSTATE`.
    static let sqlState = Int32(UInt8(ascii: "C"))
    /// `PG_DIAG_MESSAGE_PRIMARY`.
    static let primary = Int32(UInt8(ascii: "M"))
    /// `PG_DIAG_MESSAGE_DETAIL`.
    static let detail = Int32(UInt8(ascii: "D"))
    /// `PG_DIAG_SEVERITY_NONLOCALIZED`.
    static let severity = Int32(UInt8(ascii: "V"))
}

/// libpq's notice callback; `context` is the unretained ``PostgresConnection``, which outlives its PGconn.
private let noticeReceiver: PQnoticeReceiver = { context, result in
    guard let context, let result else { return }
    Unmanaged<PostgresConnection>.fromOpaque(context).takeUnretainedValue().log(notice: result)
}

/// Calls `body` with C copies of `strings` (nil stays a null pointer), freed afterwards.
private func withCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) throws -> R) rethrows -> R {
    let copies = strings.map { $0.flatMap { strdup($0) } }
    defer { copies.forEach { free($0) } }
    return try body(copies.map { $0.map { UnsafePointer($0) } })
}
