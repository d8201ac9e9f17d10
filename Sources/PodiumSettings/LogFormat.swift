import Foundation
import Synchronization
import Logging
import PodiumCore
import PodiumHTTP

/// How log lines are written (`PODIUM_LOG_FORMAT`): `text` for people, `json` for log collectors.
public enum LogFormat: String, Sendable {
    /// swift-log's plain lines (`TextLogHandler`): `2026-11-26T10:00:00+0000 info podium: request_id=… [module] message`.
    case text
    /// One JSON object per line: `time`, `level`, `logger`, `message` and `labels` (the metadata).
    case json

    /// Installs this format for every logger of the process, with the request id of the request being served
    /// (`RequestID.metadataProvider`) on each line. Only the first call takes effect.
    public func bootstrap() {
        Self.bootstrapped.withLock { done in
            guard !done else { return }
            done = true
            switch self {
            case .text:
                LoggingSystem.bootstrap({ TextLogHandler(label: $0, metadataProvider: $1) }, metadataProvider: RequestID.metadataProvider)
            case .json:
                LoggingSystem.bootstrap({ JSONLogHandler(label: $0, metadataProvider: $1) }, metadataProvider: RequestID.metadataProvider)
            }
        }
    }

    private static let bootstrapped = Mutex(false)
}

/// Writes each log record to standard error as one JSON object on one line.
struct JSONLogHandler: LogHandler {
    /// The logger's label.
    let label: String
    /// Adds the request id (and anything else the process provides) to each record.
    var metadataProvider: Logger.MetadataProvider?
    /// The logger's own metadata.
    var metadata: Logger.Metadata = [:]
    /// The least severe level written.
    var logLevel: Logger.Level = .info

    /// Creates the handler of the logger labelled `label`.
    init(label: String, metadataProvider: Logger.MetadataProvider?) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    /// The logger's metadata for `key`.
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one record, in one write so that lines from concurrent tasks never interleave.
    func log(event: LogEvent) {
        var labels = metadata
        if let provided = metadataProvider?.get() { labels.merge(provided) { $1 } }
        if let explicit = event.metadata { labels.merge(explicit) { $1 } }
        if let error = event.error { labels["error"] = .string("\(error)") }
        let record: [String: Any] = [
            "time": RFC3339.format(Date()), "level": event.level.rawValue, "logger": label, "message": event.message.description,
            "labels": labels.mapValues(Self.plain),
        ]
        guard let line = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        StandardError.write(String(decoding: line, as: UTF8.self) + "\n")
    }

    /// A metadata value as plain JSON: strings, arrays and objects.
    private static func plain(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let value): value.description
        case .array(let values): values.map(plain)
        case .dictionary(let values): values.mapValues(plain)
        }
    }

}
