import Foundation
import PodiumWire

/// A pattern naming boards, as API key scopes hold them: `global`, `topic:<name>`, `topic:*`,
/// `group:<name>`, `group:*`, `quiz:<quiz_id>`, `quiz:*` or `contest:<id>`.
///
/// A scoped key reads only the boards its patterns match, and only the players who appear on them
/// (a teacher's key with `group:class-4b` sees that class's boards and its pupils' profiles).
public enum BoardPattern: Sendable, Hashable {
    /// Exactly one board.
    case board(BoardScope)
    /// Every topic board.
    case anyTopic
    /// Every group board.
    case anyGroup
    /// Every quiz board.
    case anyQuiz

    /// Parses a pattern; nil unless it is a board id (a contest's included) or `topic:*` / `group:*` / `quiz:*`.
    public init?(_ text: String) {
        switch text {
        case "topic:*": self = .anyTopic
        case "group:*": self = .anyGroup
        case "quiz:*": self = .anyQuiz
        default:
            guard let board = BoardScope(id: text) else { return nil }
            self = .board(board)
        }
    }

    /// The pattern as written.
    public var text: String {
        switch self {
        case .board(let board): board.id
        case .anyTopic: "topic:*"
        case .anyGroup: "group:*"
        case .anyQuiz: "quiz:*"
        }
    }

    /// Whether `board` is one of the boards this pattern names.
    public func matches(_ board: BoardScope) -> Bool {
        switch (self, board) {
        case (.board(let named), _): named == board
        case (.anyTopic, .topic), (.anyGroup, .group), (.anyQuiz, .quiz): true
        default: false
        }
    }

    /// Whether any of `patterns` matches `board`.
    public static func any(_ patterns: [BoardPattern], match board: BoardScope) -> Bool {
        patterns.contains { $0.matches(board) }
    }
}

extension BoardPattern: Codable {
    /// Decodes a pattern from its text, rejecting anything else.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let pattern = BoardPattern(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "invalid board pattern \"\(text)\"; expected global, topic:<name>, topic:*, group:<name>, group:*, quiz:<quiz_id>, quiz:* or contest:<id>")
        }
        self = pattern
    }

    /// Encodes the pattern as its text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// What a verified player token vouches for: one player, and the groups the quiz backend says it belongs to.
public struct PlayerClaims: Sendable, Equatable {
    /// The player's Podium user id (the token's `sub`).
    public var userID: String
    /// Groups the backend vouches for (the token's `groups`); a player posts and reads only these.
    public var groups: Set<String>
    /// When the token expires (its `exp`): a live stream it opened ends then.
    public var expiresAt: Date?

    /// Creates claims.
    public init(userID: String, groups: Set<String>, expiresAt: Date? = nil) {
        self.userID = userID
        self.groups = groups
        self.expiresAt = expiresAt
    }

    /// Whether the token has expired at `now` (its `exp` reached).
    public func hasExpired(at now: Date) -> Bool {
        expiresAt.map { $0 <= now } ?? false
    }

    /// Boards a player may read: global, every topic and quiz, and its own groups (never another class's board). A contest's
    /// board and a league cohort's are not among these; the caller checks the contest's or league's scope instead.
    public func maySee(_ board: BoardScope) -> Bool {
        switch board {
        case .global, .topic, .quiz, .team: true
        case .group(let name): groups.contains(name)
        case .contest, .league: false
        }
    }
}

/// The address of a display key's classroom page.
public enum DisplayLink {
    /// The display page of the first single board among `scopes`, with the key in the fragment (never sent to a
    /// server): a contest's runs, or another board's week (its first window when it keeps no week, as `windows` says).
    /// Nil when every scope is a pattern (`group:*`).
    public static func url(
        base: String, scopes: [BoardPattern], secret: String, windows: (BoardScope) -> [LeaderboardWindow]
    ) -> String? {
        for case .board(let board) in scopes {
            let kept = windows(board)
            let window: LeaderboardWindow = if case .contest = board { .contest } else if kept.contains(.week) { .week } else { kept.first ?? .week }
            return "\(base)/display/\(board.id)/\(window.rawValue)#key=\(secret)"
        }
        return nil
    }
}
