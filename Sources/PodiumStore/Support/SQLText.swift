/// SQL fragments shared by stores that build JSON in PostgreSQL.
public enum SQLText {
    /// SQL writing timestamptz `column` as the API's RFC 3339 text: UTC, milliseconds, `Z`.
    public static func rfc3339(_ column: String) -> String {
        "to_char(\(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
    }

    /// `text` with LIKE's wildcards (`%`, `_`) and its escape (`\\`) escaped, to match as it is.
    public static func escapedLike(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
