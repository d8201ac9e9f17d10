/// The short, fixed-width name a player goes by inside Redis sorted sets.
///
/// A sorted-set entry costs Redis its member string on top of about 86 bytes of node, dict
/// entry and table slot. User ids are the client's choice (up to 128 characters, 36 for a
/// UUID), so members that were user ids made a board's memory grow with the ids' length:
/// 101.7 bytes per entry for 13-character ids, 133.7 for UUIDs. A member of at most 6 bytes
/// fits Redis's smallest string allocation, and puts every entry at about 94 bytes whatever
/// the ids look like (SPEC §6 asks for at most 100).
///
/// The member encodes the player's `users.handle`, a number PostgreSQL gives each player
/// once, in order of first appearance, as 6 digits of base 64 over an alphabet in ASCII
/// order. Byte order of members is therefore handle order: Redis lists a tie by member
/// bytes, so within a tie the player who came to Podium first lists first, and PostgreSQL
/// sorts the same tie by `handle`.
public enum RankingMember {
    /// Characters per member.
    public static let width = 6
    /// The largest handle a member can hold: 64^6 − 1.
    public static let maximumHandle: Int64 = (1 << 36) - 1

    /// The 64 digits, in ascending ASCII order (`-`, `0`–`9`, `A`–`Z`, `_`, `a`–`z`).
    static let digits: [UInt8] = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)

    /// The member of `handle`, or nil when the handle is negative or above `maximumHandle`.
    public static func encode(_ handle: Int64) -> String? {
        guard (0...maximumHandle).contains(handle) else { return nil }
        var bytes = [UInt8](repeating: 0, count: width)
        var rest = handle
        for index in stride(from: width - 1, through: 0, by: -1) {
            bytes[index] = digits[Int(rest & 63)]
            rest >>= 6
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The handle behind `member`, or nil when it is not a member this type makes.
    public static func decode(_ member: String) -> Int64? {
        let bytes = Array(member.utf8)
        guard bytes.count == width else { return nil }
        var handle: Int64 = 0
        for byte in bytes {
            guard let digit = digitValue(byte) else { return nil }
            handle = handle << 6 | Int64(digit)
        }
        return handle
    }

    /// The value of one digit character, or nil when it is not one.
    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "-"): 0
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0")) + 1
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A")) + 11
        case UInt8(ascii: "_"): 37
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a")) + 38
        default: nil
        }
    }
}
