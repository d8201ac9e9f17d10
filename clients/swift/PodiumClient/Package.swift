// swift-tools-version:6.0
// Podium's Swift client, for iOS and server-side quiz apps: `PodiumAPI` is generated from openapi.json by
// swift-openapi-generator (clients/regenerate.sh; never edited by hand), `PodiumClient` is the hand-written layer
// (bearer tokens with a refresh after 401, Podium's problems as `PodiumError`, completions retried with the same id, an
// offline queue synced through the batch route, a live board over Server-Sent Events). README.md shows its use;
// ../test.sh tests it against a real `podium serve`.
//
// Apps depend on it by path (this folder is named PodiumClient, so SwiftPM names the package so) or, once published,
// by URL: `.product(name: "PodiumClient", package: "PodiumClient")`. It sends over URLSession on Apple platforms and over
// AsyncHTTPClient only where URLSession is missing or partial (Linux, Windows, Android): an iOS app never builds
// AsyncHTTPClient, SwiftNIO or BoringSSL.
import PackageDescription

let apple: [Platform] = [.macOS, .iOS, .tvOS, .watchOS, .visionOS, .macCatalyst]
let elsewhere: [Platform] = [.linux, .windows, .android, .openbsd, .wasi]

let package = Package(
    name: "PodiumClient",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "PodiumClient", targets: ["PodiumClient"]),
        .library(name: "PodiumAPI", targets: ["PodiumAPI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
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
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession", condition: .when(platforms: apple)),
            .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client", condition: .when(platforms: elsewhere)),
        ]),
        .testTarget(name: "PodiumClientTests", dependencies: [
            "PodiumClient", "PodiumAPI",
            .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),
    ]
)
