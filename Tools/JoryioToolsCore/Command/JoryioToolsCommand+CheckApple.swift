internal import Foundation
internal import JoryioCore

extension JoryioToolsCommand {
    /// `check-apple` help.
    package static let checkAppleUsage = """
        USAGE: joryio-tools check-apple --package-json FILE [--root DIR] [--example NAME=FOLDER:PRODUCT,...]...
                                        [--expected FILE] [--backfill DIR] [--scratch DIR] [--platform ios|macos]...

        The Apple compile check (issue 26): compiles every library module the package's products reach
        to arm64 objects for iOS and type-checks it for macOS, in the Swift language mode and with the
        upcoming features, package name and C module maps Package.swift gives each target, in
        dependency order, then each --example folder as an app module against the products' public
        interfaces (no package name). Each platform's folder under --backfill holds per-module sources
        (declarations a newer SDK has) compiled into the check only.

        The SDKs are the newest iPhoneOS*.sdk and MacOSX*.sdk (or macOS*.sdk) in $JORYIO_APPLE_SDKS
        (default ~/.cache/joryio-apple-sdks, as ../shared/apple-sdk/prepare-sdks lays them out, with
        the macOS API notes in its apinotes folder); on a Mac, xcrun's for a platform it lacks. A missing SDK
        is reported and its platform skipped, except with CI=true, where it fails the check.

        Every error and warning must be listed in --expected (default
        Tools/AppleCheck/expected-diagnostics.txt) with its reason, and every listed one must occur.

        OPTIONS:
          --package-json FILE   The output of 'swift package dump-package'.
          --root DIR            The repository root (default: the current directory).
          --example SPEC        An app-side folder: module name, folder, the products it links (repeatable).
          --expected FILE       The expected diagnostics (default: DIR/Tools/AppleCheck/expected-diagnostics.txt).
          --backfill DIR        Backfill sources, DIR/<platform>/<Module>/*.swift (default: DIR/Tools/AppleCheck/Backfill).
          --scratch DIR         Module cache, interfaces and objects (default: DIR/.build/check-apple).
          --platform NAME       Only this platform (repeatable; default: ios and macos).
          --help                Show this help.

        Exits 0 when every diagnostic is expected and every expected one occurred, 1 otherwise.

        """

