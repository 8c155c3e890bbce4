import Foundation

/// A parser for `os-release(5)`: the `/etc/os-release` file naming a Linux distribution.
///
/// The format is a list of shell-style `KEY=value` assignments. The parser is strict about what it
/// accepts and forgiving about what it skips: comments, blank lines, lines without `=`, invalid keys,
/// unterminated quotes and oversized values are ignored, never fatal.
package enum OSRelease {
    /// The longest value kept; longer ones (a hostile or corrupt file) are ignored.
    package static let maximumValueLength = 128

    /// The assignments in `text`, the last one winning for a repeated key.
    ///
    /// Values may be unquoted, `"double-quoted"` (with `\"`, `\\`, `\$` and `` \` `` escapes) or
    /// `'single-quoted'`. Control characters are removed and surrounding whitespace trimmed; a value
    /// left empty is dropped.
    ///
    /// - Parameter text: The file's contents.
    /// - Returns: The fields, keyed by their names.
    package static func parse(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals])
            guard self.isValidKey(key), let raw = self.unquote(line[line.index(after: equals)...]) else { continue }
            let printable = raw.unicodeScalars.filter { $0.properties.generalCategory != .control }
            let value = String(String.UnicodeScalarView(printable)).trimmingCharacters(in: .whitespaces)
            guard !value.isEmpty, value.count <= self.maximumValueLength else { continue }
            fields[key] = value
        }
        return fields
    }

    /// The operating system's name and version in `fields`: `NAME` (which `os-release(5)` defaults
    /// to `Linux`) with `VERSION_ID`, or with `BUILD_ID` on a rolling distribution without one.
    ///
    /// - Parameter fields: Parsed `os-release` fields.
    /// - Returns: `nil` when the file names no version, so the caller falls back to `uname`.
    package static func operatingSystem(in fields: [String: String]) -> (name: String, version: String)? {
        guard let version = fields["VERSION_ID"] ?? fields["BUILD_ID"] else { return nil }
        return (fields["NAME"] ?? "Linux", version)
    }

    /// Whether `key` is a shell variable name: ASCII letters, digits and `_`, not starting with a digit.
    private static func isValidKey(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return key.unicodeScalars.allSatisfy { scalar in
            scalar == "_" || ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar)
                || ("0"..."9").contains(scalar)
        }
    }

    /// The value of a right-hand side, or `nil` when its quoting is broken.
    private static func unquote(_ raw: Substring) -> String? {
        guard let quote = raw.first, quote == "\"" || quote == "'" else {
            return String(raw)
        }
        var value = ""
        var index = raw.index(after: raw.startIndex)
        while index < raw.endIndex {
            let character = raw[index]
            let next = raw.index(after: index)
            if character == quote {
                let rest = raw[next...].trimmingCharacters(in: .whitespaces)
                return rest.isEmpty || rest.hasPrefix("#") ? value : nil
            }
            if quote == "\"", character == "\\", next < raw.endIndex, "\"\\$`".contains(raw[next]) {
                value.append(raw[next])
                index = raw.index(after: next)
                continue
            }
            value.append(character)
            index = next
        }
        return nil
    }
}
