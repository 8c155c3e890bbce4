internal import Foundation

extension JoryioToolsCommand {
    /// `check-nse` help.
    package static let checkNSEUsage = """
        USAGE: joryio-tools check-nse --package-json FILE [--root DIR] [--objects DIR --max-bytes N]

        Proves that the JoryioNotificationServiceExtension product depends on nothing (PKG-13, NSE-3,
        STORE-9): the product lists only its own target; the target is a regular Swift target with no
        dependency (on any platform), no system library, no linker setting and no resource; and every
        import in its sources (DIR/Modules/NotificationServiceExtension) is an OS framework
        (Foundation, UserNotifications, ...). With --objects, also reports the size of the target's
        compiled object files (*.o under that directory) and fails above --max-bytes.

        OPTIONS:
          --package-json FILE   The output of 'swift package dump-package'.
          --root DIR            The repository root (default: the current directory).
          --objects DIR         The target's build directory, such as
                                .build/release/JoryioNotificationServiceExtension.build.
          --max-bytes N         The largest total object size accepted (with --objects).
          --help                Show this help.

        Exits 0 when the product stands alone, 1 otherwise.

        """

    static func checkNSE(_ arguments: [String]) throws(ToolError) -> CommandOutput {
        let parsed = try Arguments(
            arguments,
            valued: ["root", "package-json", "objects", "max-bytes"],
            flags: ["help"]
        )
        if parsed.flags.contains("help") {
            return CommandOutput(exitCode: 0, standardOutput: checkNSEUsage, standardError: "")
        }
        guard parsed.positional.isEmpty else {
            throw ToolError(.usage, "unexpected argument '\(parsed.positional[0])'")
        }
        guard let packageJSON = try parsed.single("package-json") else {
            throw ToolError(.usage, "check-nse needs --package-json FILE (swift package dump-package)")
        }
        let root = try parsed.single("root") ?? "."
        let package = try PackageDump(json: try Files.read(packageJSON), origin: packageJSON)
        var problems = ExtensionProductCheck.problems(package: package)
        let folder = package.targets[ExtensionProductCheck.product]?.path ?? "Modules/NotificationServiceExtension"
        var sources: [(path: String, text: String)] = []
        for relative in try Files.swiftFiles(under: root, folder: folder) {
            let path = root == "." ? relative : (root as NSString).appendingPathComponent(relative)
            sources.append((relative, String(decoding: try Files.read(path), as: UTF8.self)))
        }
        problems += ExtensionProductCheck.importProblems(sources)
        var report =
            "\(ExtensionProductCheck.product): one target, no dependency, no system library, "
            + "\(sources.count) source files importing only OS frameworks.\n"
        if let objects = try parsed.single("objects") {
            guard let limitText = try parsed.single("max-bytes"), let limit = Int(limitText), limit > 0 else {
                throw ToolError(.usage, "--objects needs --max-bytes N (a positive integer)")
            }
            let bytes = try Files.objectBytes(under: objects)
            report +=
                "\(ExtensionProductCheck.product): compiled objects \(bytes) bytes (limit \(limit)) in \(objects).\n"
            if bytes > limit {
                problems.append("the compiled objects take \(bytes) bytes, more than the \(limit) allowed")
            }
        }
        guard problems.isEmpty else {
            return CommandOutput(
                exitCode: ToolError.ExitCode.checkFailed.rawValue,
                standardOutput: "",
                standardError: problems.map { "error: \($0)\n" }.joined()
            )
        }
        return CommandOutput(exitCode: 0, standardOutput: report, standardError: "")
    }
}

extension Files {
    /// The total size of the `*.o` files under `directory` (recursively).
    ///
    /// - Throws: ``ToolError`` (no input) when there are none.
    static func objectBytes(under directory: String) throws(ToolError) -> Int {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else {
            throw ToolError(.noInput, "cannot list \(directory)")
        }
        var total = 0
        var count = 0
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".o") else { continue }
            let path = (directory as NSString).appendingPathComponent(relative)
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
            total += size ?? 0
            count += 1
        }
        guard count > 0 else { throw ToolError(.noInput, "no *.o files under \(directory)") }
        return total
    }
}
