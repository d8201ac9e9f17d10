import ArgumentParser
import Foundation
import PodiumCore
import PodiumStore
import PodiumWire

/// `podium migrate`: applies the schema migrations in `sql/`.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "migrate", abstract: "Apply pending database migrations.")

    func run() async throws {
        let applied = try await Runtime.with { try await $0.migrate() }
        print(applied.isEmpty ? "schema is up to date" : "applied migrations \(applied.map(String.init).joined(separator: ", "))")
    }
}

/// `podium keys create|list|revoke`: API keys.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Create, list and revoke API keys.", subcommands: [Create.self, List.self, Revoke.self])

    /// `podium keys create --name NAME --role ROLE [--scope PATTERN ...]`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a key; its secret is printed once.")
        @Option(help: "What the key is for.") var name: String
        @Option(help: "ingest, read, admin or display.") var role: Role
        @Option(name: .customLong("scope"), help: "A board the key is limited to (read) or shows (display): global, topic:<name>, topic:*, group:<name>, group:*. Repeatable.")
        var scopes: [String] = []

        /// The same rules as `POST /v1/admin/api-keys`.
        func validate() throws {
            guard NameRules.isValidKeyName(name) else {
                throw ValidationError("name must be 1-100 characters without control characters")
            }
            if let bad = scopes.first(where: { BoardPattern($0) == nil }) {
                throw ValidationError("scope \(bad) must be global, topic:<name>, topic:*, group:<name> or group:*")
            }
            if let problem = ApiKeyStore.scopeProblem(role: role, scopes: scopes.compactMap(BoardPattern.init)) {
                throw ValidationError("scopes \(problem)")
            }
        }

        func run() async throws {
            let patterns = scopes.compactMap(BoardPattern.init)
            let (created, link) = try await Runtime.with { runtime in
                let created = try await runtime.storage.apiKeys.create(name: name, role: role, scopes: patterns, now: Date())
                // Only the public address makes a link a screen can open (the listening one is often 127.0.0.1).
                let link = runtime.settings.http.publicURL.flatMap { base in
                    DisplayLink.url(base: base, scopes: patterns, secret: created.secret) { runtime.storage.rules.boards.definition(for: $0).windows }
                }
                return (created, link)
            }
            print("id:     \(created.key.id)\nrole:   \(created.key.role.rawValue)\nscopes: \(Self.describe(created.key.scopes))\nsecret: \(created.secret)")
            if let link {
                print("display link: \(link)")
            } else if role == .display {
                print("display link: set PODIUM_PUBLIC_URL to the address screens open Podium at, or write /display/<board>/<window>#key=<secret>")
            }
        }

        /// Scopes as listed: their patterns, or `all boards`.
        static func describe(_ scopes: [String]) -> String {
            scopes.isEmpty ? "all boards" : scopes.joined(separator: ",")
        }
    }

    /// `podium keys list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List keys (never their secrets).")

        func run() async throws {
            let keys = try await Runtime.with { try await $0.storage.apiKeys.list() }
            for key in keys {
                print([key.id, key.role.rawValue, Create.describe(key.scopes), key.prefix, key.name, key.createdAt,
                       key.revokedAt.map { "revoked \($0)" } ?? "valid"]
                    .joined(separator: "\t"))
            }
        }
    }

    /// `podium keys revoke ID`.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key.")
        @Argument(help: "The key id.") var id: String

        func run() async throws {
            guard try await Runtime.with({ try await $0.storage.apiKeys.revoke(id: id, now: Date()) }) else {
                throw CommandFailure("no valid key \(id)")
            }
            print("revoked \(id)")
        }
    }
}

/// `podium rankings rebuild`: rebuilds every Redis board from PostgreSQL.
struct RankingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rankings", abstract: "Maintain the Redis rankings.", subcommands: [Rebuild.self])

    /// `podium rankings rebuild`.
    struct Rebuild: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rebuild every board in Redis from PostgreSQL.")

        func run() async throws {
            let started = ContinuousClock.now
            let report = try await Runtime.with { runtime in
                try await runtime.storage.rankingSync.rebuild { done, total in
                    print("rebuilt \(done) of \(total) entries")
                }
            }
            let seconds = (ContinuousClock.now - started).inSeconds
            print("rebuilt \(report.boards) board periods, \(report.entries) entries in \(String(format: "%.2f", seconds)) s")
        }
    }
}

/// `podium users erase ID`: erases a player everywhere.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "users", abstract: "Manage players.", subcommands: [Erase.self])

    /// `podium users erase ID`.
    struct Erase: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Erase a player from PostgreSQL and Redis.")
        @Argument(help: "The user id.") var id: String

        func run() async throws {
            guard try await Runtime.with({ try await $0.storage.erasure.erase(userID: id, now: Date()) }) else {
                throw CommandFailure("no user \(id)")
            }
            print("erased \(id)")
        }
    }
}

extension Role: ExpressibleByArgument {}

/// A command that ran but could not do what was asked (exit status 1, without the usage text a
/// `ValidationError` of the arguments brings).
struct CommandFailure: Error, CustomStringConvertible {
    /// What went wrong, for the `Error:` line.
    let description: String

    /// Creates a failure with its message.
    init(_ description: String) { self.description = description }
}
