import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP port that was free a moment ago (bound to port 0, then released): the kernel hands out a port nothing
/// holds, where a random pick can land on a port an outgoing connection already uses.
public func freeLoopbackPort() throws -> Int {
    #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw POSIXError(.EMFILE) }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
        }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Runs `body` with a fresh TCP socket and the loopback address of `port` (closing the socket afterwards): `bind`
/// it to see whether the port is free, `connect` it to see whether something listens there. False when no socket
/// can be made.
func withLoopbackSocket(port: Int, _ body: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Bool) -> Bool {
    #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
}
