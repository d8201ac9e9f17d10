/// Redis Cluster's hash slots: which of the 16,384 slots a key lives in.
///
/// A key's slot is CRC16 (XMODEM: polynomial 0x1021, initial value 0) of the key modulo 16,384; when the key holds a
/// hash tag (the bytes between its first `{` and the first `}` after it, if there are any), only the tag is hashed,
/// so keys with one tag share a slot and may meet in one script or multi-key command.
public enum RedisSlot {
    /// How many slots a cluster has.
    public static let count = 16_384

    /// The slot of `key`.
    public static func of(_ key: String) -> Int {
        var key = key
        return key.withUTF8 { bytes in Int(crc16(hashed(bytes))) & (count - 1) }
    }

    /// The indices of `keys` grouped by slot, the groups in the order their first key comes: what one script call per
    /// slot takes.
    public static func grouped(_ keys: [String]) -> [[Int]] {
        var groupOfSlot: [Int: Int] = [:]
        var groups: [[Int]] = []
        for (index, key) in keys.enumerated() {
            let slot = of(key)
            if let group = groupOfSlot[slot] {
                groups[group].append(index)
            } else {
                groupOfSlot[slot] = groups.count
                groups.append([index])
            }
        }
        return groups
    }

    /// The part of `key` that is hashed: its tag when it has a non-empty one, else all of it.
    static func hashed(_ key: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let open = key.firstIndex(of: UInt8(ascii: "{")),
              let close = key[(open + 1)...].firstIndex(of: UInt8(ascii: "}")), close > open + 1
        else { return key }
        return UnsafeBufferPointer(rebasing: key[(open + 1)..<close])
    }

    /// CRC16-XMODEM of `bytes`, as Redis Cluster computes it.
    static func crc16(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc = (crc << 8) ^ table[Int((crc >> 8) ^ UInt16(byte)) & 0xff]
        }
        return crc
    }

    /// CRC16-XMODEM of every byte value, for the byte-at-a-time loop.
    private static let table: [UInt16] = (0..<256).map { value in
        var crc = UInt16(value) << 8
        for _ in 0..<8 {
            crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1
        }
        return crc
    }

    /// A hash tag whose slot is `slot`: the first of `s0`, `s1`, … that hashes there, found once per process (about
    /// 160,000 CRCs). Keys carrying `{tag}` land in that slot, for keys that must be in every slot.
    public static func tag(of slot: Int) -> String {
        tags[slot]
    }

    /// `tag(of:)` for every slot.
    private static let tags: [String] = {
        var found = [String?](repeating: nil, count: count)
        var missing = count
        var candidate = 0
        while missing > 0 {
            let tag = "s\(candidate)"
            let slot = of(tag)
            if found[slot] == nil {
                found[slot] = tag
                missing -= 1
            }
            candidate += 1
        }
        return found.map { $0 ?? "" }
    }()
}
