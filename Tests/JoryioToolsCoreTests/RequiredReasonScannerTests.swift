import Foundation
import JoryioToolsCore
import Testing

/// Apart from the declared UserDefaults, Apple-platform code uses no required-reason API (STORE-10,
/// PRIVACY-7) unless the manifest declares it or the allow-list says why it needs no declaration.
@Suite("Required-reason APIs in Apple-platform code are declared or allowed")
struct RequiredReasonScannerTests {
    private func apis(_ text: String) -> [String] {
        RequiredReasonScanner.uses(in: text, path: "F.swift").map(\.api)
    }

    @Test("Each category's identifiers are found, with category and line")
    func categories() {
        let text = """
            let a = UserDefaults.standard
            var info = stat()
            _ = lstat(path, &info)
            let up = ProcessInfo.processInfo.systemUptime
            let t = mach_absolute_time()
            let keys: Set<URLResourceKey> = [.volumeAvailableCapacityForImportantUsageKey, .creationDateKey]
            _ = statvfs(path, &fs)
            let modes = UITextInputMode.activeInputModes
            """
        let uses = RequiredReasonScanner.uses(in: text, path: "F.swift")
        #expect(
            uses.map(\.api) == [
                "UserDefaults", "stat", "lstat", "systemUptime", "mach_absolute_time",
                "volumeAvailableCapacityForImportantUsageKey", "creationDateKey", "statvfs", "activeInputModes",
            ]
        )
        #expect(uses.map(\.line) == [1, 2, 3, 4, 5, 6, 6, 7, 8])
        #expect(
            Set(uses.map(\.category)) == Set(RequiredReasonAPIs.all.map(\.manifestKey)),
            "all five categories"
        )
        #expect(uses[2].location == "F.swift:3")
    }

    @Test(
        "Comments, strings and longer identifiers are not uses",
        arguments: [
            "// lstat is not used", "/// sized with `stat`", "let s = \"fstat(fd)\"", "/* stat */ let x = 1",
            "let statistics = 1", "let fstatCount = 2", "func restat() {}", "let x = myUserDefaults",
            "let s = \"a \\\"stat\\\" b\"",
        ]
    )
    func notUses(text: String) {
        #expect(self.apis(text).isEmpty, "\(text)")
    }

    @Test("Block comments and multi-line strings span lines")
    func multiline() {
        let text = """
            /* start
               lstat(path) /* nested */ stat()
            */ let a = fstat
            let s = \"\"\"
                statvfs
                \"\"\"
            let b = statfs
            """
        #expect(self.apis(text) == ["fstat", "statfs"])
    }

    @Test("Branches that never compile for an Apple platform are skipped")
    func linuxOnlyBranches() {
        let text = """
            #if os(Linux)
            let a = stat()
            #elseif canImport(Darwin)
            let b = lstat
            #else
            let c = fstat
            #endif
            #if canImport(Glibc) || os(Android)
            let d = statvfs
            #else
            let e = statfs
            #endif
            #if !os(Linux)
            let f = systemUptime
            #endif
            #if os(iOS)
            let g = UserDefaults
            #elseif os(Linux)
            let h = mach_absolute_time
            #else
            let i = creationDate
            #endif
            #if DEBUG
            #if os(Linux)
            let j = fstatvfs
            #endif
            let k = modificationDate
            #endif
            """
        #expect(
            self.apis(text) == ["lstat", "statfs", "systemUptime", "UserDefaults", "creationDate", "modificationDate"]
        )
    }

    @Test(
        "How a condition can hold on an Apple platform",
        arguments: [
            ("os(Linux)", RequiredReasonScanner.AppleTruth.no), ("os(iOS)", .maybe), ("!os(Linux)", .yes),
            ("canImport(Darwin)", .yes), ("canImport(Glibc)", .no), ("canImport(UIKit)", .maybe),
            ("os(Linux) || os(Android)", .no), ("os(Linux) || os(macOS)", .maybe),
            ("canImport(Darwin) && DEBUG", .maybe),
            ("canImport(Glibc) && DEBUG", .no), ("!(os(Linux) || os(Windows))", .yes), ("canImport(CJoryioCurl)", .no),
            ("true", .yes), ("false", .no), ("compiler(>=6.0)", .maybe), ("canImport(FoundationNetworking)", .no),
        ]
    )
    func appleTruth(condition: String, expected: RequiredReasonScanner.AppleTruth) {
        #expect(RequiredReasonScanner.appleTruth(of: condition) == expected, "\(condition)")
    }

    @Test("A use is fine when its category is declared or the file and API are allowed; stale allowances are reported")
    func declaredAndAllowed() throws {
        let uses = [
            RequiredReasonScanner.Use(
                api: "UserDefaults",
                category: RequiredReasonAPIs.userDefaults.manifestKey,
                path: "A.swift",
                line: 1
            ),
            RequiredReasonScanner.Use(
                api: "lstat",
                category: RequiredReasonAPIs.fileTimestamp.manifestKey,
                path: "B.swift",
                line: 2
            ),
            RequiredReasonScanner.Use(
                api: "statvfs",
                category: RequiredReasonAPIs.diskSpace.manifestKey,
                path: "C.swift",
                line: 3
            ),
        ]
        let allowances = try RequiredReasonScanner.allowances(
            in: """
                # comment

                C.swift statvfs: test helper filling a tmpfs, never linked into an app
                D.swift fstat: gone
                """,
            origin: "allow.txt"
        )
        #expect(allowances.map(\.line) == [3, 4])
        let declared: Set<String> = [RequiredReasonAPIs.userDefaults.manifestKey]
        #expect(
            RequiredReasonScanner.undeclared(uses, declared: declared, allowances: allowances).map(\.api) == ["lstat"]
        )
        #expect(RequiredReasonScanner.unused(allowances, uses: uses).map(\.api) == ["fstat"])
    }

    @Test(
        "An allow-list line needs a path, an API of Apple's list and a reason",
        arguments: ["A.swift", "A.swift lstat", "A.swift lstat:", "A.swift lstat:   ", "A.swift notAnAPI: reason"]
    )
    func badAllowance(line: String) {
        #expect(throws: ToolError.self) { try RequiredReasonScanner.allowances(in: line, origin: "allow.txt") }
    }

    @Test("The manifest's declared categories are read from the property list")
    func declaredCategories() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixture.path("PrivacyInfo.golden.xcprivacy")))
        let declared = try RequiredReasonScanner.declaredCategories(manifest: data, origin: "golden")
        #expect(!declared.isEmpty)
        #expect(declared.allSatisfy { $0.hasPrefix("NSPrivacyAccessedAPICategory") })
        #expect(throws: ToolError.self) {
            try RequiredReasonScanner.declaredCategories(manifest: Data("not a plist".utf8), origin: "x")
        }
    }

    @Test("The command passes on declared uses and fails on an undeclared one, naming file and line")
    func command() throws {
        let root = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let modules = root.appendingPathComponent("Modules/Store")
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        let manifest = root.appendingPathComponent("PrivacyInfo.xcprivacy")
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: Fixture.path("PrivacyInfo.golden.xcprivacy")),
            to: manifest
        )
        let source = modules.appendingPathComponent("Store.swift")
        try "let d = UserDefaults.standard\n#if os(Linux)\nlet s = stat()\n#endif\n".write(
            to: source,
            atomically: true,
            encoding: .utf8
        )
        let arguments = ["check-required-reason", "--root", root.path, "--manifest", manifest.path]
        let passing = JoryioToolsCommand.run(arguments, linkedFacts: [])
        #expect(passing.exitCode == 0, "\(passing.standardError)")

        try "let d = UserDefaults.standard\n\nlet size = lstat(path, &info)\n".write(
            to: source,
            atomically: true,
            encoding: .utf8
        )
        let failing = JoryioToolsCommand.run(arguments, linkedFacts: [])
        #expect(failing.exitCode == 1)
        #expect(failing.standardError.contains("Modules/Store/Store.swift:3: error: lstat"))

        let allow = root.appendingPathComponent("allow.txt")
        try "Modules/Store/Store.swift lstat: a made-up reason for the test\n".write(
            to: allow,
            atomically: true,
            encoding: .utf8
        )
        let allowed = JoryioToolsCommand.run(arguments + ["--allow", allow.path], linkedFacts: [])
        #expect(allowed.exitCode == 0, "\(allowed.standardError)")
    }

    @Test("The repository's own Modules pass: no undeclared required-reason API on Apple platforms")
    func repository() {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let output = JoryioToolsCommand.run(["check-required-reason", "--root", root], linkedFacts: [])
        #expect(output.exitCode == 0, "\(output.standardError)")
    }
}
