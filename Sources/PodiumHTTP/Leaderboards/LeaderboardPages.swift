import Foundation
import Hummingbird
import PodiumCore
import PodiumStore
import PodiumWire

/// Board pages as the routes answer them: read from the live rankings or, once the period closed, its final snapshot;
/// rendered as JSON or CSV; shared through this replica's cache.
///
/// A class, one per replica: every live stream re-reads its page through a closure that holds this object, so ten
/// thousand streams hold ten thousand references rather than copies of the controller and its stores.
final class LeaderboardPages: Sendable {
    /// Where pages are read: the live board, or the final one once closed.
    let reads: BoardReads
    let cache: LeaderboardCache
    let closeGrace: TimeInterval
    let now: @Sendable () -> Date

    /// Creates the renderer over the board reads, the cache and the clock.
    init(reads: BoardReads, cache: LeaderboardCache, closeGrace: TimeInterval, now: @escaping @Sendable () -> Date) {
        self.reads = reads
        self.cache = cache
        self.closeGrace = closeGrace
        self.now = now
    }

    /// The answer to `query`: from this replica's cache or a read of it in flight when it is shared, else read.
    func answer(_ query: LeaderboardsController.PageQuery) async throws -> LeaderboardCache.Entry {
        guard let cacheKey = query.cacheKey else { return try await render(query) }
        return try await cache.answer(key: query.target.periodKey, request: cacheKey) { try await self.render(query) }
    }

    /// Where `answer`'s answer to `query` comes from, found without waiting (for live streams: see
    /// `LeaderboardCache.join`); a query the cache does not keep (around a player) is read in a task of its own.
    func join(_ query: LeaderboardsController.PageQuery) -> LeaderboardCache.Joined {
        guard let cacheKey = query.cacheKey else { return .flight(Task { try await self.render(query) }) }
        return cache.join(key: query.target.periodKey, request: cacheKey) { try await self.render(query) }
    }

    /// Reads and renders `query`'s answer.
    private func render(_ query: LeaderboardsController.PageQuery) async throws -> LeaderboardCache.Entry {
        let target = query.target
        // A closed period is read from its final snapshot (with medals): later writes cannot change it.
        let read = try await reads.read(target.boardPeriod, slice: query.slice, now: now())
        if case .around(let user, _) = query.slice, !read.entries.found {
            throw APIError.notFound("user \(user) is not on \(target.board.id) \(target.period.window.rawValue) \(target.period.key)")
        }
        let page = makePage(target, read.entries, closed: read.isFinal)
        let body = ByteBuffer(bytes: query.csv ? LeaderboardsController.csv(page) : Data(page.jsonBytes()))
        let contentType = query.csv ? "text/csv; charset=utf-8" : "application/json; charset=utf-8"
        // Answers served from PostgreSQL (Redis down) are cached too (by `answer`): they cost far more than live ones,
        // and polling displays would otherwise send every poll to PostgreSQL. They turn live within the lifetime.
        return LeaderboardCache.Entry(body: body, contentType: contentType, etag: LeaderboardCache.etag(for: body), expires: .now)
    }

    /// The page; `closed` when the period was closed early, before its end plus grace, and for every run of a
    /// cancelled contest (none takes a score any more).
    func makePage(_ target: LeaderboardsController.Target, _ entries: RankedEntries, closed: Bool) -> LeaderboardPage {
        let period = target.period
        let contest = target.board.contest
        let next = period.start.flatMap { start in contest?.runs(after: start, limit: 1).first?.start }
        return LeaderboardPage(
            board: target.board.id, window: period.window, period: period.key, startsAt: period.start.map(RFC3339.format),
            endsAt: period.end.map(RFC3339.format), closesAt: period.closesAt(grace: closeGrace).map(RFC3339.format),
            timeZone: target.board.timeZone.configuredName, metric: target.board.metric, aggregate: target.board.aggregate,
            status: closed || contest?.cancelledAt != nil || period.isClosed(at: now(), grace: closeGrace) ? .closed : .open,
            players: entries.players, live: entries.live, offset: entries.offset, entries: entries.entries, title: target.board.title,
            league: target.board.cohort?.page(players: entries.players), cancelledAt: contest?.cancelledAt.map(RFC3339.format),
            nextStartsAt: next.map(RFC3339.format))
    }
}
