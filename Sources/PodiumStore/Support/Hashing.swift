import Crypto
import Foundation

/// SHA-256 digests as lowercase hex: the digest Podium stores (key hashes, request hashes, migration
/// checksums) and the HMAC it signs webhooks with.
public enum Hashing {
    private static let digits = Array("0123456789abcdef".utf8)

    /// The SHA-256 of `text`'s UTF-8 bytes, in hex.
    static func sha256Hex(_ text: String) -> String {
        hex(SHA256.hash(data: Data(text.utf8)))
    }

    /// The HMAC-SHA256 of `text`'s UTF-8 bytes under `key`, in hex.
    public static func hmacSHA256Hex(key: String, _ text: String) -> String {
        hex(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: SymmetricKey(data: Data(key.utf8))))
    }

    private static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var hex = [UInt8]()
        hex.reserveCapacity(64)
        for byte in bytes {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
