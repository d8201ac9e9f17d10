import Foundation
import Redis
import Testing

@Suite("RedisConfiguration", .timeLimit(.minutes(5)))
struct RedisConfigurationTests {
    @Test func defaults() {
        let configuration = RedisConfiguration()
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 6379)
        #expect(configuration.database == 0)
        #expect(configuration.password == nil)
        #expect(configuration.poolSize == 16)
        #expect(configuration.poolSize == RedisConfiguration.defaultPoolSize)
        #expect(configuration.connectTimeout == .seconds(2))
        #expect(configuration.commandTimeout == .seconds(2))
        #expect(configuration.acquireTimeout == .seconds(5))
    }

    @Test func parsesFullURL() throws {
        let configuration = try RedisConfiguration(url: "redis://:s%40cret%2F@cache.internal:6380/15")
        #expect(configuration.host == "cache.internal")
        #expect(configuration.port == 6380)
        #expect(configuration.database == 15)
        #expect(configuration.password == "s@cret/")
        #expect(configuration.poolSize == RedisConfiguration.defaultPoolSize)
    }

    @Test("an ACL user before the password is sent with it; a user without a password, or rediss://, is refused plainly")
    func parsesACLUser() throws {
        let configuration = try RedisConfiguration(url: "redis://podium%2Dapp:s%40cret@cache.internal:6380/2")
        #expect(configuration.user == "podium-app")
        #expect(configuration.password == "s@cret")
        #expect(configuration.database == 2)
        #expect(try RedisConfiguration(url: "redis://:only-password@host").user == nil)
        let noPassword = #expect(throws: RedisError.self) { try RedisConfiguration(url: "redis://podium:@host") }
        #expect(noPassword?.message == "invalid Redis URL (a user needs a password)")
        let tls = #expect(throws: RedisError.self) { try RedisConfiguration(url: "rediss://cache.internal:6380") }
        #expect(tls?.message.contains("stunnel") == true)
    }

    @Test("a connection with an ACL user's URL authenticates as that user; a wrong password is refused")
    func authenticatesAsACLUser() async throws {
        let name = "podium-test-\(UUID().uuidString.prefix(8).lowercased())"
        let admin = RedisPool(configuration: try TestRedis.configuration(), logger: TestRedis.logger)
        try await admin.command(["ACL", "SETUSER", name, "on", ">acl-secret", "~*", "&*", "+@all"])
        do {
            var url = try #require(URLComponents(string: TestRedis.url))
            url.user = name
            url.password = "acl-secret"
            let pool = RedisPool(configuration: try RedisConfiguration(url: try #require(url.string)), logger: TestRedis.logger)
            #expect(try await pool.command(["ACL", "WHOAMI"]).string == name)
            await pool.close()
            url.password = "wrong"
            let refused = RedisPool(configuration: try RedisConfiguration(url: try #require(url.string)), logger: TestRedis.logger)
            await #expect(throws: RedisError.self) { try await refused.ping() }
            await refused.close()
        } catch {
            try await admin.command(["ACL", "DELUSER", name])
            await admin.close()
            throw error
        }
        try await admin.command(["ACL", "DELUSER", name])
        await admin.close()
    }

    @Test func parsesMinimalURLs() throws {
        let bare = try RedisConfiguration(url: "redis://localhost")
        #expect(bare.host == "localhost")
        #expect(bare.port == 6379)
        #expect(bare.database == 0)
        #expect(bare.password == nil)

        let slash = try RedisConfiguration(url: "redis://10.0.0.5/")
        #expect(slash.host == "10.0.0.5")
        #expect(slash.database == 0)

        let ipv6 = try RedisConfiguration(url: "redis://[::1]:6390/3")
        #expect(ipv6.host == "::1")
        #expect(ipv6.port == 6390)
        #expect(ipv6.database == 3)
    }

    @Test(arguments: [
        "", "127.0.0.1:6379", "http://127.0.0.1:6379", "rediss://127.0.0.1", "redis://", "redis://:6379",
        "redis://host:port", "redis://host:0", "redis://host:70000", "redis://host:-1", "redis://host/db",
        "redis://host/1/2", "redis://host/-1", "redis://host/1?timeout=3", "redis://user@host", "redis://:%zz@host",
        "redis://[::1", "redis://[::1]x",
    ])
    func rejectsInvalidURL(_ url: String) {
        let error = #expect(throws: RedisError.self) { try RedisConfiguration(url: url) }
        #expect(error?.kind == .configuration)
    }
}
