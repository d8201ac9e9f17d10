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

    @Test("every millisecond formats as itself (Foundation's fraction prints .919 held as .91899… as .918), and parses back to the same instant")
    func everyMillisecondIsExact() throws {
        var wrong: [String] = []
        // 20,000 milliseconds spread over a year, and the start of one second.
        for step in 0..<20_000 {
            let millis = Int64(1_796_000_000_000) + Int64(step) * 1_579
            let date = Date(timeIntervalSince1970: Double(millis) / 1000)
            let text = RFC3339.format(date)
            let parsed = try #require(RFC3339.parse(text))
            if !text.hasSuffix(String(format: ".%03dZ", Int(millis % 1000)))
                || RFC3339.wholeMilliseconds(parsed) != date || RFC3339.format(parsed) != text {
                wrong.append(text)
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, e.g. \(wrong.prefix(3))")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_795_255_200.9996)) == "2026-11-21T10:00:01.000Z", "the nearest millisecond")
        #expect(RFC3339.format(Date(timeIntervalSince1970: -1.5)) == "1969-12-31T23:59:58.500Z")
    }
}
