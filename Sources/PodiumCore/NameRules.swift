import Foundation

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

    /// user_id, quiz_id, completion id: 1...128 characters of `[A-Za-z0-9._:@-]`.
    public static func isValidIdentifier(_ s: String) -> Bool {
        isMade(of: s, maxLength: maximumIdentifierLength) { byte in
            isASCIILetter(byte) || isASCIIDigit(byte) || ".-_:@".utf8.contains(byte)
        }
    }

    /// Free text such as a note or a secret: at most `maxLength` characters, none of them a control character.
    public static func isFreeText(_ s: String, maxLength: Int) -> Bool {
        s.count <= maxLength && !s.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// An API key's name: 1...100 characters, none of them a control character (a tab would also break
    /// `podium keys list`'s columns).
    public static func isValidKeyName(_ s: String) -> Bool {
        !s.isEmpty && isFreeText(s, maxLength: 100)
    }

    /// A time zone: an IANA identifier this machine knows, at most 64 characters (e.g. `Europe/Paris`).
    public static func isValidTimeZone(_ s: String) -> Bool {
        s.count <= 64 && TimeZone(identifier: s) != nil
    }

    /// Topic and group names: 1...64 characters of `[a-z0-9._-]`.
    ///
    /// Uppercase is rejected, not lowercased, so one topic cannot have two spellings.
    public static func isValidScopeName(_ s: String) -> Bool {
        isMade(of: s, maxLength: maximumScopeNameLength) { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || isASCIIDigit(byte) || "._-".utf8.contains(byte)
        }
    }

    /// Display names: 1...64 Unicode scalars, no control or format characters (Cc/Cf), not only whitespace.
    ///
    /// Format characters (bidi overrides, zero-width joiners) are rejected because they let one
    /// name impersonate another on a leaderboard.
    public static func isValidDisplayName(_ s: String) -> Bool {
        let scalars = s.unicodeScalars
        guard (1...maximumDisplayNameLength).contains(scalars.count) else { return false }
        var hasVisible = false
        for scalar in scalars {
            switch scalar.properties.generalCategory {
            case .control, .format: return false
            default: break
            }
            if !scalar.properties.isWhitespace { hasVisible = true }
        }
        return hasVisible
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
