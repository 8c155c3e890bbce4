/// The proof that the Notification Service Extension's product depends on nothing (PKG-13, NSE-3,
/// STORE-9): its target graph is one target, with no system library, no linker setting and no
/// resource, and its sources import only the OS's own frameworks.
///
/// `make check-nse` runs it on `swift package dump-package` and the target's sources, and reports
/// the release build's object size (docs/performance.md).
package enum ExtensionProductCheck {
    /// The product and its one target.
    package static let product = "JoryioNotificationServiceExtension"

    /// The modules the product's sources may import: the OS and the toolchain, nothing of ours, no
    /// SQLite.
    package static let allowedImports: Set<String> = [
        "Foundation", "FoundationNetworking", "Dispatch", "Glibc", "Musl", "Darwin",
        "UserNotifications", "UserNotificationsUI", "UIKit", "AVKit", "AVFoundation",
    ]

    /// The build-setting kinds the target may have: language mode and upcoming features only (no
    /// linked library or framework, no unsafe flags).
    package static let allowedSettingKinds: Set<String> = ["swiftLanguageMode", "enableUpcomingFeature"]

    /// What is wrong with the product in `package`, one sentence each; empty when it stands alone.
    package static func problems(package: PackageDump) -> [String] {
        guard let product = package.products.first(where: { $0.name == self.product }) else {
            return ["no library product \(self.product)"]
        }
        guard product.targets == [self.product] else {
            return ["product \(self.product) must list only the target \(self.product), not \(product.targets)"]
        }
        guard let target = package.targets[self.product] else {
            return ["no target \(self.product)"]
        }
        var problems: [String] = []
        if target.type != "regular" {
            problems.append("target \(self.product) is a \(target.type) target, not a regular Swift target")
        }
        if !target.allDependencies.isEmpty {
            problems.append(
                "target \(self.product) depends on \(target.allDependencies.joined(separator: ", ")): it must depend on nothing (PKG-13)"
            )
        }
        for kind in target.settingKinds where !self.allowedSettingKinds.contains(kind) {
            problems.append(
                "target \(self.product) has a '\(kind)' setting: no library, framework or flag may be linked"
            )
        }
        if !target.resources.isEmpty {
            problems.append("target \(self.product) has resources \(target.resources): it ships code only")
        }
        return problems
    }

    /// The modules a Swift source imports (`import X`, `public import X.Y`, `@preconcurrency import X`,
    /// `import struct X.Y`), in order.
    package static func imports(in source: String) -> [String] {
        let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "func", "typealias", "let", "var"]
        let modifiers: Set<Substring> = ["public", "package", "internal", "private", "fileprivate", "@_exported"]
        var found: [String] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: true) {
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
            while let first = words.first, first.hasPrefix("@") || modifiers.contains(first) {
                words = words.dropFirst()
            }
            guard words.first == "import" else { continue }
            words = words.dropFirst()
            if let first = words.first, kinds.contains(first) { words = words.dropFirst() }
            guard let path = words.first else { continue }
            found.append(String(path.split(separator: ".").first ?? path))
        }
        return found
    }

    /// The imports of `sources` (path, text) that are not allowed, as `path: module` sentences.
    package static func importProblems(_ sources: [(path: String, text: String)]) -> [String] {
        sources.flatMap { source in
            self.imports(in: source.text).filter { !self.allowedImports.contains($0) }.map {
                "\(source.path) imports \($0): the extension product may import only the OS's frameworks"
            }
        }
    }
}
