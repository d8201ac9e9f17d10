import Foundation
import Hummingbird
import HummingbirdTesting
@testable import PodiumHTTP
import PodiumCore
import PodiumStore
import PodiumTestSupport
import Testing

/// What the console needs to run at scale: the audit trail of admin actions, players found by id or name, and close
/// reports that name their medallists. On a database and Redis db of their own, so the trail holds only these actions.
@Suite("Admin trail: audit, player search, named medals", .serialized, .timeLimit(.minutes(5)))
struct AdminTrailTests {
    @Test("each admin change is in the trail with its key, newest first; reads and dry runs are not; an erased id only as a hash")
    func auditTrail() async throws {
        try await HTTPHarness.withOwnStores(redisDatabase: .adminTrail) { harness in
            try await harness.run { client in
                let admin = HTTPHarness.adminKey
                let made = try await client.send(.post, "/v1/admin/api-keys", key: admin, json: ["name": "Ops, Ms Okafor", "role": "admin"])
                let opsKey = try #require(made.json["secret"] as? String)
                let opsID = try #require((made.json["key"] as? [String: Any])?["id"] as? String)
                #expect(try await client.send(.put, "/v1/admin/calendar/closed-days/2026-12-24", key: opsKey, json: ["note": "Holiday"]).status == .ok)
                #expect(try await client.send(.get, "/v1/admin/calendar/closed-days", key: opsKey).status == .ok)
                #expect(try await client.send(.post, "/v1/admin/periods/global/week/2026-W47/close?dry_run=true", key: opsKey).status == .ok)
                #expect(try await client.send(.delete, "/v1/admin/calendar/closed-days/2027-01-01", key: opsKey).status == .notFound)
                let posted = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: completionBody(id: "c1", user: "erased:kid", topic: "math"))
                #expect(posted.status == .created)
                #expect(try await client.send(.delete, "/v1/users/erased%3Akid", key: admin).status == .noContent)

                let trail = try await client.send(.get, "/v1/admin/audit", key: admin)
                #expect(trail.status == .ok)
                let entries = try #require(trail.json["entries"] as? [[String: Any]])
                #expect(entries.map { "\($0["actor"] ?? "") \($0["action"] ?? "") \($0["target"] ?? "") \($0["status"] ?? "")" } == [
                    "bootstrap DELETE /v1/users/{id} /v1/users/\(AuditStore.erasedPlayer("erased:kid")) 204",
                    "\(opsID) PUT /v1/admin/calendar/closed-days/{day} /v1/admin/calendar/closed-days/2026-12-24 200",
                    "bootstrap POST /v1/admin/api-keys /v1/admin/api-keys 201",
                ], "no read, no dry run, no refusal, no ingest; the erased id never")
                #expect(entries[1]["actor_name"] as? String == "Ops, Ms Okafor" && entries[0]["actor_name"] == nil)
                #expect(!String(buffer: trail.body).contains("erased:kid") && !String(buffer: trail.body).contains("erased%3Akid"))
                #expect(AuditStore.erasedPlayer("erased:kid").count == "sha256:".count + 16)

                let first = try await client.send(.get, "/v1/admin/audit?limit=1", key: admin)
                let cursor = try #require(first.json["next_cursor"] as? String)
                let rest = try await client.send(.get, "/v1/admin/audit?cursor=\(cursor)", key: admin)
                #expect((rest.json["entries"] as? [[String: Any]])?.count == 2 && rest.json["next_cursor"] == nil)
                let mine = try await client.send(.get, "/v1/admin/audit?actor=\(opsID)", key: admin)
                #expect((mine.json["entries"] as? [[String: Any]])?.compactMap { $0["action"] as? String } == ["PUT /v1/admin/calendar/closed-days/{day}"])
                let search = try await client.send(.get, "/v1/admin/audit?q=API-KEYS", key: admin)
                #expect((search.json["entries"] as? [[String: Any]])?.count == 1)
                let wildcard = try await client.send(.get, "/v1/admin/audit?q=%25", key: admin)
                #expect((wildcard.json["entries"] as? [[String: Any]])?.isEmpty == true, "a % is searched for, not a wildcard")
                #expect(try await client.send(.get, "/v1/admin/audit?cursor=x", key: admin).errorFields == ["cursor"])
                #expect(try await client.send(.get, "/v1/admin/audit", key: harness.readKey).status == .forbidden)
            }
        }
    }

    @Test("players are found by the start of their id, then by part of their name; close reports name the medallists")
    func playerSearchAndNamedMedals() async throws {
        try await HTTPHarness.withOwnStores(redisDatabase: .adminTrail) { harness in
            try await harness.run { client in
                let admin = HTTPHarness.adminKey
                let hour: [String: any Sendable] = [
                    "id": "hour", "title": "Hour", "scope": ["global"], "starts_at": "2026-11-25T11:00:00Z", "ends_at": "2026-11-25T13:00:00Z"]
                #expect(try await client.send(.post, "/v1/admin/contests", key: admin, json: hour).status == .created)
                // Scores 15, 10, 5 and 3 (hard, medium, easy quizzes at 5, 3 and 2 points).
                let plays: [(String, String?, [String])] = [
                    ("amara", "Amara N.", ["hard", "hard", "hard"]), ("amir", nil, ["hard", "hard"]), ("zed", "Samantha", ["hard"]), ("bo_1", "Bo", ["medium"]),
                ]
                for (user, name, difficulties) in plays {
                    for (index, difficulty) in difficulties.enumerated() {
                        let body = completionBody(
                            id: "\(user)-\(index)", user: user, topic: "math", difficulty: difficulty, displayName: name, completedAt: "2026-11-25T11:30:00Z")
                        #expect(try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body).status == .created)
                    }
                }
                let found = { (query: String) async throws -> [String] in
                    let answer = try await client.send(.get, "/v1/admin/players?\(query)", key: admin)
                    return (answer.json["players"] as? [[String: Any]])?.compactMap { $0["user_id"] as? String } ?? []
                }
                #expect(try await found("q=am") == ["amara", "amir", "zed"], "ids starting with am, then Samantha by name")
                #expect(try await found("q=AMA") == ["amara", "zed"], "names in any case; ids as they are")
                #expect(try await found("q=bo_") == ["bo_1"])
                #expect(try await found("q=b_").isEmpty, "_ is a character, not a wildcard")
                #expect(try await found("q=am&limit=1") == ["amara"])
                #expect(try await client.send(.get, "/v1/admin/players", key: admin).errorFields == ["q"])
                let one = try await client.send(.get, "/v1/admin/players?q=amara", key: admin)
                #expect((one.json["players"] as? [[String: Any]])?.first?["display_name"] as? String == "Amara N.")

                // The run's medals by name (the dry run and the early close); amir has no name to show.
                for dryRun in [true, false] {
                    let report = try await client.send(.post, "/v1/admin/contests/hour/close?dry_run=\(dryRun)", key: admin)
                    #expect(report.status == .ok, "\(String(buffer: report.body))")
                    #expect((report.json["medals"] as? [[String: Any]])?.map { "\($0["user_id"] ?? "") \($0["display_name"] ?? "-")" }
                        == ["amara Amara N.", "amir -", "zed Samantha"])
                }
            }
        }
    }
}
