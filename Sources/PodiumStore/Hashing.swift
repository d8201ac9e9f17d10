import Crypto
import Foundation

/// SHA-256 as lowercase hex, the one digest Podium stores (key hashes, request hashes, migration checksums).
enum Hashing {
    /// The SHA-256 of `text`'s UTF-8 bytes, in hex.
    static func sha256Hex(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
