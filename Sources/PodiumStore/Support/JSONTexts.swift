/// Many JSON texts bound as one query parameter: joined by U+001E (the ASCII record separator), which JSON text only
/// ever holds escaped, and split again in SQL by `string_to_table($n, $m) WITH ORDINALITY` with `separator` bound
/// as `$m`. No per-character escaping on the way (as a `text[]` literal would need), and nothing parsed on arrival
/// that the column does not need parsed.
enum JSONTexts {
    /// What separates the texts.
    static let separator = "\u{1E}"

    /// `texts` as one parameter.
    static func joined(_ texts: [String]) -> String {
        texts.joined(separator: separator)
    }
}
