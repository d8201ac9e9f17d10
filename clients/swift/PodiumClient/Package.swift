// swift-tools-version:6.0
// Podium's Swift client, for iOS and server-side quiz apps: `PodiumAPI` is generated from openapi.json by
// swift-openapi-generator (clients/regenerate.sh; never edited by hand), `PodiumClient` is the hand-written layer
// (bearer tokens with a refresh after 401, completions retried with the same id, an offline queue synced through the
// batch route, a live board over Server-Sent Events). Its tests run against a real `podium serve` (test.sh).
import PackageDescription

let package = Package(
    name: "PodiumClient",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "PodiumClient", targets: ["PodiumClient"]),
        .library(name: "PodiumAPI", targets: ["PodiumAPI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .target(name: "PodiumAPI", dependencies: [
            .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
        ], swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "PodiumClient", dependencies: [
            "PodiumAPI",
            .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),
        .testTarget(name: "PodiumClientTests", dependencies: ["PodiumClient", "PodiumAPI"]),
    ]
)
