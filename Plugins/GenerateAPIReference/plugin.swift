import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-api-reference [--output FILE] [--check-spec SPEC.md]`
///
/// Extracts the public symbol graphs of the public modules (the library products' targets and the
/// modules they re-export with `@_exported import`) and runs `joryio-tools api-reference` on them.
@main
struct GenerateAPIReference: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let runner = try JoryioToolsRunner(packageManager: self.packageManager, package: context.package)
        var extractor = ArgumentExtractor(arguments)
        let output = extractor.extractOption(named: "output").last ?? "docs/API.md"
        let spec = extractor.extractOption(named: "check-spec").last
        guard extractor.remainingArguments.isEmpty else {
            throw PluginError("unexpected arguments: \(extractor.remainingArguments.joined(separator: " "))")
        }

        var graphDirectories: [String] = []
        for target in try Self.publicModules(of: context.package) {
            let graphs = try self.packageManager.getSymbolGraph(
                for: target,
                options: .init(minimumAccessLevel: .public, includeSynthesized: false, includeSPI: false)
            )
            graphDirectories.append(graphs.directoryURL.path)
        }
        var toolArguments = ["api-reference"]
        if !output.isEmpty {
            toolArguments += ["--output", JoryioToolsRunner.absolute(output, in: context.package)]
        }
        if let spec { toolArguments += ["--check-spec", JoryioToolsRunner.absolute(spec, in: context.package)] }
        try runner.run(toolArguments + graphDirectories)
    }

    /// The library products' Swift targets plus the package targets they re-export, by name.
    static func publicModules(of package: Package) throws -> [SwiftSourceModuleTarget] {
        var names: Set<String> = []
        for product in package.products(ofType: LibraryProduct.self) {
            for case let target as SwiftSourceModuleTarget in product.targets {
                names.insert(target.name)
                for file in target.sourceFiles(withSuffix: "swift") {
                    let text = try String(contentsOf: file.url, encoding: .utf8)
                    for line in text.split(separator: "\n") where line.hasPrefix("@_exported ") {
                        if let module = line.split(separator: " ").last { names.insert(String(module)) }
                    }
                }
            }
        }
        // Re-exports of modules outside the package (`@_exported import Foundation`) are not ours to document.
        return package.targets.compactMap { $0 as? SwiftSourceModuleTarget }.filter { names.contains($0.name) }
            .sorted { $0.name < $1.name }
    }
}
