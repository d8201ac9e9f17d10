import AsyncHTTPClient
import Foundation
import NIOCore

/// Why an attempt to send a webhook failed, in the words a delivery's record and a test event's answer show.
///
/// The HTTP client's errors describe themselves for programmers: NIO's `IOError` reads
/// "connection reset (error set): Connection refused) (errno: 111)". The usual failures are named plainly here
/// ("connection refused", "no answer within 5 s"); any other error keeps its own description.
enum DeliveryFailure {
    /// The plain words for `error`, thrown while sending to a receiver that had `timeout` seconds to answer.
    static func describe(_ error: any Error, timeout: TimeInterval) -> String {
        if let error = error as? IOError {
            // The system's words for the errno ("Connection refused", "No route to host"), as a phrase.
            let words = String(cString: strerror(error.errnoCode))
            return words.prefix(1).lowercased() + words.dropFirst()
        }
        if let error = error as? HTTPClientError {
            let seconds = timeout == timeout.rounded() ? "\(Int(timeout)) s" : "\(timeout) s"
            switch error {
            case .connectTimeout: return "no connection within \(seconds)"
            case .readTimeout, .deadlineExceeded: return "no answer within \(seconds)"
            case .remoteConnectionClosed: return "the receiver closed the connection before answering"
            case .tlsHandshakeTimeout: return "no TLS handshake within \(seconds)"
            default: return "\(error)"
            }
        }
        return "\(error)"
    }
}
