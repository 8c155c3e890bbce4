import Foundation
import JoryioCore
import JoryioToolsCore
import Testing

@Suite("joryio-tools command line")
struct CommandTests {
    private let linked = [
        PrivacyFacts(module: "Storage", accessedAPIs: [.init(.userDefaults, reasons: ["CA92.1"])]),
        PrivacyFacts(
            module: "Facade",
            collectedData: [.init(.userID, linked: true, tracking: false, purposes: [.analytics])]
        ),
    ]

    private func run(_ arguments: [String]) -> CommandOutput {
        JoryioToolsCommand.run(arguments, linkedFacts: self.linked)
    }

    @Test("No arguments print the usage to standard error and exit 64")
    func noArguments() {
        let output = self.run([])
        #expect(output.exitCode == 64)
        #expect(output.standardError.contains("USAGE: joryio-tools <command>"))
    }

    @Test(
        "--help and help <command> print to standard output and exit 0",
        arguments: [
            (["--help"], "COMMANDS:"), (["help", "api-reference"], "--check-spec"),
            (["privacy-manifest", "--help"], "--module NAME"), (["api-reference", "-h"], "GRAPHS..."),
            (["check-rules", "--help"], "--rules FILE"), (["help", "check-rules"], "--root DIR"),
        ]
    )
    func help(arguments: [String], expected: String) {
        let output = self.run(arguments)
        #expect(output.exitCode == 0)
        #expect(output.standardOutput.contains(expected))
    }

    @Test(
        "Usage errors name the problem and exit 64",
        arguments: [
            (["frobnicate"], "unknown command 'frobnicate'"),
            (["api-reference", "graphs"], "needs --output FILE, --check-spec FILE or both"),
            (["api-reference", "--output", "x.md"], "at least one symbol graph"),
            (["api-reference", "--output"], "option --output needs a value"),
            (["privacy-manifest"], "needs --output FILE"),
            (["privacy-manifest", "--output", "a", "--output", "b"], "may be given only once"),
            (["privacy-manifest", "--output", "a", "--verbose"], "unknown option --verbose"),
            (["privacy-manifest", "--output", "a", "extra"], "unexpected argument 'extra'"),
            (
                ["privacy-manifest", "--output", "a", "--module", "Nope"],
                "no privacy facts for module 'Nope' (known: Facade, Storage)"
            ),
            (["check-rules", "Modules"], "unexpected argument 'Modules'"),
            (["check-rules", "--root", "a", "--root", "b"], "may be given only once"),
        ]
    )
    func usageErrors(arguments: [String], expected: String) {
        let output = self.run(arguments)
        #expect(output.exitCode == 64)
        #expect(output.standardError.hasPrefix("error: "))
        #expect(output.standardError.contains(expected), "\(output.standardError)")
    }

    @Test("Missing inputs exit 66 and name the path")
    func missingInput() {
        let output = self.run(["api-reference", "--output", "x.md", "/nonexistent/graphs"])
        #expect(output.exitCode == 66)
        #expect(output.standardError.contains("/nonexistent/graphs"))
    }

    @Test("privacy-manifest writes the linked modules' facts, or only those asked for")
    func privacyManifest() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist = directory.appendingPathComponent("out/PrivacyInfo.xcprivacy").path
        let json = directory.appendingPathComponent("PrivacyInfo.json").path

        let all = self.run(["privacy-manifest", "--output", plist, "--json", json])
        #expect(all.exitCode == 0, "\(all.standardError)")
        let written = try String(contentsOfFile: plist, encoding: .utf8)
        #expect(written.contains("NSPrivacyCollectedDataTypeUserID"))
        #expect(written.contains("CA92.1"))
        #expect(try String(contentsOfFile: json, encoding: .utf8).contains("\"NSPrivacyTracking\" : false"))

