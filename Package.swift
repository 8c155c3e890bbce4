// swift-tools-version:6.2
import PackageDescription

/// A library target in `Modules/<folder>`.
func module(_ name: String, _ folder: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .target(name: name, dependencies: dependencies, path: "Modules/\(folder)")
}

/// A system library wrapped through pkg-config, with the Debian package that provides it.
func system(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(
        name: name,
        path: "Modules/System/\(name)",
        pkgConfig: pkgConfig,
        providers: [.apt([apt])]
    )
}

let package = Package(
    name: "joryio-swift-sdk",
    platforms: [.iOS(.v14), .macOS(.v11)],
    products: [
        .library(name: "JoryioTesting", targets: ["JoryioTesting"]),
        .library(name: "Joryio", targets: ["Joryio"]),
        .executable(name: "joryio-demo", targets: ["joryio-demo"]),
        .executable(name: "joryio-bench", targets: ["joryio-bench"]),
    ],
    targets: [
        system("CJoryioSQLite", pkgConfig: "sqlite3", apt: "libsqlite3-dev"),
        system("CJoryioZlib", pkgConfig: "zlib", apt: "zlib1g-dev"),
        system("CJoryioCurl", pkgConfig: "libcurl", apt: "libcurl4-openssl-dev"),

        module("JoryioCore", "Core"),
        module("JoryioStorage", "Storage", ["JoryioCore", "CJoryioSQLite"]),
        module(
            "JoryioTransport",
            "Transport",
            [
                "JoryioCore", "CJoryioZlib",
                .target(name: "CJoryioCurl", condition: .when(platforms: [.linux, .android])),
            ]
        ),
        module("JoryioDelivery", "Delivery", ["JoryioCore"]),
        module("JoryioConsent", "Consent", ["JoryioCore"]),
        module("JoryioIdentity", "Identity", ["JoryioCore"]),
        module("JoryioPlatform", "Platform", ["JoryioCore"]),
        module("JoryioAuth", "Auth", ["JoryioCore"]),
        module(
            "Joryio",
            "Joryio",
            [
                "JoryioCore", "JoryioStorage", "JoryioTransport", "JoryioDelivery", "JoryioConsent", "JoryioIdentity",
                "JoryioPlatform",
            ]
        ),
        module("JoryioTesting", "TestSupport", ["JoryioCore"]),

        .executableTarget(
            name: "joryio-demo",
            dependencies: ["Joryio", "JoryioCore", "JoryioTesting"],
            path: "Tools/Demo"
        ),

        .executableTarget(
            name: "joryio-bench",
            dependencies: [
                "Joryio", "JoryioCore", "JoryioDelivery", "JoryioStorage", "JoryioTransport", "JoryioTesting",
                "CJoryioSQLite",
            ],
            path: "Tools/Benchmarks"
        ),

        .testTarget(name: "JoryioConsentTests", dependencies: ["JoryioConsent"]),
        .testTarget(name: "JoryioIdentityTests", dependencies: ["JoryioIdentity"]),
        .testTarget(name: "JoryioAuthTests", dependencies: ["JoryioAuth"]),
        .testTarget(name: "JoryioPlatformTests", dependencies: ["JoryioPlatform", "JoryioCore", "JoryioTesting"]),
        .testTarget(name: "JoryioDeliveryTests", dependencies: ["JoryioDelivery", "JoryioCore", "JoryioStorage", "JoryioTesting"]),
        .testTarget(
            name: "JoryioIntegrationTests",
            dependencies: [
                "Joryio", "JoryioCore", "JoryioDelivery", "JoryioStorage", "JoryioTransport", "JoryioTesting",
            ]
        ),
        .testTarget(
            name: "JoryioTests",
            dependencies: [
                "Joryio", "JoryioCore", "JoryioDelivery", "JoryioStorage", "JoryioTransport", "JoryioTesting",
            ]
        ),
        .testTarget(name: "JoryioCoreTests", dependencies: ["JoryioCore", "JoryioTesting"]),
        .testTarget(name: "JoryioStorageTests", dependencies: ["JoryioCore", "JoryioStorage", "JoryioTesting"]),
        .testTarget(
            name: "JoryioTransportTests",
            dependencies: ["JoryioCore", "JoryioTransport", "JoryioTesting"]
        ),
    ]
)

for target in package.targets where [.regular, .test, .executable].contains(target.type) {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .swiftLanguageMode(.v6),
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("MemberImportVisibility"),
            .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
        ]
}
