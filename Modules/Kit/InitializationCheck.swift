import Foundation

/// What `initialize()` accepts (INIT-3, INIT-13, GAP-6).
enum InitializationCheck {
    /// `jry_sdk_` followed by at least one letter, digit or underscore, and nothing else.
    static func isValidKey(_ key: String) -> Bool {
        guard key.hasPrefix("jry_sdk_"), key.count > 8 else { return false }
        return key.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_") }
    }

    /// The normalised base URL (no trailing slash, no query), or `nil` when the host is not
    /// acceptable: `https` anywhere, `http` only for 127.0.0.1, ::1 and localhost.
    static func endpoint(_ apiHost: String) -> URL? {
        guard var components = URLComponents(string: apiHost.trimmingCharacters(in: .whitespaces)),
            let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty,
            components.query == nil, components.fragment == nil, components.user == nil
        else { return nil }
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased())
        guard scheme == "https" || (scheme == "http" && loopback) else { return nil }
        while components.path.hasSuffix("/") {
            components.path.removeLast()
        }
        return components.url
    }
}
