import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 client connection over a plain blocking loopback socket, for tests that need what an HTTP client
/// library hides: a body sent slowly or cut off, a kept-alive connection reused request after request, and whether
/// the server closed the connection.
///
/// Every read waits at most `timeout` (the socket's receive timeout), so a test never hangs on a lost answer.
/// The calls block: run them with `onThread`, not on the tests' cooperative threads.
public final class RawHTTPConnection: @unchecked Sendable {
    /// An answer read off the connection.
    public struct Response: Sendable {
        /// The status code.
        public let status: Int
        /// The header fields, names lowercased.
        public let headers: [String: String]
        /// The body (as `Content-Length` says).
        public let body: Data

        /// Whether the answer says `Connection: close`.
        public var closes: Bool { headers["connection"]?.lowercased() == "close" }
    }

    /// Why a read found no (whole) answer.
    public enum Failure: Error, Equatable {
        /// The server closed the connection (end of stream) before a whole answer.
        case closed
        /// The server reset the connection, or another socket error; the `errno`.
        case socketError(Int32)
        /// Nothing (more) arrived within the timeout.
        case timedOut
        /// What arrived is not an HTTP/1.1 answer this client understands.
        case malformed(String)
    }

    /// The socket; -1 once closed, so that it is closed exactly once (a descriptor closed twice may by then be
    /// another test's connection).
    private var descriptor: Int32
    private var buffered = Data()

    /// Connects to `127.0.0.1:port`; each later read waits at most `timeout`.
    public init(port: Int, timeout: Duration = .seconds(30)) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure.socketError(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let error = errno
            Glibc.close(descriptor)
            descriptor = -1
            throw Failure.socketError(error)
        }
        var wait = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var on: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    /// Sends `text` (UTF-8) whole.
    public func send(_ text: String) throws {
        try send(Data(text.utf8))
    }

    /// Sends `bytes` whole (a connection the server closed fails with `EPIPE`, without a SIGPIPE).
    public func send(_ bytes: Data) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { throw Failure.socketError(errno) }
                offset += sent
            }
        }
    }

    /// Reads one whole answer (its body by `Content-Length`).
    public func readResponse() throws -> Response {
        var headerEnd = buffered.range(of: Data("\r\n\r\n".utf8))
        while headerEnd == nil {
            try fill()
            headerEnd = buffered.range(of: Data("\r\n\r\n".utf8))
        }
        let head = String(decoding: buffered[buffered.startIndex..<headerEnd!.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            throw Failure.malformed(head)
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw Failure.malformed(head) }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard let length = Int(headers["content-length"] ?? "0") else { throw Failure.malformed(head) }
        let bodyStart = headerEnd!.upperBound
        while buffered.endIndex - bodyStart < length { try fill() }
        let body = buffered[bodyStart..<(bodyStart + length)]
        buffered = Data(buffered[(bodyStart + length)...])
        return Response(status: status, headers: headers, body: Data(body))
    }

    /// Sends `request` and reads its answer.
    public func exchange(_ request: String) throws -> Response {
        try send(request)
        return try readResponse()
    }

    /// Whether the server closed the connection (end of stream or reset) with nothing more to read, waiting at most the
    /// timeout; false when the connection is still open then (or more data came).
    public func isClosedByServer() -> Bool {
        do {
            try fill()
            return false
        } catch Failure.timedOut {
            return false
        } catch {
            return true
        }
    }

    /// Closes the connection with a reset (`SO_LINGER` 0) rather than an orderly end: a client that vanishes.
    public func reset() {
        var linger = linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Stops sending (FIN) and keeps reading: a client that gives up on its body but waits for the answer.
    public func stopSending() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        if count > 0 {
            buffered.append(contentsOf: chunk[0..<count])
        } else if count == 0 {
            throw Failure.closed
        } else if errno == EAGAIN || errno == EWOULDBLOCK {
            throw Failure.timedOut
        } else {
            throw Failure.socketError(errno)
        }
    }
}

/// `body`'s result, computed on a thread of its own: for blocking socket calls, which would otherwise hold one of the
/// few cooperative threads every test shares.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.start()
    }
}
