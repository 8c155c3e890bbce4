internal import Foundation

extension JoryioToolsCommand {
    /// `check-podspec` help.
    package static let checkPodspecUsage = """
        USAGE: joryio-tools check-podspec --package-json FILE [--root DIR] [--podspec FILE]

        Reads Joryio.podspec with line rules (no Ruby) and checks it against the package: name,
        version (the SDK's sdkVersion), default subspec Core, a subspec per mirrored product (Joryio ->
        Core, JoryioUI -> UI, JoryioNotificationServiceExtension -> NotificationServiceExtension),
        every Apple-platform target of a product in its subspec (or one it depends on), each source
        folder in one subspec only, no test, tool or SwiftPM-only folder, system libraries preserved,
        the privacy manifest bundled (PKG-12), deployment targets and Swift language mode as in
        Package.swift, and no Modules/ folder left out of both the pod and the SwiftPM-only products.

        OPTIONS:
          --package-json FILE   The output of 'swift package dump-package'.
          --root DIR            The repository root (default: the current directory).
          --podspec FILE        The podspec (default: DIR/Joryio.podspec).
          --help                Show this help.

        Exits 0 when the podspec matches, 1 otherwise.

        """

    static func checkPodspec(_ arguments: [String]) throws(ToolError) -> CommandOutput {
        let parsed = try Arguments(arguments, valued: ["root", "podspec", "package-json"], flags: ["help"])
        if parsed.flags.contains("help") {
            return CommandOutput(exitCode: 0, standardOutput: checkPodspecUsage, standardError: "")
        }
        guard parsed.positional.isEmpty else {
            throw ToolError(.usage, "unexpected argument '\(parsed.positional[0])'")
        }
        guard let packageJSON = try parsed.single("package-json") else {
            throw ToolError(.usage, "check-podspec needs --package-json FILE (swift package dump-package)")
        }
        let root = try parsed.single("root") ?? "."
        let display = { (relative: String) in
            root == "." ? relative : (root as NSString).appendingPathComponent(relative)
        }
        let podspecPath = try parsed.single("podspec") ?? display("Joryio.podspec")
        let podspec = Podspec(text: String(decoding: try Files.read(podspecPath), as: UTF8.self))
        let package = try PackageDump(json: try Files.read(packageJSON), origin: packageJSON)
        let versionFile = display(PodspecCheck.sdkVersionFile)
        let sdkVersion =
            Files.exists(versionFile)
            ? PodspecCheck.sdkVersion(inSource: String(decoding: try Files.read(versionFile), as: UTF8.self)) : nil
        let folders = Files.subfolders(of: display("Modules")).map { "Modules/" + $0 }
        let problems = PodspecCheck.problems(
            podspec: podspec,
            package: package,
            moduleFolders: folders,
            sdkVersion: sdkVersion
        )
        guard !problems.isEmpty else {
            return CommandOutput(
                exitCode: 0,
                standardOutput:
                    "\(podspecPath) matches the package: subspecs \(podspec.subspecs.map(\.name).joined(separator: ", ")).\n",
                standardError: ""
            )
        }
        return CommandOutput(
            exitCode: ToolError.ExitCode.checkFailed.rawValue,
            standardOutput: "",
            standardError: problems.map { "\(podspecPath): error: \($0)\n" }.joined()
        )
    }
}
