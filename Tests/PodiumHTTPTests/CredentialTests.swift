import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import JWTKit
import Logging
import PodiumCore
@testable import PodiumHTTP
import PodiumStore
import Synchronization
import Testing

/// Player tokens signed every supported way, the key directory's caching, CORS and method answers.
@Suite("Credentials, CORS and methods", .timeLimit(.minutes(5)))
struct CredentialTests {
    static let now = instant("2026-11-25T12:00:00Z")

    /// A 2048-bit RSA key made for these tests only (generating one takes a core for a second or more in a debug
    /// build, which delays every other test's timers).
    static let rsaTestKey = """
        -----BEGIN PRIVATE KEY-----
        MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDEFbVrxMuOdV+C
        9wI1PLYtPFKbJJtzm6YtI+WLfXwciUDYvy31uLwuzJJ+ut/ISNefutmghZ2XmGbz
        2Ted1tBYE0I7FbuMHQVNzR2FNvcm2tvKL4tTTjrC4BuBv9kgB6tlj3WvM96I4RNy
        3TopnJdyNB2RGQVMmO3P7SpatM9bnL4RubjfjN1A3+JrpVj6dqRa8e3A6Otn1CYt
        srqxca4tWNFLQ4/N0ItYTiB9h0oHozMT4OthAvg8NWkmIba6jr09SWjT9FgynJrQ
        KC6RGu1rxYV70HU5YCFC772tfxItUIGpWPzQiyqKmoX9311DjZ+JVdRdIvL0Qn4C
        7HEW/tjJAgMBAAECggEAB6zW21dKZXLcMHblL/rGobom/Jof+JQ62rD5Qu7APSi1
        MFa5YJEg0o8g29OKP190izTH4HPicYTeYMSbm/LE2HG2ibQF0YvwQXWaJnT6kxuF
        d2JJiJL7E1Ys1XUSNWH/eDv3jgpQd1iiB4C3zlmqBucZ0ixhy/f/dQBSRFcn96y3
        HI1PkGpd0kLR/cwXbVPGcbmZUaRYjy3LwTc5Ucl00/ErxYRDHIA3xbFdcnLyAsrD
        /KOsKL36pBE2kZmFOkWD2SZozPfg/c/b5hibHSPaPue24HpCfR2eK+KzKXLlwJac
        nl6wXHbrgPj/5rpVlK0P0mVTJGKNlt5/1HYMJbWEBQKBgQDz4ht9InV10LuBrvnQ
        Pq5bI42SbyM5wzt6KRtZtYOAqykUIlT/Q0SC150M7jclWuSZA3aT533Ca3C+TrHH
        RFQHyPhyS6Iij6rB2/m+D1BWyhNLK3oY5ezxg94WVjvfngPx6r6lsLkjWdG0NMqu
        abKZCNUHph4ijDKEunXI8pxz9QKBgQDN06oY7/gR02yhJKYF4o7AeMdTCY3J10HI
        IlUceTiJ7d2iy5HqtHpkX4vDkUUR6h20Me5ELD1xsCZUFpLn7FAaWx3/WgXrhPic
        zoIYz+85hZU1h4kVwhZfheYpwi/xHtF+QdpcZextV4E0NfvgxchQYTPg7XAL95WO
        DpHKUkYhBQKBgQDKlJjM2uDC2n3GfTfZORfPcLraViLmijtPf/HOFK6FJKfcp5/+
        4Tt5i+xSn1WDW/ri9zN6LCIUavadvfSCV0mNpexp1FV7a+clXLoYm9PaI8Te/eBP
        6j1laGoEF+FoIHOacamnLCK9MJC2pdtuATJvWBzMW7pQbDBSfCf2oUBAOQKBgB4h
        kFMaPhyN8OceMFfINNGkXLmhOmqD4pNjw0Xp0QcQFVQRrQjI5unuus0kZRIcTcDl
        VlYQi+YqvVGuBE+DXq6dDCUnjppN2v9Jk+4B8qlfDtrJPp46zX+qYGlYjiAkPNLY
        3RiNqzDOkJGOHZNoIMzzjd6to6t80R38sAcISE/pAoGBAKB3CKksDt8qf6tz6QpV
        1c3dSr0Aq4ro7Rmg+NFKrM/can75zUCq2Ps3aHDEQOv+Tz2AY9+8JKPFHxooqm5/
        aWL2J1LOvQ+n4A1LT3gu+1YpkfxXgTTxSUxvPtVDI5Da6pNUqIgZz8j4JhvZ0pT8
        eQUCriXIQmv7EK0VuPXKgAYk
        -----END PRIVATE KEY-----
        """

