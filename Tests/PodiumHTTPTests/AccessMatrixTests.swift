import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import Logging
import PodiumCore
import PodiumHTTP
import PodiumStore
import PodiumWire
import Postgres
import Testing

/// Every route of the OpenAPI document × every kind of credential, with the exact status each gets.
///
/// The pupil `pupil` plays in topic `math` and group `class-4b`; `stranger` plays in `math` only. Requests target
/// the pupil and `group:class-4b`, so "in" and "out" credentials differ only in what they were given.
/// Runs on a database and Redis db (10) of its own: the admin column really rebuilds, closes (dry run) and erases.
@Suite("Access: every route × every credential", .timeLimit(.minutes(5)))
struct AccessMatrixTests {
    /// The credential kinds, in the order of each row's statuses.
    enum Credential: Int, CaseIterable {
        case none, malformed, unknown, revoked, expired, unknownKeyID, playerSelf, playerOther
        case displayIn, displayOut, teacherIn, teacherOut, ingest, read, admin
    }

    /// One request and the status each credential gets (in `Credential` order).
    struct Row: CustomStringConvertible {
        let method: HTTPRequest.Method
        /// The documented path template, to check every operation is covered.
        let template: String
        let path: String
        let body: (@Sendable (Credential) -> [String: any Sendable])?
        let statuses: [Int]
        var description: String { "\(method) \(path)" }
    }

    static let secret = "matrix-secret-of-at-least-32-bytes-long"

    /// A completion of the pupil, its id unique per credential so each create is a new one.
    /// Each row's completions are minutes apart from the others', so the player's stay within the plausibility rules.
    static func completion(
        _ credential: Credential, prefix: String, groups: [String] = ["class-4b"], completedAt: String = "2026-11-25T11:00:00Z"
    ) -> [String: any Sendable] {
        ["id": "\(prefix)-\(credential.rawValue)", "user_id": "pupil", "quiz_id": "\(prefix)-\(credential.rawValue)", "topic": "math",
         "difficulty": "easy", "correct": 3, "total": 4, "duration_ms": 30_000, "completed_at": completedAt, "groups": groups]
    }

    // 401 for the six credentials that authenticate nobody, then the nine that do.
    static let nobody = [401, 401, 401, 401, 401, 401]
    static func statuses(_ rest: [Int]) -> [Int] { nobody + rest }
    /// Admin only: refused to everyone else.
    static func adminOnly(_ admin: Int) -> [Int] { statuses(Array(repeating: 403, count: 8) + [admin]) }
    /// Public: every credential, even a malformed one, is ignored.
    static let open = Array(repeating: 200, count: 15)

