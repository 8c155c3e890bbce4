internal import Foundation
package import JoryioCore

/// What a run of `joryio-tools` printed and its exit status; `main.swift` only forwards these.
package struct CommandOutput: Sendable, Equatable {
    /// The process exit status: 0, or a ``ToolError/ExitCode`` value.
    package var exitCode: Int32
    /// Text for standard output.
    package var standardOutput: String
    /// Text for standard error.
    package var standardError: String

    /// What a run printed and its status.
    package init(exitCode: Int32, standardOutput: String, standardError: String) {
        self.exitCode = exitCode
        self.standardOutput = standardOutput
        self.standardError = standardError
    }
}

/// The `joryio-tools` commands: argument handling, reading inputs and writing outputs.
package enum JoryioToolsCommand {
    /// The top-level help text.
    package static let usage = """
        OVERVIEW: Release tooling for the Joryio Swift SDK.

        USAGE: joryio-tools <command> [options]

        COMMANDS:
          api-reference      Write docs/API.md from public symbol graphs; optionally check SPEC §2.2.
          privacy-manifest   Write PrivacyInfo.xcprivacy (and its JSON) from the modules' PrivacyFacts.
          check-rules        Fail when code cites a rule ID (BATCH-7, GAP-18, ...) that docs/rules.md lacks,
                             or when a GAP of the spec is not named in docs/decisions.md.
          check-required-reason
                             Fail when Apple-platform code uses a required-reason API the manifest lacks.
          check-podspec      Fail when Joryio.podspec does not match the SwiftPM products it mirrors.
          check-nse          Fail when the Notification Service Extension product depends on anything.
          check-apple        Compile every module and the Examples for iOS, type-check them for macOS.
          preview-campaign   Render in-app campaigns to PNG in light and dark mode (headless Chromium).
          inapp-document     Write the HTML in-app document's parts as JSON for the sandbox's previews.
          help               Show this help, or a command's help: joryio-tools help <command>.

        Exit codes: 0 success, 1 check failed, 64 usage error, 65 invalid input, 66 missing input, 73 cannot write.

        """

    /// `api-reference` help.
    package static let apiReferenceUsage = """
        USAGE: joryio-tools api-reference [--output FILE] [--check-spec SPEC.md] GRAPHS...

        Reads symbol graphs (files, or directories searched for *.symbols.json) extracted at
        -minimum-access-level public and writes one Markdown table per public type.

        OPTIONS:
          --output FILE        Where to write the Markdown (for example docs/API.md).
          --check-spec FILE    Print which selectors of the spec's #### 2.2.x tables exist on Joryio.
          --only MODULE.TYPE   Document only these types of MODULE (repeatable): a module re-exported
                               type by type (`@_exported import enum MODULE.TYPE`).
          --help               Show this help.

        At least one of --output and --check-spec is required.

        """

    /// `privacy-manifest` help.
    package static let privacyManifestUsage = """
        USAGE: joryio-tools privacy-manifest --output FILE [--json FILE] [--module NAME]... [--facts FILE]...

        Merges the privacy facts the linked modules declare in Swift, validates them against Apple's
        vocabulary and writes the manifest as an XML property list (and optionally as JSON).

        OPTIONS:
          --output FILE    Where to write PrivacyInfo.xcprivacy.
          --json FILE      Also write the same content as JSON.
          --module NAME    Only this module's facts (repeatable; default: every linked module except
                           separate products such as JoryioGeozones, which have a manifest of their own).
          --facts FILE     Use facts from a JSON file ([PrivacyFacts]) instead of the linked modules (repeatable).
          --help           Show this help.

        """

    /// `check-rules` help.
    package static let checkRulesUsage = """
        USAGE: joryio-tools check-rules [--root DIR] [--rules FILE] [--spec FILE] [--decisions FILE]

        Finds the rule IDs of the specification's families (BATCH-7, CONSENT-3, GAP-18, ...) cited in
        *.swift files under DIR/Modules, DIR/Tests and DIR/Tools and in *.py files under
        DIR/Tools/sandbox (folders starting with '.' skipped), and fails when docs/rules.md has no
        `- **ID**` line or heading for one of them. Each missing ID is reported at its first citation.

        Then reads the specification and fails when one of its open questions (a `- **GAP-N` item)
        is not named anywhere in docs/decisions.md, or when one of its rules (a `- **ID**` item of a
        rule family other than GAP) has no line in docs/rules.md; each is reported at the spec line
        defining it. Without
        --spec the spec is the first of DIR/docs/spec/SPEC.md and DIR/../shared/spec/SPEC.md that
        exists; when neither does (a checkout without the shared spec), this part is skipped with
        one line saying so.

        OPTIONS:
          --root DIR          The repository root (default: the current directory).
          --rules FILE        The rules list (default: DIR/docs/rules.md).
          --spec FILE         The specification (must exist when given).
          --decisions FILE    The decision log (default: DIR/docs/decisions.md).
          --help              Show this help.

        Exits 0 when every cited ID is listed and every GAP named, 1 when some are missing.

        """

    /// A command another module adds (JoryioBrowser's, which need JoryioUI): its name, its help, and
    /// what it does with the arguments after its name. ``run(_:linkedFacts:productFacts:more:)``
    /// dispatches it, reports its errors and shows its help like a command of its own.
    package struct Command: Sendable {
        /// The command's name on the command line.
        package var name: String
        /// Its help.
        package var usage: String
        /// Runs it on the arguments after its name.
        package var run: @Sendable ([String]) throws(ToolError) -> CommandOutput

        /// A command.
        package init(
            name: String,
            usage: String,
            run: @escaping @Sendable ([String]) throws(ToolError) -> CommandOutput
        ) {
            self.name = name
            self.usage = usage
            self.run = run
        }
    }

    /// Runs one command line (without the program name) against the facts of the linked modules.
    /// `productFacts` are those of separately linked products with a manifest of their own
    /// (JoryioGeozones, issue 19): never merged by default, chosen with `--module` only. `more` are
    /// the commands other modules add; `environment` is what `check-apple` reads (its SDK folder, `CI`,
    /// `PATH`).
    package static func run(
        _ arguments: [String],
        linkedFacts: [PrivacyFacts],
        productFacts: [PrivacyFacts] = [],
        more: [Command] = [],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> CommandOutput {
        let help = { (command: String) in Self.help(for: command) ?? more.first { $0.name == command }?.usage }
        guard let command = arguments.first else {
            return CommandOutput(exitCode: ToolError.ExitCode.usage.rawValue, standardOutput: "", standardError: usage)
        }
        let rest = Array(arguments.dropFirst())
        do throws(ToolError) {
            switch command {
            case "help", "--help", "-h":
                let topic = rest.first.flatMap(help) ?? usage
                return CommandOutput(exitCode: 0, standardOutput: topic, standardError: "")
            case "api-reference":
                return try self.apiReference(rest)
            case "privacy-manifest":
                return try self.privacyManifest(rest, linkedFacts: linkedFacts, productFacts: productFacts)
            case "check-rules":
                return try self.checkRules(rest)
            case "check-required-reason":
                return try self.checkRequiredReason(rest)
            case "check-podspec":
                return try self.checkPodspec(rest)
            case "check-nse":
                return try self.checkNSE(rest)
            case "check-apple":
                return try self.checkApple(rest, environment: environment)
            default:
                guard let added = more.first(where: { $0.name == command }) else {
                    throw ToolError(.usage, "unknown command '\(command)'")
                }
                return try added.run(rest)
            }
        } catch {
            let usageText = error.exitCode == .usage ? "\n" + (help(command) ?? usage) : ""
            return CommandOutput(
                exitCode: error.exitCode.rawValue,
                standardOutput: "",
                standardError: "error: \(error.message)\n" + usageText
            )
        }
    }

    private static func help(for command: String) -> String? {
        switch command {
        case "api-reference": apiReferenceUsage
        case "privacy-manifest": privacyManifestUsage
        case "check-rules": checkRulesUsage
        case "check-required-reason": checkRequiredReasonUsage
        case "check-podspec": checkPodspecUsage
        case "check-nse": checkNSEUsage
        case "check-apple": checkAppleUsage
        default: nil
        }
    }

    private static func apiReference(_ arguments: [String]) throws(ToolError) -> CommandOutput {
        let parsed = try Arguments(arguments, valued: ["output", "check-spec", "only"], flags: ["help"])
        if parsed.flags.contains("help") {
            return CommandOutput(exitCode: 0, standardOutput: apiReferenceUsage, standardError: "")
        }
        let output = try parsed.single("output")
        let spec = try parsed.single("check-spec")
        guard output != nil || spec != nil else {
            throw ToolError(.usage, "api-reference needs --output FILE, --check-spec FILE or both")
        }
        guard !parsed.positional.isEmpty else {
            throw ToolError(.usage, "api-reference needs at least one symbol graph file or directory")
        }
        var files: [String] = []
        for path in parsed.positional {
            files += try Files.symbolGraphs(at: path)
        }
        guard !files.isEmpty else {
            throw ToolError(.noInput, "no *.symbols.json under \(parsed.positional.joined(separator: ", "))")
        }
        var graphs: [SymbolGraph] = []
        for file in files {
            graphs.append(try SymbolGraph(json: try Files.read(file), origin: file))
        }
        var only: [String: Set<String>] = [:]
        for name in parsed.options["only"] ?? [] {
            let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ToolError(.usage, "--only takes MODULE.TYPE, got '\(name)'")
            }
            only[parts[0], default: []].insert(parts[1])
        }
        let reference = APIReference(graphs: graphs, only: only)
        var report = ""
        if let output {
            try Files.write(reference.renderMarkdown(), to: output)
            report += "wrote \(output) (\(reference.modules.count) modules, \(files.count) symbol graphs)\n"
        }
        var standardOutput = ""
        if let spec {
            let text = String(decoding: try Files.read(spec), as: UTF8.self)
            let coverage = SpecCoverage(spec: text, reference: reference)
            guard !coverage.entries.isEmpty else {
                throw ToolError(.invalidInput, "\(spec): no backticked selectors under #### 2.2.x headings")
            }
            standardOutput = coverage.renderReport()
        }
        return CommandOutput(exitCode: 0, standardOutput: standardOutput, standardError: report)
    }

    private static func checkRules(_ arguments: [String]) throws(ToolError) -> CommandOutput {
        let parsed = try Arguments(arguments, valued: ["root", "rules", "spec", "decisions"], flags: ["help"])
        if parsed.flags.contains("help") {
            return CommandOutput(exitCode: 0, standardOutput: checkRulesUsage, standardError: "")
        }
        guard parsed.positional.isEmpty else {
            throw ToolError(.usage, "unexpected argument '\(parsed.positional[0])'")
        }
        let root = try parsed.single("root") ?? "."
        let display = { (relative: String) in
            root == "." ? relative : (root as NSString).appendingPathComponent(relative)
        }
        let rulesPath = try parsed.single("rules") ?? display("docs/rules.md")
        let rules = String(decoding: try Files.read(rulesPath), as: UTF8.self)
        var sources: [(path: String, text: String)] = []
        for relative in try Files.ruleSources(under: root) {
            let path = display(relative)
            sources.append((path, String(decoding: try Files.read(path), as: UTF8.self)))
        }
        let cited = RuleCitations.firstCitations(in: sources)
        let missing = RuleCitations.missing(rules: rules, sources: sources)
        var standardOutput = ""
        var report: [String] = []
        if missing.isEmpty {
            standardOutput +=
                "\(rulesPath) lists all \(cited.count) rule IDs cited in the \(sources.count) files scanned.\n"
        } else {
            report += missing.map {
                "\($0.location): error: \($0.id) is cited here but \(rulesPath) does not list it\n"
            }
            report.append(
                "error: \(missing.count) of \(cited.count) cited rule IDs are missing from \(rulesPath): "
                    + "add a '- **ID** <the rule in one sentence>. Tests: ...' line for each\n"
            )
        }
        let testFiles = Set(
            sources.map(\.path).filter { $0.contains("Tests/") }.compactMap { $0.split(separator: "/").last }.map(
                String.init
            )
        )
        let fileProblems = RulesTestFiles.problems(rules: rules, existing: testFiles)
        report += fileProblems.map { "\(rulesPath):\($0.line): error: \($0.message)\n" }
        let specChecks = try self.checkAgainstSpec(parsed, rules: rules, rulesPath: rulesPath, display: display)
        standardOutput += specChecks.standardOutput
        report += specChecks.report
        return CommandOutput(
            exitCode: report.isEmpty ? 0 : ToolError.ExitCode.checkFailed.rawValue,
            standardOutput: standardOutput,
            standardError: report.joined()
        )
    }

    /// The spec locations tried, in order, when `check-rules` has no `--spec`: a copy vendored in
    /// the repository, then the shared checkout next to it.
    static let defaultSpecLocations = ["docs/spec/SPEC.md", "../shared/spec/SPEC.md"]

    /// `check-rules`' second and third parts, against the spec: every `- **GAP-N` of the spec is
    /// named in `docs/decisions.md`, and every rule the spec defines has a line in `docs/rules.md`.
    /// Skipped, with one line on standard output, when no `--spec` was given and no default exists.
    private static func checkAgainstSpec(
        _ parsed: Arguments,
        rules: String,
        rulesPath: String,
        display: (String) -> String
    ) throws(ToolError) -> (standardOutput: String, report: [String]) {
        let specPath: String
        if let given = try parsed.single("spec") {
            specPath = given
        } else {
            let candidates = self.defaultSpecLocations.map(display)
            guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
                return (
                    "GAP check skipped: no spec at \(candidates.joined(separator: " or ")) "
                        + "(a checkout without the shared spec); pass --spec FILE to run it.\n",
                    []
                )
            }
            specPath = found
        }
        let spec = String(decoding: try Files.read(specPath), as: UTF8.self)
        let decisionsPath = try parsed.single("decisions") ?? display("docs/decisions.md")
        let decisions = String(decoding: try Files.read(decisionsPath), as: UTF8.self)
        let defined = GapDecisions.defined(inSpec: spec)
        guard !defined.isEmpty else {
            throw ToolError(.invalidInput, "\(specPath): no '- **GAP-N' items; is this the specification?")
        }
        var standardOutput = ""
        var report: [String] = []
        // One check per list: the items the spec defines that `present` lacks, each at its line.
        func check(
            _ items: [SpecRules.Item],
            present: Set<String>,
            passed: String,
            absent: String,
            summary: (_ missing: Int) -> String
        ) {
            let missing = items.filter { !present.contains($0.id) }
            guard !missing.isEmpty else {
                standardOutput += passed + "\n"
                return
            }
            report += missing.map { "\(specPath):\($0.line): error: \($0.id) \(absent)\n" }
            report.append("error: " + summary(missing.count) + "\n")
        }
        check(
            defined,
            present: GapDecisions.named(inDecisions: decisions),
            passed: "\(decisionsPath) names all \(defined.count) GAP ids of \(specPath).",
            absent: "is open in the spec but \(decisionsPath) does not name it",
            summary: {
                "\($0) of \(defined.count) GAP ids of \(specPath) are not named in \(decisionsPath): "
                    + "record each decision there with its GAP id"
            }
        )
        let specRules = SpecRules.defined(inSpec: spec, families: SpecRules.ruleFamilies)
        check(
            specRules,
            present: RuleCitations.documentedIDs(inRules: rules),
            passed: "\(rulesPath) has a line for all \(specRules.count) rules of \(specPath).",
            absent: "is a rule of the spec but \(rulesPath) has no line for it",
            summary: {
                "\($0) of \(specRules.count) rules of \(specPath) have no line in \(rulesPath): "
                    + "add '- **ID** <the rule in one sentence>. Tests: ...' (or why none can run here)"
            }
        )
        return (standardOutput, report)
    }

    private static func privacyManifest(
        _ arguments: [String],
        linkedFacts: [PrivacyFacts],
        productFacts: [PrivacyFacts]
    ) throws(ToolError) -> CommandOutput {
        let parsed = try Arguments(arguments, valued: ["output", "json", "module", "facts"], flags: ["help"])
        if parsed.flags.contains("help") {
            return CommandOutput(exitCode: 0, standardOutput: privacyManifestUsage, standardError: "")
        }
        guard parsed.positional.isEmpty else {
            throw ToolError(.usage, "unexpected argument '\(parsed.positional[0])'")
        }
        guard let output = try parsed.single("output") else {
            throw ToolError(.usage, "privacy-manifest needs --output FILE")
        }
        let json = try parsed.single("json")
        var facts: [PrivacyFacts] = []
        if let factFiles = parsed.options["facts"] {
            for file in factFiles {
                do {
                    facts += try JSONDecoder().decode([PrivacyFacts].self, from: try Files.read(file))
                } catch let error as ToolError {
                    throw error
                } catch {
                    throw ToolError(.invalidInput, "\(file): not a JSON array of privacy facts: \(error)")
                }
            }
        } else {
            facts = linkedFacts
        }
        if let modules = parsed.options["module"] {
            if parsed.options["facts"] == nil { facts += productFacts }
            let known = Set(facts.map(\.module))
            for module in modules where !known.contains(module) {
                throw ToolError(
                    .usage,
                    "no privacy facts for module '\(module)' (known: \(known.sorted().joined(separator: ", ")))"
                )
            }
            facts = facts.filter { modules.contains($0.module) }
        }
        let manifest = try PrivacyManifest(merging: facts)
        try Files.write(manifest.renderPropertyList(), to: output)
        var report = "wrote \(output)"
        if let json {
            try Files.write(try manifest.renderJSON(), to: json)
            report += " and \(json)"
        }
        report += " from \(facts.map(\.module).sorted().joined(separator: ", "))\n"
        return CommandOutput(exitCode: 0, standardOutput: "", standardError: report)
    }
}