    /// A token for `pupil` signed by `keys` with `kid`, living `lifetime` seconds from `now`.
    static func token(
        _ keys: JWTKeyCollection, kid: String, lifetime: TimeInterval = 600, audience: String? = "podium", groups: [String] = []
    ) async throws -> String {
        try await signPlayerToken(
            keys, kid: kid, subject: "pupil", now: now, lifetime: lifetime, issuedAt: now, audience: audience, groups: groups)
    }

    /// The refusal `verify` throws, as its detail (nil when the token passes).
    static func refusal(_ tokens: PlayerTokens, _ token: String) async -> String? {
        do {
            _ = try await tokens.verify(token, now: now)
            return nil
        } catch let error as APIError {
            return "\(error.status.code) \(error.detail)"
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test("the Bearer scheme is read in any case, with spaces and tabs around the credential; any other scheme is none")
    func bearerCredentials() {
        #expect(AuthMiddleware.bearerCredential("Bearer pdm_abc") == "pdm_abc")
        #expect(AuthMiddleware.bearerCredential("bEaReR \t pdm_abc \t") == "pdm_abc")
        #expect(AuthMiddleware.bearerCredential("Bearer ") == "")
        #expect(AuthMiddleware.bearerCredential("Bearer") == nil)
        #expect(AuthMiddleware.bearerCredential("Bearerpdm_abc") == nil)
        #expect(AuthMiddleware.bearerCredential("Basic cGRtOg==") == nil)
        #expect(AuthMiddleware.bearerCredential("Bearér x") == nil)
    }

    @Test("HS256 keys rotate by kid; ES256 and RS256 keys come from a JWKS; every check refuses with its reason")
    func playerTokensOfEveryKind() async throws {
        let signer = JWTKeyCollection()
        await signer.add(hmac: HMACKey(from: "old-secret-of-at-least-32-bytes-long!"), digestAlgorithm: .sha256, kid: JWKIdentifier(string: "old"))
        await signer.add(hmac: HMACKey(from: "new-secret-of-at-least-32-bytes-long!"), digestAlgorithm: .sha256, kid: JWKIdentifier(string: "new"))
        let ec = try ES256PrivateKey(backing: P256.Signing.PrivateKey())
        await signer.add(ecdsa: ec, kid: JWKIdentifier(string: "ec"))
        let rsa = try Insecure.RSA.PrivateKey(pem: Self.rsaTestKey)
        await signer.add(rsa: rsa, digestAlgorithm: .sha256, kid: JWKIdentifier(string: "rsa"))
        let (x, y) = try #require(ec.parameters)
        let (modulus, exponent) = try rsa.publicKey.getKeyPrimitives()
        func base64URL(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let jwks = """
            {"keys": [{"kty": "EC", "crv": "P-256", "x": "\(x)", "y": "\(y)", "kid": "ec", "alg": "ES256", "use": "sig"},
                      {"kty": "RSA", "n": "\(base64URL(modulus))", "e": "\(base64URL(exponent))", "kid": "rsa", "alg": "RS256", "use": "sig"}]}
            """
        let tokens = try await PlayerTokens(settings: PlayerTokenSettings(
            hmacSecrets: ["old": "old-secret-of-at-least-32-bytes-long!", "new": "new-secret-of-at-least-32-bytes-long!"],
            jwks: jwks, maxLifetime: 3600, audience: "podium"))

        for kid in ["old", "new", "ec", "rsa"] {
            let claims = try await tokens.verify(try await Self.token(signer, kid: kid, groups: ["class-4b"]), now: Self.now)
            #expect(claims == PlayerClaims(userID: "pupil", groups: ["class-4b"], expiresAt: Self.now.addingTimeInterval(600)), "\(kid)")
        }
        #expect(await Self.refusal(tokens, try await Self.token(signer, kid: "new", audience: "podium")) == nil)
        #expect(await Self.refusal(tokens, try await Self.token(signer, kid: "new", audience: "elsewhere"))
                == "401 the player token is for another audience")
        #expect(await Self.refusal(tokens, try await Self.token(signer, kid: "new", audience: nil))
                == "401 the player token is for another audience", "an audience is configured, so the token must name it")
        #expect(await Self.refusal(tokens, try await Self.token(signer, kid: "new", lifetime: 3601))
                == "401 the player token lives longer than 3600 seconds")
        #expect(await Self.refusal(tokens, try await Self.token(signer, kid: "new", lifetime: 0)) == "401 the player token has expired")
        #expect(await Self.refusal(tokens, try await Self.token(signer, kid: "new", groups: ["Not A Group"]))
                == "401 the player token's groups are not valid group names")

