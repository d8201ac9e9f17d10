import Foundation
import PodiumWire

/// Rules for the identifiers and names clients send.
///
/// The API rejects rather than normalises: nothing is lowercased or trimmed, so what a client
/// stores is exactly what it reads back and what appears in keys.
public enum NameRules {
    /// The longest identifier accepted, in characters.
    public static let maximumIdentifierLength = 128
    /// The longest topic or group name accepted, in characters.
    public static let maximumScopeNameLength = 64
    /// The longest display name accepted, in Unicode scalars.
    public static let maximumDisplayNameLength = 64
    /// The most combining marks (Mn, Me) one character of a display name may carry.
    public static let maximumCombiningMarksPerCharacter = 4

    /// user_id, quiz_id, completion id: 1...128 characters of `[A-Za-z0-9._:@-]`.
    public static func isValidIdentifier(_ s: String) -> Bool {
        isMade(of: s, maxLength: maximumIdentifierLength) { byte in
            isASCIILetter(byte) || isASCIIDigit(byte) || ".-_:@".utf8.contains(byte)
        }
    }

    /// A user id: an identifier that is not only dots. `.` and `..` cannot be a URL path segment
    /// (clients and proxies resolve `/v1/users/..` to `/v1`), so such a player could never be read
    /// or erased; `...` is refused with them so the rule stays one line.
    public static func isValidUserID(_ s: String) -> Bool {
        isValidIdentifier(s) && s.utf8.contains { $0 != UInt8(ascii: ".") }
    }

    /// Free text such as a note or a secret: at most `maxLength` Unicode scalars (as JSON Schema counts a string's
    /// length), none of them a control character.
    public static func isFreeText(_ s: String, maxLength: Int) -> Bool {
        s.unicodeScalars.count <= maxLength && !s.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// An API key's name: 1...100 characters, none of them a control character (a tab would also break
    /// `podium keys list`'s columns).
    public static func isValidKeyName(_ s: String) -> Bool {
        !s.isEmpty && isFreeText(s, maxLength: 100)
    }

    /// A time zone: a zone or alias of the tz database this server reads (`Asia/Kolkata` and its old name
    /// `Asia/Calcutta`, `America/Argentina/Buenos_Aires`, `US/Eastern`, `UTC`, `Japan`, `EST5EDT`) that Foundation loads.
    ///
    /// Refused: the fixed-offset zones `Etc/GMT+N` and `Etc/GMT-N` (N > 0), whose signs are the reverse of what a
    /// reader expects (`Etc/GMT+5` is five hours *behind* UTC); `Factory`; and anything not in the database, such as
    /// the `GMT+5` or `UTC+1` Foundation would make up. The one check for preferences, reminders, contests, the
    /// rules file and scheduler jobs.
    public static func isValidTimeZone(_ s: String) -> Bool {
        knownTimeZones.contains(s)
    }

    /// The field error for a time zone `isValidTimeZone` refuses, naming `field`; nil when the zone is valid.
    public static func timeZoneError(_ s: String, field: String) -> FieldError? {
        isValidTimeZone(s) ? nil : FieldError(
            field: field, message: "must be a time zone of the tz database such as Asia/Kolkata (not an offset such as GMT+5)")
    }

    /// The directory of the tz database: `TZDIR` when set, else `/usr/share/zoneinfo`.
    public static let timeZoneDatabase = ProcessInfo.processInfo.environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 }
        ?? "/usr/share/zoneinfo"

    /// The zones `isValidTimeZone` accepts, read once from `timeZoneDatabase`.
    public static let knownTimeZones: Set<String> = timeZones(inDatabaseAt: timeZoneDatabase)

    /// The names of the tz database in `directory` that `isValidTimeZone` accepts: each a TZif file (a zone, or a
    /// link to one) whose path has the form of a zone name (see `isZoneName`) and that Foundation loads.
    public static func timeZones(inDatabaseAt directory: String) -> Set<String> {
        let paths = (try? FileManager.default.subpathsOfDirectory(atPath: directory)) ?? []
        return Set(paths.filter { path in
            isZoneName(path) && isTZif(atPath: directory + "/" + path) && TimeZone(identifier: path) != nil
        })
    }

