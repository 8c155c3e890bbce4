/// Where `check-apple` finds the Apple SDKs, and what it does without them.
///
/// A value over what the environment and the folder hold, so the tests cover every case:
/// `$JORYIO_APPLE_SDKS` (default `~/.cache/joryio-apple-sdks`, as `prepare-sdks` lays them out),
/// and, on a Mac, `xcrun`'s for a platform the folder lacks. Without an SDK the check says so and
/// how to lay one out, and skips, except under `CI=true`, where that is a failure.
package struct AppleCheckSDKs: Sendable, Equatable {
    /// The iOS SDK's folder (`iPhoneOS18.6.sdk`), if found.
    package var iOS: String?
    /// The macOS SDK's folder (`MacOSX14.0.sdk`, or `macOS14.0.sdk` as prepare-sdks names it).
    package var macOS: String?
    /// The folder searched, for messages.
    package var searched: String

    /// The SDKs in `folder`, given the names it holds: the newest `iPhoneOS*.sdk` and the newest
    /// `MacOSX*.sdk` / `macOS*.sdk` (by version, not by text: 18.10 is newer than 18.9).
    package init(folder: String, names: [String]) {
        self.searched = folder
        self.iOS = Self.newest(names, prefixes: ["iPhoneOS"]).map { folder + "/" + $0 }
        self.macOS = Self.newest(names, prefixes: ["MacOSX", "macOS"]).map { folder + "/" + $0 }
    }

    /// The folder to search: `$JORYIO_APPLE_SDKS`, else `$HOME/.cache/joryio-apple-sdks`.
    package static func folder(environment: [String: String]) -> String {
        if let given = environment["JORYIO_APPLE_SDKS"], !given.isEmpty { return given }
        return (environment["HOME"] ?? "~") + "/.cache/joryio-apple-sdks"
    }

    /// Whether a missing SDK fails the run: `CI` set to `true` (or `1`), as CI services set it.
    package static func isCI(_ environment: [String: String]) -> Bool {
        ["true", "1", "yes"].contains(environment["CI"]?.lowercased() ?? "")
    }

    /// What to say when a platform's SDK is missing: how to lay it out.
    package func missingMessage(_ platform: String) -> String {
        let (repository, name) =
            platform == "ios" ? ("mrdrvt99/iOS-SDKss", "iPhoneOS*.sdk") : ("itsnebulalol/sdks", "MacOSX*.sdk")
        return """
            no \(name) in \(self.searched): the \(platform) part of the Apple compile check is skipped. \
            Lay the SDKs out with ../shared/apple-sdk/prepare-sdks \(self.searched) <git dir of \(repository)> \
            [<git dir of the other>] and copy ../shared/apple-sdk/apinotes into \(self.searched)/apinotes \
            (or set JORYIO_APPLE_SDKS; on a Mac, xcrun's SDKs are used)
            """
    }

    /// The newest name with one of `prefixes` followed by a version and `.sdk`.
    private static func newest(_ names: [String], prefixes: [String]) -> String? {
        let candidates: [(name: String, version: [Int])] = names.compactMap { name in
            guard name.hasSuffix(".sdk"), let prefix = prefixes.first(where: { name.hasPrefix($0) }) else { return nil }
            let version = name.dropFirst(prefix.count).dropLast(4)
            let parts = version.split(separator: ".").map { Int($0) }
            guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
            return (name, parts.compactMap { $0 })
        }
        return candidates.max { $0.version.lexicographicallyPrecedes($1.version) }?.name
    }

    /// The name clang expects for a macOS SDK's folder: `MacOSX14.0.sdk` for `macOS14.0.sdk`
    /// (with another name clang warns "using sysroot for 'macOS' but targeting 'MacOSX'"), or
    /// `nil` when the folder already has it.
    package static func xcodeName(ofMacOSSDK path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard !name.hasPrefix("MacOSX"), name.hasPrefix("macOS") else { return nil }
        return "MacOSX" + name.dropFirst("macOS".count)
    }
}
