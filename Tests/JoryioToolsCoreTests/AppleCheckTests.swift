import Foundation
import JoryioToolsCore
import Testing

/// `joryio-tools check-apple` (issue 26): the plan's command lines, the diagnostics it reads, the
/// expected-diagnostics list, where it finds the SDKs, and a run against a stand-in `swiftc`.
@Suite("The Apple compile check")
struct AppleCheckTests {
    /// A package like ours: a C module map, two modules, an NSE module, products over them.
    static let packageJSON = """
        {
          "products": [
            {"name": "Joryio", "targets": ["Joryio"], "type": {"library": ["automatic"]}},
            {"name": "Ext", "targets": ["Ext"], "type": {"library": ["automatic"]}},
            {"name": "demo", "targets": ["demo"], "type": {"executable": null}}
          ],
          "platforms": [{"platformName": "ios", "version": "14.0"}, {"platformName": "macos", "version": "11.0"}],
          "targets": [
            {"name": "CSQL", "type": "system", "path": "Modules/System/CSQL", "dependencies": []},
            {"name": "CCurl", "type": "system", "path": "Modules/System/CCurl", "dependencies": []},
            {"name": "Core", "type": "regular", "path": "Modules/Core", "packageAccess": true,
             "dependencies": [{"byName": ["CSQL", null]}, {"target": ["CCurl", {"platformNames": ["linux"]}]}],
             "settings": [{"tool": "swift", "kind": {"swiftLanguageMode": {"_0": "6"}}},
                          {"tool": "swift", "kind": {"enableUpcomingFeature": {"_0": "ExistentialAny"}}},
                          {"tool": "swift", "kind": {"define": {"_0": "LINUX_ONLY"}},
                           "condition": {"platformNames": ["linux"]}}]},
            {"name": "Joryio", "type": "regular", "path": "Modules/Joryio", "packageAccess": true,
             "dependencies": [{"byName": ["Core", null]}],
             "settings": [{"tool": "swift", "kind": {"enableUpcomingFeature": {"_0": "ExistentialAny"}}}]},
            {"name": "Ext", "type": "regular", "path": "Modules/Ext", "packageAccess": false, "dependencies": []},
            {"name": "demo", "type": "executable", "path": "Tools/Demo", "dependencies": [{"byName": ["Joryio", null]}]},
            {"name": "CoreTests", "type": "test", "path": "Tests/CoreTests", "dependencies": [{"byName": ["Core", null]}]}
          ]
        }
        """

    static func package() throws -> PackageDump {
        try PackageDump(json: Data(packageJSON.utf8), origin: "dump.json")
    }

    static func plan(examples: [AppleCheckPlan.Example] = []) throws -> AppleCheckPlan {
        try AppleCheckPlan(package: try package(), packageName: "pkg", examples: examples) { folder in
            ["\(folder)/B.swift", "\(folder)/A.swift"].sorted()
        }
    }

    static let layout = AppleCheckPlan.Layout(
        sdk: "/sdks/iPhoneOS18.6.sdk",
        resourceDirectory: "/scratch/resource",
        moduleCache: "/scratch/cache",
        modules: "/scratch/ios/modules",
        objects: "/scratch/ios/objects",
        backfills: ["Core": ["Tools/AppleCheck/Backfill/ios/Core/New.swift"]]
    )

    @Test("Library modules the products reach, dependencies first; tests, tools and Linux-only targets left out")
    func order() throws {
        let plan = try Self.plan()
        #expect(plan.modules.map(\.name) == ["Core", "Ext", "Joryio"])
        let core = try #require(plan.modules.first)
        #expect(core.includePaths == ["Modules/System/CSQL"])
        #expect(core.defines == ["SWIFT_PACKAGE", "DEBUG"])
        #expect(core.upcomingFeatures == ["ExistentialAny"])
        #expect(core.packageName == "pkg")
        #expect(plan.modules[1].packageName == nil)
        #expect(plan.modules[2].dependencies == ["Core"])
        #expect(plan.modules[2].includePaths == ["Modules/System/CSQL"])
    }

