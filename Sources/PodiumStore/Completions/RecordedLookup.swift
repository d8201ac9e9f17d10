import Foundation
import PodiumCore
import Postgres

/// Where a batch looks for the completions already recorded under its ids.
///
/// `completions` is partitioned by the month of `completed_at` (migration 022), so its key is `(id, completed_at)` and
/// looking an id up in every month would cost a probe per month kept. A batch looks instead in the months any
/// completion recorded in the last `GameRules.idsRememberedFor` can be in (new completions are at most the rules'
/// maximum age old), and in the months of the items' own `completed_at`: a retry of the same body carries the same time, so it is found
/// for as long as its month is kept. What goes unremembered is documented (docs/RULES.md, "Retries and replays"): after
/// that time, the same id with a different `completed_at`, or sent again without one, records a new completion.
///
/// A statement that looks completions up this way conforms to `RecordedLookup` and chooses the columns it reads.
protocol RecordedLookup: PostgresStatement {
    /// Where to look.
    var window: RecordedWindow { get }
    /// The text for a batch with an item outside the window (a late retry); `sql` is the usual one.
    static var withLateItems: PostgresSQL<Self> { get }
}

extension RecordedLookup {
    /// The usual text, or the one naming the items' own times when some are outside the window.
    var text: PostgresSQL<Self> { window.outside.isEmpty ? Self.sql : Self.withLateItems }

    /// The text selecting `columns` (trusted SQL) of the recorded completions; with `late`, also those at the times of
    /// the items outside the window. The usual text has one range on `completed_at`, which PostgreSQL prunes by even in
    /// a prepared statement's generic plan.
    static func lookup(columns: String, late: Bool) -> PostgresSQL<Self> {
        guard late else {
            return """
                SELECT \(unescaped: columns) FROM completions
                WHERE id = ANY(\(\.window.ids)) AND completed_at BETWEEN \(\.window.since) AND \(\.window.until)
                """
        }
        return """
            SELECT \(unescaped: columns) FROM completions
            WHERE id = ANY(\(\.window.ids))
              AND (completed_at BETWEEN \(\.window.since) AND \(\.window.until) OR completed_at = ANY(\(\.window.outside)))
            """
    }
}

/// The ids a batch looks up and the times it looks at (see `RecordedLookup`).
struct RecordedWindow: Sendable {
    /// Slack on both ends of the window, for replicas whose clocks differ a little.
    static let slack: TimeInterval = 86_400

    /// The items' ids.
    let ids: [String]
    /// The window's first instant.
    let since: Date
    /// Its last instant.
    let until: Date
    /// The items' own times outside the window, sorted; empty for the usual batch.
    let outside: [Date]

    /// Where the completions with one of `items`' ids that Podium remembers at `now` can be.
    init(of items: [ValidCompletion], now: Date, rules: GameRules) {
        let since = now.addingTimeInterval(-(rules.maximumAge + GameRules.idsRememberedFor + Self.slack))
        let until = now.addingTimeInterval(rules.futureSkew + Self.slack)
        (ids, self.since, self.until) = (items.map(\.id), since, until)
        outside = Array(Set(items.map(\.completedAt).filter { $0 < since || $0 > until })).sorted()
    }
}
