import Foundation
import PackagePlugin

/// Builds the `joryio-tools` product with the invocation's build settings and runs it.
///
/// The plugins do not declare `joryio-tools` as a tool dependency on purpose: SwiftPM would then
/// build a second, host-only copy of every SDK module on each `swift build`, which the 2-core CI
/// machines pay for. Building the product here reuses the normal debug build.
struct JoryioToolsRunner {
    let packageManager: PackageManager

    /// A runner for `package`, which must be the SDK itself: the plugins document and describe the
    /// SDK's own modules, so running them from a package that depends on the SDK is a mistake.
    init(packageManager: PackageManager, package: Package) throws {
        guard package.targets.contains(where: { $0.name == "JoryioToolsCore" }) else {
            throw PluginError("run this plugin in the joryio-swift-sdk package, not in '\(package.displayName)'")
        }
        self.packageManager = packageManager
    }

    /// `path` as an absolute path: as given when absolute, otherwise inside the package.
    static func absolute(_ path: String, in package: Package) -> String {
        path.hasPrefix("/") ? path : package.directoryURL.appending(path: path).path
    }

    /// Runs `joryio-tools` with `arguments`; throws when the build or the command fails.
    func run(_ arguments: [String]) throws {
        let build = try self.packageManager.build(
            .product("joryio-tools"),
            parameters: .init(configuration: .debug, logging: .concise)
        )
        guard build.succeeded,
            let tool = build.builtArtifacts.first(where: {
                $0.kind == .executable && $0.url.lastPathComponent == "joryio-tools"
            })
        else {
            throw PluginError("building joryio-tools failed:\n\(build.logText)")
        }
        let process = try Process.run(tool.url, arguments: arguments)
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw PluginError("joryio-tools \(arguments.first ?? "") failed with status \(process.terminationStatus)")
        }
    }
}

/// A plugin failure with the message SwiftPM prints.
struct PluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
