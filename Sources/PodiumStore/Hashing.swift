import Crypto
import Foundation

/// SHA-256 as lowercase hex, the one digest Podium stores (key hashes, request hashes, migration checksums).
enum Hashing {
    private static let digits = Array("0123456789abcdef".utf8)

    /// The SHA-256 of `text`'s UTF-8 bytes, in hex.
    static func sha256Hex(_ text: String) -> String {
        let digest = SHA256.hash(data: Data(text.utf8))
        var hex = [UInt8]()
        hex.reserveCapacity(64)
        for byte in digest {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
