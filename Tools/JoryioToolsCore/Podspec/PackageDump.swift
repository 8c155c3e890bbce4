package import Foundation

/// What the podspec check needs from `swift package dump-package`: products, targets and platforms.
package struct PackageDump: Sendable, Equatable {
    /// A library product and its top targets.
    package struct Product: Sendable, Equatable {
        /// The product name.
        package var name: String
        /// The targets it lists.
        package var targets: [String]
    }

    /// A target: kind, folder, dependencies compiled for an Apple platform, resources.
    package struct Target: Sendable, Equatable {
        /// The target name.
        package var name: String
        /// `regular`, `system`, `executable`, `test`, `plugin`, ...
        package var type: String
        /// Its folder relative to the package root.
        package var path: String
        /// Dependencies by name that apply on at least one Apple platform.
        package var appleDependencies: [String]
        /// Resource files relative to the package root.
        package var resources: [String]
        /// Every dependency by name, whatever its platform condition.
        package var allDependencies: [String] = []
        /// The kinds of its build settings (`swiftLanguageMode`, `enableUpcomingFeature`,
        /// `linkedLibrary`, `unsafeFlags`, ...), in manifest order.
        package var settingKinds: [String] = []
        /// The upcoming features it enables (`enableUpcomingFeature`), in manifest order.
        package var upcomingFeatures: [String] = []
        /// The compilation conditions it defines (`define`), in manifest order.
        package var defines: [String] = []
        /// Whether it sees the package's `package` declarations (SwiftPM's `packageAccess`).
        package var packageAccess: Bool = false
        /// Paths under its folder that are not sources (`exclude`), relative to the folder.
        package var exclude: [String] = []
    }

    /// Library products, in package order.
    package var products: [Product]
    /// Targets by name.
    package var targets: [String: Target]
    /// Deployment targets by platform name (`ios`, `macos`).
    package var platforms: [String: String]
    /// The Swift language modes the targets set (`swiftLanguageMode`), by target.
    package var languageModes: [String: String]

    /// The platform names of SwiftPM conditions that are Apple platforms.
    package static let applePlatforms: Set<String> = ["ios", "macos", "tvos", "watchos", "visionos", "maccatalyst"]

    /// Reads the JSON of `swift package dump-package`.
    ///
    /// - Throws: ``ToolError`` (invalid input) when it is not that JSON.
    package init(json data: Data, origin: String) throws(ToolError) {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let products = root["products"] as? [[String: Any]], let targets = root["targets"] as? [[String: Any]]
        else {
            throw ToolError(.invalidInput, "\(origin): not the JSON of 'swift package dump-package'")
        }
        self.products = products.compactMap { product in
            guard let name = product["name"] as? String, let type = product["type"] as? [String: Any],
                type["library"] != nil
            else { return nil }
            return Product(name: name, targets: product["targets"] as? [String] ?? [])
        }
        self.targets = [:]
        self.languageModes = [:]
        for target in targets {
            guard let name = target["name"] as? String else { continue }
            let type = target["type"] as? String ?? ""
            let path = target["path"] as? String ?? (type == "test" ? "Tests/\(name)" : "Sources/\(name)")
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap(Self.appleDependency)
            let resources = (target["resources"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
                .map { path + "/" + $0 }
            self.targets[name] = Target(
                name: name,
                type: type,
                path: path,
                appleDependencies: dependencies,
                resources: resources,
                allDependencies: (target["dependencies"] as? [[String: Any]] ?? []).compactMap(Self.dependencyName),
                settingKinds: (target["settings"] as? [[String: Any]] ?? []).compactMap {
                    ($0["kind"] as? [String: Any])?.keys.first
                },
                upcomingFeatures: Self.settingValues("enableUpcomingFeature", in: target),
                defines: Self.settingValues("define", in: target),
                packageAccess: target["packageAccess"] as? Bool ?? false,
                exclude: target["exclude"] as? [String] ?? []
            )
            for setting in target["settings"] as? [[String: Any]] ?? [] {
                if let mode = (setting["kind"] as? [String: Any])?["swiftLanguageMode"] as? [String: Any],
                    let value = mode["_0"] as? String
                {
                    self.languageModes[name] = value
                }
            }
        }
        var platforms: [String: String] = [:]
        for platform in root["platforms"] as? [[String: Any]] ?? [] {
            if let name = platform["platformName"] as? String, let version = platform["version"] as? String {
                platforms[name] = version
            }
        }
        self.platforms = platforms
    }

    /// The `_0` values of a target's Swift settings of one kind (`enableUpcomingFeature`, `define`),
    /// in manifest order, when no platform condition leaves out every Apple platform.
    private static func settingValues(_ kind: String, in target: [String: Any]) -> [String] {
        (target["settings"] as? [[String: Any]] ?? []).compactMap { setting in
            guard setting["tool"] as? String ?? "swift" == "swift",
                let value = (setting["kind"] as? [String: Any])?[kind] as? [String: Any]
            else { return nil }
            if let names = (setting["condition"] as? [String: Any])?["platformNames"] as? [String], !names.isEmpty,
                applePlatforms.isDisjoint(with: names)
            {
                return nil
            }
            return value["_0"] as? String
        }
    }

    /// The name of any dependency (`byName`, `target` or `product`), whatever its condition.
    private static func dependencyName(_ dependency: [String: Any]) -> String? {
        guard let value = dependency.values.first as? [Any] else { return nil }
        return value.first as? String
    }

    /// The name of a `byName`/`target` dependency whose condition allows an Apple platform.
    private static func appleDependency(_ dependency: [String: Any]) -> String? {
        guard let (_, value) = dependency.first(where: { $0.key == "byName" || $0.key == "target" }),
            let parts = value as? [Any], let name = parts.first as? String
        else { return nil }
        if parts.count > 1, let condition = parts[1] as? [String: Any],
            let names = condition["platformNames"] as? [String], !names.isEmpty,
            applePlatforms.isDisjoint(with: names)
        {
            return nil
        }
        return name
    }

    /// The targets `roots` depend on for an Apple platform, themselves included, sorted by name.
    package func closure(of roots: [String]) -> [Target] {
        var seen: Set<String> = []
        var pending = roots
        while let name = pending.popLast() {
            guard !seen.contains(name), let target = self.targets[name] else { continue }
            seen.insert(name)
            pending += target.appleDependencies
        }
        return seen.sorted().compactMap { self.targets[$0] }
    }
}
