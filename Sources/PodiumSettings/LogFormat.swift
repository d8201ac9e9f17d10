import Foundation
import Synchronization
import Logging
import PodiumCore
import PodiumHTTP

/// How log lines are written (`PODIUM_LOG_FORMAT`): `text` for people, `json` for log collectors.
public enum LogFormat: String, Sendable {
    /// swift-log's `StreamLogHandler` lines: `2026-11-26T10:00:00+0000 info podium: request_id=… [module] message`.
    case text
    /// One JSON object per line: `time`, `level`, `logger`, `message` and `labels` (the metadata).
    case json

    /// Installs this format for every logger of the process, with the request id of the request being served
    /// (`RequestID.metadataProvider`) on each line. Only the first call takes effect.
    public func bootstrap() {
        Self.bootstrapped.withLock { done in
            guard !done else { return }
            done = true
            LoggingSystem.bootstrap(
                { PodiumLogHandler(label: $0, format: self, metadataProvider: $1) }, metadataProvider: RequestID.metadataProvider)
        }
    }

    private static let bootstrapped = Mutex(false)
}
