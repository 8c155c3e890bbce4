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
}
