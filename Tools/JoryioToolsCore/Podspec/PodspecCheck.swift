internal import Foundation

/// Compares `Joryio.podspec` with the SwiftPM package it mirrors (PKG-5…PKG-9, PKG-12, PKG-13).
///
/// The podspec ships the same sources as the SwiftPM products: each mirrored product's targets
/// (those it needs on an Apple platform) are covered by its subspec or the subspecs it depends on,
/// each source folder by exactly one subspec, and nothing else: no test, tool, example or
/// SwiftPM-only code. See ``problems(podspec:package:moduleFolders:sdkVersion:)`` for every rule.
package enum PodspecCheck {
    /// The subspec that mirrors each SwiftPM product (PKG-2, PKG-7). `JoryioUI` and
    /// `JoryioNotificationServiceExtension` arrive with issues 17 and 15: until the product exists,
    /// its subspec may only be a placeholder without sources; once it does, the subspec must exist
    /// and hold the product's folders.
    package static let subspecByProduct: [String: String] = [
        "Joryio": "Core",
        "JoryioUI": "UI",
        "JoryioNotificationServiceExtension": "NotificationServiceExtension",
    ]

    /// Products SwiftPM ships and the pod does not, with the reason.
    package static let swiftPMOnlyProducts: [String: String] = [
        // Its top module defines `Joryio.shared` too: in the pod's single module the two would clash.
        "JoryioAnalytics": "the slim alternative to Joryio; a pod is one module, so only one Joryio.shared",
        "JoryioTesting": "test doubles and the sandbox server, for test targets only",
        // GAP-95: the pod is one module; a subspec would put location code into the "no location" module.
        "JoryioGeozones": "reads location and ships its own manifest; a pod subspec would compile it into Joryio",
    ]

    /// The subspec a plain `pod 'Joryio'` installs: no UI (PKG-7).
    package static let defaultSubspec = "Core"

    /// Where the package's system-library wrappers live; not sources, but module maps to preserve.
    package static let systemFolder = "Modules/System"

    /// Every mismatch, one sentence each; empty when the podspec matches.
    ///
    /// - Parameters:
    ///   - podspec: The parsed podspec.
    ///   - package: The package description.
    ///   - moduleFolders: The folders under `Modules/` on disk (`Modules/Core`, ...).
    ///   - sdkVersion: The SDK's version string in code, when known; the podspec's `version` must match.
    package static func problems(
        podspec: Podspec,
        package: PackageDump,
        moduleFolders: [String],
        sdkVersion: String?
    ) -> [String] {
        var problems: [String] = []
        let spec = podspec.attributes
        if spec["name"] != ["Joryio"] {
            problems.append("name must be 'Joryio' (PKG-7), found \(spec["name"] ?? [])")
        }
        if let sdkVersion, spec["version"] != [sdkVersion] {
            problems.append("version must be the SDK's version '\(sdkVersion)', found \(spec["version"] ?? [])")
        }
        let defaults = spec["default_subspecs"] ?? spec["default_subspec"] ?? []
        if defaults != [self.defaultSubspec] {
            problems.append("default_subspecs must be '\(self.defaultSubspec)' (PKG-7: plain pod 'Joryio' has no UI)")
        }
        problems += self.platformProblems(spec, package: package)
        problems += self.subspecProblems(podspec, package: package)
        problems += self.coverageProblems(podspec, package: package, moduleFolders: moduleFolders)
        return problems
    }

    // MARK: - Rules

    private static func platformProblems(_ spec: Podspec.Attributes, package: PackageDump) -> [String] {
        var problems: [String] = []
        for (platform, key) in [("ios", "ios.deployment_target"), ("macos", "osx.deployment_target")] {
            let declared = spec[key]?.first
            guard let expected = package.platforms[platform] else {
                if let declared {
                    problems.append("\(key) is \(declared) but Package.swift has no \(platform) platform")
                }
                continue
            }
            if platform == "ios", declared == nil {
                problems.append("ios.deployment_target is missing; Package.swift says \(expected) (PKG-11)")
            } else if let declared, self.version(declared) != self.version(expected) {
                problems.append("\(key) is \(declared) but Package.swift says \(expected)")
            }
        }
        let modes = Set(package.languageModes.values)
        let swiftVersion = (spec["swift_versions"] ?? spec["swift_version"] ?? []).first
        if let mode = modes.sorted().last {
            if swiftVersion.map(self.version) != self.version(mode) {
                problems.append(
                    "swift_version must be the package's Swift language mode \(mode), found \(swiftVersion ?? "none")"
                )
            }
        }
        return problems
    }

    private static func subspecProblems(_ podspec: Podspec, package: PackageDump) -> [String] {
        var problems: [String] = []
        let known = Set(self.subspecByProduct.values)
        for subspec in podspec.subspecs where !known.contains(subspec.name) {
            problems.append("subspec '\(subspec.name)' mirrors no product (expected: \(known.sorted()))")
        }
        let productNames = Set(package.products.map(\.name))
        for product in package.products.map(\.name).sorted() {
            if let name = self.subspecByProduct[product] {
                if podspec.subspec(name) == nil {
                    problems.append("product \(product) has no subspec '\(name)' (PKG-7)")
                }
            } else if self.swiftPMOnlyProducts[product] == nil {
                problems.append(
                    "product \(product) is neither mirrored by a subspec nor listed as SwiftPM-only in PodspecCheck"
                )
            }
        }
        // Before its product exists a subspec may only be a placeholder, with no sources of its own
        // (PKG-7 names it; the code arrives with its issue).
        for (product, name) in self.subspecByProduct where !productNames.contains(product) {
            if let subspec = podspec.subspec(name), !(subspec.attributes["source_files"] ?? []).isEmpty {
                problems.append("subspec '\(name)' exists but the package has no \(product) product yet")
            }
        }
        if let ui = podspec.subspec("UI"), !(ui.attributes["dependency"] ?? []).contains("Joryio/Core") {
            problems.append("subspec 'UI' must depend on 'Joryio/Core' (PKG-3)")
        }
        if let nse = podspec.subspec("NotificationServiceExtension"), !(nse.attributes["dependency"] ?? []).isEmpty {
            problems.append("subspec 'NotificationServiceExtension' must have no dependencies (PKG-13)")
        }
        return problems
    }

    private static func coverageProblems(
        _ podspec: Podspec,
        package: PackageDump,
        moduleFolders: [String]
    ) -> [String] {
        var problems: [String] = []
        var owner: [String: String] = [:]  // source folder -> subspec
        let targetFolders = Set(package.targets.values.map(\.path))
        for subspec in podspec.subspecs {
            for pattern in subspec.attributes["source_files"] ?? [] {
                for expanded in self.expandBraces(pattern) {
                    guard let folder = self.recursiveFolder(expanded) else {
                        problems.append(
                            "subspec '\(subspec.name)': source_files '\(expanded)' must be FOLDER/**/*.swift"
                        )
                        continue
                    }
                    guard folder.hasPrefix("Modules/"), targetFolders.contains(folder) else {
                        problems.append(
                            "subspec '\(subspec.name)': \(folder) is not a library target folder under Modules/"
                        )
                        continue
                    }
                    if let other = owner[folder], other != subspec.name {
                        problems.append("\(folder) is in subspecs '\(other)' and '\(subspec.name)'; one only")
                    }
                    owner[folder] = subspec.name
                }
            }
        }
        var shipped: Set<String> = []
        var swiftPMOnly: Set<String> = []
        for product in package.products {
            let closure = package.closure(of: product.targets)
            guard let name = self.subspecByProduct[product.name] else {
                swiftPMOnly.formUnion(closure.map(\.path))
                continue
            }
            guard let subspec = podspec.subspec(name) else { continue }
            let reachable = self.subspecClosure(subspec, in: podspec)
            let files = reachable.flatMap { podspec.subspec($0)?.attributes ?? [:] }
            let preserved = Set(files.filter { $0.key == "preserve_paths" }.flatMap(\.value))
            let bundled = Set(files.filter { $0.key == "resource_bundles" || $0.key == "resources" }.flatMap(\.value))
            for target in closure {
                shipped.insert(target.path)
                switch target.type {
                case "system":
                    if !preserved.contains(target.path) {
                        problems.append(
                            "product \(product.name) needs \(target.name): add '\(target.path)' to preserve_paths of "
                                + "subspec '\(name)' or one it depends on"
                        )
                    }
                case "regular":
                    if let folderOwner = owner[target.path] {
                        if !reachable.contains(folderOwner) {
                            problems.append(
                                "product \(product.name) needs \(target.path), but it is in subspec '\(folderOwner)', "
                                    + "which '\(name)' does not depend on"
                            )
                        }
                    } else {
                        problems.append(
                            "product \(product.name) needs \(target.path): add it to subspec '\(name)' source_files"
                        )
                    }
                    for resource in target.resources where !bundled.contains(resource) {
                        problems.append(
                            "product \(product.name) ships \(resource): add it to resource_bundles of subspec '\(name)' "
                                + "(PKG-12)"
                        )
                    }
                default:
                    problems.append("product \(product.name) needs \(target.name), a \(target.type) target")
                }
            }
        }
        for (folder, subspec) in owner.sorted(by: { $0.key < $1.key }) where !shipped.contains(folder) {
            problems.append("subspec '\(subspec)' has \(folder), which no mirrored product needs")
        }
        for folder in moduleFolders.sorted() where folder != self.systemFolder {
            if !shipped.contains(folder), !swiftPMOnly.contains(folder) {
                problems.append(
                    "\(folder) is in no subspec and in no SwiftPM-only product: give it a product and a subspec"
                )
            }
        }
        return problems
    }

    // MARK: - Helpers

    /// `subspec` and every subspec of this pod it depends on, transitively (`Joryio/Name`).
    private static func subspecClosure(_ subspec: Podspec.Subspec, in podspec: Podspec) -> Set<String> {
        var seen: Set<String> = []
        var pending = [subspec.name]
        while let name = pending.popLast() {
            guard !seen.contains(name), let current = podspec.subspec(name) else { continue }
            seen.insert(name)
            for dependency in current.attributes["dependency"] ?? [] where dependency.hasPrefix("Joryio/") {
                pending.append(String(dependency.dropFirst("Joryio/".count)))
            }
        }
        return seen
    }

    /// `a/{b,c}/d` as `a/b/d` and `a/c/d` (one level of braces, the first group).
    package static func expandBraces(_ pattern: String) -> [String] {
        guard let open = pattern.firstIndex(of: "{"), let close = pattern[open...].firstIndex(of: "}") else {
            return [pattern]
        }
        let prefix = pattern[..<open]
        let suffix = String(pattern[pattern.index(after: close)...])
        return pattern[pattern.index(after: open)..<close].split(separator: ",", omittingEmptySubsequences: false)
            .flatMap { self.expandBraces(prefix + $0 + suffix) }
    }

    /// The folder of a `FOLDER/**/*.swift` pattern, or `nil` for any other shape.
    package static func recursiveFolder(_ pattern: String) -> String? {
        guard let range = pattern.range(of: "/**/*.swift"), range.upperBound == pattern.endIndex else { return nil }
        let folder = String(pattern[..<range.lowerBound])
        guard !folder.isEmpty, !folder.contains(where: { "*?[{".contains($0) }) else { return nil }
        return folder
    }

    /// `14.0.0`, `14.0` and `14` compare equal.
    private static func version(_ text: String) -> String {
        var parts = text.split(separator: ".").map(String.init)
        while parts.count > 1, parts.last == "0" { parts.removeLast() }
        return parts.joined(separator: ".")
    }
}

extension PodspecCheck {
    /// Where the SDK's version string is defined.
    package static let sdkVersionFile = "Modules/Kit/Joryio+Live.swift"

    /// The value of `sdkVersion = "…"` in a Swift source, or `nil`.
    package static func sdkVersion(inSource text: String) -> String? {
        for line in text.split(separator: "\n") {
            guard let range = line.range(of: "sdkVersion = \"") else { continue }
            let rest = line[range.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { continue }
            return String(rest[..<end])
        }
        return nil
    }
}
