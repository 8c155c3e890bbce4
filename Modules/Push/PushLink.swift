package import Foundation

/// A link from a Joryio payload (`joryio.url`) and how the SDK follows it (DEEPLINK-5, ULINK-7).
///
/// `https` links are universal links, delivered to the app as an `NSUserActivity` of type
/// browsing-web; any other scheme is a deep link opened with `UIApplication.open` so the app's URL
/// handlers receive it. Refused: links that are not ASCII URIs of at most 2,048 bytes with a valid
/// scheme, `https` links without a host, and the schemes in ``refusedSchemes``.
package struct PushLink: Sendable, Equatable {
    /// How the SDK hands the link to the app.
    package enum Route: Sendable, Equatable {
        /// A custom-scheme URL: `UIApplication.open`, routed to the app's `open url` handlers.
        case openURL
        /// An `https` URL: `NSUserActivity(activityType: NSUserActivityTypeBrowsingWeb)`.
        case universalLink
    }

    /// Why a link was not followed.
    package enum Refusal: Error, Sendable, Equatable {
        /// `joryio.url` is not a string.
        case notAString
        /// Empty, longer than ``PushLink/maxLength`` bytes, not ASCII, or containing spaces or
        /// control characters.
        case malformed
        /// No valid URI scheme (`letter *( letter / digit / "+" / "-" / "." ) ":"`).
        case noScheme
        /// A scheme the SDK never opens (lowercased).
        case refusedScheme(String)
        /// An `https` URL without a host.
        case noHost
    }

    /// The longest link followed, in bytes.
    package static let maxLength = 2048
    /// Schemes never opened from a push: script and local-content schemes, and cleartext web links
    /// (an `http` link is neither a universal link nor safe to open; campaigns use `https`).
    package static let refusedSchemes: Set<String> = [
        "javascript", "vbscript", "data", "file", "about", "blob", "filesystem", "http", "ftp",
    ]

    /// The URL.
    package var url: URL
    /// The scheme, lowercased.
    package var scheme: String
    /// How it is handed to the app.
    package var route: Route

    /// Checks `text` and decides its route.
    package static func parse(_ text: String) -> Result<PushLink, Refusal> {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maxLength, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .failure(.malformed)
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return .failure(.noScheme) }
        let schemeBytes = bytes[..<colon]
        guard let first = schemeBytes.first, Self.isLetter(first),
            schemeBytes.allSatisfy({
                Self.isLetter($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
                    || $0 == UInt8(ascii: ".")
            })
        else { return .failure(.noScheme) }
        let scheme = String(decoding: schemeBytes, as: UTF8.self).lowercased()
        guard !Self.refusedSchemes.contains(scheme) else { return .failure(.refusedScheme(scheme)) }
        guard let url = URL(string: text) else { return .failure(.malformed) }
        if scheme == "https" {
            guard let host = URLComponents(string: text)?.host, !host.isEmpty else { return .failure(.noHost) }
            return .success(PushLink(url: url, scheme: scheme, route: .universalLink))
        }
        return .success(PushLink(url: url, scheme: scheme, route: .openURL))
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