    static func checkApple(_ arguments: [String], environment: [String: String]) throws(ToolError) -> CommandOutput {
        let parsed = try Arguments(
            arguments,
            valued: ["root", "package-json", "example", "expected", "backfill", "scratch", "platform"],
            flags: ["help"]
        )
        if parsed.flags.contains("help") {
            return CommandOutput(exitCode: 0, standardOutput: checkAppleUsage, standardError: "")
        }
        guard parsed.positional.isEmpty else {
            throw ToolError(.usage, "unexpected argument '\(parsed.positional[0])'")
        }
        guard let packageJSON = try parsed.single("package-json") else {
            throw ToolError(.usage, "check-apple needs --package-json FILE (swift package dump-package)")
        }
        let root = URL(fileURLWithPath: try parsed.single("root") ?? ".").standardizedFileURL.path
        let package = try PackageDump(json: try Files.read(packageJSON), origin: packageJSON)
        var examples: [AppleCheckPlan.Example] = []
        for spec in parsed.options["example"] ?? [] { examples.append(try AppleCheckPlan.Example(parsing: spec)) }
        let plan = try AppleCheckPlan(
            package: package,
            packageName: "joryio_swift_sdk",
            examples: examples,
            sources: { (folder) throws(ToolError) in try Files.swiftFiles(under: root, folder: folder) }
        )
        let expectedPath = try parsed.single("expected") ?? root + "/Tools/AppleCheck/expected-diagnostics.txt"
        let expected = try AppleExpectedDiagnostics(
            parsing: String(decoding: try Files.read(expectedPath), as: UTF8.self),
            origin: expectedPath
        )
        let platforms = Set(parsed.options["platform"] ?? ["ios", "macos"])
        for name in platforms where !AppleExpectedDiagnostics.platforms.contains(name) {
            throw ToolError(.usage, "--platform takes ios or macos, got '\(name)'")
        }
        let runner = AppleCheckRunner(
            root: root,
            scratch: try parsed.single("scratch") ?? root + "/.build/check-apple",
            backfill: try parsed.single("backfill") ?? root + "/Tools/AppleCheck/Backfill",
            environment: environment
        )
        let sdks = runner.locateSDKs()
        var report = ""
        var problems: [String] = []
        var jobs: [(AppleCheckPlan.Platform, String)] = []
        let deployment = { (name: String, fallback: String) in package.platforms[name] ?? fallback }
        for (platform, sdk) in [
            (AppleCheckPlan.Platform.iOS(deployment("ios", "14.0")), sdks.iOS),
            (AppleCheckPlan.Platform.macOS(deployment("macos", "11.0")), sdks.macOS),
        ] where platforms.contains(platform.name) {
            guard let sdk else {
                let message = sdks.missingMessage(platform.name)
                if AppleCheckSDKs.isCI(environment) {
                    problems.append("error: \(message); CI=true requires it")
                } else {
                    report += "warning: \(message)\n"
                }
                continue
            }
            jobs.append((platform, sdk))
        }
        let results = Locked<[String: AppleCheckRunner.PlatformResult]>([:])
        let chosen = jobs
        DispatchQueue.concurrentPerform(iterations: chosen.count) { index in
            let (platform, sdk) = chosen[index]
            let result = runner.run(plan, on: platform, sdk: sdk)
            results.withLock { $0[platform.name] = result }
        }
        var diagnostics: [AppleDiagnostic] = []
        for (platform, _) in chosen {
            guard let result = results.withLock({ $0[platform.name] }) else { continue }
            report += result.summary + "\n"
            problems += result.failures.map { "error: [\(platform.name)] \($0)" }
            diagnostics += result.diagnostics
        }
        let comparison = expected.compare(diagnostics, checked: Set(chosen.map(\.0.name)))
        problems += comparison.unexpected.map {
            "\($0)\nerror: not in \(expectedPath): fix it, or list it with its reason"
        }
        problems += comparison.stale.map {
            "\(expectedPath):\($0.line): error: expected '\($0.text)' in \($0.file) [\($0.platform)] did not occur: "
                + "delete the entry"
        }
        let expectedCount = diagnostics.count - comparison.unexpected.count
        if chosen.isEmpty {
            report += "The Apple compile check ran on no platform.\n"
        } else if problems.isEmpty {
            report += "The Apple compile check passed: \(expectedCount) expected SDK-age diagnostics, no other.\n"
        }
        return CommandOutput(
            exitCode: problems.isEmpty ? 0 : ToolError.ExitCode.checkFailed.rawValue,
            standardOutput: report,
            standardError: problems.map { $0 + "\n" }.joined()
        )
    }
}

/// Runs an ``AppleCheckPlan`` on one platform: lays out the Darwin resource directory (on Linux),
/// then runs each module's `swiftc` command lines in order from the package root.
struct AppleCheckRunner: Sendable {
    /// What one platform's run found.
    struct PlatformResult: Sendable {
        /// Its errors and warnings, de-duplicated.
        var diagnostics: [AppleDiagnostic]
        /// Steps that failed without a diagnostic to show for it, and modules skipped for it.
        var failures: [String]
        /// One line: what was compiled, how, and how long it took.
        var summary: String
    }

    let root: String
    let scratch: String
    let backfill: String
    let environment: [String: String]

    /// The SDKs in the configured folder; on a Mac, `xcrun`'s for a platform the folder lacks (or
    /// for both, without the folder).
    func locateSDKs() -> AppleCheckSDKs {
        let folder = AppleCheckSDKs.folder(environment: self.environment)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var found = AppleCheckSDKs(folder: folder, names: names)
        #if os(macOS)
        if found.iOS == nil { found.iOS = Self.output(of: "/usr/bin/xcrun", ["--show-sdk-path", "--sdk", "iphoneos"]) }
        if found.macOS == nil {
            found.macOS = Self.output(of: "/usr/bin/xcrun", ["--show-sdk-path", "--sdk", "macosx"])
        }
        #endif
        return found
    }