    /// Whether `name` has the form of a zone name: `/`-separated parts, each an upper-case ASCII letter followed by
    /// letters, digits, `_`, `-` or `+`; not `Factory`, not an `Etc/GMT±N` offset other than 0. This also leaves out
    /// the database's other files (`posix/…`, `right/…`, `posixrules`, `zone1970.tab`).
    private static func isZoneName(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        return name != "Factory" && !isReversedOffset(name)
            && parts.allSatisfy { part in
                guard let first = part.utf8.first, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) else { return false }
                return part.utf8.allSatisfy { isASCIILetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || "_-+".utf8.contains($0) }
            }
    }

    /// Whether `name` is `Etc/GMT+N` or `Etc/GMT-N` with N > 0.
    private static func isReversedOffset(_ name: String) -> Bool {
        guard name.hasPrefix("Etc/GMT+") || name.hasPrefix("Etc/GMT-") else { return false }
        return name.dropFirst("Etc/GMT+".count).contains { $0 != "0" }
    }

    /// Whether the file at `path` starts as a compiled tz database file does (`TZif`); false for directories.
    private static func isTZif(atPath path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        return (try? file.read(upToCount: 4)) == Data("TZif".utf8)
    }

    /// Topic and group names: 1...64 characters of `[a-z0-9._-]`.
    ///
    /// Uppercase is rejected, not lowercased, so one topic cannot have two spellings.
    public static func isValidScopeName(_ s: String) -> Bool {
        isMade(of: s, maxLength: maximumScopeNameLength) { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || isASCIIDigit(byte) || "._-".utf8.contains(byte)
        }
    }

    /// Display names: 1...64 Unicode scalars, not only whitespace, without control characters (Cc)
    /// or format characters (Cf) other than the two joiners, and with at most 4 combining marks on
    /// any one character.
    ///
    /// Format characters (bidi overrides and isolates U+202A–U+202E and U+2066–U+2069, the marks
    /// U+200E, U+200F and U+061C, zero-width spaces U+200B, U+2060 and U+FEFF, soft hyphens, tags)
    /// are rejected because they are invisible or reorder text, so they let one name impersonate
    /// another on a leaderboard or hide text in it. Tags also spell the flags of England, Scotland
    /// and Wales, which are refused with them. ZERO WIDTH JOINER and NON-JOINER (U+200D, U+200C) are
    /// accepted after a non-ASCII character, where real names need them (emoji sequences such as
    /// 👩‍🏫, Persian and Indic spellings), and refused after an ASCII one, where they would only
    /// hide in a Latin name (`A\u{200D}da` is not `Ada`). Variation selectors (the U+FE0F of ❤️)
    /// are combining marks and count towards the limit, which refuses "zalgo" text: marks stacked
    /// on a letter spill over the lines around it.
    public static func isValidDisplayName(_ s: String) -> Bool {
        displayNameProblem(s) == nil
    }

    /// Why `s` is not a valid display name (see `isValidDisplayName`), as a field error message; nil when it is one.
    public static func displayNameProblem(_ s: String) -> String? {
        let scalars = Array(s.unicodeScalars)
        let general = "must be 1-64 characters without control characters"
        guard (1...maximumDisplayNameLength).contains(scalars.count) else { return general }
        var hasVisible = false
        for (index, scalar) in scalars.enumerated() {
            switch scalar.properties.generalCategory {
            case .control:
                return general
            case .format:
                guard isJoiner(scalar) else { return "must not contain invisible format characters (bidi controls, zero-width spaces)" }
                guard index > 0, canPrecedeJoiner(scalars[index - 1]) else {
                    return "must have zero-width joiners and non-joiners only after a non-ASCII character"
                }
            default:
                break
            }
            if !scalar.properties.isWhitespace { hasVisible = true }
        }
        guard hasVisible else { return general }
        for character in s where character.unicodeScalars.filter(isCombiningMark).count > maximumCombiningMarksPerCharacter {
            return "must have at most \(maximumCombiningMarksPerCharacter) combining marks on one character"
        }
        return nil
    }

    /// ZERO WIDTH NON-JOINER (U+200C) or ZERO WIDTH JOINER (U+200D).
    private static func isJoiner(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x200C || scalar.value == 0x200D
    }

    /// Whether a joiner may follow `scalar`: a visible non-ASCII character (a letter, a mark such as a
    /// virama or a variation selector, an emoji), not a space or another joiner.
    private static func canPrecedeJoiner(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.isASCII && !scalar.properties.isWhitespace && !isJoiner(scalar)
    }

    /// A nonspacing (Mn) or enclosing (Me) combining mark, the kinds that stack on a letter.
    private static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        let category = scalar.properties.generalCategory
        return category == .nonspacingMark || category == .enclosingMark
    }

    /// Whether `s` is 1...maxLength bytes, each accepted by `allowed` (so ASCII-only allows are exact).
    private static func isMade(of s: String, maxLength: Int, allowed: (UInt8) -> Bool) -> Bool {
        let bytes = s.utf8
        return (1...maxLength).contains(bytes.count) && bytes.allSatisfy(allowed)
    }

    /// `A`...`Z` or `a`...`z`.
    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    /// `0`...`9`.
    private static func isASCIIDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

extension TimeZone {
    /// The zone's name as people configure it. Foundation on Linux names UTC "GMT"; Podium says "UTC" (the same
    /// zone) wherever it shows a zone: boards, jobs, reminder events.
    public var configuredName: String { identifier == "GMT" ? "UTC" : identifier }
}
