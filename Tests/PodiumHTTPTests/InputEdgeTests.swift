import Foundation
import Hummingbird
import HummingbirdTesting
@testable import PodiumStore
import Testing

/// Bodies that parsers could read differently, bodies that are not the object a route expects, and
/// user ids no plain URL can address.
@Suite("Input edges", .timeLimit(.minutes(5)))
struct InputEdgeTests {
    @Test("a completion repeating a key is refused, naming the key, and records nothing")
    func repeatedKeyIsRefused() async throws {
        let harness = try await HTTPHarness()
        let user = unique("u")
        let first = unique("c")
        let second = unique("c")
        let fields = #""user_id":"\#(user)","quiz_id":"q1","topic":"dups","difficulty":"easy","correct":5,"total":10"#
        try await harness.run { client in
            let single = try await client.send(.post, "/v1/completions", key: harness.ingestKey,
                                               raw: #"{"id":"\#(first)",\#(fields),"id":"\#(second)"}"#)
            #expect(single.status == .badRequest)
            #expect(single.json["code"] as? String == "validation-failed")
            #expect(single.errorFields == ["id"])
            #expect(single.json["detail"] as? String == "id repeats a key of its object (compared unescaped, ignoring case and underscores)")
            let escaped = try await client.send(.post, "/v1/completions", key: harness.ingestKey,
                                                raw: #"{"id":"\#(first)",\#(fields),"\u0069d":"\#(second)"}"#)
            #expect(escaped.status == .badRequest)
            #expect(escaped.errorFields == ["id"])
            let camelCase = try await client.send(.post, "/v1/completions", key: harness.ingestKey,
                                                  raw: #"{"id":"\#(first)",\#(fields),"userId":"\#(user)-other"}"#)
            #expect(camelCase.status == .badRequest)
            #expect(camelCase.errorFields == ["userId"])
            let batch = try await client.send(.post, "/v1/completions/batch", key: harness.ingestKey,
                                              raw: #"{"completions":[{"id":"\#(first)",\#(fields)},{"id":"\#(second)",\#(fields),"id":"\#(first)"}]}"#)
            #expect(batch.status == .badRequest)
            #expect(batch.errorFields == ["completions[1].id"])
            #expect(try await client.send(.get, "/v1/users/\(user)", key: harness.readKey).status == .notFound)
        }
        let count = try await harness.storage.postgres.query("SELECT completions FROM users WHERE user_id = $1", [user]).rows.first?.int("completions")
        #expect(count == nil, "no player, so no completion, was recorded")
    }

    @Test("a body that is not a JSON object is refused with the field `body`")
    func bodyThatIsNotAnObject() async throws {
        let harness = try await HTTPHarness()
        try await harness.run { client in
            for path in ["/v1/completions/batch", "/v1/completions"] {
                for raw in ["[]", #""x""#, "3"] {
                    let response = try await client.send(.post, path, key: harness.ingestKey, raw: raw)
                    #expect(response.status == .badRequest, "\(path) with \(raw)")
                    #expect(response.json["code"] as? String == "validation-failed", "\(path) with \(raw)")
                    #expect(response.errorFields == ["body"], "\(path) with \(raw)")
                    #expect(response.json["detail"] as? String == "body must be an object", "\(path) with \(raw)")
                }
            }
        }
    }

    @Test("a user id of only dots, percent-encoded in the path, is refused")
    func dotOnlyUserIDInThePath() async throws {
        let harness = try await HTTPHarness()
        try await harness.run { client in
            for segment in ["%2E", "%2E%2E", "..."] {
                let response = try await client.send(.put, "/v1/users/\(segment)/preferences", key: harness.ingestKey,
                                                     json: ["display_name": "Dots"])
                #expect(response.status == .badRequest, "\(segment)")
                #expect(response.errorFields == ["id"], "\(segment)")
            }
        }
    }
}
