// swift-tools-version:6.2
import PackageDescription

/// The commit being built, for `podium --version` and `podium_build_info`: SwiftPM reads it from the checkout
/// (a short hash, with `-dirty` when files differ from it). Outside a git checkout it is `unknown`.
let commit = Context.gitInformation.map { String($0.currentCommit.prefix(12)) + ($0.hasUncommittedChanges ? "-dirty" : "") } ?? "unknown"

let package = Package(
    name: "podium",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "podium", targets: ["podium"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    ],
    targets: [
        // System libraries: the only place the C APIs enter the package.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CHiredis", pkgConfig: "hiredis", providers: [.apt(["libhiredis-dev"])]),

        // Thin, pooled Swift wrappers around libpq and hiredis.
        .target(name: "Postgres", dependencies: [
            "CLibPQ",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .target(name: "Redis", dependencies: [
            "CHiredis",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),

        // The build's commit, compiled in from the manifest.
        .target(name: "CBuildInfo", cSettings: [.define("PODIUM_COMMIT", to: "\"\(commit)\"")]),

        // The API's shapes: every body Podium answers with or reads, and the words they use; checked against openapi.json.
        .target(name: "PodiumWire"),

        // Pure rules: no I/O.
        .target(name: "PodiumCore", dependencies: ["PodiumWire"]),

        // Domain storage on PostgreSQL (truth) and Redis (live rankings).
        .target(name: "PodiumStore", dependencies: [
            "PodiumWire", "PodiumCore", "Postgres", "Redis",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], resources: [.copy("Migrations"), .process("Rankings/Lua"), .process("Support/Lua")]),

        // The job scheduler: slots, leases, runs, and the built-in jobs.
        .target(name: "PodiumScheduler", dependencies: [
            "PodiumWire", "PodiumCore", "PodiumStore", "Postgres",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),

        // Webhooks: signed delivery of outbox events, with retries.
        .target(name: "PodiumWebhooks", dependencies: [
            "PodiumWire", "PodiumCore", "PodiumStore",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),

        // HTTP routes, auth, errors, OpenAPI.
        .target(name: "PodiumHTTP", dependencies: [
            "PodiumWire", "PodiumCore", "PodiumStore", "PodiumScheduler", "CBuildInfo",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ], resources: [.copy("Resources")]),

        // The settings `serve` reads from the environment: one table of names, defaults and meanings, and the parser.
        .target(name: "PodiumSettings", dependencies: [
            "PodiumCore", "PodiumStore", "PodiumScheduler", "PodiumWebhooks", "PodiumHTTP", "Postgres", "Redis",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // The executable: subcommands only.
        .executableTarget(name: "podium", dependencies: [
            "PodiumWire", "PodiumCore", "PodiumStore", "PodiumScheduler", "PodiumWebhooks", "PodiumHTTP", "PodiumSettings", "Postgres", "Redis",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ], swiftSettings: [
            // The drills' fault hooks (`FaultHooks`) exist in debug builds only, never in the release binary.
            .define("PODIUM_FAULT_HOOKS", .when(configuration: .debug)),
        ]),

        // Helpers more than one test target uses.
        .target(name: "PodiumTestSupport", dependencies: ["PodiumStore", "Redis"], path: "Tests/PodiumTestSupport"),

        .testTarget(name: "PostgresTests", dependencies: ["Postgres"]),
        .testTarget(name: "RedisTests", dependencies: ["Redis", "PodiumTestSupport"]),
        .testTarget(name: "PodiumCoreTests", dependencies: ["PodiumWire", "PodiumCore"]),
        .testTarget(name: "PodiumSettingsTests", dependencies: [
            "PodiumSettings", "PodiumHTTP", "PodiumStore", "PodiumCore", "PodiumWebhooks", "Postgres", "Redis",
        ]),
        .testTarget(name: "PodiumStoreTests", dependencies: [
            "PodiumStore", "PodiumWire", "PodiumCore", "Postgres", "Redis", "PodiumTestSupport",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .testTarget(name: "PodiumSchedulerTests", dependencies: [
            "PodiumScheduler", "PodiumStore", "PodiumWire", "PodiumCore", "Postgres", "Redis", "PodiumTestSupport",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "PodiumWebhooksTests", dependencies: [
            "PodiumWebhooks", "PodiumStore", "PodiumWire", "PodiumCore", "Postgres", "PodiumTestSupport",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "PodiumHTTPTests", dependencies: [
            "PodiumHTTP", "PodiumScheduler", "PodiumStore", "PodiumWire", "PodiumCore", "Postgres", "Redis", "PodiumTestSupport",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ]),
    ]
)
