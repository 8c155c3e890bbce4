internal import Foundation

/// One error or warning the compiler printed during `check-apple` (notes and remarks are not
/// diagnostics of their own: they explain the one before them).
package struct AppleDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The platform it was reported for (`ios`, `macos`).
    package var platform: String
    /// The file relative to the package root (an absolute path outside it; empty when the
    /// compiler named none, as for `<unknown>:0:`).
    package var file: String
    /// The line, or 0.
    package var line: Int
    /// The column, or 0.
    package var column: Int
    /// `error` or `warning`.
    package var severity: String
    /// The message, as printed.
    package var message: String

    /// `error: message`: what an expected-diagnostics entry matches (lines move; the text does not).
    package var text: String { "\(self.severity): \(self.message)" }

    /// `file:line:column: severity: message [platform]`, as a compiler would print it.
    package var description: String {
        let location = self.file.isEmpty ? "<unknown>:0" : "\(self.file):\(self.line):\(self.column)"
        return "\(location): \(self.text) [\(self.platform)]"
    }

    /// A diagnostic.
    package init(platform: String, file: String, line: Int, column: Int, severity: String, message: String) {
        self.platform = platform
        self.file = file
        self.line = line
        self.column = column
        self.severity = severity
        self.message = message
    }

    /// The errors and warnings in `output` (a `swiftc` run's standard output and error), with
    /// paths under `root` made relative to it. Lines that are no diagnostic (source excerpts,
    /// notes, progress) are skipped.
    package static func parse(_ output: String, platform: String, root: String) -> [AppleDiagnostic] {
        output.split(whereSeparator: \.isNewline).compactMap { self.parseLine(String($0), platform, root) }
    }

    private static func parseLine(_ line: String, _ platform: String, _ root: String) -> AppleDiagnostic? {
        for severity in ["error", "warning"] {
            let marker = ": \(severity): "
            if line.hasPrefix("\(severity): ") {
                let message = String(line.dropFirst(severity.count + 2))
                return AppleDiagnostic(
                    platform: platform,
                    file: "",
                    line: 0,
                    column: 0,
                    severity: severity,
                    message: message
                )
            }
            guard let range = line.range(of: marker) else { continue }
            let location = line[..<range.lowerBound]
            let message = String(line[range.upperBound...])
            // `file:line:column` or `<unknown>:0`; a colon inside the path stays in the path.
            let parts = location.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            var file = location.description
            var numbers: [Int] = []
            if parts.count >= 3, let row = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]) {
                file = parts.dropLast(2).joined(separator: ":")
                numbers = [row, column]
            } else if parts.count >= 2, let row = Int(parts[parts.count - 1]) {
                file = parts.dropLast().joined(separator: ":")
                numbers = [row, 0]
            } else {
                // Not `file:line[:column]` (`clang: error: …`, a driver's own line): kept whole, so
                // no error can vanish between the lines that parse.
                return AppleDiagnostic(
                    platform: platform,
                    file: "",
                    line: 0,
                    column: 0,
                    severity: severity,
                    message: line
                )
            }
            if file == "<unknown>" { file = "" }
            let prefix = root.hasSuffix("/") ? root : root + "/"
            if file.hasPrefix(prefix) { file = String(file.dropFirst(prefix.count)) }
            return AppleDiagnostic(
                platform: platform,
                file: file,
                line: numbers[0],
                column: numbers[1],
                severity: severity,
                message: message
            )
        }
        return nil
    }
}

/// The committed list of diagnostics `check-apple` expects because a check SDK is older than the
/// Xcode apps build with (`Tools/AppleCheck/expected-diagnostics.txt`): each with its reason.
///
/// One entry per line, four fields separated by ` | `:
/// `platform | file | severity: message | reason`. `#` starts a comment line. An entry matches
/// every diagnostic of its platform, file and text, at any line. The check fails on a diagnostic
/// no entry matches, and on an entry that matched nothing (the SDK or the code moved on: delete
/// it).
package struct AppleExpectedDiagnostics: Sendable, Equatable {
    /// One expected diagnostic.
    package struct Entry: Sendable, Equatable {
        /// `ios` or `macos`.
        package var platform: String
        /// The file relative to the package root (empty: no file).
        package var file: String
        /// `severity: message`.
        package var text: String
        /// Why it is expected: the API, and the SDK or Swift release that added it.
        package var reason: String
        /// The line it is on in the file, for messages.
        package var line: Int
    }

    /// The entries, in file order.
    package var entries: [Entry]

    /// The platforms an entry may name.
    package static let platforms: Set<String> = ["ios", "macos"]

    /// Parses the file's text.
    ///
    /// - Throws: ``ToolError`` (invalid input) naming the line of a malformed entry: not four
    ///   fields, an unknown platform, a text that is not `error: …` or `warning: …`, or no reason.
    package init(parsing text: String, origin: String) throws(ToolError) {
        var entries: [Entry] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let fields = line.components(separatedBy: " | ").map { $0.trimmingCharacters(in: .whitespaces) }
            let at = "\(origin):\(index + 1)"
            guard fields.count == 4 else {
                throw ToolError(.invalidInput, "\(at): expected 'platform | file | severity: message | reason'")
            }
            guard Self.platforms.contains(fields[0]) else {
                throw ToolError(.invalidInput, "\(at): unknown platform '\(fields[0])' (ios or macos)")
            }
            guard fields[2].hasPrefix("error: ") || fields[2].hasPrefix("warning: ") else {
                throw ToolError(.invalidInput, "\(at): the message must start with 'error: ' or 'warning: '")
            }
            guard !fields[3].isEmpty else {
                throw ToolError(.invalidInput, "\(at): an expected diagnostic needs its reason")
            }
            let file = fields[1] == "-" ? "" : fields[1]
            entries.append(Entry(platform: fields[0], file: file, text: fields[2], reason: fields[3], line: index + 1))
        }
        self.entries = entries
    }

    /// An entry matches `diagnostic`.
    package func matches(_ entry: Entry, _ diagnostic: AppleDiagnostic) -> Bool {
        entry.platform == diagnostic.platform && entry.file == diagnostic.file && entry.text == diagnostic.text
    }

    /// What `diagnostics` (of the platforms in `checked`) say against the list: the diagnostics no
    /// entry matches, and the entries of a checked platform that matched none.
    package func compare(
        _ diagnostics: [AppleDiagnostic],
        checked: Set<String>
    ) -> (unexpected: [AppleDiagnostic], stale: [Entry]) {
        let unexpected = diagnostics.filter { diagnostic in !self.entries.contains { self.matches($0, diagnostic) } }
        let stale = self.entries.filter { entry in
            checked.contains(entry.platform) && !diagnostics.contains { self.matches(entry, $0) }
        }
        return (unexpected, stale)
    }
}
