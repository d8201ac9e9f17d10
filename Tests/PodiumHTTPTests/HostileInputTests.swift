import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// Nothing a client sends may crash the service or get a 5xx: every field of every body the ingest and
/// read keys can send is set, one at a time, to each hostile value, and every path and query parameter
/// of the read routes gets hostile text. Each answer must be below 500, declared in the OpenAPI document
/// (the client checks), and a problem+json document when it is an error.
@Suite("Hostile input", .timeLimit(.minutes(5)))
struct HostileInputTests {
    /// JSON values that are wrong somewhere: types, sizes, ranges, encodings, dates that do not exist.
    static let values: [any Sendable] = [
        NSNull(), true, false, 0, -1, Int64.max, Int64.min, UInt64.max, 1e308, -1e308, 1.5, "", " ", "\n",
        String(repeating: "x", count: 10_000), "\u{0}", "\u{202E}evil", "😀", "é", [String](), [String: String](),
        [[[[String]()]]], ["a": ["b": [String: String]()]], "2026-11-23T10:00:00Z", "2026-02-30T10:00:00Z", "NaN", "-0",
        "'; DROP TABLE users;--", "<script>", "topic:math", "@a", "a b", "../..", "%00", String(repeating: "9", count: 400),
    ]

    /// Hostile path segments and query values.
    static let texts = ["-1", "0", "100000", "abc", "", "%ZZ", "%00", "a%2Fb", String(repeating: "x", count: 300), "9999999999999999999999",
                        "2026-W54", "2026-13", "1-1", "csv", "xml", "topic:", "group:", "planet:x", "%F0%9F%98%80"]

    /// Each of `base`'s fields (and one it does not have) set to each hostile value, and each field left out.
    static func mutations(of base: [String: any Sendable]) -> [[String: any Sendable]] {
        var bodies: [[String: any Sendable]] = []
        for field in base.keys.sorted() + ["unknown"] {
            for value in values {
                var body = base
                body[field] = value
                bodies.append(body)
            }
            var without = base
            without[field] = nil
            bodies.append(without)
        }
        return bodies
    }

    /// Expects `response` (to the request `what` describes) below 500, and a problem document when it is an error.
    func check(_ response: TestResponse, _ what: String) {
        #expect(response.status.code < 500, "\(what) answered \(response.status)")
        if response.status.code >= 400 {
            #expect(response.headers[.contentType] == "application/problem+json", "\(what): \(response.status) without a problem document")
        }
    }

    @Test("every body field of ingest, compare and preferences, set to each hostile value")
    func hostileBodies() async throws {
        let harness = try await HTTPHarness()
        try await harness.run { client in
            let user = unique("hostile")
            let completion: [String: any Sendable] = [
                "id": "\(user)-c", "user_id": user, "quiz_id": "q", "topic": "hostile", "difficulty": "easy", "correct": 5, "total": 10,
                "duration_ms": 1000, "completed_at": "2026-11-25T11:00:00Z", "groups": ["hostile"], "display_name": "Hostile",
            ]
            for (index, var body) in Self.mutations(of: completion).enumerated() {
                if body["id"] is String { body["id"] = "\(user)-c\(index)" }
                check(try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body), "completion \(index)")
                check(try await client.send(.post, "/v1/completions/batch", key: harness.ingestKey, json: ["completions": [body, body]]),
                      "batch \(index)")
            }
            for value in Self.values {
                check(try await client.send(.post, "/v1/completions/batch", key: harness.ingestKey, json: ["completions": value]), "batch of \(value)")
                check(try await client.send(.post, "/v1/leaderboards/global/week/compare", key: harness.readKey, json: ["user_ids": value]),
                      "compare \(value)")
                check(try await client.send(.post, "/v1/leaderboards/global/week/compare", key: harness.readKey, json: ["user_ids": [user, value]]),
                      "compare with \(value)")
            }
            let reminders: [String: any Sendable] = ["enabled": true, "time": "17:30", "days": ["mon"], "time_zone": "Europe/Paris"]
            for (index, body) in Self.mutations(of: reminders).enumerated() {
                let preferences: [String: any Sendable] = ["display_name": "Hostile", "time_zone": "Europe/Paris", "reminders": body]
                check(try await client.send(.put, "/v1/users/\(user)/preferences", key: harness.ingestKey, json: preferences), "reminders \(index)")
            }
            for (index, body) in Self.mutations(of: ["display_name": "Hostile", "time_zone": "Europe/Paris"]).enumerated() {
                check(try await client.send(.put, "/v1/users/\(user)/preferences", key: harness.ingestKey, json: body), "preferences \(index)")
            }
            // Bodies that are not JSON objects at all, or nested past any parser's patience.
            for raw in ["", "null", "[]", "{", "{\"id\": \"a\", \"id\": \"b\"}", String(repeating: "[", count: 5000),
                        String(repeating: "{\"a\":", count: 2000) + "1" + String(repeating: "}", count: 2000)] {
                check(try await client.send(.post, "/v1/completions", key: harness.ingestKey, raw: raw), "raw \(raw.prefix(20))")
                check(try await client.send(.post, "/v1/completions/batch", key: harness.ingestKey, raw: raw), "raw batch \(raw.prefix(20))")
            }
            #expect(try await client.send(.get, "/healthz", key: nil).status == .ok)
        }
    }

    @Test("every path segment and query parameter of the read routes, set to hostile text")
    func hostilePathsAndQueries() async throws {
        let harness = try await HTTPHarness()
        try await harness.run { client in
            let parameters = ["limit", "offset", "radius", "around", "period", "format", "cursor", "topic", "after", "type", "board", "window",
                              "refresh"]
            for text in Self.texts {
                let paths = ["/v1/leaderboards/\(text)/week", "/v1/leaderboards/global/\(text)", "/v1/leaderboards/\(text)/all/snapshots",
                             "/display/\(text)/week", "/v1/users/\(text)", "/v1/users/\(text)/completions", "/v1/users/\(text)/topics",
                             "/v1/users/\(text)/medals", "/v1/users/\(text)/rank-history"]
                // An empty segment makes another route (or none): only the query gets the empty text.
                for path in paths where !text.isEmpty {
                    check(try await client.send(.get, path, key: harness.readKey), path)
                }
                for parameter in parameters {
                    for path in ["/v1/leaderboards/global/week", "/v1/leaderboards/global/week/snapshots", "/v1/users/u/completions",
                                 "/v1/users/u/rank-history", "/v1/events", "/display/global/week"] {
                        check(try await client.send(.get, "\(path)?\(parameter)=\(text)", key: harness.readKey), "\(path)?\(parameter)=\(text)")
                    }
                }
            }
            #expect(try await client.send(.get, "/healthz", key: nil).status == .ok)
        }
    }
}
