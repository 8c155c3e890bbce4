import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-privacy-manifest [--module NAME]...`
///
/// Runs `joryio-tools privacy-manifest`, which merges the privacy facts the linked modules declare
/// in Swift, and writes `Modules/Kit/PrivacyInfo.xcprivacy` and `docs/PrivacyInfo.json`.
@main
struct GeneratePrivacyManifest: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let runner = try JoryioToolsRunner(packageManager: self.packageManager, package: context.package)
        var extractor = ArgumentExtractor(arguments)
        let output = extractor.extractOption(named: "output").last ?? "Modules/Kit/PrivacyInfo.xcprivacy"
        let json = extractor.extractOption(named: "json").last ?? "docs/PrivacyInfo.json"
        let modules = extractor.extractOption(named: "module")
        guard extractor.remainingArguments.isEmpty else {
            throw PluginError("unexpected arguments: \(extractor.remainingArguments.joined(separator: " "))")
        }
        var toolArguments = [
            "privacy-manifest",
            "--output", JoryioToolsRunner.absolute(output, in: context.package),
            "--json", JoryioToolsRunner.absolute(json, in: context.package),
        ]
        for module in modules { toolArguments += ["--module", module] }

        try runner.run(toolArguments)
    }
}
