import PodiumCore
import Testing

/// Sorted-set members: six characters, reversible, and in handle order byte for byte.
@Suite("RankingMember", .timeLimit(.minutes(5)))
struct RankingMemberTests {
    @Test("known handles encode to known members", arguments: [
        (Int64(0), "------"), (1, "-----0"), (63, "-----z"), (64, "----0-"), (1_000_000, "--2o8-"),
        (RankingMember.maximumHandle, "zzzzzz"),
    ])
    func knownMembers(handle: Int64, member: String) {
        #expect(RankingMember.encode(handle) == member)
        #expect(RankingMember.decode(member) == handle)
    }

    @Test("every member is six ASCII bytes")
    func fixedWidth() {
        for handle in [Int64(0), 1, 9, 63, 64, 4_095, 4_096, 999_999, 1_000_000, 68_719_476_735] {
            #expect(RankingMember.encode(handle)?.utf8.count == 6)
        }
    }

    @Test("handles out of range have no member")
    func outOfRange() {
        #expect(RankingMember.encode(-1) == nil)
        #expect(RankingMember.encode(RankingMember.maximumHandle + 1) == nil)
    }

    @Test("strings that are not members decode to nil", arguments: ["", "-----", "-------", "-----!", "player-1", "é-----", "-----."])
    func notMembers(text: String) {
        #expect(RankingMember.decode(text) == nil)
    }

    @Test("byte order of members is handle order, and decoding inverts encoding")
    func orderAndRoundTrip() {
        var generator = SeededGenerator(seed: 47)
        var handles = (0..<2_000).map { _ in Int64(generator.next() % UInt64(RankingMember.maximumHandle + 1)) }
        handles += [0, 1, 62, 63, 64, 65, 4_095, 4_096, RankingMember.maximumHandle]
        for handle in handles {
            #expect(RankingMember.decode(RankingMember.encode(handle)!) == handle)
        }
        let sortedByHandle = handles.sorted()
        let sortedByMember = handles.sorted { Array(RankingMember.encode($0)!.utf8).lexicographicallyPrecedes(Array(RankingMember.encode($1)!.utf8)) }
        #expect(sortedByHandle == sortedByMember)
    }
}