    @Test("An example links its products' modules, sees public API only (no package name), comes last")
    func examples() throws {
        let example = try AppleCheckPlan.Example(parsing: "App=Examples/App:Joryio")
        let plan = try Self.plan(examples: [example])
        let app = try #require(plan.modules.last)
        #expect(app.name == "App")
        #expect(app.dependencies == ["Core", "Joryio"])
        #expect(app.packageName == nil)
        #expect(app.sources == ["Examples/App/A.swift", "Examples/App/B.swift"])
        #expect(throws: ToolError.self) { try AppleCheckPlan.Example(parsing: "App=Examples/App") }
        let unknown = AppleCheckPlan.Example(name: "App", folder: "Examples/App", products: ["Nope"])
        #expect(throws: ToolError.self) { _ = try Self.plan(examples: [unknown]) }
    }

    @Test("iOS: one -c per module that also emits its interface, with the package's settings and the backfills")
    func iOSInvocation() throws {
        let plan = try Self.plan()
        let lines = plan.invocations(of: plan.modules[0], on: .iOS("14.0"), layout: Self.layout)
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        let joined = line.joined(separator: " ")
        #expect(joined.contains("-target arm64-apple-ios14.0 -sdk /sdks/iPhoneOS18.6.sdk"))
        #expect(joined.contains("-resource-dir /scratch/resource -module-cache-path /scratch/cache -swift-version 6"))
        #expect(joined.contains("-module-name Core -package-name pkg -parse-as-library"))
        #expect(joined.contains("-DSWIFT_PACKAGE -DDEBUG -enable-upcoming-feature ExistentialAny"))
        #expect(joined.contains("-I /scratch/ios/modules -I Modules/System/CSQL"))
        #expect(!joined.contains("CCurl"))
        #expect(
            joined.contains(
                "Modules/Core/A.swift Modules/Core/B.swift Tools/AppleCheck/Backfill/ios/Core/New.swift -c -wmo"
            )
        )
        #expect(joined.hasSuffix("-emit-module -emit-module-path /scratch/ios/modules/Core.swiftmodule"))
        #expect(!line.contains("-warnings-as-errors"))
    }

    @Test("macOS: the interface with bodies skipped, then -typecheck; an example only -typecheck")
    func macOSInvocation() throws {
        let plan = try Self.plan(examples: [AppleCheckPlan.Example(name: "App", folder: "Ex", products: ["Ext"])])
        let lines = plan.invocations(of: plan.modules[2], on: .macOS("11.0"), layout: Self.layout)
        #expect(lines.count == 2)
        #expect(lines[0].contains("-experimental-skip-all-function-bodies"))
        #expect(lines[0].contains("-emit-module"))
        #expect(Array(lines[1].suffix(2)) == ["-typecheck", "-wmo"], "one job: a failing file stops no other")
        #expect(lines[0].contains("-wmo"))
        #expect(lines[1].contains("x86_64-apple-macos11.0"))
        let example = plan.invocations(of: plan.modules[3], on: .macOS("11.0"), layout: Self.layout)
        #expect(example.count == 1)
        #expect(example[0].contains("-typecheck") && example[0].contains("-wmo"))
        #expect(!example[0].contains("-package-name"))
    }

    @Test("Diagnostics: errors and warnings with their place, paths made relative, notes and excerpts skipped")
    func parse() {
        let output = """
            /repo/Modules/Core/Redactor.swift:10:20: error: instance method 'contains' is not available
            Modules/Push/P.swift:98:49: warning: use of protocol 'UISceneDelegate' as a type must be written 'any'
            /repo/Modules/Push/P.swift:97:1: note: declared here
            <unknown>:0: warning: using sysroot for 'macOS' but targeting 'MacOSX'
            error: unable to load standard library for target 'x86_64-apple-macos11'
               10 |     guard text.contains("x") else {
            /sdk/usr/include/foo.h:3: warning: a header
            clang: error: no such file or directory: 'x.c'
            """
        let found = AppleDiagnostic.parse(output, platform: "ios", root: "/repo")
        #expect(found.count == 6)
        #expect(found[5].file.isEmpty && found[5].message == "clang: error: no such file or directory: 'x.c'")
        #expect(found[0].file == "Modules/Core/Redactor.swift")
        #expect(found[0].line == 10 && found[0].column == 20)
        #expect(found[0].text == "error: instance method 'contains' is not available")
        #expect(found[1].severity == "warning" && found[1].file == "Modules/Push/P.swift")
        #expect(found[2].file.isEmpty && found[2].line == 0)
        #expect(found[3].file.isEmpty && found[3].severity == "error")
        #expect(found[4].file == "/sdk/usr/include/foo.h" && found[4].line == 3)
        #expect(found[0].description == "Modules/Core/Redactor.swift:10:20: " + found[0].text + " [ios]")
    }

    static let expectedText = """
        # comment
        macos | Modules/Core/S.swift | error: no member 'take' | Optional.take() came with Swift 6.0

        macos | - | warning: no file | because
        """

    @Test("The expected list: an entry matches its platform, file and text at any line")
    func compare() throws {
        let expected = try AppleExpectedDiagnostics(parsing: Self.expectedText, origin: "x.txt")
        #expect(expected.entries.count == 2)
        #expect(expected.entries[0].line == 2)
        #expect(expected.entries[1].file.isEmpty)
        let listed = AppleDiagnostic(
            platform: "macos",
            file: "Modules/Core/S.swift",
            line: 99,
            column: 1,
            severity: "error",
            message: "no member 'take'"
        )
        var onIOS = listed
        onIOS.platform = "ios"
        let unlisted = AppleDiagnostic(
            platform: "macos",
            file: "Modules/Core/T.swift",
            line: 1,
            column: 1,
            severity: "warning",
            message: "x"
        )
        let result = expected.compare([listed, onIOS, unlisted], checked: ["ios", "macos"])
        #expect(result.unexpected == [onIOS, unlisted])
        #expect(result.stale.map(\.text) == ["warning: no file"])
        // A platform not checked this run (its SDK missing) leaves its entries alone.
        #expect(expected.compare([], checked: ["ios"]).stale.isEmpty)
    }

    @Test(
        "A malformed entry is refused with its line",
        arguments: [
            ("ios | f | error: x", "x.txt:1: expected"), ("tvos | f | error: x | r", "unknown platform 'tvos'"),
            ("ios | f | x | r", "must start with 'error: ' or 'warning: '"), ("ios | f | error: x |  ", "x.txt:1:"),
        ]
    )
    func malformed(line: String, message: String) {
        #expect {
            try AppleExpectedDiagnostics(parsing: line, origin: "x.txt")
        } throws: { error in
            (error as? ToolError)?.message.contains(message) == true
        }
    }

    @Test("SDKs: the newest of each by version, the folder from JORYIO_APPLE_SDKS or HOME, CI=true")
    func sdks() {
        let found = AppleCheckSDKs(
            folder: "/s",
            names: ["iPhoneOS18.9.sdk", "iPhoneOS18.10.sdk", "iPhoneOS.sdk", "macOS14.0.sdk", "apinotes", "x.sdk"]
        )
        #expect(found.iOS == "/s/iPhoneOS18.10.sdk")
        #expect(found.macOS == "/s/macOS14.0.sdk")
        #expect(AppleCheckSDKs(folder: "/s", names: ["apinotes"]).iOS == nil)
        #expect(AppleCheckSDKs.folder(environment: ["JORYIO_APPLE_SDKS": "/x", "HOME": "/h"]) == "/x")
        #expect(AppleCheckSDKs.folder(environment: ["HOME": "/h"]) == "/h/.cache/joryio-apple-sdks")
        #expect(AppleCheckSDKs.isCI(["CI": "true"]))
        #expect(!AppleCheckSDKs.isCI(["CI": "false"]) && !AppleCheckSDKs.isCI([:]))
        #expect(AppleCheckSDKs.xcodeName(ofMacOSSDK: "/s/macOS14.0.sdk") == "MacOSX14.0.sdk")
        #expect(AppleCheckSDKs.xcodeName(ofMacOSSDK: "/s/MacOSX14.0.sdk") == nil)
        #expect(found.missingMessage("ios").contains("prepare-sdks /s"))
    }

    /// A repository with one module and an expected list, an SDK folder, and a stand-in `swiftc`
    /// that prints `output` and exits with `status`.
    struct Sandbox {
        let root: URL

        init(swiftcOutput output: String, status: Int32, expected: String, sdks: [String], signal: String? = nil) throws
        {
            self.root = FileManager.default.temporaryDirectory.appendingPathComponent("apple-check-\(UUID())")
            let manager = FileManager.default
            for folder in ["Modules/Core", "Modules/Joryio", "Modules/Ext", "bin", "sdks", "Tools/AppleCheck"] {
                try manager.createDirectory(
                    at: self.root.appendingPathComponent(folder),
                    withIntermediateDirectories: true
                )
            }
            for file in ["Modules/Core/A.swift", "Modules/Joryio/A.swift", "Modules/Ext/A.swift"] {
                try Data("let x = 1\n".utf8).write(to: self.root.appendingPathComponent(file))
            }
            for sdk in sdks {
                try manager.createDirectory(
                    at: self.root.appendingPathComponent("sdks/\(sdk)"),
                    withIntermediateDirectories: true
                )
            }
            try Data(AppleCheckTests.packageJSON.utf8).write(to: self.root.appendingPathComponent("dump.json"))
            try Data(expected.utf8).write(
                to: self.root.appendingPathComponent("Tools/AppleCheck/expected-diagnostics.txt")
            )
            let script =
                "#!/bin/sh\necho \"$@\" >> \"$(dirname \"$0\")/calls\"\ncat <<'OUT'\n\(output)\nOUT\n"
                + (signal.map { "kill -\($0) $$\n" } ?? "exit \(status)\n")
            let swiftc = self.root.appendingPathComponent("bin/swiftc")
            try Data(script.utf8).write(to: swiftc)
            try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swiftc.path)
        }

        func run(ci: Bool = false, platforms: [String] = ["ios"]) -> CommandOutput {
            var environment = ["JORYIO_APPLE_SDKS": self.root.appendingPathComponent("sdks").path, "PATH": self.bin]
            if ci { environment["CI"] = "true" }
            return JoryioToolsCommand.run(
                [
                    "check-apple", "--root", self.root.path, "--package-json",
                    self.root.appendingPathComponent("dump.json").path,
                ]
                    + platforms.flatMap { ["--platform", $0] },
                linkedFacts: [],
                environment: environment
            )
        }

        var bin: String { self.root.appendingPathComponent("bin").path }

        var calls: [String] {
            let text = (try? String(contentsOf: self.root.appendingPathComponent("bin/calls"), encoding: .utf8)) ?? ""
            return text.split(separator: "\n").map(String.init)
        }
    }

    @Test("A run compiles each module once, in order, and passes when nothing is reported")
    func cleanRun() throws {
        let sandbox = try Sandbox(swiftcOutput: "", status: 0, expected: "", sdks: ["iPhoneOS18.6.sdk"])
        let output = sandbox.run()
        #expect(output.exitCode == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("ios: 3 of 3 modules compiled to Mach-O objects without error"))
        #expect(sandbox.calls.count == 3)
        #expect(sandbox.calls.map { $0.contains("-module-name Core") } == [true, false, false])
    }

    @Test("An unlisted warning fails the run and is shown at its place; listed, it passes; listed but gone fails")
    func diagnosticsAgainstTheList() throws {
        let warning = "Modules/Core/A.swift:1:5: warning: initialization of 'x' was never used"
        let failing = try Sandbox(swiftcOutput: warning, status: 0, expected: "", sdks: ["iPhoneOS18.6.sdk"])
        let failed = failing.run()
        #expect(failed.exitCode == 1)
        #expect(failed.standardError.contains(warning + " [ios]"))
        let entry = "ios | Modules/Core/A.swift | warning: initialization of 'x' was never used | test"
        let listed = try Sandbox(swiftcOutput: warning, status: 0, expected: entry, sdks: ["iPhoneOS18.6.sdk"])
        #expect(listed.run().exitCode == 0)
        let gone = try Sandbox(swiftcOutput: "", status: 0, expected: entry, sdks: ["iPhoneOS18.6.sdk"])
        let stale = gone.run()
        #expect(stale.exitCode == 1)
        #expect(stale.standardError.contains("did not occur: delete the entry"))
    }

    @Test("A module that does not build cuts off its dependents; a swiftc failure without an error is shown")
    func brokenModule() throws {
        let sandbox = try Sandbox(
            swiftcOutput: "Segmentation fault",
            status: 139,
            expected: "",
            sdks: ["iPhoneOS18.6.sdk"]
        )
        let output = sandbox.run()
        #expect(output.exitCode == 1)
        #expect(output.standardError.contains("swiftc exited 139 on Core with no error shown"))
        #expect(output.standardError.contains("Segmentation fault"))
        #expect(output.standardError.contains("Joryio not checked: Core did not build"))
        #expect(sandbox.calls.count == 2)  // Core, then Ext (independent of Core); Joryio skipped
    }

    @Test("A swiftc killed by a signal fails the check even after printing only expected errors")
    func killedCompiler() throws {
        let error = "Modules/Core/A.swift:1:5: error: expected"
        let entry = "ios | Modules/Core/A.swift | error: expected | test"
        let sandbox = try Sandbox(
            swiftcOutput: error,
            status: 1,
            expected: entry,
            sdks: ["iPhoneOS18.6.sdk"],
            signal: "KILL"
        )
        let output = sandbox.run()
        #expect(output.exitCode == 1)
        #expect(output.standardError.contains("swiftc was killed by signal 9 on Core"))
    }

    @Test("Without an SDK: skipped with how to lay one out, except with CI=true")
    func missingSDK() throws {
        let sandbox = try Sandbox(swiftcOutput: "", status: 0, expected: "", sdks: [])
        let skipped = sandbox.run(platforms: ["ios", "macos"])
        #expect(skipped.exitCode == 0)
        #expect(skipped.standardOutput.contains("warning: no iPhoneOS*.sdk in"))
        #expect(skipped.standardOutput.contains("prepare-sdks"))
        #expect(skipped.standardOutput.contains("ran on no platform"))
        #expect(sandbox.calls.isEmpty)
        let failed = sandbox.run(ci: true, platforms: ["ios", "macos"])
        #expect(failed.exitCode == 1)
        #expect(failed.standardError.contains("CI=true requires it"))
        #expect(failed.standardError.contains("no MacOSX*.sdk"))
    }

    @Test("macOS: a folder named macOS14.0.sdk is passed as MacOSX14.0.sdk (clang's name), type-checked only")
    func macOSName() throws {
        let sandbox = try Sandbox(swiftcOutput: "", status: 0, expected: "", sdks: ["macOS14.0.sdk"])
        let output = sandbox.run(platforms: ["macos"])
        #expect(output.exitCode == 0, "\(output.standardError)")
        let first = try #require(sandbox.calls.first)
        #expect(first.contains("/.build/check-apple/sdks/MacOSX14.0.sdk"))
        #expect(sandbox.calls.allSatisfy { !$0.contains(" -c ") })
        #expect(sandbox.calls.count == 6)
    }
}
