import Foundation
import PodiumWire

/// A stored completion with the id of a batch's item.
public enum RecordedCompletion: Sendable {
    /// The item is the same request (equal request hashes): its stored answer.
    case sameRequest(CompletionResponse)
    /// The item is another request under the same id.
    case otherRequest
}

/// A player's entry in a contest (`join` contests count only their entrants).
public struct ContestEntryKey: Sendable, Hashable {
    /// The contest.
    public let contestID: String
    /// The player.
    public let userID: String

    /// Creates one.
    public init(contestID: String, userID: String) {
        self.contestID = contestID
        self.userID = userID
    }
}

/// What a batch's items come to before anything is written: pure, from what the store read first.
public struct BatchPlan: Sendable {
    /// An item answered without writing anything.
    public enum Settled: Sendable {
        /// Same id, same request: the stored answer.
        case replayed(CompletionResponse)
        /// Same id, another request.
        case conflict
        /// New, and older than the age limit (`ValidCompletion.replayOnly`).
        case tooOld(FieldError)
    }

    /// Items answered without writing, by id.
    public let settled: [String: Settled]
    /// The new completions, in lock order: by player (concurrent batches then cannot deadlock on players), then in the
    /// order they were played (totals, streaks and unlocks follow play), then by id.
    public let fresh: [CompletionPlan]

    /// Plans `items` (distinct ids) recorded at `now` under `rules`. `recorded` holds the stored completions with the
    /// items' ids; `joined` the players' entries in contests, which `join` contests count their scores by.
    public init(_ items: [ValidCompletion], rules: GameRules, now: Date, recorded: [String: RecordedCompletion], joined: Set<ContestEntryKey>) {
        var settled: [String: Settled] = [:]
        var fresh: [CompletionPlan] = []
        for item in items {
            switch recorded[item.id] {
            case .sameRequest(let response): settled[item.id] = .replayed(response)
            case .otherRequest: settled[item.id] = .conflict
            case nil where item.replayOnly != nil: settled[item.id] = item.replayOnly.map(Settled.tooOld)
            case nil:
                fresh.append(CompletionPlan(item, rules: rules, now: now).leavingOut { period in
                    guard let contest = period.board.contest, contest.entry == .join else { return false }
                    return !joined.contains(ContestEntryKey(contestID: contest.id, userID: item.userID))
                })
            }
        }
        self.settled = settled
        self.fresh = fresh.sorted { ($0.item.userID, $0.item.completedAt, $0.item.id) < ($1.item.userID, $1.item.completedAt, $1.item.id) }
    }
}
