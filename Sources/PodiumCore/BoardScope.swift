import Foundation

/// Which players and completions a leaderboard ranks.
///
/// The id form (`global`, `topic:<name>`, `group:<name>`) is what appears in URLs, config and
/// storage keys; names follow `NameRules.isValidScopeName`, so an id never contains a second `:`.
public enum BoardScope: Sendable, Hashable {
    /// Every completion by every player.
    case global
    /// Completions of quizzes in one topic.
    case topic(String)
    /// Completions by members of one group.
    case group(String)
    /// A contest's board (`Contest`): completions in its scope played during its runs.
    case contest(String)

    /// "global", "topic:<name>", "group:<name>" or "contest:<id>".
    public var id: String {
        switch self {
        case .global: "global"
        case .topic(let name): "topic:\(name)"
        case .group(let name): "group:\(name)"
        case .contest(let id): "contest:\(id)"
        }
    }

    /// Parses an id; nil unless it is exactly "global" or a known prefix with a valid name.
    public init?(id: String) {
        if id == "global" {
            self = .global
            return
        }
        guard let colon = id.firstIndex(of: ":") else { return nil }
        let name = String(id[id.index(after: colon)...])
        guard NameRules.isValidScopeName(name) else { return nil }
        switch id[..<colon] {
        case "topic": self = .topic(name)
        case "group": self = .group(name)
        case "contest": self = .contest(name)
        default: return nil
        }
    }
}

extension BoardScope: CustomStringConvertible {
    /// The scope's id.
    public var description: String { id }
}

extension BoardScope: Codable {
    /// Decodes a scope from its id string, rejecting malformed ids.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let id = try container.decode(String.self)
        guard let scope = BoardScope(id: id) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "invalid board scope \"\(id)\"; expected global, topic:<name>, group:<name> or contest:<id>"
            )
        }
        self = scope
    }

    /// Encodes the scope as its id string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(id)
    }
}
