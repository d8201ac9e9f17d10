import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on a loopback port in front of another, in a process of its own (`python3`), that can stop forwarding
/// without closing anything: the network path that drops packets without a reset, as the clients see it.
///
/// `stall()` stops the proxy process (SIGSTOP): connections stay open, new ones are still accepted by the kernel,
/// and nothing is forwarded either way until `resume()`. `stop()` kills it, on every path also from `deinit`.
public final class StallingProxy: @unchecked Sendable {
    /// The proxy's own port.
    public let port: Int
    private let process: Process

    /// Starts a proxy from a free loopback port to `127.0.0.1:target`, and waits until it accepts connections.
    public init(to target: Int) async throws {
        port = try freeLoopbackPort()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, String(port), String(target)]
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "LD_PRELOAD" }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(30)
        while !Self.accepts(port) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                stop()
                throw OwnRedisServerError(description: "the TCP proxy on port \(port) did not start within 30 s")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    deinit { stop() }

    /// Stops forwarding; every connection stays open.
    public func stall() {
        if process.isRunning { kill(process.processIdentifier, SIGSTOP) }
    }

    /// Forwards again.
    public func resume() {
        if process.isRunning { kill(process.processIdentifier, SIGCONT) }
    }

    /// Kills the proxy (its connections close) and waits for it.
    public func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Whether something accepts TCP connections on loopback `port` now.
    private static func accepts(_ port: Int) -> Bool {
        withLoopbackSocket(port: port) { connect($0, $1, $2) == 0 }
    }

    /// The proxy: a thread per direction of each connection.
    private static let script = """
        import socket, sys, threading
        listen_port, target_port = int(sys.argv[1]), int(sys.argv[2])
        def pump(source, sink):
            try:
                while True:
                    data = source.recv(65536)
                    if not data:
                        break
                    sink.sendall(data)
            except OSError:
                pass
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", listen_port))
        server.listen(128)
        while True:
            client, _ = server.accept()
            try:
                upstream = socket.create_connection(("127.0.0.1", target_port))
            except OSError:
                client.close()
                continue
            threading.Thread(target=pump, args=(client, upstream), daemon=True).start()
            threading.Thread(target=pump, args=(upstream, client), daemon=True).start()
        """
}
