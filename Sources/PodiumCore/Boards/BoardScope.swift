import Foundation

/// Which players and completions a leaderboard ranks.
///
/// The id form (`global`, `topic:<name>`, `group:<name>`, `quiz:<quiz_id>`, `team:<name>`, `contest:<id>`,
/// `league:<id>:<tier>:<n>`) is what appears in URLs, config and storage keys; names follow `NameRules.isValidScopeName`
/// and quiz ids `NameRules.isValidIdentifier`, so a league cohort's id and a quiz id holding `:` have more than one `:`
/// (readers of a storage key split it from the right).
public enum BoardScope: Sendable, Hashable {
    /// Every completion by every player.
    case global
    /// Completions of quizzes in one topic.
    case topic(String)
    /// Completions by members of one group.
    case group(String)
    /// Completions of one quiz (kept only where a rule turns quiz boards on).
    case quiz(String)
    /// Groups ranked against each other (a rule names its teams): each team's score comes from its group's board.
    case team(String)
    /// A contest's board (`Contest`): completions in its scope played during its runs.
    case contest(String)
    /// One cohort of a league (`League`): its players' completions in scope during a week.
    case league(String, tier: String, cohort: Int)

    /// "global", "topic:<name>", "group:<name>", "quiz:<quiz_id>", "team:<name>", "contest:<id>" or "league:<id>:<tier>:<n>".
    public var id: String {
        switch self {
        case .global: "global"
        case .topic(let name): "topic:\(name)"
        case .group(let name): "group:\(name)"
        case .quiz(let id): "quiz:\(id)"
        case .team(let name): "team:\(name)"
        case .contest(let id): "contest:\(id)"
        case .league(let id, let tier, let cohort): "league:\(id):\(tier):\(cohort)"
        }
    }

    /// Parses an id; nil unless it is exactly "global" or a known prefix with a valid name.
    public init?(id: String) {
        if id == "global" {
            self = .global
            return
        }
        if id.hasPrefix("league:") {
            let parts = id.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 4, NameRules.isValidScopeName(parts[1]), NameRules.isValidScopeName(parts[2]),
                  parts[3].allSatisfy(\.isASCII), parts[3].first != "0", let cohort = Int(parts[3]), cohort > 0 else { return nil }
            self = .league(parts[1], tier: parts[2], cohort: cohort)
            return
        }
        if id.hasPrefix("quiz:") {
            let quizID = String(id.dropFirst("quiz:".count))
            guard NameRules.isValidIdentifier(quizID) else { return nil }
            self = .quiz(quizID)
            return
        }
        guard let colon = id.firstIndex(of: ":") else { return nil }
        let name = String(id[id.index(after: colon)...])
        guard NameRules.isValidScopeName(name) else { return nil }
        switch id[..<colon] {
        case "topic": self = .topic(name)
        case "group": self = .group(name)
        case "team": self = .team(name)
        case "contest": self = .contest(name)
        default: return nil
        }
    }
}

extension BoardScope {
    /// The kinds of board, as ids start: the grammar's one list, for filters that name a kind.
    public enum Kind: String, Sendable, CaseIterable {
        /// `global`.
        case global
        /// `topic:<name>`.
        case topic
        /// `group:<name>`.
        case group
        /// `quiz:<quiz_id>`.
        case quiz
        /// `team:<name>`.
        case team
        /// `contest:<id>`.
        case contest
        /// `league:<id>:<tier>:<n>`.
        case league

        /// Whether board id `id` is of this kind (`global` is the one id of its kind; the others are `<kind>:…`).
        public func holds(boardID id: String) -> Bool {
            self == .global ? id == "global" : id.hasPrefix(rawValue + ":")
        }

        /// The kinds in words for an answer that lists them: "global, topic, group, quiz, team, contest or league".
        public static var spelled: String {
            let names = allCases.map(\.rawValue)
            return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
        }
    }

    /// The scope's kind.
    public var kind: Kind {
        switch self {
        case .global: .global
        case .topic: .topic
        case .group: .group
        case .quiz: .quiz
        case .team: .team
        case .contest: .contest
        case .league: .league
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
                debugDescription: "invalid board scope \"\(id)\"; expected global, topic:<name>, group:<name>, quiz:<quiz_id>, team:<name>, contest:<id> or league:<id>:<tier>:<n>"
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