    static let board = "/v1/leaderboards/group:class-4b/week"
    static let rows: [Row] = [
        Row(method: .get, template: "/display/{board}/{window}", path: "/display/group:class-4b/week", body: nil, statuses: open),
        Row(method: .get, template: "/healthz", path: "/healthz", body: nil, statuses: open),
        Row(method: .get, template: "/metrics", path: "/metrics", body: nil, statuses: open),
        Row(method: .get, template: "/openapi.json", path: "/openapi.json", body: nil, statuses: open),
        Row(method: .get, template: "/readyz", path: "/readyz", body: nil, statuses: open),
        //                                                                 self other dIn  dOut tIn  tOut ingest read admin
        Row(method: .get, template: "/v1/leaderboards", path: "/v1/leaderboards", body: nil,
            statuses: statuses([200, 200, 403, 403, 200, 200, 403, 200, 200])),
        Row(method: .get, template: "/v1/leaderboards/{board}/{window}", path: board, body: nil,
            statuses: statuses([200, 403, 200, 403, 200, 403, 403, 200, 200])),
        Row(method: .get, template: "/v1/leaderboards/{board}/{window}", path: board + "?format=csv", body: nil,
            statuses: statuses([200, 403, 200, 403, 200, 403, 403, 200, 200])),
        Row(method: .get, template: "/v1/leaderboards/{board}/{window}", path: board + "?around=pupil", body: nil,
            statuses: statuses([200, 403, 403, 403, 200, 403, 403, 200, 200])),
        Row(method: .get, template: "/v1/leaderboards/{board}/{window}", path: "/v1/leaderboards/topic:math/week", body: nil,
            statuses: statuses([200, 200, 403, 403, 403, 403, 403, 200, 200])),
        Row(method: .post, template: "/v1/leaderboards/{board}/{window}/compare", path: board + "/compare",
            body: { _ in ["user_ids": ["pupil", "stranger"]] }, statuses: statuses([200, 403, 403, 403, 200, 403, 403, 200, 200])),
        Row(method: .get, template: "/v1/leaderboards/{board}/{window}/live", path: board + "/live", body: nil,
            statuses: statuses([200, 403, 200, 403, 200, 403, 403, 200, 200])),
        Row(method: .get, template: "/v1/leaderboards/{board}/{window}/snapshots", path: board + "/snapshots", body: nil,
            statuses: statuses([200, 403, 403, 403, 200, 403, 403, 200, 200])),
        Row(method: .get, template: "/v1/events", path: "/v1/events", body: nil,
            statuses: statuses([403, 403, 403, 403, 403, 403, 403, 200, 200])),
        Row(method: .get, template: "/v1/users/{id}", path: "/v1/users/pupil", body: nil,
            statuses: statuses([200, 403, 403, 403, 200, 404, 403, 200, 200])),
        Row(method: .get, template: "/v1/users/{id}", path: "/v1/users/stranger", body: nil,
            statuses: statuses([403, 200, 403, 403, 404, 404, 403, 200, 200])),
        Row(method: .get, template: "/v1/users/{id}/completions", path: "/v1/users/pupil/completions", body: nil,
            statuses: statuses([200, 403, 403, 403, 200, 404, 403, 200, 200])),
        Row(method: .get, template: "/v1/users/{id}/topics", path: "/v1/users/pupil/topics", body: nil,
            statuses: statuses([200, 403, 403, 403, 200, 404, 403, 200, 200])),
        Row(method: .get, template: "/v1/users/{id}/medals", path: "/v1/users/pupil/medals", body: nil,
            statuses: statuses([200, 403, 403, 403, 200, 404, 403, 200, 200])),
        Row(method: .get, template: "/v1/users/{id}/leagues", path: "/v1/users/pupil/leagues", body: nil,
            statuses: statuses([200, 403, 403, 403, 200, 404, 403, 200, 200])),
        Row(method: .get, template: "/v1/users/{id}/rank-history", path: "/v1/users/pupil/rank-history", body: nil,
            statuses: statuses([200, 403, 403, 403, 200, 404, 403, 200, 200])),
        Row(method: .get, template: "/v1/leaderboards/{board}/{window}/friends", path: board + "/friends?user=pupil", body: nil,
            statuses: statuses([200, 403, 403, 403, 200, 403, 403, 200, 200])),
        Row(method: .get, template: "/v1/leaderboards/{board}/{window}/members", path: board + "/members?group=class-4b", body: nil,
            statuses: statuses([200, 403, 403, 403, 200, 403, 403, 200, 200])),
        Row(method: .get, template: "/v1/users/{id}/following", path: "/v1/users/pupil/following", body: nil,
            statuses: statuses([200, 403, 403, 403, 200, 404, 403, 200, 200])),
        // Credentials run in order: the pupil's own token follows first (201); ingest and admin find it followed (200).
        Row(method: .put, template: "/v1/users/{id}/following/{other}", path: "/v1/users/pupil/following/stranger", body: nil,
            statuses: statuses([201, 403, 403, 403, 403, 403, 200, 403, 200])),
        // And the token unfollows first (204); ingest and admin find nothing to remove (404).
        Row(method: .delete, template: "/v1/users/{id}/following/{other}", path: "/v1/users/pupil/following/stranger", body: nil,
            statuses: statuses([204, 403, 403, 403, 403, 403, 404, 403, 404])),
        Row(method: .put, template: "/v1/users/{id}/preferences", path: "/v1/users/pupil/preferences",
            body: { _ in ["display_name": "Pupil", "time_zone": "UTC"] }, statuses: statuses([200, 403, 403, 403, 403, 403, 200, 403, 200])),
        Row(method: .post, template: "/v1/completions", path: "/v1/completions", body: { completion($0, prefix: "matrix-one") },
            statuses: statuses([201, 403, 403, 403, 403, 403, 201, 403, 201])),
        Row(method: .post, template: "/v1/completions", path: "/v1/completions",
            body: { completion($0, prefix: "matrix-other-group", groups: ["class-9z"]) },
            statuses: statuses([403, 403, 403, 403, 403, 403, 201, 403, 201])),
        Row(method: .post, template: "/v1/completions/batch", path: "/v1/completions/batch",
            body: { ["completions": [completion($0, prefix: "matrix-batch", completedAt: "2026-11-25T11:10:00Z")]] }, statuses: statuses([200, 403, 403, 403, 403, 403, 200, 403, 200])),
        Row(method: .delete, template: "/v1/users/{id}", path: "/v1/users/nobody-here", body: nil, statuses: adminOnly(404)),
        Row(method: .get, template: "/v1/admin/api-keys", path: "/v1/admin/api-keys", body: nil, statuses: adminOnly(200)),
        Row(method: .post, template: "/v1/admin/api-keys", path: "/v1/admin/api-keys", body: { _ in [:] }, statuses: adminOnly(400)),
        Row(method: .delete, template: "/v1/admin/api-keys/{id}", path: "/v1/admin/api-keys/no-such-key", body: nil, statuses: adminOnly(404)),
        Row(method: .get, template: "/v1/admin/calendar/closed-days", path: "/v1/admin/calendar/closed-days", body: nil, statuses: adminOnly(200)),
        Row(method: .put, template: "/v1/admin/calendar/closed-days/{day}", path: "/v1/admin/calendar/closed-days/2026-12-25",
            body: { _ in ["note": "Christmas"] }, statuses: adminOnly(200)),
        Row(method: .delete, template: "/v1/admin/calendar/closed-days/{day}", path: "/v1/admin/calendar/closed-days/2026-12-26",
            body: nil, statuses: adminOnly(404)),
        Row(method: .get, template: "/v1/admin/jobs", path: "/v1/admin/jobs", body: nil, statuses: adminOnly(200)),
        Row(method: .post, template: "/v1/admin/jobs/{name}/pause", path: "/v1/admin/jobs/no-such-job/pause", body: nil, statuses: adminOnly(404)),
        Row(method: .post, template: "/v1/admin/jobs/{name}/resume", path: "/v1/admin/jobs/no-such-job/resume", body: nil, statuses: adminOnly(404)),
        Row(method: .post, template: "/v1/admin/jobs/{name}/run", path: "/v1/admin/jobs/no-such-job/run", body: { _ in [:] },
            statuses: adminOnly(404)),
        Row(method: .get, template: "/v1/admin/jobs/{name}/runs", path: "/v1/admin/jobs/no-such-job/runs", body: nil, statuses: adminOnly(404)),
        Row(method: .get, template: "/v1/admin/periods/{board}/{window}", path: "/v1/admin/periods/global/week", body: nil,
            statuses: adminOnly(200)),
        Row(method: .post, template: "/v1/admin/periods/{board}/{window}/{period}/close",
            path: "/v1/admin/periods/global/week/2026-W47/close?dry_run=true", body: nil, statuses: adminOnly(200)),
        Row(method: .get, template: "/v1/admin/audit", path: "/v1/admin/audit", body: nil, statuses: adminOnly(200)),
        Row(method: .get, template: "/v1/admin/players", path: "/v1/admin/players?q=pup", body: nil, statuses: adminOnly(200)),
        Row(method: .post, template: "/v1/admin/webhooks/{id}/test", path: "/v1/admin/webhooks/999999/test", body: nil,
            statuses: adminOnly(503)),
        Row(method: .post, template: "/v1/admin/rankings/rebuild", path: "/v1/admin/rankings/rebuild", body: nil, statuses: adminOnly(200)),
        Row(method: .get, template: "/v1/admin/webhooks", path: "/v1/admin/webhooks", body: nil, statuses: adminOnly(200)),
        Row(method: .post, template: "/v1/admin/webhooks", path: "/v1/admin/webhooks", body: { _ in [:] }, statuses: adminOnly(400)),
        Row(method: .delete, template: "/v1/admin/webhooks/{id}", path: "/v1/admin/webhooks/999999", body: nil, statuses: adminOnly(404)),
        Row(method: .get, template: "/v1/admin/webhooks/{id}/deliveries", path: "/v1/admin/webhooks/999999/deliveries", body: nil,
            statuses: adminOnly(404)),
        Row(method: .post, template: "/v1/admin/webhooks/{id}/disable", path: "/v1/admin/webhooks/999999/disable", body: nil,
            statuses: adminOnly(404)),
        Row(method: .post, template: "/v1/admin/webhooks/{id}/enable", path: "/v1/admin/webhooks/999999/enable", body: nil,
            statuses: adminOnly(404)),
        Row(method: .get, template: "/v1/contests", path: "/v1/contests", body: nil,
            statuses: statuses([200, 200, 403, 403, 200, 200, 403, 200, 200])),
        Row(method: .get, template: "/v1/contests/{id}", path: "/v1/contests/class-4b-cup", body: nil,
            statuses: statuses([200, 403, 403, 403, 200, 403, 403, 200, 200])),
        // The pupil's own token joins first (201); ingest and admin find it joined (200).
        Row(method: .put, template: "/v1/contests/{id}/entries/{user}", path: "/v1/contests/class-4b-cup/entries/pupil", body: nil,
            statuses: statuses([201, 403, 403, 403, 403, 403, 200, 403, 200])),
        Row(method: .delete, template: "/v1/contests/{id}/entries/{user}", path: "/v1/contests/class-4b-cup/entries/pupil", body: nil,
            statuses: statuses([204, 403, 403, 403, 403, 403, 404, 403, 404])),
        Row(method: .get, template: "/v1/leaderboards/{board}/{window}/groups", path: "/v1/leaderboards/contest:class-4b-cup/contest/groups",
            body: nil, statuses: statuses([200, 403, 200, 403, 200, 403, 403, 200, 200])),
        Row(method: .get, template: "/v1/comparisons", path: "/v1/comparisons?a=group:class-4b/week&b=group:class-4b/week/2026-W47&user_id=pupil",
            body: nil, statuses: statuses([200, 403, 403, 403, 200, 403, 403, 200, 200])),
        Row(method: .post, template: "/v1/admin/contests", path: "/v1/admin/contests", body: { _ in [:] }, statuses: adminOnly(400)),
        Row(method: .post, template: "/v1/admin/contests/{id}/close", path: "/v1/admin/contests/class-4b-cup/close?dry_run=true", body: nil,
            statuses: adminOnly(200)),
        Row(method: .post, template: "/v1/admin/contests/{id}/cancel", path: "/v1/admin/contests/no-such-contest/cancel", body: nil,
            statuses: adminOnly(404)),
        Row(method: .post, template: "/v1/admin/webhooks/deliveries/{delivery}/resend", path: "/v1/admin/webhooks/deliveries/999999/resend",
            body: nil, statuses: adminOnly(409)),
        Row(method: .get, template: "/v1/leagues", path: "/v1/leagues", body: nil,
            statuses: statuses([200, 200, 403, 403, 200, 200, 403, 200, 200])),
        Row(method: .get, template: "/v1/leagues/{id}", path: "/v1/leagues/class-4b-league", body: nil,
            statuses: statuses([200, 403, 403, 403, 200, 403, 403, 200, 200])),
        Row(method: .post, template: "/v1/admin/leagues", path: "/v1/admin/leagues", body: { _ in [:] }, statuses: adminOnly(400)),
        Row(method: .post, template: "/v1/admin/leagues/{id}/pause", path: "/v1/admin/leagues/no-such-league/pause", body: nil,
            statuses: adminOnly(404)),
        Row(method: .post, template: "/v1/admin/leagues/{id}/resume", path: "/v1/admin/leagues/no-such-league/resume", body: nil,
            statuses: adminOnly(404)),
        Row(method: .post, template: "/v1/admin/leagues/{id}/end", path: "/v1/admin/leagues/no-such-league/end", body: nil,
            statuses: adminOnly(404)),
        Row(method: .post, template: "/v1/admin/leagues/{id}/close", path: "/v1/admin/leagues/class-4b-league/close?dry_run=true", body: nil,
            statuses: adminOnly(200)),
        Row(method: .get, template: "/v1/goals", path: "/v1/goals", body: nil,
            statuses: statuses([200, 200, 403, 403, 200, 200, 403, 200, 200])),
        Row(method: .get, template: "/v1/goals/{id}", path: "/v1/goals/class-4b-goal", body: nil,
            statuses: statuses([200, 403, 403, 403, 200, 403, 403, 200, 200])),
        // A group's class goals are read as a page of its board: its display reads them.
        Row(method: .get, template: "/v1/groups/{group}/goals", path: "/v1/groups/class-4b/goals", body: nil,
            statuses: statuses([200, 403, 200, 403, 200, 403, 403, 200, 200])),
        Row(method: .post, template: "/v1/admin/goals", path: "/v1/admin/goals", body: { _ in [:] }, statuses: adminOnly(400)),
        Row(method: .post, template: "/v1/admin/goals/{id}/pause", path: "/v1/admin/goals/no-such-goal/pause", body: nil,
            statuses: adminOnly(404)),
        Row(method: .post, template: "/v1/admin/goals/{id}/resume", path: "/v1/admin/goals/no-such-goal/resume", body: nil,
            statuses: adminOnly(404)),
        Row(method: .post, template: "/v1/admin/goals/{id}/end", path: "/v1/admin/goals/no-such-goal/end", body: nil,
            statuses: adminOnly(404)),
    ]

