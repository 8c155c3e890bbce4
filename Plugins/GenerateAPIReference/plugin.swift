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
        let (modules, scoped) = try Self.publicModules(of: context.package)
        for target in modules {
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
        for name in scoped { toolArguments += ["--only", name] }
        try runner.run(toolArguments + graphDirectories)
    }

    /// The library products' Swift targets plus the package targets they re-export (followed
    /// through re-exporting targets), by name; and `MODULE.TYPE` for each type re-exported alone
    /// (`@_exported public import enum JoryioCore.LogLevel`), whose module is documented for those
    /// types only, unless a product re-exports it whole.
    static func publicModules(of package: Package) throws -> ([SwiftSourceModuleTarget], [String]) {
        let targets = package.targets.compactMap { $0 as? SwiftSourceModuleTarget }
        var names: Set<String> = []
        var scoped: Set<String> = []
        var pending: [SwiftSourceModuleTarget] = package.products(ofType: LibraryProduct.self)
            .flatMap { $0.targets.compactMap { $0 as? SwiftSourceModuleTarget } }
        while let target = pending.popLast() {
            guard names.insert(target.name).inserted else { continue }
            for file in target.sourceFiles(withSuffix: "swift") {
                let text = try String(contentsOf: file.url, encoding: .utf8)
                for line in text.split(separator: "\n") where line.hasPrefix("@_exported ") {
                    guard let imported = line.split(separator: " ").last.map(String.init) else { continue }
                    if imported.contains(".") {
                        scoped.insert(imported)
                    } else if let next = targets.first(where: { $0.name == imported }) {
                        pending.append(next)
                    }
                }
            }
        }
        // A module re-exported whole is documented whole.
        let scopedNames = scoped.filter { !names.contains(String($0.prefix { $0 != "." })) }
        for name in scopedNames { names.insert(String(name.prefix { $0 != "." })) }
        // Re-exports of modules outside the package (`@_exported import Foundation`) are not ours to document.
        let modules = targets.filter { names.contains($0.name) }.sorted { $0.name < $1.name }
        return (modules, scopedNames.sorted())
    }
}
