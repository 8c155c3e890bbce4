internal import Foundation

/// The file access of the commands: only at paths given on the command line.
enum Files {
    /// The contents of the file at `path`.
    static func read(_ path: String) throws(ToolError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ToolError(.noInput, "cannot read \(path)")
        }
        return data
    }

    /// Writes `text` to `path` atomically, creating missing parent directories.
    static func write(_ text: String, to path: String) throws(ToolError) {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try Data(text.utf8).write(to: url, options: .atomic)
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
}
