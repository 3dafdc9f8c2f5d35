// swift-tools-version: 6.0
import PackageDescription

/// Settings every Swift target shares: a public API that leaks an imported (C) type does not compile.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "IAPAudit",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "iap-audit", targets: ["iap-audit"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.100.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        // C at the edge: module maps and shims only.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        .target(
            name: "Postgres",
            dependencies: ["CLibPQ", .product(name: "Logging", package: "swift-log")],
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        // The embedded server's process supervisor: initdb/pg_ctl, service user, lock files. No libpq.
        .target(
            name: "EmbeddedPostgres",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        .target(name: "Gzip", dependencies: ["CZlib"], exclude: ["README.md"], swiftSettings: strictSettings),
        .target(
            name: "AppStoreFormats",
            dependencies: ["Gzip", "CivilCalendar", .product(name: "Crypto", package: "swift-crypto")],
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        // Offline verification of Apple's signed data (JWS): certificate chains, trusted roots, ES256. No database.
        .target(
            name: "AppStoreSignatures",
            dependencies: [
                "AppStoreFormats",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "SyntheticData",
            dependencies: [
                "AppStoreFormats", "CivilCalendar", "Gzip", .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        // Apple's web APIs (App Store Connect reports, App Store Server API): tokens, the HTTP client, retries. No
        // database, no files but the key.
        .target(
            name: "AppleAPI",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        // Report definitions and rendering (CSV, JSON, Markdown, HTML, SVG): pure, no database.
        .target(
            name: "Reports", dependencies: ["CivilCalendar"], exclude: ["README.md"], swiftSettings: strictSettings),
        // Proleptic Gregorian day arithmetic, shared by parsing and chart axes.
        .target(name: "CivilCalendar", exclude: ["README.md"], swiftSettings: strictSettings),
        .target(
            name: "IAPAudit",
            dependencies: [
                "Postgres", "EmbeddedPostgres", "Gzip", "AppStoreFormats", "AppStoreSignatures", "SyntheticData",
                "Reports", "AppleAPI", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["README.md", "Ingest/README.md"],
            swiftSettings: strictSettings,
            plugins: ["EmbedResources"]
        ),
        // `iap-audit serve`: the triage console over HTTP (Hummingbird). A target of its own, so the pipeline never
        // depends on a server library.
        .target(
            name: "Console",
            dependencies: [
                "IAPAudit", "Reports", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "iap-audit",
            dependencies: [
                "IAPAudit", "Console", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["README.md"], swiftSettings: strictSettings
        ),

        // The benchmarks' data generator (bench/sales, bench/pipeline): not a user command.
        .executableTarget(
            name: "generate-sales", dependencies: ["SyntheticData"], path: "bench/generate-sales",
            swiftSettings: strictSettings
        ),

        // Signed-data verification throughput (bench/verify-signed): a release-built tool, since tests are never timed.
        .executableTarget(
            name: "verify-signed", dependencies: ["AppStoreFormats", "AppStoreSignatures"], path: "bench/verify-signed",
            swiftSettings: strictSettings
        ),

        // A stand-in for Apple's APIs with a year of reports and many notifications, for bench/fetch.
        .executableTarget(
            name: "apple-stand-in",
            dependencies: ["AppleStandIn", "SyntheticData", .product(name: "Crypto", package: "swift-crypto")],
            path: "bench/apple-stand-in", swiftSettings: strictSettings
        ),

        // libFuzzer target over the parsers of untrusted input; fuzz/run builds it with -sanitize=fuzzer.
        .executableTarget(
            name: "fuzz-parsers", dependencies: ["AppStoreFormats", "FuzzSupport"], path: "fuzz/Parsers",
            swiftSettings: strictSettings
        ),
        // libFuzzer target over the whole way into COPY rows (read, parse, verify, render); fuzz/run-ingest runs it.
        .executableTarget(
            name: "fuzz-ingest", dependencies: ["IAPAudit", "FuzzSupport"], path: "fuzz/Ingest",
            swiftSettings: strictSettings
        ),
        // The `main` both fuzz targets share: libFuzzer's driver, or a stub in an ordinary build.
        .target(name: "FuzzSupport", path: "fuzz/Support", swiftSettings: strictSettings),

        // Build tool: embeds sql/ and reports/ into the binary, so an installed iap-audit needs no source tree.
        .executableTarget(name: "embed-resources", swiftSettings: strictSettings),
        .plugin(name: "EmbedResources", capability: .buildTool(), dependencies: ["embed-resources"]),

        // What several test targets share: the throw-away PostgreSQL, temporary directories, the built binary, the
        // fixture corpus.
        .target(
            name: "TestSupport",
            dependencies: ["Postgres", "EmbeddedPostgres", .product(name: "Logging", package: "swift-log")],
            path: "Tests/TestSupport",
            swiftSettings: strictSettings
        ),
        // A stand-in for Apple's APIs on loopback, for the fetch tests and bench/fetch: checks tokens, serves reports.
        .target(
            name: "AppleStandIn",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/AppleStandIn",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PostgresTests",
            dependencies: [
                "Postgres", "EmbeddedPostgres", "TestSupport", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        .testTarget(name: "EmbeddedPostgresTests", dependencies: ["EmbeddedPostgres"], swiftSettings: strictSettings),
        .testTarget(name: "GzipTests", dependencies: ["Gzip", "TestSupport"], swiftSettings: strictSettings),
        // Checks the import rules of docs/architecture.md against every source file.
        .testTarget(name: "ArchitectureTests", swiftSettings: strictSettings),
        .testTarget(
            name: "AppStoreFormatsTests", dependencies: ["AppStoreFormats", "Gzip", "TestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "AppStoreSignaturesTests",
            dependencies: [
                "AppStoreSignatures", "AppStoreFormats", "TestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "SyntheticDataTests",
            dependencies: ["SyntheticData", "AppStoreFormats", "AppStoreSignatures", "Gzip"],
            swiftSettings: strictSettings),
        // Snapshots/: fixture rows and the pages they must render as (read from the checkout, not bundled).
        .testTarget(
            name: "ReportsTests", dependencies: ["Reports", "TestSupport"], exclude: ["Snapshots"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "IAPAuditTests",
            dependencies: [
                "IAPAudit", "Postgres", "EmbeddedPostgres", "AppStoreFormats", "SyntheticData", "Gzip", "TestSupport",
                "AppleAPI", "AppleStandIn", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        // `iap-audit serve` through the binary: a real server on an ephemeral port, requests through AsyncHTTPClient.
        .testTarget(
            name: "ConsoleTests",
            dependencies: [
                "TestSupport", "Postgres", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
