package import Foundation

/// The file access of the commands: only at paths given on the command line.
package enum Files {
    /// The contents of the file at `path`.
    package static func read(_ path: String) throws(ToolError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ToolError(.noInput, "cannot read \(path)")
        }
        return data
    }

    /// Writes `text` to `path` atomically, creating missing parent directories.
    package static func write(_ text: String, to path: String) throws(ToolError) {
        try self.write(Data(text.utf8), to: path)
    }

    /// Writes `data` to `path` atomically, creating missing parent directories.
    package static func write(_ data: Data, to path: String) throws(ToolError) {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try data.write(to: url, options: .atomic)
        } catch {
            throw ToolError(.cannotWrite, "cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// The symbol graph files at `path`: the file itself, or every `*.symbols.json` under a
    /// directory (recursively), sorted.
    static func symbolGraphs(at path: String) throws(ToolError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ToolError(.noInput, "no such file or directory: \(path)")
        }
        guard isDirectory.boolValue else { return [path] }
        guard let enumerator = FileManager.default.enumerator(atPath: path) else {
            throw ToolError(.noInput, "cannot list \(path)")
        }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix(".symbols.json") {
                found.append((path as NSString).appendingPathComponent(relative))
            }
        }
        return found.sorted()
    }

    /// The folders under a repository root whose files may cite rule IDs.
    static let ruleSourceFolders = ["Modules", "Tests", "Tools"]

    /// The files under `root` that may cite rule IDs, as paths relative to `root`, sorted: every
    /// `*.swift` file in ``ruleSourceFolders`` and every `*.py` file under `Tools/sandbox`. Folders
    /// whose name starts with `.` (`.build`, `.swiftpm`) are skipped.
    ///
    /// - Throws: ``ToolError`` (no input) when `root` holds none of the folders.
    static func ruleSources(under root: String) throws(ToolError) -> [String] {
        var found: [String] = []
        var searched = 0
        for folder in self.ruleSourceFolders {
            let directory = (root as NSString).appendingPathComponent(folder)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
            else { continue }
            guard let enumerator = FileManager.default.enumerator(atPath: directory) else {
                throw ToolError(.noInput, "cannot list \(directory)")
            }
            searched += 1
            while let relative = enumerator.nextObject() as? String {
                let components = relative.split(separator: "/")
                guard !components.contains(where: { $0.hasPrefix(".") }) else {
                    // A hidden folder: do not descend (the check above still covers its files).
                    if components.last?.hasPrefix(".") == true { enumerator.skipDescendants() }
                    continue
                }
                let path = folder + "/" + relative
                if path.hasSuffix(".swift") || (path.hasPrefix("Tools/sandbox/") && path.hasSuffix(".py")) {
                    found.append(path)
                }
            }
        }
        guard searched > 0 else {
            throw ToolError(.noInput, "no \(self.ruleSourceFolders.joined(separator: ", ")) folder under \(root)")
        }
        return found.sorted()
    }
}

extension Files {
    /// Whether `path` exists.
    static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    /// The immediate subfolders of `directory` (names, sorted; hidden ones skipped), or `[]` when it
    /// does not exist.
    static func subfolders(of directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            let path = (directory as NSString).appendingPathComponent(name)
            return !name.hasPrefix(".") && FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
        .sorted()
    }

    /// Every `*.swift` file under `root/folder`, as paths relative to `root`, sorted; folders whose
    /// name starts with `.` skipped.
    ///
    /// - Throws: ``ToolError`` (no input) when `root/folder` is not a directory.
    static func swiftFiles(under root: String, folder: String) throws(ToolError) -> [String] {
        let directory = (root as NSString).appendingPathComponent(folder)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
            let enumerator = FileManager.default.enumerator(atPath: directory)
        else {
            throw ToolError(.noInput, "no \(folder) folder under \(root)")
        }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let components = relative.split(separator: "/")
            if components.last?.hasPrefix(".") == true {
                enumerator.skipDescendants()
                continue
            }
            if relative.hasSuffix(".swift") { found.append(folder + "/" + relative) }
        }
        return found.sorted()
    }
}
