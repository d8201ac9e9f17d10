import Foundation
import OpenAPIRuntime

/// JSON as Podium writes it: instants with milliseconds (`2026-11-27T14:00:00.000Z`). The generated client is
/// configured with `transcoder`; what this layer reads or stores itself (the live stream's pages, the offline queue's
/// file) goes through `encoder` and `decoder`, so a queued completion is the very body `Podium.record` sends.
enum PodiumJSON {
    /// RFC 3339 with fractional seconds.
    static let transcoder = ISO8601DateTranscoder.iso8601WithFractionalSeconds

    /// Writes instants with `transcoder`.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(try transcoder.encode(date))
        }
        return encoder
    }()

    /// Reads instants with `transcoder`.
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            try transcoder.decode(try decoder.singleValueContainer().decode(String.self))
        }
        return decoder
    }()
}
