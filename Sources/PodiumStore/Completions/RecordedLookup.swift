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
enum RecordedLookup {
    /// Slack on both ends of the window, for replicas whose clocks differ a little.
    static let slack: TimeInterval = 86_400

    /// Selects `columns` (trusted SQL) of every recorded completion with one of `items`' ids that Podium remembers at
    /// `now`, touching only the months it can be in. The items' own times are named only for those outside the window
    /// (a late retry): the usual statement has one range on `completed_at`, which PostgreSQL prunes by even in a
    /// prepared statement's generic plan.
    static func select(_ columns: String, of items: [ValidCompletion], now: Date, rules: GameRules) -> PostgresQuery {
        let since = now.addingTimeInterval(-(rules.maximumAge + GameRules.idsRememberedFor + slack))
        let until = now.addingTimeInterval(rules.futureSkew + slack)
        let outside = Array(Set(items.map(\.completedAt).filter { $0 < since || $0 > until })).sorted()
        guard !outside.isEmpty else {
            return """
                SELECT \(unescaped: columns) FROM completions
                WHERE id = ANY(\(bind: items.map(\.id))) AND completed_at BETWEEN \(bind: since) AND \(bind: until)
                """
        }
        return """
            SELECT \(unescaped: columns) FROM completions
            WHERE id = ANY(\(bind: items.map(\.id)))
              AND (completed_at BETWEEN \(bind: since) AND \(bind: until) OR completed_at = ANY(\(bind: outside)))
            """
    }
}
