import Foundation
import PodiumCore

/// Reading a board period: from the live rankings while it is open, from its final snapshot (with medals) once it
/// closed. The use case spans `Rankings` (live) and `Periods` (final boards); the decision is made here, once, for
/// pages, around-me, the friends view and comparisons alike.
///
/// A closed board is read from its final snapshot, never from the live scores: a completion that arrives after the
/// close (a replica with a slow clock, a write racing the close) can still touch `board_scores`, but it can no longer
/// change the closed board or its medals.
public struct BoardReads: Sendable {
    let leaderboards: LeaderboardStore
    let periods: PeriodStore

    /// Creates the use case over the live rankings and the periods' final boards.
    public init(leaderboards: LeaderboardStore, periods: PeriodStore) {
        self.leaderboards = leaderboards
        self.periods = periods
    }

    /// Entries read from a board period, and whether they are its final board.
    public struct Read: Sendable {
        /// The entries.
        public let entries: RankedEntries
        /// Whether the period was closed and the entries come from its final snapshot.
        public let isFinal: Bool
    }

    /// A slice of `period` at `now`: its final board once closed, else the live one.
    public func read(_ period: BoardPeriod, slice: LeaderboardSlice, now: Date) async throws -> Read {
        if let snapshot = try await finalSnapshot(of: period, now: now) {
            var entries = try await periods.readFinal(snapshot: snapshot, slice: slice)
            if period.board.teams != nil {
                // A team's entry is its group's board id; it shows the group's name, as the live page does.
                for index in entries.entries.indices { entries.entries[index].displayName = String(entries.entries[index].userId.dropFirst("group:".count)) }
            }
            return Read(entries: entries, isFinal: true)
        }
        let live = try await leaderboards.read(board: period.board.id, window: period.period.window, period: period.period.key, slice: slice)
        return Read(entries: live, isFinal: false)
    }

    /// The given players' standings on `period` at `now` (friends view, comparisons): final once closed, else live.
    public func compare(_ period: BoardPeriod, userIDs: [String], now: Date) async throws -> Read {
        let userIDs = Array(Set(userIDs))
        if let snapshot = try await finalSnapshot(of: period, now: now) {
            return Read(entries: try await periods.compareFinal(snapshot: snapshot, userIDs: userIDs), isFinal: true)
        }
        let live = try await leaderboards.compare(
            board: period.board.id, window: period.period.window, period: period.period.key, userIDs: userIDs)
        return Read(entries: live, isFinal: false)
    }

    /// Whether `period` was closed by `now` (by the scheduler, or early by ops), so that it is read from its final board.
    public func isFinal(_ period: BoardPeriod, now: Date) async throws -> Bool {
        try await finalSnapshot(of: period, now: now) != nil
    }

    /// The final snapshot of `period` once it was closed; nil while it is live.
    ///
    /// Only a period that has ended can be closed, except a contest run under way that an admin closed early, so reads
    /// of current calendar periods and of runs not started never ask PostgreSQL.
    private func finalSnapshot(of period: BoardPeriod, now: Date) async throws -> Int64? {
        guard let start = period.period.start, let end = period.period.end,
              end <= now || (period.period.window == .contest && start <= now) else { return nil }
        return try await periods.finalSnapshot(BoardPeriodKey(period))
    }
}