    /// A player token for `subject`, signed with the matrix secret unless another collection is given.
    static func playerToken(
        _ subject: String, groups: [String], now: Date, lifetime: TimeInterval = 600, signer: JWTKeyCollection? = nil, kid: String = "k1"
    ) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256, kid: JWKIdentifier(string: "k1"))
        return try await signPlayerToken(
            signer ?? keys, kid: kid, subject: subject, now: now, lifetime: lifetime,
            issuedAt: now.addingTimeInterval(lifetime < 0 ? lifetime - 60 : 0), groups: groups)
    }

    @Test("each credential gets exactly the status its row names, on every documented operation")
    func everyRouteEveryCredential() async throws {
        try await HTTPHarness.withOwnStores(
            redisDatabase: .accessMatrix, playerTokens: PlayerTokenSettings(hmacSecrets: ["k1": Self.secret], maxLifetime: 3600)
        ) { harness in try await walk(harness) }
    }

    /// Sends every row with every credential.
    func walk(_ harness: HTTPHarness) async throws {
        let now = harness.now
        let keys = harness.storage.apiKeys
        let revoked = try await keys.create(name: "revoked", role: .read, now: now)
        #expect(try await keys.revoke(id: revoked.key.id, now: now))
        let stranger = JWTKeyCollection()
        await stranger.add(hmac: HMACKey(from: "another-secret-of-at-least-32-bytes!!"), digestAlgorithm: .sha256, kid: JWKIdentifier(string: "k9"))
        let credentials: [Credential: String] = [
            .malformed: "not a credential!",
            .unknown: "pdm_" + String(repeating: "Z", count: 40),
            .revoked: revoked.secret,
            .expired: try await Self.playerToken("pupil", groups: ["class-4b"], now: now, lifetime: -1),
            .unknownKeyID: try await Self.playerToken("pupil", groups: ["class-4b"], now: now, signer: stranger, kid: "k9"),
            .playerSelf: try await Self.playerToken("pupil", groups: ["class-4b"], now: now),
            .playerOther: try await Self.playerToken("stranger", groups: ["class-9z"], now: now),
            .displayIn: try await keys.create(name: "display 4b", role: .display, scopes: [BoardPattern("group:class-4b")!], now: now).secret,
            .displayOut: try await keys.create(name: "display 9z", role: .display, scopes: [BoardPattern("group:class-9z")!], now: now).secret,
            .teacherIn: try await keys.create(name: "teacher 4b", role: .read, scopes: [BoardPattern("group:class-4b")!], now: now).secret,
            .teacherOut: try await keys.create(name: "teacher 9z", role: .read, scopes: [BoardPattern("group:class-9z")!], now: now).secret,
            .ingest: harness.ingestKey, .read: harness.readKey, .admin: HTTPHarness.adminKey,
        ]

        // Every documented operation has a row.
        let documented = try Set(RoleTests.operations().map { "\($0.method) \($0.template)" })
        #expect(Set(Self.rows.map { "\($0.method) \($0.template)" }) == documented)

        // A contest of the pupil's class that players join, under way at the harness's clock.
        let cup = ContestRequest(
            id: "class-4b-cup", title: "Class 4b cup", scope: ["group:class-4b"], startsAt: "2026-11-25T08:00:00Z",
            endsAt: "2026-11-26T00:00:00Z", entry: .join)
        #expect(try await harness.storage.contests.create(try cup.validated(now: now).get(), now: now))
        // A league of the pupil's class.
        let league = LeagueRequest(id: "class-4b-league", name: "Class 4b league", scope: ["group:class-4b"], tiers: [.init(name: "bronze")])
        #expect(try await harness.storage.leagues.create(try league.validated(now: now).get()))
        // A class goal of the pupil's class.
        let goal = GoalRequest(
            id: "class-4b-goal", title: "Class 4b: 100 right", kind: .class, scope: ["group:class-4b"], measure: .correct, target: 100,
            window: .week)
        #expect(try await harness.storage.goals.create(try goal.validated(now: now).get()))
        try await harness.run { client in
            for (id, user, groups) in [("seed-pupil", "pupil", ["class-4b"]), ("seed-stranger", "stranger", [String]())] {
                let seeded = try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: [
                    "id": id, "user_id": user, "quiz_id": "q0", "topic": "math", "difficulty": "hard", "correct": 4, "total": 4,
                    "completed_at": "2026-11-25T10:00:00Z", "groups": groups,
                ] as [String: any Sendable])
                #expect(seeded.status == .created)
            }
            for row in Self.rows {
                var got: [Int] = []
                var details: [String] = []
                for credential in Credential.allCases {
                    let response = try await client.send(row.method, row.path, key: credentials[credential], json: row.body?(credential))
                    got.append(Int(response.status.code))
                    if got.last != row.statuses[got.count - 1] { details.append("\(credential): \(response.json["detail"] ?? "")") }
                }
                #expect(got == row.statuses, "\(row): \(details)")
            }
        }
    }
}
