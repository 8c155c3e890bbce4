internal import Foundation

extension JoryioToolsCommand {
    /// `check-required-reason` help.
    package static let checkRequiredReasonUsage = """
        USAGE: joryio-tools check-required-reason [--root DIR] [--manifest FILE] [--allow FILE]

        Scans *.swift files under DIR/Modules for Apple's required-reason APIs (file timestamp, system
        boot time, disk space, active keyboards, UserDefaults), skipping comments, strings and #if
        branches that never compile for an Apple platform (os(Linux), canImport(Glibc), ...). Fails
        when a use is in a category the privacy manifest does not declare and no allow-list line
        covers it, or when an allow-list line matches no use.

        OPTIONS:
          --root DIR        The repository root (default: the current directory).
          --manifest FILE   The generated manifest (default: DIR/Modules/Kit/PrivacyInfo.xcprivacy).
          --allow FILE      The allow-list, one 'PATH API: REASON' per line, '#' comments
                            (default: DIR/docs/required-reason-allowlist.txt; optional).
          --help            Show this help.

        Exits 0 when every use is declared or allowed, 1 otherwise.

        """

    static func checkRequiredReason(_ arguments: [String]) throws(ToolError) -> CommandOutput {
        let parsed = try Arguments(arguments, valued: ["root", "manifest", "allow"], flags: ["help"])
        if parsed.flags.contains("help") {
            return CommandOutput(exitCode: 0, standardOutput: checkRequiredReasonUsage, standardError: "")
        }
        guard parsed.positional.isEmpty else {
            throw ToolError(.usage, "unexpected argument '\(parsed.positional[0])'")
        }
        let root = try parsed.single("root") ?? "."
        let display = { (relative: String) in
            root == "." ? relative : (root as NSString).appendingPathComponent(relative)
        }
        let manifestPath = try parsed.single("manifest") ?? display("Modules/Kit/PrivacyInfo.xcprivacy")
        let declared = try RequiredReasonScanner.declaredCategories(
            manifest: try Files.read(manifestPath),
            origin: manifestPath
        )
        var allowances: [RequiredReasonScanner.Allowance] = []
        let givenAllow = try parsed.single("allow")
        let allowPath = givenAllow ?? display("docs/required-reason-allowlist.txt")
        if givenAllow != nil || Files.exists(allowPath) {
            let text = String(decoding: try Files.read(allowPath), as: UTF8.self)
            allowances = try RequiredReasonScanner.allowances(in: text, origin: allowPath)
        }
        var uses: [RequiredReasonScanner.Use] = []
        let files = try Files.swiftFiles(under: root, folder: "Modules")
        for relative in files {
            let text = String(decoding: try Files.read(display(relative)), as: UTF8.self)
            uses += RequiredReasonScanner.uses(in: text, path: relative)
        }
        let undeclared = RequiredReasonScanner.undeclared(uses, declared: declared, allowances: allowances)
        let unused = RequiredReasonScanner.unused(allowances, uses: uses)
        guard !undeclared.isEmpty || !unused.isEmpty else {
            let categories = Set(uses.map(\.category)).sorted().joined(separator: ", ")
            return CommandOutput(
                exitCode: 0,
                standardOutput:
                    "\(uses.count) required-reason API uses in \(files.count) files, all declared in \(manifestPath) "
                    + "or allowed (\(categories.isEmpty ? "none" : categories)).\n",
                standardError: ""
            )
        }
        var report = undeclared.map {
            "\(display($0.location)): error: \($0.api) is a required-reason API (\($0.category)) that \(manifestPath) "
                + "does not declare: avoid it, declare a reason in the module's PrivacyFacts, or allow it in "
                + "\(allowPath) with the reason it needs none\n"
        }
        report += unused.map {
            "\(allowPath):\($0.line): error: no use of \($0.api) in \($0.path) any more: delete this line\n"
        }
        return CommandOutput(
            exitCode: ToolError.ExitCode.checkFailed.rawValue,
            standardOutput: "",
            standardError: report.joined()
        )
    }
}
