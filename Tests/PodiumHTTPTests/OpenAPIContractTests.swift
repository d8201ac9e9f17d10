import Foundation
import PodiumCore
import PodiumHTTP
import PodiumWire
import Testing

/// The checker itself, on a small document using every feature it supports.
@Suite("OpenAPIContract", .timeLimit(.minutes(5)))
struct OpenAPIContractTests {
    /// A document with a template and a literal path, references, every supported schema keyword and empty answers.
    static let document = #"""
        {
          "openapi": "3.1.0",
          "info": { "title": "sample", "version": "1" },
          "paths": {
            "/v1/users/{id}": {
              "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "string" } }],
              "get": {
                "responses": {
                  "200": {
                    "description": "a user",
                    "content": { "application/json": { "schema": { "$ref": "#/components/schemas/User" } } }
                  },
                  "404": { "$ref": "#/components/responses/NotFound" }
                }
              },
              "delete": { "responses": { "204": { "description": "erased" } } }
            },
            "/v1/users/me": {
              "get": {
                "responses": {
                  "200": { "description": "me", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Me" } } } }
                }
              }
            },
            "/v1/boards/{board}": {
              "get": {
                "responses": {
                  "200": {
                    "description": "a page",
                    "content": {
                      "application/json": { "schema": { "type": "object" } },
                      "text/csv": { "schema": { "type": "string" } }
                    }
                  },
                  "304": { "description": "not modified" }
                }
              }
            }
          },
          "components": {
            "schemas": {
              "Difficulty": { "type": "string", "enum": ["easy", "medium", "hard"] },
              "User": {
                "type": "object",
                "properties": {
                  "user_id": { "type": "string", "minLength": 1, "maxLength": 8, "pattern": "^[a-z]+$" },
                  "points": { "type": "integer" },
                  "accuracy": { "type": "number", "minimum": 0, "maximum": 100 },
                  "live": { "type": "boolean" },
                  "difficulty": { "$ref": "#/components/schemas/Difficulty", "description": "favourite" },
                  "status": { "type": "integer", "enum": [200, 201, 409] },
                  "tags": { "type": "array", "items": { "type": "string" }, "minItems": 1, "maxItems": 2 },
                  "nickname": { "type": ["string", "null"] }
                },
                "required": ["user_id", "points", "live"],
                "additionalProperties": false
              },
              "Me": { "type": "object", "properties": { "me": { "type": "boolean" } }, "required": ["me"] },
              "Problem": {
                "type": "object",
                "properties": { "status": { "type": "integer" }, "title": { "type": "string" } },
                "required": ["status", "title"]
              }
            },
            "responses": {
              "NotFound": {
                "description": "no such user",
                "content": { "application/problem+json": { "schema": { "$ref": "#/components/schemas/Problem" } } }
              }
            }
          }
        }
        """#

    /// The sample document, loaded.
    let contract: OpenAPIContract

    /// Loads the sample document.
    init() throws {
        contract = try OpenAPIContract(document: Data(Self.document.utf8))
    }

    /// Violations of an answer to `method path` with `body` as its text.
    func answer(_ method: String, _ path: String, _ status: Int, _ contentType: String?, _ body: String) -> [String] {
        contract.violations(method: method, path: path, status: status, contentType: contentType, body: Data(body.utf8))
    }

    /// Violations of a 200 answer of `GET /v1/users/alice` with `json` as its body.
    func userViolations(_ json: String) -> [String] {
        answer("GET", "/v1/users/alice", 200, "application/json", json)
    }

    @Test("operations are path templates with uppercased methods")
    func listsOperationsWithUppercasedMethods() {
        #expect(contract.operations == ["GET /v1/users/{id}", "DELETE /v1/users/{id}", "GET /v1/users/me", "GET /v1/boards/{board}"])
        #expect(contract.declaredStatuses["GET /v1/users/{id}"] == ["200", "404"])
    }

    @Test("a valid body passes")
    func validBodyPasses() {
        let body = #"""
            {"user_id": "alice", "points": 7, "accuracy": 87.5, "live": true, "difficulty": "hard", "status": 201,
             "tags": ["a", "b"], "nickname": null}
            """#
        #expect(userViolations(body) == [])
        #expect(userViolations(#"{"user_id": "alice", "points": 0, "live": false}"#) == [])
    }

    @Test("a missing required property is reported")
    func reportsMissingRequiredProperty() {
        #expect(userViolations(#"{"user_id": "alice", "live": true}"#) == ["GET /v1/users/{id} 200: $: missing required property points"])
    }

    @Test("a value of the wrong type is reported")
    func reportsWrongType() {
        #expect(userViolations(#"{"user_id": "alice", "points": "7", "live": true}"#)
            == [#"GET /v1/users/{id} 200: $.points: expected integer, found string "7""#])
        #expect(userViolations(#"{"user_id": "alice", "points": 7, "live": true, "tags": "a"}"#)
            == [#"GET /v1/users/{id} 200: $.tags: expected array, found string "a""#])
        #expect(userViolations(#"{"user_id": "alice", "points": 7, "live": true, "tags": [1]}"#)
            == ["GET /v1/users/{id} 200: $.tags[0]: expected string, found number 1"])
        #expect(userViolations(#"{"user_id": "alice", "points": 7, "live": true, "nickname": 3}"#)
            == ["GET /v1/users/{id} 200: $.nickname: expected string or null, found number 3"])
        #expect(userViolations("[]") == ["GET /v1/users/{id} 200: $: expected object, found an array"])
    }

    @Test("a property not declared is reported")
    func reportsExtraProperty() {
        #expect(userViolations(#"{"user_id": "alice", "points": 7, "live": true, "bonus": 1}"#)
            == ["GET /v1/users/{id} 200: $.bonus: unexpected property"])
    }

    @Test("a value outside an enum is reported")
    func reportsEnumMismatch() {
        #expect(userViolations(#"{"user_id": "alice", "points": 7, "live": true, "difficulty": "extreme"}"#)
            == [#"GET /v1/users/{id} 200: $.difficulty: "extreme" is not one of "easy", "medium", "hard""#])
        #expect(userViolations(#"{"user_id": "alice", "points": 7, "live": true, "status": 202}"#)
            == ["GET /v1/users/{id} 200: $.status: 202 is not one of 200, 201, 409"])
    }

    @Test("an integer has no fractional part; a number may be integral")
    func integerNeedsNoFractionalPartAndNumberTakesIntegers() {
        #expect(userViolations(#"{"user_id": "alice", "points": 7.5, "live": true}"#)
            == ["GET /v1/users/{id} 200: $.points: expected integer, found number 7.5"])
        #expect(userViolations(#"{"user_id": "alice", "points": 7.0, "live": true, "accuracy": 100}"#) == [])
    }

    @Test("booleans are not numbers, not even 0 and 1")
    func booleansAndNumbersAreDistinct() {
        #expect(userViolations(#"{"user_id": "alice", "points": true, "live": true}"#)
            == ["GET /v1/users/{id} 200: $.points: expected integer, found boolean true"])
        #expect(userViolations(#"{"user_id": "alice", "points": 7, "live": 1}"#)
            == ["GET /v1/users/{id} 200: $.live: expected boolean, found number 1"])
        #expect(userViolations(#"{"user_id": "alice", "points": 7, "live": 0}"#)
            == ["GET /v1/users/{id} 200: $.live: expected boolean, found number 0"])
        #expect(userViolations(#"{"user_id": "alice", "points": 0, "live": false, "accuracy": false}"#)
            == ["GET /v1/users/{id} 200: $.accuracy: expected number, found boolean false"])
    }

    @Test("bounds, lengths, item counts and patterns are checked")
    func reportsBoundsLengthsAndPatterns() {
        #expect(userViolations(#"{"user_id": "alice", "points": 7, "live": true, "accuracy": 100.5, "tags": []}"#) == [
            "GET /v1/users/{id} 200: $.accuracy: 100.5 is greater than the maximum 100",
            "GET /v1/users/{id} 200: $.tags: expected at least 1 items, found 0",
        ])
        #expect(userViolations(#"{"user_id": "", "points": 7, "live": true, "accuracy": -1, "tags": ["a", "b", "c"]}"#) == [
            "GET /v1/users/{id} 200: $.accuracy: -1 is less than the minimum 0",
            "GET /v1/users/{id} 200: $.tags: expected at most 2 items, found 3",
            "GET /v1/users/{id} 200: $.user_id: shorter than 1 characters",
            #"GET /v1/users/{id} 200: $.user_id: "" does not match ^[a-z]+$"#,
        ])
        #expect(userViolations(#"{"user_id": "Alice-the-great", "points": 7, "live": true}"#) == [
            "GET /v1/users/{id} 200: $.user_id: longer than 8 characters",
            #"GET /v1/users/{id} 200: $.user_id: "Alice-the-great" does not match ^[a-z]+$"#,
        ])
    }

    @Test("an undeclared status is reported")
    func reportsUndeclaredStatus() {
        #expect(answer("GET", "/v1/users/alice", 500, nil, "") == ["GET /v1/users/{id} 500: status not declared"])
    }

    @Test("an unknown path or method is reported")
    func reportsUnknownPathOrMethod() {
        #expect(answer("GET", "/v1/nowhere", 200, nil, "") == ["GET /v1/nowhere: no such operation"])
        #expect(answer("patch", "/v1/users/alice", 200, nil, "") == ["PATCH /v1/users/alice: no such operation"])
        #expect(answer("GET", "/v1/users/", 200, nil, "") == ["GET /v1/users/: no such operation"])
    }

    @Test("a literal segment wins over a template")
    func literalSegmentWinsOverTemplate() {
        #expect(answer("GET", "/v1/users/me", 200, "application/json", #"{"me": true}"#) == [])
        #expect(answer("GET", "/v1/users/mo", 200, "application/json", #"{"me": true}"#) == [
            "GET /v1/users/{id} 200: $: missing required property user_id",
            "GET /v1/users/{id} 200: $: missing required property points",
            "GET /v1/users/{id} 200: $: missing required property live",
            "GET /v1/users/{id} 200: $.me: unexpected property",
        ])
    }

    @Test("the query string and media type parameters are ignored")
    func ignoresQueryStringAndMediaTypeParameters() {
        #expect(answer("get", "/v1/boards/global?limit=5", 200, "Application/JSON; charset=utf-8", "{}") == [])
    }

    @Test("bodies that are not JSON only need a declared media type")
    func checksMediaTypeOnlyForNonJSONBodies() {
        #expect(answer("GET", "/v1/boards/global", 200, "text/csv; charset=utf-8", "rank\r\n") == [])
        #expect(answer("GET", "/v1/boards/global", 200, "text/html", "<p>")
            == ["GET /v1/boards/{board} 200: content type text/html not declared (declared: application/json, text/csv)"])
        #expect(answer("GET", "/v1/boards/global", 200, nil, "{}")
            == ["GET /v1/boards/{board} 200: no Content-Type (declared: application/json, text/csv)"])
    }

    @Test("a JSON answer that does not parse is reported")
    func reportsBodyThatIsNotJSON() {
        #expect(answer("GET", "/v1/boards/global", 200, "application/json", "{")
            == ["GET /v1/boards/{board} 200: the body is not valid JSON"])
    }

    @Test("204 and 304 must be declared and empty")
    func emptyAnswersMustBeEmptyAndDeclared() {
        #expect(answer("GET", "/v1/boards/global", 304, nil, "") == [])
        #expect(answer("DELETE", "/v1/users/alice", 204, nil, "") == [])
        #expect(answer("GET", "/v1/boards/global", 304, "application/json", "{}")
            == ["GET /v1/boards/{board} 304: expected an empty body, got 2 bytes"])
        #expect(answer("GET", "/v1/users/alice", 204, nil, "") == ["GET /v1/users/{id} 204: status not declared"])
    }

    @Test("response references are followed to problem documents")
    func followsResponseReferencesToProblemDocuments() {
        #expect(answer("GET", "/v1/users/bob", 404, "application/problem+json", #"{"status": 404, "title": "Not found"}"#) == [])
        #expect(answer("GET", "/v1/users/bob", 404, "application/problem+json", #"{"status": "404"}"#) == [
            "GET /v1/users/{id} 404: $: missing required property title",
            #"GET /v1/users/{id} 404: $.status: expected integer, found string "404""#,
        ])
    }

    @Test("references that do not resolve are reported")
    func reportsReferencesThatDoNotResolve() throws {
        #expect(contract.unresolvedReferences == [])
        let broken = Self.document.replacingOccurrences(of: "#/components/schemas/Difficulty", with: "#/components/schemas/Level")
        let contract = try OpenAPIContract(document: Data(broken.utf8))
        #expect(contract.unresolvedReferences == ["#/components/schemas/Level"])
        #expect(contract.violations(
            method: "GET", path: "/v1/users/alice", status: 200, contentType: "application/json",
            body: Data(#"{"user_id": "alice", "points": 7, "live": true, "difficulty": "hard"}"#.utf8)
        ) == ["GET /v1/users/{id} 200: $.difficulty: #/components/schemas/Level does not resolve"])
    }

    @Test("schema keywords the checker cannot enforce are reported")
    func reportsSchemaKeywordsItCannotCheck() throws {
        let document = Self.document.replacingOccurrences(of: #""type": ["string", "null"]"#, with: #""not": {"type": "integer"}"#)
        let contract = try OpenAPIContract(document: Data(document.utf8))
        #expect(contract.violations(
            method: "GET", path: "/v1/users/alice", status: 200, contentType: "application/json",
            body: Data(#"{"user_id": "alice", "points": 7, "live": true, "nickname": "al"}"#.utf8)
        ) == ["GET /v1/users/{id} 200: $.nickname: schema keyword not is not supported by this checker"])
    }

    @Test("a document without paths is rejected")
    func rejectsDocumentWithoutPaths() {
        #expect(throws: OpenAPIContract.DocumentError.self) {
            try OpenAPIContract(document: Data(#"{"openapi": "3.1.0"}"#.utf8))
        }
    }
}

/// Podium's own document, `Sources/PodiumHTTP/Resources/openapi.json`.
@Suite("openapi.json", .timeLimit(.minutes(5)))
struct PodiumOpenAPIDocumentTests {
    /// The document's location, found from this file's: `Tests/PodiumHTTPTests/` is two levels below the package root.
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/PodiumHTTP/Resources/openapi.json")

    /// The document, loaded.
    let contract: OpenAPIContract

    /// Loads the document.
    init() throws {
        contract = try OpenAPIContract(document: try Data(contentsOf: Self.url))
    }

    @Test("it describes every route the controllers register")
    func describesEveryRoute() {
        #expect(contract.operations == [
            "GET /healthz", "GET /readyz", "GET /metrics", "GET /openapi.json",
            "POST /v1/completions", "POST /v1/completions/batch",
            "GET /v1/leaderboards", "GET /v1/leaderboards/{board}/{window}", "POST /v1/leaderboards/{board}/{window}/compare",
            "GET /v1/leaderboards/{board}/{window}/snapshots", "GET /v1/leaderboards/{board}/{window}/friends",
            "GET /v1/leaderboards/{board}/{window}/members",
            "GET /v1/leaderboards/{board}/{window}/live", "GET /v1/leaderboards/{board}/{window}/groups", "GET /display/{board}/{window}",
            "GET /v1/users/{id}", "DELETE /v1/users/{id}", "GET /v1/users/{id}/completions", "GET /v1/users/{id}/topics",
            "GET /v1/users/{id}/medals", "GET /v1/users/{id}/rank-history", "PUT /v1/users/{id}/preferences",
            "GET /v1/users/{id}/following", "PUT /v1/users/{id}/following/{other}", "DELETE /v1/users/{id}/following/{other}",
            "GET /v1/events",
            "GET /v1/admin/api-keys", "POST /v1/admin/api-keys", "DELETE /v1/admin/api-keys/{id}", "POST /v1/admin/rankings/rebuild", "GET /v1/admin/audit", "GET /v1/admin/players", "POST /v1/admin/webhooks/{id}/test",
            "GET /v1/admin/jobs", "GET /v1/admin/jobs/{name}/runs", "POST /v1/admin/jobs/{name}/run",
            "POST /v1/admin/jobs/{name}/pause", "POST /v1/admin/jobs/{name}/resume",
            "GET /v1/admin/periods/{board}/{window}", "POST /v1/admin/periods/{board}/{window}/{period}/close",
            "GET /v1/admin/calendar/closed-days", "PUT /v1/admin/calendar/closed-days/{day}",
            "DELETE /v1/admin/calendar/closed-days/{day}",
            "GET /v1/admin/webhooks", "POST /v1/admin/webhooks", "DELETE /v1/admin/webhooks/{id}", "POST /v1/admin/webhooks/{id}/disable",
            "POST /v1/admin/webhooks/{id}/enable", "GET /v1/admin/webhooks/{id}/deliveries",
            "POST /v1/admin/webhooks/deliveries/{delivery}/resend",
            "POST /v1/admin/contests", "GET /v1/contests", "GET /v1/contests/{id}", "POST /v1/admin/contests/{id}/close",
            "POST /v1/admin/contests/{id}/cancel", "PUT /v1/contests/{id}/entries/{user}", "DELETE /v1/contests/{id}/entries/{user}",
            "GET /v1/comparisons",
            "POST /v1/admin/leagues", "GET /v1/leagues", "GET /v1/leagues/{id}", "POST /v1/admin/leagues/{id}/pause",
            "POST /v1/admin/leagues/{id}/resume", "POST /v1/admin/leagues/{id}/end", "POST /v1/admin/leagues/{id}/close",
            "GET /v1/users/{id}/leagues",
            "POST /v1/admin/goals", "GET /v1/goals", "GET /v1/goals/{id}", "POST /v1/admin/goals/{id}/pause",
            "POST /v1/admin/goals/{id}/resume", "POST /v1/admin/goals/{id}/end", "GET /v1/groups/{group}/goals",
        ])
    }

    @Test("every $ref resolves")
    func everyReferenceResolves() {
        #expect(contract.unresolvedReferences == [])
    }

    @Test("every request body, every operation's success answer and every shared answer has an example, which matches its schema")
    func everyExampleIsThereAndMatches() {
        #expect(contract.exampleViolations == [], "run bash ops/openapi/refresh-examples.sh after changing a route or an answer")
    }

    @Test("every operation declares a 2xx or 3xx answer")
    func everyOperationDeclaresASuccess() {
        for (operation, statuses) in contract.declaredStatuses {
            #expect(statuses.contains { $0.hasPrefix("2") || $0.hasPrefix("3") }, "\(operation) declares no 2xx or 3xx response")
        }
    }

    @Test("problem documents conform")
    func problemDocumentsConform() {
        let problem = Data(#"""
            {"type": "https://podium.dev/problems/validation-failed", "title": "Invalid request", "status": 400,
             "detail": "total is required", "code": "validation-failed", "errors": [{"field": "total", "message": "is required"}]}
            """#.utf8)
        #expect(contract.violations(
            method: "POST", path: "/v1/completions", status: 400, contentType: "application/problem+json", body: problem) == [])
    }
}

/// The document against the API models as `PodiumJSON` encodes them, with every optional set and with none.
@Suite("openapi.json matches the encoded models", .timeLimit(.minutes(5)))
struct OpenAPIModelTests {
    /// Podium's document, loaded.
    let contract: OpenAPIContract

    /// Loads the document.
    init() throws {
        contract = try OpenAPIContract(document: try Data(contentsOf: PodiumOpenAPIDocumentTests.url))
    }

    /// Violations of a JSON answer carrying `value`.
    func violations(_ method: String, _ path: String, _ status: Int, _ value: some Encodable) throws -> [String] {
        contract.violations(
            method: method, path: path, status: status, contentType: "application/json; charset=utf-8",
            body: try PodiumJSON.encoder().encode(value))
    }

    private static let record = CompletionRecord(
        id: "c-1", userId: "alice", quizId: "q-9", topic: "math", difficulty: .hard, correct: 9, total: 10, durationMs: 61_250,
        completedAt: "2026-11-21T10:00:00.000Z", groups: ["class-4b"], points: 5, recordedAt: "2026-11-21T10:00:01.250Z")
    private static let bareRecord = CompletionRecord(
        id: "c-2", userId: "alice", quizId: "q-9", topic: "math", difficulty: .easy, correct: 0, total: 1, durationMs: nil,
        completedAt: "2026-11-21T10:00:00.000Z", groups: [], points: 2, recordedAt: "2026-11-21T10:00:01.250Z")
    private static let totals = PlayerTotals(points: 12, completions: 3, correctAnswers: 20, totalAnswers: 30)
    private static let rank = BoardRank(board: "topic:math", window: .week, period: "2026-W47", rank: 2, score: 12, players: 40)
    private static let level = LevelProgress(level: 2, levelStartsAt: 10, nextLevelAt: 20, pointsToNextLevel: 8)
    private static let lastLevel = LevelProgress(
        level: 61, levelStartsAt: 5_764_607_523_034_234_880, nextLevelAt: nil, pointsToNextLevel: nil)
    private static let noTotals = PlayerTotals(points: 0, completions: 0, correctAnswers: 0, totalAnswers: 0)

    @Test("completion answers conform, created or replayed")
    func completionResponses() throws {
        let full = CompletionResponse(
            completion: Self.record, pointsAwarded: 5, totals: Self.totals, level: Self.level, levelReached: 2, ranks: [Self.rank],
            rankingsLive: true,
            missedPeriods: [MissedPeriod(board: "global", window: .day, period: "2026-11-20", closedAt: "2026-11-21T00:15:00.000Z")])
        let bare = CompletionResponse(
            completion: Self.bareRecord, pointsAwarded: 2, totals: Self.noTotals,
            level: Self.lastLevel, levelReached: nil, ranks: [], rankingsLive: false, missedPeriods: [])
        #expect(try violations("POST", "/v1/completions", 201, full) == [])
        #expect(try violations("POST", "/v1/completions", 200, bare) == [])
    }

    @Test("leaderboard pages conform, open or closed, JSON or compared")
    func leaderboardPages() throws {
        let week = LeaderboardPage(
            board: "global", window: .week, period: "2026-W47", startsAt: "2026-11-16T00:00:00.000Z", endsAt: "2026-11-23T00:00:00.000Z",
            closesAt: "2026-11-23T00:15:00.000Z", timeZone: "UTC", status: .closed, players: 2, live: true, offset: 0, entries: [
                LeaderboardEntry(rank: 1, userId: "alice", displayName: "Alice", score: 40, medal: .gold),
                LeaderboardEntry(rank: 2, userId: "bob", displayName: nil, score: 30),
            ])
        let all = LeaderboardPage(
            board: "topic:math", window: .all, period: "all", startsAt: nil, endsAt: nil, closesAt: nil, timeZone: "UTC", status: .open, players: 0,
            live: false, offset: 20, entries: [])
        #expect(try violations("GET", "/v1/leaderboards/global/week?limit=2", 200, week) == [])
        #expect(try violations("GET", "/v1/leaderboards/topic:math/all", 200, all) == [])
        #expect(try violations("POST", "/v1/leaderboards/global/week/compare", 200, week) == [])
    }

    @Test("player answers conform")
    func playerAnswers() throws {
        let profile = UserProfile(
            userId: "alice", displayName: "Alice", timeZone: "Europe/Paris", totals: Self.totals, level: Self.level, ranks: [Self.rank],
            rankingsLive: true, createdAt: "2026-11-01T08:00:00.000Z")
        let newcomer = UserProfile(
            userId: "bob", displayName: nil, timeZone: "UTC", totals: Self.noTotals, level: Self.lastLevel, ranks: [], rankingsLive: false,
            createdAt: "2026-11-01T08:00:00.000Z")
        #expect(try violations("GET", "/v1/users/alice", 200, profile) == [])
        #expect(try violations("GET", "/v1/users/bob", 200, newcomer) == [])
        let page = CompletionHistory(items: [Self.record, Self.bareRecord], nextCursor: "abc")
        #expect(try violations("GET", "/v1/users/alice/completions", 200, page) == [])
        #expect(try violations("GET", "/v1/users/alice/completions?topic=math", 200, CompletionHistory(items: [], nextCursor: nil)) == [])
        let topic = TopicStatistics(
            topic: "math", completions: 3, correctAnswers: 20, totalAnswers: 30, averageAccuracyPercent: 66.7, bestAccuracyPercent: 90,
            bestPoints: 5, lastPlayedAt: "2026-11-21T10:00:00.000Z")
        #expect(try violations("GET", "/v1/users/alice/topics", 200, ["topics": [topic]]) == [])
        for name in ["Al", nil] {
            let preferences = PreferencesResponse(userId: "alice", displayName: name, timeZone: "UTC")
            #expect(try violations("PUT", "/v1/users/alice/preferences", 200, preferences) == [])
        }
    }
}

@Suite("OpenAPI document against the server's rules", .timeLimit(.minutes(5)))
struct OpenAPIDocumentRulesTests {
    @Test("the document's time zones are all accepted by the server, and are this machine's whole tz database when it is the one listed")
    func timeZonesMatchTheServer() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument.data()) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let zones = try #require((schemas["TimeZone"] as? [String: Any])?["enum"] as? [String])
        // Listed from tzdata 2025b. A later tz database accepts more (the document says so), never fewer: zones are
        // only ever added or turned into aliases. On 2025b itself the list is exactly what the server accepts.
        let unaccepted = Set(zones).subtracting(NameRules.knownTimeZones).sorted()
        #expect(unaccepted.isEmpty, "listed, not accepted: \(unaccepted)")
        let version = (try? String(contentsOfFile: NameRules.timeZoneDatabase + "/tzdata.zi", encoding: .utf8))?
            .split(separator: "\n").first.map(String.init)
        if version == "# version 2025b" {
            let unlisted = NameRules.knownTimeZones.subtracting(zones).sorted()
            #expect(unlisted.isEmpty, "accepted, not listed: \(unlisted)")
        }
        #expect(zones.count == Set(zones).count, "no zone twice")
        #expect(zones.allSatisfy(NameRules.isValidTimeZone))
        #expect(["UTC", "Asia/Kolkata", "Asia/Calcutta", "EST5EDT"].allSatisfy(zones.contains) && !zones.contains("Etc/GMT+5") && !zones.contains("GMT+5"))
    }

    @Test("the document states the rule on repeated keys on every request body, and the server refuses what it names")
    func distinctKeysAreStated() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument.data()) as? [String: Any])
        let description = try #require((document["info"] as? [String: Any])?["description"] as? String)
        #expect(description.contains("must differ when compared ignoring case and underscores"))
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var bodies = 0
        for (path, operations) in paths {
            for case let (method, operation as [String: Any]) in operations {
                guard let body = operation["requestBody"] as? [String: Any] else { continue }
                bodies += 1
                let rule = body["x-podium-distinct-keys"] as? [String: Any]
                #expect(rule?["ignoring"] as? [String] == ["case", "underscores"] && rule?["refused_with"] as? Int == 400, "\(method) \(path)")
            }
        }
        #expect(bodies >= 9)
        #expect(DuplicateKeys.firstDuplicate(in: Data(#"{"display_name": "a", "Display_Name": "b"}"#.utf8)) == "Display_Name")
        #expect(DuplicateKeys.firstDuplicate(in: Data(#"{"completions": [{"user_id": "a", "userId": "b"}]}"#.utf8)) == "completions[0].userId")
    }

    @Test("anyOf passes a value one option accepts and names every option's problem otherwise")
    func anyOfIsChecked() throws {
        let document = #"""
            {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/z": {"get": {"responses": {"200": {
              "description": "zone", "content": {"application/json": {"schema": {"type": "object", "properties": {
                "zone": {"anyOf": [{"type": "string", "enum": ["UTC"]}, {"type": "null"}]}}}}}}}}}}}
            """#
        let contract = try OpenAPIContract(document: Data(document.utf8))
        func violations(_ body: String) -> [String] {
            contract.violations(method: "GET", path: "/z", status: 200, contentType: "application/json", body: Data(body.utf8))
        }
        #expect(violations(#"{"zone": "UTC"}"#).isEmpty)
        #expect(violations(#"{"zone": null}"#).isEmpty)
        #expect(violations(#"{"zone": "EST"}"#).count == 1)
    }

    @Test("examples are required where documented and checked against their schema, oneOf, const and uniqueItems included")
    func examplesAreChecked() throws {
        func document(request: String, answer: String) -> String {
            """
            {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/k": {"post": {
              "requestBody": {"content": {"application/json": {"schema": {"type": "object", "oneOf": [
                {"properties": {"role": {"const": "admin"}, "scopes": {"maxItems": 0}}},
                {"properties": {"role": {"const": "display"}, "scopes": {"minItems": 1}}}],
                "properties": {"role": {"type": "string"}, "scopes": {"type": "array", "uniqueItems": true, "items": {"type": "string"}}}},
                \(request)}}},
              "responses": {"201": {"description": "made", "content": {"application/json": {"schema": {"type": "object",
                "required": ["id"], "properties": {"id": {"type": "string"}}}\(answer)}}}, "204": {"description": "none"}}}}},
              "components": {"responses": {"Gone": {"description": "gone", "content": {"application/problem+json": {
                "schema": {"type": "object"}, "example": {"status": 410}}}}}}}
            """
        }
        let good = try OpenAPIContract(document: Data(document(
            request: #""example": {"role": "display", "scopes": ["group:a"]}"#, answer: #", "example": {"id": "k1"}"#).utf8))
        #expect(good.exampleViolations == [])
        let bad = try OpenAPIContract(document: Data(document(
            request: #""example": {"role": "admin", "scopes": ["a", "a"]}"#, answer: #", "example": {"key": 1}"#).utf8))
        #expect(bad.exampleViolations.count == 3, "\(bad.exampleViolations)")
        #expect(bad.exampleViolations.contains { $0.hasPrefix("POST /k request application/json example: $: matches 0 of oneOf") })
        #expect(bad.exampleViolations.contains { $0.hasPrefix("POST /k request application/json example: $.scopes: items repeat") })
        #expect(bad.exampleViolations.contains { $0 == "POST /k 201 application/json example: $: missing required property id" })
        let bare = try OpenAPIContract(document: Data(document(request: #""schema2": {}"#, answer: "").utf8))
        #expect(bare.exampleViolations == ["POST /k request application/json: no example", "POST /k: no example of a success answer"])
    }
}
