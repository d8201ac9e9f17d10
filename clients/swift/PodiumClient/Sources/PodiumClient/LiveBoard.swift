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
public enum LiveBoard {
    /// The pages of `board`'s current `window` period (the first at once), until the task iterating them is cancelled.
    public static func pages(
        of board: String, window: Components.Schemas.LeaderboardWindow, limit: Int = 10, podium: Podium,
        pollEvery: Duration = .seconds(2)
    ) -> AsyncStream<Components.Schemas.LeaderboardPage> {
        AsyncStream { continuation in
            let task = Task {
                var lastID: String?
                while !Task.isCancelled {
                    do {
                        let output = try await podium.api.streamLeaderboard(
                            path: .init(board: board, window: window), query: .init(limit: limit), headers: .init(lastEventID: lastID))
                        if case .ok(let stream) = output {
                            for try await event in try stream.body.textEventStream.asDecodedServerSentEvents() {
                                // `{"live": false}`: change notices do not reach Podium (Redis down); poll until they do.
                                if event.event == "status", event.data?.contains("false") == true { break }
                                guard event.event == "page", let data = event.data,
                                      let page = try? PodiumJSON.decoder.decode(Components.Schemas.LeaderboardPage.self, from: Data(data.utf8))
                                else { continue }
                                lastID = event.id ?? lastID
                                continuation.yield(page)
                            }
                        }
                    } catch {
                        // A drop, a refused connection or a restart: read the page meanwhile.
                    }
                    if Task.isCancelled { break }
                    if let (page, tag) = try? await poll(board: board, window: window, limit: limit, podium: podium, etag: lastID) {
                        lastID = tag ?? lastID
                        continuation.yield(page)
                    }
                    try? await podium.sleep(pollEvery)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The page, unless it is still the one tagged `etag` (then nil); with its ETag.
    static func poll(
        board: String, window: Components.Schemas.LeaderboardWindow, limit: Int, podium: Podium, etag: String?
    ) async throws -> (Components.Schemas.LeaderboardPage, String?)? {
        let output = try await podium.api.fetchLeaderboardPage(
            path: .init(board: board, window: window), query: .init(limit: limit),
            headers: .init(ifNoneMatch: etag, accept: [.init(contentType: .json)]))
        guard case .ok(let ok) = output, case .json(let page) = ok.body else { return nil }
        return (page, ok.headers.eTag)
    }
}
