package import Foundation

/// Which URLs the extension downloads from: `https` only, or `http` to a loopback host (the tests'
/// local sandbox). Redirects are held to the same rule.
package enum RichPushURLPolicy {
    /// The hosts plain `http` is allowed to (never reachable from outside the device).
    package static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "::1", "[::1]"]

    /// Whether the extension may fetch `url`.
    package static func allows(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else {
            return false
        }
        switch scheme {
        case "https": return true
        case "http": return Self.loopbackHosts.contains(host)
        default: return false
        }
    }

    /// The URL a payload value names, when it is a string the extension may fetch.
    package static func url(from value: Any?) -> URL? {
        guard let text = value as? String else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 2048, let url = URL(string: trimmed), Self.allows(url) else {
            return nil
        }
        return url
    }
}
