import Foundation
import OpenAPIRuntime
import PodiumAPI

/// A board period kept current: its pages as they change.
///
/// It reads `GET …/live` (Server-Sent Events); when the stream ends or fails it reads the page once with
/// `If-None-Match` (a 304 costs nothing), waits `pollEvery`, and connects again with the last page's ETag as
/// `Last-Event-ID`, so Podium skips a page already shown. While the stream cannot be had (a proxy that buffers event
/// streams, a restart) or says it is not live (`status` `{"live": false}`), the board is thus polled every
/// `pollEvery`, and it is live again as soon as the stream is back.
///
/// A refused credential (401 even after one fresh token from the supply) stops it: it tells the app (`onError`), sends
/// nothing for 30 s, then tries again with a fresh token, waiting twice as long after each refusal up to 10 minutes,
/// so a signed-out player's board never keeps knocking (Podium allows 60 failed authentications a minute from one
/// address). The first page after that starts the count again. A refused board (403, 404) ends the pages by throwing
/// that `PodiumError`: trying again cannot change it.
public enum LiveBoard {
    /// The first wait after a refused credential.
    static let firstBackoff = Duration.seconds(30)
    /// The longest wait after refused credentials.
    static let longestBackoff = Duration.seconds(600)

    /// The pages of `board`'s current `window` period (the first at once), until the task iterating them is cancelled
    /// or Podium refuses the board; `onError` hears of each refused credential.
    public static func pages(
        of board: String, window: LeaderboardWindow, limit: Int = 10, podium: Podium, pollEvery: Duration = .seconds(2),
        onError: @escaping @Sendable (PodiumError) -> Void = { _ in }
    ) -> AsyncThrowingStream<LeaderboardPage, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var lastID: String?
                var backoff = firstBackoff
                while !Task.isCancelled {
                    do {
                        try await round(board: board, window: window, limit: limit, podium: podium, lastID: &lastID) { page in
                            backoff = firstBackoff
                            continuation.yield(page)
                        }
                        try? await podium.sleep(pollEvery)
                    } catch {
                        let podiumError = PodiumError.from(error)
                        guard case .authentication? = podiumError, let refused = podiumError else {
                            continuation.finish(throwing: podiumError ?? error)
                            return
                        }
                        onError(refused)
                        try? await podium.sleep(backoff)
                        backoff = min(backoff * 2, longestBackoff)
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Follows the live stream until it ends, then reads the page once; passes each page to `show`. Throws only what
    /// trying again cannot change by itself: a refused credential or board.
    static func round(
        board: String, window: LeaderboardWindow, limit: Int, podium: Podium, lastID: inout String?,
        show: (LeaderboardPage) -> Void
    ) async throws {
        do {
            try await stream(board: board, window: window, limit: limit, podium: podium, lastID: &lastID, show: show)
        } catch let error where isFinal(error) {
            throw error
        } catch {
            // A drop, a refused connection or a restart: read the page meanwhile.
        }
        if Task.isCancelled { return }
        do {
            if let (page, tag) = try await poll(board: board, window: window, limit: limit, podium: podium, etag: lastID) {
                lastID = tag ?? lastID
                show(page)
            }
        } catch let error where isFinal(error) {
            throw error
        } catch {
            // Unreachable for now: the stream, or the next poll, tries again.
        }
    }

    /// Whether `error` is a refusal that trying again at once cannot change: a refused credential or board.
    static func isFinal(_ error: any Error) -> Bool {
        switch PodiumError.from(error) {
        case .authentication?, .refused?: true
        default: false
        }
    }

    /// Reads the live stream until it ends, passing each page on and keeping its id in `lastID`.
    static func stream(
        board: String, window: LeaderboardWindow, limit: Int, podium: Podium, lastID: inout String?,
        show: (LeaderboardPage) -> Void
    ) async throws {
        let output = try await podium.api.streamLeaderboard(
            path: .init(board: board, window: window), query: .init(limit: limit), headers: .init(lastEventID: lastID))
        for try await event in try output.ok.body.textEventStream.asDecodedServerSentEvents() {
            // `{"live": false}`: change notices do not reach Podium (Redis down); poll until they do.
            if event.event == "status", event.data?.contains("false") == true { return }
            guard event.event == "page", let data = event.data,
                  let page = try? PodiumJSON.decoder.decode(LeaderboardPage.self, from: Data(data.utf8))
            else { continue }
            lastID = event.id ?? lastID
            show(page)
        }
    }

    /// The page, unless it is still the one tagged `etag` (then nil); with its ETag.
    static func poll(
        board: String, window: LeaderboardWindow, limit: Int, podium: Podium, etag: String?
    ) async throws -> (LeaderboardPage, String?)? {
        let output = try await podium.api.fetchLeaderboardPage(
            path: .init(board: board, window: window), query: .init(limit: limit),
            headers: .init(ifNoneMatch: etag, accept: [.init(contentType: .json)]))
        guard case .ok(let ok) = output, case .json(let page) = ok.body else { return nil }
        return (page, ok.headers.eTag)
    }
}
