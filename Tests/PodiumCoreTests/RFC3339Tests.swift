import Foundation
import PodiumCore
import Testing

@Suite("RFC 3339 times", .timeLimit(.minutes(5)))
struct RFC3339Tests {
    @Test("valid times parse to the instant they name", arguments: [
        ("2026-11-21T10:00:00Z", 1_795_255_200.0),
        ("2026-11-21t10:00:00z", 1_795_255_200.0),
        ("2026-11-21T10:00:00.5Z", 1_795_255_200.5),
        ("2026-11-21T10:00:00.123456789012Z", 1_795_255_200.123),
        ("2026-11-21T11:30:00+01:30", 1_795_255_200.0),
        ("2026-11-21T00:00:00-10:00", 1_795_255_200.0),
        ("2026-12-31T23:59:60Z", 1_798_761_599.0),
        ("1900-01-01T00:00:00Z", -2_208_988_800.0),
        ("9999-12-31T23:59:59.999Z", 253_402_300_799.999),
        ("2028-02-29T00:00:00Z", 1_835_395_200.0),
    ])
    func parses(text: String, seconds: Double) throws {
        let date = try #require(RFC3339.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.0005)
    }

    @Test("anything else is refused", arguments: [
        "", "2026-11-21", "2026-11-21T10:00:00", "2026-11-21T10:00:00Zjunk", "2026-11-21T10:00:00Z ", " 2026-11-21T10:00:00Z",
        "2026-1-5T1:2:3Z", "2026-11-21 10:00:00Z", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-11-21T24:00:00Z",
        "2026-11-21T10:60:00Z", "2026-11-21T10:00:61Z", "2026-11-21T10:00:00.Z", "2026-11-21T10:00:00+24:00",
        "2026-11-21T10:00:00+0100", "2026-11-21T10:00:00 UTC", "2026-11-21T10:00:00GMT", "+02026-11-21T10:00:00Z",
        "0001-01-01T00:00:00Z", "0001-01-01T00:00:00+14:00", "1899-12-31T23:59:59Z", "1900-01-01T00:00:00+00:01",
        "9999-12-31T23:59:59-01:00", "２０２６-11-21T10:00:00Z",
    ])
    func refuses(text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    @Test("formatting gives UTC with milliseconds, and parses back")
    func roundTrip() throws {
        let date = Date(timeIntervalSince1970: 1_795_255_200.25)
        #expect(RFC3339.format(date) == "2026-11-21T10:00:00.250Z")
        #expect(RFC3339.parse(RFC3339.format(date)) == date)
    }
}
