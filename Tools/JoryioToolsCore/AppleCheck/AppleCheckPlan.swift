/// What `make check-apple` compiles (issue 26): every library module of the package, in dependency
/// order, with the settings `Package.swift` gives it, then the `Examples` code against the
/// products' public interfaces, for each Apple platform of the check.
///
/// A value: ``AppleCheckPlan/invocations(of:on:layout:)`` gives the exact `swiftc` command lines,
/// which the tests read; the command only runs them.
package struct AppleCheckPlan: Sendable, Equatable {
    /// One module to compile.
    package struct Module: Sendable, Equatable {
        /// The Swift module name.
        package var name: String
        /// Its source files, relative to the package root, sorted.
        package var sources: [String]
        /// The Swift modules it imports from the plan, in plan order (compiled before it).
        package var dependencies: [String]
        /// Folders holding the C module maps it depends on (system library targets).
        package var includePaths: [String]
        /// The `-package-name`, for a target with package access; `nil` for an example (an app
        /// target of another package: public API only).
        package var packageName: String?
        /// The upcoming features it enables.
        package var upcomingFeatures: [String]
        /// Its compilation conditions (`SWIFT_PACKAGE` and `DEBUG`, as a debug SwiftPM build, first).
        package var defines: [String]
        /// The Swift language mode (`6`).
        package var languageMode: String
        /// Whether others import it: its interface is emitted.
        package var emitsModule: Bool
    }

    /// An app-side folder compiled as one module (`Examples/iOSApp` …).
    package struct Example: Sendable, Equatable {
        /// The module name.
        package var name: String
        /// Its folder relative to the package root.
        package var folder: String
        /// The products it links.
        package var products: [String]

        /// Parses `NAME=FOLDER:PRODUCT,PRODUCT`.
        ///
        /// - Throws: ``ToolError`` (usage) for any other shape.
        package init(parsing text: String) throws(ToolError) {
            let nameAndRest = text.split(separator: "=", maxSplits: 1).map(String.init)
            let folderAndProducts = nameAndRest.count == 2 ? nameAndRest[1].split(separator: ":").map(String.init) : []
            guard nameAndRest.count == 2, folderAndProducts.count == 2, !nameAndRest[0].isEmpty,
                !folderAndProducts[0].isEmpty
            else {
                throw ToolError(.usage, "--example takes NAME=FOLDER:PRODUCT[,PRODUCT...], got '\(text)'")
            }
            self.init(
                name: nameAndRest[0],
                folder: folderAndProducts[0],
                products: folderAndProducts[1].split(separator: ",").map(String.init)
            )
        }

        /// An example.
        package init(name: String, folder: String, products: [String]) {
            self.name = name
            self.folder = folder
            self.products = products
        }
    }

    /// An Apple platform the check compiles for.
    package struct Platform: Sendable, Equatable {
        /// `ios` or `macos`: the folder name under the backfills and the expected-diagnostics key.
        package var name: String
        /// The `-target` triple.
        package var triple: String
        /// `-c` (Mach-O objects, SIL diagnostics included) when true; `-typecheck` when false (the
        /// macOS 14.0 SDK's Swift 5.9 overlays crash SIL generation on typed throws).
        package var compiles: Bool

        /// iOS at the package's deployment target, compiled to arm64 objects.
        package static func iOS(_ version: String) -> Platform {
            Platform(name: "ios", triple: "arm64-apple-ios\(version)", compiles: true)
        }

        /// macOS at the package's deployment target, type-checked.
        package static func macOS(_ version: String) -> Platform {
            Platform(name: "macos", triple: "x86_64-apple-macos\(version)", compiles: false)
        }
    }

    /// Where a run keeps what it makes, and what it reads besides the sources.
    package struct Layout: Sendable, Equatable {
        /// The SDK's folder.
        package var sdk: String
        /// A Darwin resource directory (on Linux), or `nil` for the toolchain's own (on a Mac).
        package var resourceDirectory: String?
        /// The clang and Swift module cache, kept between runs.
        package var moduleCache: String
        /// Where the plan's `.swiftmodule`s go (one folder per platform).
        package var modules: String
        /// Where the objects go.
        package var objects: String
        /// The backfill sources per module for this platform (declarations newer SDKs have).
        package var backfills: [String: [String]] = [:]

        /// A layout.
        package init(
            sdk: String,
            resourceDirectory: String?,
            moduleCache: String,
            modules: String,
            objects: String,
            backfills: [String: [String]] = [:]
        ) {
            self.sdk = sdk
            self.resourceDirectory = resourceDirectory
            self.moduleCache = moduleCache
            self.modules = modules
            self.objects = objects
            self.backfills = backfills
        }
    }

    /// The modules in compile order: libraries first (dependencies before dependents, ties by
    /// name), then the examples.
    package var modules: [Module]

    /// The plan for `package`: every regular target that a library product reaches on an Apple
    /// platform, then `examples`. `sources` lists a folder's `.swift` files (relative to the root).
    ///
    /// - Throws: ``ToolError`` (invalid input) for a dependency cycle, an example linking an unknown
    ///   product, or a module without sources.
    package init(
        package: PackageDump,
        packageName: String,
        examples: [Example] = [],
        sources: (String) throws(ToolError) -> [String]
    ) throws(ToolError) {
        let roots = package.products.flatMap(\.targets)
        let reached = package.closure(of: roots)
        let system = Dictionary(uniqueKeysWithValues: reached.filter { $0.type == "system" }.map { ($0.name, $0.path) })
        let swiftTargets = reached.filter { $0.type == "regular" }
        let ordered = try Self.dependencyOrder(swiftTargets)
        let names = Set(ordered.map(\.name))
        let dependents = Set(ordered.flatMap(\.appleDependencies))
        var modules: [Module] = []
        for target in ordered {
            let excluded = target.exclude.map { target.path + "/" + $0 }
            let files = try sources(target.path).filter { file in
                !excluded.contains { file == $0 || file.hasPrefix($0 + "/") }
            }
            guard !files.isEmpty else {
                throw ToolError(.invalidInput, "target \(target.name) has no Swift sources under \(target.path)")
            }
            modules.append(
                Module(
                    name: target.name,
                    sources: files,
                    dependencies: ordered.map(\.name).filter(Set(target.appleDependencies).contains),
                    includePaths: Self.includePaths(of: target, package: package, system: system),
                    packageName: target.packageAccess ? packageName : nil,
                    upcomingFeatures: target.upcomingFeatures,
                    defines: ["SWIFT_PACKAGE", "DEBUG"] + target.defines,
                    languageMode: package.languageModes[target.name] ?? "6",
                    emitsModule: dependents.contains(target.name) || roots.contains(target.name)
                )
            )
        }
        let features = ordered.first?.upcomingFeatures ?? []
        for example in examples {
            var linked: Set<String> = []
            for product in example.products {
                guard let found = package.products.first(where: { $0.name == product }) else {
                    throw ToolError(.invalidInput, "example \(example.name) links unknown product '\(product)'")
                }
                linked.formUnion(package.closure(of: found.targets).map(\.name))
            }
            let files = try sources(example.folder)
            guard !files.isEmpty else {
                throw ToolError(.invalidInput, "example \(example.name) has no Swift sources under \(example.folder)")
            }
            modules.append(
                Module(
                    name: example.name,
                    sources: files,
                    dependencies: ordered.map(\.name).filter(linked.contains).filter(names.contains),
                    includePaths: system.filter { linked.contains($0.key) }.map(\.value).sorted(),
                    packageName: nil,
                    upcomingFeatures: features,
                    defines: [],
                    languageMode: "6",
                    emitsModule: false
                )
            )
        }
        self.modules = modules
    }

    /// `targets` with each one after the targets it depends on; among the ready ones, by name.
    private static func dependencyOrder(_ targets: [PackageDump.Target]) throws(ToolError) -> [PackageDump.Target] {
        let byName = Dictionary(uniqueKeysWithValues: targets.map { ($0.name, $0) })
        var done: Set<String> = []
        var ordered: [PackageDump.Target] = []
        var pending = targets.map(\.name).sorted()
        while !pending.isEmpty {
            guard
                let next = pending.first(where: { name in
                    (byName[name]?.appleDependencies ?? []).allSatisfy { byName[$0] == nil || done.contains($0) }
                })
            else {
                throw ToolError(.invalidInput, "dependency cycle among \(pending.joined(separator: ", "))")
            }
            pending.removeAll { $0 == next }
            done.insert(next)
            if let target = byName[next] { ordered.append(target) }
        }
        return ordered
    }

    /// The module-map folders of the system libraries `target` reaches (directly or through others).
    private static func includePaths(
        of target: PackageDump.Target,
        package: PackageDump,
        system: [String: String]
    ) -> [String] {
        package.closure(of: [target.name]).compactMap { system[$0.name] }.sorted()
    }

    /// The `swiftc` command lines (arguments after `swiftc`) that check `module` on `platform`, run
    /// in order from the package root: on a compiling platform one `-c` that also emits the
    /// module's interface; on a type-checking one, the interface first (function bodies skipped),
    /// then `-typecheck`.
    package func invocations(of module: Module, on platform: Platform, layout: Layout) -> [[String]] {
        var common = ["-target", platform.triple, "-sdk", layout.sdk]
        if let resources = layout.resourceDirectory { common += ["-resource-dir", resources] }
        common += ["-module-cache-path", layout.moduleCache, "-swift-version", module.languageMode]
        common += ["-module-name", module.name]
        if let packageName = module.packageName { common += ["-package-name", packageName] }
        common += ["-parse-as-library", "-Onone", "-diagnostic-style", "llvm"]
        common += module.defines.map { "-D\($0)" }
        common += module.upcomingFeatures.flatMap { ["-enable-upcoming-feature", $0] }
        common += ["-I", layout.modules] + module.includePaths.flatMap { ["-I", $0] }
        common += module.sources + (layout.backfills[module.name] ?? [])
        let interface = ["-emit-module", "-emit-module-path", "\(layout.modules)/\(module.name).swiftmodule"]
        if platform.compiles {
            let object = ["-c", "-wmo", "-o", "\(layout.objects)/\(module.name).o"]
            return [common + object + (module.emitsModule ? interface : [])]
        }
        // One frontend job for the whole module: per-file jobs stop starting once one fails, which
        // left every file after the first with an (expected) error unchecked.
        let typecheck = common + ["-typecheck", "-wmo"]
        guard module.emitsModule else { return [typecheck] }
        return [common + interface + ["-wmo", "-Xfrontend", "-experimental-skip-all-function-bodies"], typecheck]
    }
}
