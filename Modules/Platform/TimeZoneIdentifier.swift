import Foundation

/// How a Linux process's IANA time zone identifier is found, as pure functions over the sources.
package enum TimeZoneIdentifier {
    /// The zone glibc uses when `TZ` is set but empty.
    package static let utc = "UTC"

    /// The identifier in a `TZ` value: `Europe/Paris`, `:Europe/Paris`, or a path into a zoneinfo
    /// directory. An empty value means UTC, as in glibc.
    ///
    /// - Parameter value: The value of `TZ`.
    /// - Returns: `nil` for a value that is not an IANA identifier (a POSIX rule such as
    ///   `CET-1CEST`, a path outside `zoneinfo`, garbage).
    package static func fromTZ(_ value: String) -> String? {
        var name = Substring(value.trimmingCharacters(in: .whitespacesAndNewlines))
        if name.isEmpty { return self.utc }
        if name.hasPrefix(":") { name = name.dropFirst() }
        if name.hasPrefix("/") { return self.fromZoneinfoPath(String(name)) }
        return self.isPlausible(name) ? String(name) : nil
    }

    /// The identifier a zoneinfo path names: the target of the `/etc/localtime` link
    /// (`/usr/share/zoneinfo/Europe/Paris`, `../usr/share/zoneinfo/posix/Asia/Tokyo`) → `Europe/Paris`.
    ///
    /// - Parameter path: A path, absolute or relative.
    /// - Returns: `nil` when the path does not lead into a `zoneinfo` directory.
    package static func fromZoneinfoPath(_ path: String) -> String? {
        guard let marker = path.range(of: "zoneinfo/", options: .backwards) else { return nil }
        var name = path[marker.upperBound...]
        for prefix in ["posix/", "right/"] where name.hasPrefix(prefix) {
            name = name.dropFirst(prefix.count)
        }
        return self.isPlausible(name) ? String(name) : nil
    }

    /// The identifier in a Debian-style `/etc/timezone` file: its first line that is neither blank
    /// nor a comment.
    ///
    /// - Parameter text: The file's contents.
    /// - Returns: `nil` when that line is not an IANA identifier.
    package static func fromTimezoneFile(_ text: String) -> String? {
        let line = text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty && !$0.hasPrefix("#") }
        guard let line, self.isPlausible(Substring(line)) else { return nil }
        return line
    }

    /// The process's time zone: the first known identifier among the sources, in glibc's order.
    ///
    /// When `TZ` is set it decides alone: a `TZ` that is not a known identifier (a POSIX rule)
    /// leads straight to `fallback`, which is Foundation's reading of the same variable, because
    /// the system files do not describe this process's clock. Otherwise the `/etc/localtime` link
    /// target, then `/etc/timezone`, then `fallback`.
    ///
    /// - Parameters:
    ///   - tz: The value of `TZ`, or `nil` when it is unset.
    ///   - localtimeLink: The target of the `/etc/localtime` symbolic link, if it is one.
    ///   - timezoneFile: The contents of `/etc/timezone`, if it exists.
    ///   - isKnown: Whether an identifier names a zone the time zone database knows.
    ///   - fallback: The last resort (`TimeZone.current.identifier`).
    /// - Returns: An IANA identifier.
    package static func resolve(
        tz: String?,
        localtimeLink: String?,
        timezoneFile: String?,
        isKnown: (String) -> Bool,
        fallback: () -> String
    ) -> String {
        let candidates: [String?]
        if let tz {
            candidates = [self.fromTZ(tz)]
        } else {
            candidates = [localtimeLink.flatMap(self.fromZoneinfoPath), timezoneFile.flatMap(self.fromTimezoneFile)]
        }
        for case let candidate? in candidates where isKnown(candidate) {
            return candidate
        }
        let last = fallback()
        return last.isEmpty ? self.utc : last
    }

    /// Whether `name` looks like an IANA identifier: relative path components of ASCII letters,
    /// digits, `_`, `+` and `-`, at most 64 characters.
    private static func isPlausible(_ name: Substring) -> Bool {
        guard !name.isEmpty, name.count <= 64 else { return false }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        return components.allSatisfy { component in
            !component.isEmpty && component != "." && component != ".."
                && component.allSatisfy { character in
                    character.isASCII && (character.isLetter || character.isNumber || "_+-".contains(character))
                }
        }
    }
}