        let storageOnly = self.run(["privacy-manifest", "--output", plist, "--module", "Storage"])
        #expect(storageOnly.exitCode == 0)
        let filtered = try String(contentsOfFile: plist, encoding: .utf8)
        #expect(!filtered.contains("NSPrivacyCollectedDataTypeUserID"))
        #expect(filtered.contains("CA92.1"))
    }

    @Test("privacy-manifest --facts with an invalid fact exits 65 and names the value")
    func invalidFactsFile() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = self.run([
            "privacy-manifest", "--output", directory.appendingPathComponent("p.xcprivacy").path,
            "--facts", Fixture.path("Facts/unknown-data-type.json"),
        ])
        #expect(output.exitCode == 65)
        #expect(output.standardError.contains("NSPrivacyCollectedDataTypeShoeSize"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("p.xcprivacy").path))
    }

    @Test("api-reference reads a directory of graphs, writes the golden Markdown and checks a spec")
    func apiReference() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let markdown = directory.appendingPathComponent("docs/API.md").path
        let output = self.run([
            "api-reference", "--output", markdown, "--check-spec", Fixture.path("spec-excerpt.md"),
            Fixture.path("SymbolGraphs"),
        ])
        #expect(output.exitCode == 0, "\(output.standardError)")
        #expect(try String(contentsOfFile: markdown, encoding: .utf8) == Fixture.text("API.golden.md"))
        // The fixture graphs hold no type named Joryio, so every spec selector is reported missing.
        #expect(output.standardOutput.hasPrefix("SPEC §2.2: 0 of 3 selectors exist on Joryio."))
    }

    // MARK: - check-rules

    /// A rule ID of a real family, assembled at run time so that `make check-rules` does not see it here.
    private func rule(_ family: String, _ number: Int) -> String {
        [family, String(number)].joined(separator: "-")
    }

    /// Writes `files` (relative path to contents) under a fresh temporary root.
    private func tree(_ files: [String: String]) throws -> URL {
        let root = try Fixture.temporaryDirectory()
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test("check-rules lists each cited ID missing from docs/rules.md at its first citation and exits 1")
    func checkRulesMissing() throws {
        let listed = self.rule("BATCH", 990)
        let root = try self.tree([
            "docs/rules.md": "## BATCH\n\n- **\(listed)** Listed.\n",
            "Modules/Core/Queue.swift": "/// (\(listed))\n/// (\(self.rule("BATCH", 991)))\n",
            "Tests/CoreTests/QueueTests.swift": "// \(self.rule("BATCH", 991)) \(self.rule("GAP", 990))\n",
            "Tools/sandbox/joryio_sandbox/events.py": "\n# \(self.rule("CONSENT", 990))\n",
            // Not scanned: Python outside the sandbox, hidden folders, other extensions and folders.
            "Tools/scripts/helper.py": "# \(self.rule("AUTH", 990))\n",
            "Modules/.build/Generated.swift": "// \(self.rule("AUTH", 991))\n",
            "Tests/CoreTests/Fixtures/notes.md": "\(self.rule("AUTH", 992))\n",
            "Plugins/Tool/plugin.swift": "// \(self.rule("AUTH", 993))\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let output = self.run(["check-rules", "--root", root.path])
        #expect(output.exitCode == 1)
        let rules = root.appendingPathComponent("docs/rules.md").path
        let diagnostic = { (location: String, id: String) in
            "\(root.path)/\(location): error: \(id) is cited here but \(rules) does not list it"
        }
        #expect(
            output.standardError.split(separator: "\n").map(String.init) == [
                diagnostic("Modules/Core/Queue.swift:2", self.rule("BATCH", 991)),
                diagnostic("Tools/sandbox/joryio_sandbox/events.py:2", self.rule("CONSENT", 990)),
                diagnostic("Tests/CoreTests/QueueTests.swift:1", self.rule("GAP", 990)),
                "error: 3 of 4 cited rule IDs are missing from \(rules): "
                    + "add a '- **ID** <the rule in one sentence>. Tests: ...' line for each",
            ]
        )
    }

    @Test("check-rules passes when every cited ID is listed, also with --rules elsewhere")
    func checkRulesPasses() throws {
        let id = self.rule("GAP", 990)
        let root = try self.tree(["Modules/A.swift": "// \(id)\n", "elsewhere.md": "- **\(id)** Decided.\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        let rules = root.appendingPathComponent("elsewhere.md").path
        let output = self.run(["check-rules", "--root", root.path, "--rules", rules])
        #expect(output.exitCode == 0, "\(output.standardError)")
        #expect(
            output.standardOutput.split(separator: "\n").first
                == "\(rules) lists all 1 rule IDs cited in the 1 files scanned."
        )
    }

    /// A repository under `parent/repo` (so `../shared` is `parent/shared`, which the test controls)
    /// with no rule citations, the given `decisions.md` and, when given, the spec at `specPath`
    /// relative to `parent`.
    private func gapTree(decisions: String, spec: String?, specPath: String, rules: String = "") throws -> URL {
        var files = [
            "repo/docs/rules.md": rules, "repo/Modules/A.swift": "let a = 1\n", "repo/docs/decisions.md": decisions,
        ]
        if let spec { files[specPath] = spec }
        return try self.tree(files)
    }

    @Test("check-rules fails when a GAP the spec defines is not named in decisions.md, at the spec's line")
    func checkRulesGapMissing() throws {
        let (one, two, three, four) = (
            self.rule("GAP", 991), self.rule("GAP", 992), self.rule("GAP", 993), self.rule("GAP", 994)
        )
        let spec = """
            # Spec

            - **\(one) Campaign schema.** Open.
            - **\(two)** A rough edge.
              - **\(three) Nested.** Indented items count too.
            - **\(one) Again.** A second definition is not reported twice.
            - **\(four)x** is not an ID; \(four) in a sentence defines nothing.

            """
        let parent = try self.gapTree(
            decisions: "## Wire (\(three))\n\n- **Schema (\(one)).** Decided.\n",
            spec: spec,
            specPath: "shared/spec/SPEC.md",
            rules: [one, two, three].map { "- **\($0)** Decided.\n" }.joined()
        )
        defer { try? FileManager.default.removeItem(at: parent) }
        let root = parent.appendingPathComponent("repo").path
        let output = self.run(["check-rules", "--root", root])
        #expect(output.exitCode == 1)
        let specPath = "\(root)/../shared/spec/SPEC.md"
        let decisions = "\(root)/docs/decisions.md"
        #expect(
            output.standardError.split(separator: "\n").map(String.init) == [
                "\(specPath):4: error: \(two) is open in the spec but \(decisions) does not name it",
                "error: 1 of 3 GAP ids of \(specPath) are not named in \(decisions): "
                    + "record each decision there with its GAP id",
            ]
        )
        #expect(output.standardOutput.hasPrefix("\(root)/docs/rules.md lists all 0 rule IDs"))

        // Named anywhere (a sentence will do), and the vendored copy docs/spec/SPEC.md wins.
        let vendored = parent.appendingPathComponent("repo/docs/spec/SPEC.md")
        try FileManager.default.createDirectory(
            at: vendored.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try "- **\(one) Only this one.**\n".write(to: vendored, atomically: true, encoding: .utf8)
        let passes = self.run(["check-rules", "--root", root])
        #expect(passes.exitCode == 0, "\(passes.standardError)")
        #expect(passes.standardOutput.contains("\n\(decisions) names all 1 GAP ids of \(vendored.path).\n"))
    }

    @Test("check-rules fails when a rule the spec defines has no line in rules.md, at the spec's line")
    func checkRulesSpecRuleUnlisted() throws {
        let (gap, listed, unlisted, nested, notAFamily) = (
            self.rule("GAP", 991), self.rule("BATCH", 991), self.rule("ATTR", 992), self.rule("PW", 0),
            self.rule("HTTP", 429)
        )
        let spec = """
            # Spec

            - **\(listed)** Listed below.
            - **\(unlisted)** Has no line.
              - **\(nested)** Indented, and number 0.
            - **\(notAFamily)** Not a rule family.
            - **\(gap) Open.** Decided; a GAP needs no line in rules.md.
            See \(unlisted) in a sentence: defines nothing more.

            """
        let parent = try self.gapTree(
            decisions: "- \(gap) decided.\n",
            spec: spec,
            specPath: "shared/spec/SPEC.md",
            rules: "- **\(listed)** Summary. Tests: none.\n- A line citing \(nested) further on.\n"
        )
        defer { try? FileManager.default.removeItem(at: parent) }
        let root = parent.appendingPathComponent("repo").path
        let output = self.run(["check-rules", "--root", root])
        #expect(output.exitCode == 1)
        let specPath = "\(root)/../shared/spec/SPEC.md"
        let rules = "\(root)/docs/rules.md"
        #expect(
            output.standardError.split(separator: "\n").map(String.init) == [
                "\(specPath):4: error: \(unlisted) is a rule of the spec but \(rules) has no line for it",
                "\(specPath):5: error: \(nested) is a rule of the spec but \(rules) has no line for it",
                "error: 2 of 3 rules of \(specPath) have no line in \(rules): "
                    + "add '- **ID** <the rule in one sentence>. Tests: ...' (or why none can run here)",
            ]
        )

        let complete = parent.appendingPathComponent("repo/docs/rules.md")
        try "- **\(listed)** A. Tests: none.\n- **\(unlisted)** B.\n- **\(nested)** C.\n"
            .write(to: complete, atomically: true, encoding: .utf8)
        let passes = self.run(["check-rules", "--root", root])
        #expect(passes.exitCode == 0, "\(passes.standardError)")
        #expect(passes.standardOutput.hasSuffix("\(rules) has a line for all 3 rules of \(specPath).\n"))
    }

    @Test("check-rules skips the GAP check, saying so, when no spec exists; a --spec that does not exist exits 66")
    func checkRulesGapSkipped() throws {
        let parent = try self.gapTree(decisions: "", spec: nil, specPath: "")
        defer { try? FileManager.default.removeItem(at: parent) }
        let root = parent.appendingPathComponent("repo").path
        let skipped = self.run(["check-rules", "--root", root])
        #expect(skipped.exitCode == 0, "\(skipped.standardError)")
        let lines = skipped.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(
            lines.last
                == "GAP check skipped: no spec at \(root)/docs/spec/SPEC.md or \(root)/../shared/spec/SPEC.md "
                + "(a checkout without the shared spec); pass --spec FILE to run it."
        )
        let absent = self.run(["check-rules", "--root", root, "--spec", "/nonexistent/SPEC.md"])
        #expect(absent.exitCode == 66)
        #expect(absent.standardError.contains("/nonexistent/SPEC.md"))

        let noGaps = parent.appendingPathComponent("not-a-spec.md")
        try "# Notes\n".write(to: noGaps, atomically: true, encoding: .utf8)
        let invalid = self.run(["check-rules", "--root", root, "--spec", noGaps.path])
        #expect(invalid.exitCode == 65)
    }

    @Test("check-rules without rules.md or without any scanned folder exits 66")
    func checkRulesMissingInput() throws {
        let root = try self.tree(["docs/rules.md": ""])
        defer { try? FileManager.default.removeItem(at: root) }
        let noFolders = self.run(["check-rules", "--root", root.path])
        #expect(noFolders.exitCode == 66)
        #expect(noFolders.standardError.contains("no Modules, Tests, Tools folder under \(root.path)"))
        let noRules = self.run(["check-rules", "--root", root.path, "--rules", "/nonexistent/rules.md"])
        #expect(noRules.exitCode == 66)
        #expect(noRules.standardError.contains("/nonexistent/rules.md"))
    }

    /// With the spec checked out next to the repository, the run also checks that docs/decisions.md
    /// names every GAP of it and that docs/rules.md has a line for every rule it defines.
    @Test("This repository's docs/rules.md lists every rule ID its code and tests cite (make check-rules)")
    func repositoryRules() {
        let root = Fixture.directory.appendingPathComponent("../../..").standardizedFileURL.path
        let output = self.run(["check-rules", "--root", root])
        #expect(output.exitCode == 0, "\(output.standardError)")
    }
}
