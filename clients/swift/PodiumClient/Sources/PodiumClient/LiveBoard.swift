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
/// A refused credential (401 even after one fresh token from the supply) or a refused board (403, 404) ends the pages
/// by throwing that `PodiumError`: nothing more is sent, so a signed-out player's board never keeps knocking. The app
/// signs the player in again and asks for the pages anew.
public enum LiveBoard {
    /// The pages of `board`'s current `window` period (the first at once), until the task iterating them is cancelled
    /// or Podium refuses the credential or the board.
    public static func pages(
        of board: String, window: LeaderboardWindow, limit: Int = 10, podium: Podium, pollEvery: Duration = .seconds(2)
    ) -> AsyncThrowingStream<LeaderboardPage, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var lastID: String?
                do {
                    while !Task.isCancelled {
                        do {
                            try await stream(board: board, window: window, limit: limit, podium: podium, lastID: &lastID) {
                                continuation.yield($0)
                            }
                        } catch let error where isFinal(error) {
                            throw error
                        } catch {
                            // A drop, a refused connection or a restart: read the page meanwhile.
                        }
                        if Task.isCancelled { break }
                        do {
                            if let (page, tag) = try await poll(board: board, window: window, limit: limit, podium: podium, etag: lastID) {
                                lastID = tag ?? lastID
                                continuation.yield(page)
                            }
                        } catch let error where isFinal(error) {
                            throw error
                        } catch {
                            // Unreachable for now: the stream, or the next poll, tries again.
                        }
                        try? await podium.sleep(pollEvery)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: PodiumError.from(error) ?? error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Whether `error` ends the pages: a refused credential or board, which trying again cannot change.
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
