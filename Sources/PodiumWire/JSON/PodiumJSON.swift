import Foundation

/// The API's JSON conventions: snake_case keys, sorted (Foundation's encoder does not keep
/// declaration order, and ETags and replays need byte-identical bodies).
public enum PodiumJSON {
    /// A new encoder with the API's conventions.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A new decoder with the API's conventions.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    /// A JSON array of already-encoded JSON values.
    public static func array(_ encodedValues: [String]) -> String {
        "[" + encodedValues.joined(separator: ",") + "]"
    }

    /// Encodes `value` to a UTF-8 string.
    public static func string(_ value: some Encodable) throws -> String {
        String(decoding: try encoder().encode(value), as: UTF8.self)
    }
}
