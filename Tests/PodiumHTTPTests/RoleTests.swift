import Foundation
import HTTPTypes
import PodiumHTTP
import PodiumWire
import Testing

/// Every operation's "Role: `…`" in the OpenAPI document is what the server enforces. Only refusals
/// are sent for admin routes, so nothing here erases, closes, runs or rebuilds anything.
@Suite("Roles on every route", .timeLimit(.minutes(5)))
struct RoleTests {
    /// An operation of the document with the role its description names (nil: no key needed).
    struct Operation: CustomStringConvertible {
        /// The HTTP method.
        let method: HTTPRequest.Method
        /// The path as the document writes it (`/v1/users/{id}`).
        let template: String
        /// The path, with sample values in place of its parameters.
        let path: String
        /// The role its description names.
        let role: String?
        /// Whether leaderboards being public lets anyone through (its security allows no key).
        let publicWhenConfigured: Bool
        /// `METHOD /path`, for failure messages.
        var description: String { "\(method) \(path)" }
    }

    /// Every operation of openapi.json, in path order.
    static func operations() throws -> [Operation] {
        let document = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument.data()) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let samples = ["{board}": "global", "{window}": "week", "{id}": "u-roles", "{name}": "prune", "{period}": "2026-W47",
                       "{day}": "2026-12-25", "{delivery}": "1", "{user}": "u-roles", "{group}": "class-roles"]
        var operations: [Operation] = []
        for (template, methods) in paths.sorted(by: { $0.key < $1.key }) {
            let path = samples.reduce(template) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
            for (name, value) in methods.sorted(by: { $0.key < $1.key }) {
                guard let operation = value as? [String: Any] else { continue }
                let description = operation["description"] as? String ?? ""
                let role = description.range(of: #"Role: `(\w+)`"#, options: .regularExpression).map {
                    String(description[$0].dropFirst("Role: `".count).dropLast())
                }
                let security = operation["security"] as? [[String: Any]]
                operations.append(Operation(method: HTTPRequest.Method(rawValue: name.uppercased())!, template: template, path: path, role: role,
                                            publicWhenConfigured: security?.contains { $0.isEmpty } == true))
            }
        }
        return operations
    }

    @Test("no key is 401 and another role's key is 403 wherever the document names a role; open routes need no key")
    func everyRouteChecksItsRole() async throws {
        let operations = try Self.operations()
        #expect(operations.count == 73)
        #expect(Set(operations.compactMap(\.role)) == ["ingest", "read", "admin"])
        let harness = try await HTTPHarness()
        try await harness.run { client in
            let keys = ["ingest": harness.ingestKey, "read": harness.readKey]
            for operation in operations {
                let anonymous = try await client.send(operation.method, operation.path, key: nil).status
                guard let role = operation.role else {
                    #expect(anonymous != .unauthorized && anonymous != .forbidden, "\(operation)")
                    continue
                }
                #expect(anonymous == .unauthorized, "\(operation)")
                for (keyRole, key) in keys where keyRole != role {
                    #expect(try await client.send(operation.method, operation.path, key: key).status == .forbidden, "\(operation) with \(keyRole)")
                }
                // The role's own key passes the check (its request is incomplete, so at most a 400 or 404 follows).
                if let key = keys[role] {
                    let own = try await client.send(operation.method, operation.path, key: key).status
                    #expect(own != .unauthorized && own != .forbidden, "\(operation) with \(role)")
                }
            }
        }
    }

    @Test("public leaderboards open the leaderboard reads and nothing else")
    func publicLeaderboardsOpenOnlyLeaderboards() async throws {
        let operations = try Self.operations()
        #expect(operations.filter(\.publicWhenConfigured).map(\.description) == [
            "GET /v1/comparisons", "GET /v1/contests", "GET /v1/contests/u-roles",
            "GET /v1/goals", "GET /v1/goals/u-roles", "GET /v1/groups/class-roles/goals", "GET /v1/leaderboards", "GET /v1/leaderboards/global/week", "POST /v1/leaderboards/global/week/compare",
            "GET /v1/leaderboards/global/week/groups", "GET /v1/leaderboards/global/week/live", "GET /v1/leaderboards/global/week/members",
            "GET /v1/leaderboards/global/week/snapshots",
            "GET /v1/leagues", "GET /v1/leagues/u-roles",
        ])
        let harness = try await HTTPHarness(publicLeaderboards: true)
        try await harness.run { client in
            for operation in operations where operation.role != nil {
                let anonymous = try await client.send(operation.method, operation.path, key: nil).status
                if operation.publicWhenConfigured {
                    #expect(anonymous != .unauthorized && anonymous != .forbidden, "\(operation)")
                } else {
                    #expect(anonymous == .unauthorized, "\(operation)")
                }
            }
        }
    }
}
