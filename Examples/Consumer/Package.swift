// swift-tools-version:6.2
import PackageDescription

// A consumer of the SDK as an app team sees it: another package, public API only (`package`
// declarations are invisible from here). CI builds and runs it (`make consumer`).
let package = Package(
    name: "joryio-consumer",
    dependencies: [.package(name: "joryio-swift-sdk", path: "../..")],
    targets: [
        // The slim product with the testing product: tracks against a stub transport and checks it.
        .executableTarget(
            name: "analytics-consumer",
            dependencies: [
                .product(name: "JoryioAnalytics", package: "joryio-swift-sdk"),
                .product(name: "JoryioTesting", package: "joryio-swift-sdk"),
            ]
        ),
        // The full product: the README's usage sample, compiled unchanged.
        .executableTarget(
            name: "docs-examples",
            dependencies: [
                .product(name: "Joryio", package: "joryio-swift-sdk"),
                // The opt-in location product: the README's geozones sample (issue 19).
                .product(name: "JoryioGeozones", package: "joryio-swift-sdk"),
            ]
        ),
    ]
)
