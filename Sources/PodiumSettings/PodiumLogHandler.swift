import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import PodiumCore
import Synchronization

/// Writes each log record to standard error as one line in the process's `LogFormat`: text, as swift-log's
/// `StreamLogHandler` writes it (`2026-11-26T10:00:00+0000 info podium: key=value key=value [PodiumHTTP] message`), or
/// one JSON object.
///
/// Text lines cost a fraction of `StreamLogHandler`'s, because the access log writes one for every request: metadata
/// set on a logger is kept as it is (not rendered again on every change), the timestamp is rendered once a second,
/// and each line leaves in one `write(2)`, so that lines from concurrent tasks never interleave.
struct PodiumLogHandler: LogHandler {
    /// The logger's label.
    let label: String
    /// Text or JSON.
    let format: LogFormat
    /// Adds the request id (and anything else the process provides) to each record.
    var metadataProvider: Logger.MetadataProvider?
    /// The logger's own metadata.
    var metadata: Logger.Metadata = [:]
    /// The least severe level written.
    var logLevel: Logger.Level = .info

    /// Creates the handler of the logger labelled `label`.
    init(label: String, format: LogFormat, metadataProvider: Logger.MetadataProvider?) {
        self.label = label
        self.format = format
        self.metadataProvider = metadataProvider
    }

    /// The logger's metadata for `key`.
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one record.
    func log(event: LogEvent) {
        // Collected in a list rather than merged into a dictionary: a line has a handful of labels, and a later source
        // (the process's, then the line's own, then the error) replaces an earlier one's label of the same key.
        var labels = Array(metadata)
        if let provided = metadataProvider?.get() { labels += provided }
        if let explicit = event.metadata { labels += explicit }
        switch format {
        case .text:
            if let error = event.error {
                labels.append(("error.message", .string("\(error)")))
                labels.append(("error.type", .string(String(reflecting: type(of: error)))))
            }
            StandardError.write(Self.textLine(
                time: LogClock.timestamp(), level: event.level, label: label, labels: labels, source: event.source,
                message: event.message.description))
        case .json:
            if let error = event.error { labels.append(("error", .string("\(error)"))) }
            StandardError.write(Self.jsonLine(event: event, label: label, labels: labels))
        }
    }

    /// One record as `StreamLogHandler` writes it, newline included: labels sorted by key (the last of a key wins),
    /// left out when there are none.
    static func textLine(
        time: String, level: Logger.Level, label: String, labels: [(key: String, value: Logger.Metadata.Value)], source: String,
        message: String
    ) -> String {
        var line = time
        line.reserveCapacity(128 + message.utf8.count)
        line += " "
        line += level.rawValue
        if !label.isEmpty { line += " " + label }
        line += ":"
        // A stable sort keeps each key's labels in order of arrival, so the last of a run is the one that wins.
        let sorted = labels.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }.map(\.element)
        for (index, label) in sorted.enumerated() where index + 1 == sorted.count || sorted[index + 1].key != label.key {
            line += " " + label.key + "="
            if case .string(let text) = label.value { line += text } else { line += "\(label.value)" }
        }
        line += " [" + source + "] " + message + "\n"
        return line
    }
}

extension PodiumLogHandler {
    /// One record as one JSON object and a newline: `time`, `level`, `logger`, `message` and `labels` (the last of a
    /// key wins).
    static func jsonLine(event: LogEvent, label: String, labels: [(key: String, value: Logger.Metadata.Value)]) -> String {
        let record: [String: Any] = [
            "time": RFC3339.format(Date()), "level": event.level.rawValue, "logger": label, "message": event.message.description,
            "labels": Dictionary(labels, uniquingKeysWith: { $1 }).mapValues(plain),
        ]
        guard let line = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return ""
        }
        return String(decoding: line, as: UTF8.self) + "\n"
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

/// The local time of log lines (`2026-11-26T10:00:00+0000`), rendered once per second.
enum LogClock {
    private static let cache = Mutex<(second: Int, text: String)>((-1, ""))

    /// The current second's timestamp.
    static func timestamp() -> String {
        var now = time(nil)
        if let text = cache.withLock({ $0.second == now ? $0.text : nil }) { return text }
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        let text = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        cache.withLock { $0 = (now, text) }
        return text
    }
}

/// Standard error, written a whole line at a time.
enum StandardError {
    /// Writes `text` with as few `write(2)` calls as the kernel allows (one for a line), so that lines from concurrent
    /// tasks never interleave.
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}

/// `write(2)`, named apart from `StandardError.write`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