    /// Compiles (or type-checks) every module of `plan` for `platform` against `sdk`.
    func run(_ plan: AppleCheckPlan, on platform: AppleCheckPlan.Platform, sdk: String) -> PlatformResult {
        let started = Date()
        let base = self.scratch + "/" + platform.name
        let layout: AppleCheckPlan.Layout
        do {
            layout = AppleCheckPlan.Layout(
                sdk: try self.sdkPath(sdk, platform: platform),
                resourceDirectory: try self.resourceDirectory(for: platform),
                moduleCache: self.scratch + "/module-cache",
                modules: base + "/modules",
                objects: base + "/objects",
                backfills: self.backfills(platform.name)
            )
            for folder in [layout.modules, layout.objects] {
                try? FileManager.default.removeItem(atPath: folder)
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
        } catch {
            return PlatformResult(diagnostics: [], failures: ["cannot prepare \(base): \(error)"], summary: "")
        }
        var seen: Set<AppleDiagnostic> = []
        var diagnostics: [AppleDiagnostic] = []
        var failures: [String] = []
        var broken: Set<String> = []
        var failed: Set<String> = []
        for module in plan.modules {
            if let missing = module.dependencies.first(where: broken.contains) {
                failures.append("\(module.name) not checked: \(missing) did not build")
                broken.insert(module.name)
                failed.insert(module.name)
                continue
            }
            for (step, arguments) in plan.invocations(of: module, on: platform, layout: layout).enumerated() {
                let (status, output) = Self.run(self.swiftc, arguments, in: self.root)
                let found = AppleDiagnostic.parse(output, platform: platform.name, root: self.root)
                for diagnostic in found where seen.insert(diagnostic).inserted { diagnostics.append(diagnostic) }
                guard status != 0 else { continue }
                failed.insert(module.name)
                if status < 0 {
                    // Killed by a signal (a compiler crash): a failure whatever it printed before.
                    failures.append("swiftc was killed by signal \(-status) on \(module.name)")
                } else if !found.contains(where: { $0.severity == "error" }) {
                    let tail = output.split(separator: "\n").suffix(20).joined(separator: "\n")
                    failures.append("swiftc exited \(status) on \(module.name) with no error shown:\n\(tail)")
                }
                // Dependents need the interface, which the first step emits; a later step's errors
                // (a type-check of the bodies) are reported without cutting the dependents off.
                if step == 0 {
                    broken.insert(module.name)
                    break
                }
            }
        }
        let seconds = Int(Date().timeIntervalSince(started).rounded())
        let how = platform.compiles ? "compiled to Mach-O objects" : "type-checked"
        let summary =
            "\(platform.name): \(plan.modules.count - failed.count) of \(plan.modules.count) modules \(how) "
            + "without error for \(platform.triple) against \(layout.sdk) in \(seconds) s, "
            + "\(diagnostics.count) diagnostics"
        return PlatformResult(diagnostics: diagnostics, failures: failures, summary: summary)
    }

    /// `swiftc` on `PATH`.
    var swiftc: String {
        let path = self.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/swiftc"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return "/usr/bin/swiftc"
    }

    /// The SDK under the name clang expects (a link in the scratch folder when it has another).
    private func sdkPath(_ sdk: String, platform: AppleCheckPlan.Platform) throws -> String {
        guard platform.name == "macos", let name = AppleCheckSDKs.xcodeName(ofMacOSSDK: sdk) else { return sdk }
        let folder = self.scratch + "/sdks"
        let link = folder + "/" + name
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) != sdk {
            try? FileManager.default.removeItem(atPath: link)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: sdk)
        }
        return link
    }

    /// The toolchain's `lib/swift`, when it has no Darwin standard library (a Linux toolchain):
    /// then the check needs a resource directory of its own.
    private var linuxToolchainLibrary: String? {
        let driver = URL(fileURLWithPath: self.swiftc).resolvingSymlinksInPath()
        let library = driver.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lib/swift")
        let hasDarwin = FileManager.default.fileExists(atPath: library.appendingPathComponent("iphoneos").path)
        return hasDarwin ? nil : library.path
    }

    /// A Darwin resource directory for a Linux toolchain (the shims, clang's headers and the
    /// standard library's API notes, without the Linux module maps, plus a top-level module map
    /// pointing at the shims; for macOS the API notes the 2023 SDK needs), as
    /// `../shared/apple-sdk/README.md` verified. Made once and kept, so the module cache stays
    /// valid; made again when the toolchain changes.
    private func resourceDirectory(for platform: AppleCheckPlan.Platform) throws -> String? {
        guard let library = self.linuxToolchainLibrary,
            FileManager.default.fileExists(atPath: library + "/shims/module.modulemap")
        else { return nil }
        let notes = platform.name == "macos" ? self.macOSAPINotes() : []
        let folder = self.scratch + "/resource-\(platform.name)"
        let stamp = ([library] + notes).joined(separator: "\n")
        let stampFile = folder + "/joryio-stamp"
        if (try? String(contentsOfFile: stampFile, encoding: .utf8)) == stamp { return folder }
        let manager = FileManager.default
        try? manager.removeItem(atPath: folder)
        try manager.createDirectory(atPath: folder + "/apinotes", withIntermediateDirectories: true)
        try manager.copyItem(atPath: library + "/shims", toPath: folder + "/shims")
        let clang = URL(fileURLWithPath: library + "/clang").resolvingSymlinksInPath().path
        try manager.createSymbolicLink(atPath: folder + "/clang", withDestinationPath: clang)
        try manager.copyItem(atPath: library + "/apinotes/std.apinotes", toPath: folder + "/apinotes/std.apinotes")
        for note in notes {
            let name = URL(fileURLWithPath: note).lastPathComponent
            try manager.copyItem(atPath: note, toPath: folder + "/apinotes/" + name)
        }
        let map = ["SwiftShims", "_SwiftConcurrencyShims", "SwiftOverlayShims", "_SynchronizationShims"]
            .map { "extern module \($0) \"shims/module.modulemap\"\n" }.joined()
        try Data(map.utf8).write(to: URL(fileURLWithPath: folder + "/module.modulemap"))
        try Data(stamp.utf8).write(to: URL(fileURLWithPath: stampFile))
        return folder
    }

    /// The `*.apinotes` for the macOS 14.0 SDK: in the SDK folder's `apinotes`, else in
    /// `../shared/apple-sdk/apinotes` next to the repository.
    private func macOSAPINotes() -> [String] {
        let candidates = [
            AppleCheckSDKs.folder(environment: self.environment) + "/apinotes",
            self.root + "/../shared/apple-sdk/apinotes",
        ]
        for folder in candidates {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            let notes = names.filter { $0.hasSuffix(".apinotes") }.sorted().map { folder + "/" + $0 }
            if !notes.isEmpty { return notes }
        }
        return []
    }

    /// The backfill sources by module for `platform`: `<backfill>/<platform>/<Module>/*.swift`.
    private func backfills(_ platform: String) -> [String: [String]] {
        let folder = self.backfill + "/" + platform
        var result: [String: [String]] = [:]
        for module in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + module)) ?? [])
                .filter { $0.hasSuffix(".swift") }.sorted().map { folder + "/" + module + "/" + $0 }
            if !files.isEmpty { result[module] = files }
        }
        return result
    }

    /// Runs `executable` with `arguments` in `directory`; its exit status (negated for a signal) and
    /// combined output.
    private static func run(_ executable: String, _ arguments: [String], in directory: String) -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return (127, "error: cannot run \(executable): \(error)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // A signal is returned negated, so it can never pass for an exit with expected errors.
        let status =
            process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
        return (status, String(decoding: data, as: UTF8.self))
    }

    #if os(macOS)
    /// The trimmed standard output of a successful run, or `nil`.
    private static func output(of executable: String, _ arguments: [String]) -> String? {
        let (status, text) = self.run(executable, arguments, in: "/")
        let path = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return status == 0 && !path.isEmpty ? path : nil
    }
    #endif
}