        // A token whose kid names another key than the one that signed it fails its signature.
        let impostor = JWTKeyCollection()
        await impostor.add(hmac: HMACKey(from: "not-the-secret-of-at-least-32-bytes!!"), digestAlgorithm: .sha256, kid: JWKIdentifier(string: "new"))
        #expect(await Self.refusal(tokens, try await Self.token(impostor, kid: "new")) == "401 the player token's signature or claims are invalid")
        await impostor.add(hmac: HMACKey(from: "not-the-secret-of-at-least-32-bytes!!"), digestAlgorithm: .sha256, kid: JWKIdentifier(string: "gone"))
        #expect(await Self.refusal(tokens, try await Self.token(impostor, kid: "gone")) == "401 the player token's key id is not one Podium knows")
        // An HS256 token naming the RSA key id (algorithm confusion) is refused before any signature check.
        await impostor.add(hmac: HMACKey(from: "not-the-secret-of-at-least-32-bytes!!"), digestAlgorithm: .sha256, kid: JWKIdentifier(string: "rsa"))
        #expect(await Self.refusal(tokens, try await Self.token(impostor, kid: "rsa"))
                == "401 the player token's key id rsa signs with RS256, not HS256")

        await #expect(throws: PlayerTokenConfigurationError.self) {
            _ = try await PlayerTokens(settings: PlayerTokenSettings(hmacSecrets: ["short": "too short"]))
        }
        await #expect(throws: PlayerTokenConfigurationError.self) {
            _ = try await PlayerTokens(settings: PlayerTokenSettings(jwks: #"{"keys": [{"kty": "EC", "crv": "P-256", "x": "\#(x)", "y": "\#(y)"}]}"#))
        }
    }

    @Test("the key directory answers unknown keys without PostgreSQL, and keeps answering from its copy while PostgreSQL is down")
    func keyDirectoryCachesAndOutlivesAnOutage() async throws {
        let loads = Mutex(0)
        let failing = Mutex(false)
        let start = ContinuousClock.now
        let elapsed = Mutex(Duration.zero)
        struct Down: Error {}
        let grant = KeyGrant(id: "k", role: .display, scopes: [BoardPattern("group:class-4b")!])
        let directory = KeyDirectory(
            freshness: .seconds(5), staleLimit: .seconds(900), logger: Logger(label: "tests"), clock: { start + elapsed.withLock { $0 } }
        ) {
            loads.withLock { $0 += 1 }
            if failing.withLock({ $0 }) { throw Down() }
            return ["known": grant]
        }
        for index in 0..<1000 { #expect(try await directory.grant(forHash: "unknown-\(index)") == nil) }
        #expect(try await directory.grant(forHash: "known") == grant)
        #expect(loads.withLock { $0 } == 1, "a thousand unknown keys cost one read")

        // PostgreSQL goes down. A stale copy still answers while refreshes fail in the background.
        failing.withLock { $0 = true }
        elapsed.withLock { $0 = .seconds(6) }
        #expect(try await directory.grant(forHash: "known") == grant)
        elapsed.withLock { $0 = .seconds(800) }
        #expect(try await directory.grant(forHash: "known") == grant)
        // Past the stale limit the directory says it cannot check keys.
        elapsed.withLock { $0 = .seconds(902) }
        await #expect(throws: APIError.self) { try await directory.grant(forHash: "known") }
        #expect(loads.withLock { $0 } >= 2)

        // Back: the next lookup a second after the failed read reads again.
        failing.withLock { $0 = false }
        elapsed.withLock { $0 = .seconds(903) }
        #expect(try await directory.grant(forHash: "known") == grant)
        #expect(try await directory.grant(forHash: "unknown") == nil)
    }

    @Test("a player token's implausible completions are 422 naming the rule and record nothing; keys and replays pass")
    func implausibleCompletionsAreRefused() async throws {
        let secret = "plausible-secret-of-at-least-32-bytes!"
        let harness = try await HTTPHarness(playerTokens: PlayerTokenSettings(hmacSecrets: ["p1": secret]))
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256, kid: JWKIdentifier(string: "p1"))
        let user = "plausible-\(UUID().uuidString.prefix(8))"
        let token = try await signPlayerToken(keys, kid: "p1", subject: user, now: Self.now, issuedAt: Self.now)
        let withoutIAT = try await signPlayerToken(keys, kid: "p1", subject: user, now: Self.now, issuedAt: nil)
        @Sendable func body(_ id: String, quiz: String, minute: Int, duration: Int? = 30_000) -> [String: any Sendable] {
            var body: [String: any Sendable] = ["id": "\(user)-\(id)", "user_id": user, "quiz_id": quiz, "topic": "math",
                                                "difficulty": "easy", "correct": 5, "total": 10,
                                                "completed_at": String(format: "2026-11-25T10:%02d:00Z", minute)]
            if let duration { body["duration_ms"] = duration }
            return body
        }
        try await harness.run { client in
            let noIAT = try await client.send(.post, "/v1/completions", key: withoutIAT, json: body("first", quiz: "q1", minute: 0))
            #expect(noIAT.status == .unauthorized)
            #expect(noIAT.json["detail"] as? String == "the player token has no iat")
            let fast = try await client.send(.post, "/v1/completions", key: token, json: body("fast", quiz: "q1", minute: 0, duration: 9_999))
            #expect(fast.status == .unprocessableContent)
            #expect(fast.json["code"] as? String == "implausible-completion")
            #expect(fast.json["detail"] as? String == "refused by minimum-seconds-per-question; nothing was recorded")
            #expect(fast.errorFields == ["duration_ms"])
            #expect(try await client.send(.post, "/v1/completions", key: token, json: body("untimed", quiz: "q1", minute: 0, duration: nil))
                .errorFields == ["duration_ms"])
            #expect(try await client.send(.post, "/v1/completions", key: token, json: body("first", quiz: "q1", minute: 0)).status == .created)
            // A replay of a recorded completion is answered as before.
            #expect(try await client.send(.post, "/v1/completions", key: token, json: body("first", quiz: "q1", minute: 0)).status == .ok)
            let again = try await client.send(.post, "/v1/completions", key: token, json: body("again", quiz: "q1", minute: 0))
            #expect(again.status == .unprocessableContent)
            #expect(again.json["detail"] as? String == "refused by repeat-quiz-window; nothing was recorded")
            // The quiz backend's key is trusted: the same completion passes there.
            #expect(try await client.send(.post, "/v1/completions", key: harness.ingestKey, json: body("again", quiz: "q1", minute: 0, duration: nil))
                .status == .created)
            let history = try await client.send(.get, "/v1/users/\(user)/completions", key: harness.readKey)
            #expect((history.json["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String }.sorted() == ["\(user)-again", "\(user)-first"])
        }
    }

    @Test("a player token's partial batch: items for another player or an unvouched group are 403, implausible ones 422, the rest recorded")
    func partialBatchOfAPlayerToken() async throws {
        let secret = "partial-secret-of-at-least-32-bytes!!"
        let harness = try await HTTPHarness(playerTokens: PlayerTokenSettings(hmacSecrets: ["p1": secret]))
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256, kid: JWKIdentifier(string: "p1"))
        let user = "partial-\(UUID().uuidString.prefix(8))"
        let token = try await signPlayerToken(keys, kid: "p1", subject: user, now: Self.now, issuedAt: Self.now, groups: ["class-4b"])
        @Sendable func body(_ id: String, user: String, minute: Int, duration: Int = 30_000, groups: [String] = []) -> [String: any Sendable] {
            ["id": "\(user)-\(id)", "user_id": user, "quiz_id": "q-\(id)", "topic": "math", "difficulty": "easy", "correct": 5, "total": 10,
             "duration_ms": duration, "groups": groups, "completed_at": String(format: "2026-11-25T10:%02d:00Z", minute)]
        }
        let items = [
            body("own", user: user, minute: 0, groups: ["class-4b"]), body("other", user: "someone-else", minute: 2),
            body("unvouched", user: user, minute: 4, groups: ["class-5c"]), body("fast", user: user, minute: 6, duration: 9_999),
            body("later", user: user, minute: 8),
        ]
        try await harness.run { client in
            let whole = try await client.send(.post, "/v1/completions/batch", key: token, json: ["completions": items])
            #expect(whole.status == .forbidden, "all or nothing by default: the first item not the token's refuses the batch")
            let partial = try await client.send(.post, "/v1/completions/batch?mode=partial", key: token, json: ["completions": items])
            #expect(partial.status == .ok)
            let results = partial.json["results"] as? [[String: Any]] ?? []
            #expect(results.map { $0["status"] as? Int } == [201, 403, 403, 422, 201])
            let problems = results.map { $0["problem"] as? [String: Any] }
            #expect(problems[1]?["detail"] as? String == "a player token writes only for its own player (\(user))")
            #expect(problems[2]?["detail"] as? String == "the player token does not vouch for group class-5c")
            #expect(problems[3]?["code"] as? String == "implausible-completion")
            #expect((problems[3]?["errors"] as? [[String: Any]])?.compactMap { $0["field"] as? String } == ["completions[3].duration_ms"])
            #expect(partial.json["created"] as? Int == 2 && partial.json["invalid"] as? Int == 3)
            let history = try await client.send(.get, "/v1/users/\(user)/completions", key: harness.readKey)
            #expect((history.json["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String }.sorted() == ["\(user)-later", "\(user)-own"])
        }
    }

    @Test("bodies share one budget: a body past it is 503 and every byte taken is given back")
    func bodiesShareABudget() async throws {
        func request(_ text: String) -> Request {
            Request(head: HTTPRequest(method: .post, scheme: "http", authority: "podium", path: "/v1/completions"),
                    body: RequestBody(buffer: ByteBuffer(string: text)))
        }
        let budget = BodyBudget(bytes: 10)
        #expect(try await budget.withBody(of: request("0123456789"), limit: 100) { String(buffer: $0) } == "0123456789")
        await #expect(throws: APIError.self) { try await budget.withBody(of: request("0123456789X"), limit: 100) { _ in () } }
        // Both gave their bytes back: the whole budget is there again.
        #expect(try await budget.withBody(of: request("abcdefghij"), limit: 100) { $0.readableBytes } == 10)
        let tooLarge = await #expect(throws: HTTPError.self) { try await budget.withBody(of: request("0123456789"), limit: 5) { _ in () } }
        #expect(tooLarge?.status == .contentTooLarge)
    }

    @Test("An origin listed as `scheme://host:*` is allowed on any port of that host, and only there")
    func corsAnyPort() {
        let policy = CORSPolicy(origins: ["http://localhost:*", "http://[::1]:*", "https://quiz.example.org"])
        for origin in ["http://localhost:5173", "http://localhost", "http://localhost:1", "http://[::1]:8000", "https://quiz.example.org"] {
            #expect(policy.allows(origin), "\(origin)")
        }
        for origin in ["https://localhost:5173", "http://localhost.evil.example:80", "http://evil.example:5173", "http://127.0.0.1:5173",
                       "http://localhost:5173x", "http://localhost:*", "https://quiz.example.org:8443", "null"] {
            #expect(!policy.allows(origin), "\(origin)")
        }
        #expect(!CORSPolicy(origins: ["https://quiz.example.org"]).allows("https://quiz.example.org:443"))
    }

    @Test("CORS answers configured origins only, with Vary; paths answer 405 with Allow for methods they lack")
    func corsAndMethods() async throws {
        let harness = try await HTTPHarness(cors: CORSPolicy(origins: ["https://quiz.example.org"]))
        try await harness.run { client in
            var preflight = HTTPFields()
            preflight[.origin] = "https://quiz.example.org"
            preflight[.accessControlRequestMethod] = "POST"
            preflight[.accessControlRequestHeaders] = "authorization, content-type"
            let granted = try await client.execute(uri: "/v1/completions", method: .options, headers: preflight)
            #expect(granted.status == .noContent)
            #expect(granted.headers[.accessControlAllowOrigin] == "https://quiz.example.org")
            #expect(granted.headers[.accessControlAllowMethods] == "POST, OPTIONS")
            #expect(granted.headers[.accessControlAllowHeaders] == "Authorization, Content-Type, If-None-Match, Last-Event-ID, Accept")
            #expect(granted.headers[.vary] == "Origin")

            preflight[.origin] = "https://evil.example"
            let refused = try await client.execute(uri: "/v1/completions", method: .options, headers: preflight)
            #expect(refused.status == .noContent)
            #expect(refused.headers[.accessControlAllowOrigin] == nil)

            var get = HTTPFields()
            get[.origin] = "https://quiz.example.org"
            get[.authorization] = "Bearer \(harness.readKey)"
            let page = try await client.execute(uri: "/v1/leaderboards/global/week", method: .get, headers: get)
            #expect(page.status == .ok)
            #expect(page.headers[.accessControlAllowOrigin] == "https://quiz.example.org")
            #expect(page.headers[.accessControlExposeHeaders] == "ETag, Retry-After, RateLimit, RateLimit-Policy")
            #expect(page.headers[values: .vary].contains("Origin"))
            get[.authorization] = nil
            let unauthorized = try await client.execute(uri: "/v1/leaderboards/global/week", method: .get, headers: get)
            #expect(unauthorized.status == .unauthorized)
            #expect(unauthorized.headers[.accessControlAllowOrigin] == "https://quiz.example.org", "a browser script can read the 401")

            for (method, path, allow) in [
                (HTTPRequest.Method.delete, "/v1/events", "GET, HEAD, OPTIONS"), (.trace, "/v1/events", "GET, HEAD, OPTIONS"),
                (.get, "/v1/completions", "POST, OPTIONS"), (.put, "/v1/users/u1", "GET, HEAD, DELETE, OPTIONS"),
                (.post, "/healthz", "GET, HEAD, OPTIONS"),
            ] {
                let answer = try await client.execute(uri: path, method: method)
                #expect(answer.status == .methodNotAllowed, "\(method) \(path)")
                #expect(answer.headers[.allow] == allow, "\(method) \(path)")
                #expect(answer.headers[.contentType] == "application/problem+json")
            }
            let options = try await client.execute(uri: "/v1/users/u1/preferences", method: .options)
            #expect(options.status == .noContent)
            #expect(options.headers[.allow] == "PUT, OPTIONS")
            #expect(try await client.execute(uri: "/v1/no-such-path", method: .delete).status == .notFound)
            #expect(try await client.execute(uri: "/healthz", method: .head).status == .ok)
        }
    }
}
