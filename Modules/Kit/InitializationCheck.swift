import Foundation

/// What `initialize()` accepts (INIT-3, INIT-13, GAP-6), and why it refuses the rest: a
/// configuration that cannot work is refused at once with its reason, rather than accepted and
/// retried forever (docs/decisions.md, "Hardening (issue 12)").
enum InitializationCheck {
    /// Why `initialize()` refused its arguments: one sentence for the log, naming the problem.
    struct Refusal: Error, Equatable {
        var reason: String
    }

    /// The prefix every SDK key starts with.
    static let keyPrefix = "jry_sdk_"
    /// The longest SDK key accepted, in characters (docs/protocol.md §2): real keys are far
    /// shorter, and a longer one would make every request fail in the server's HTTP layer.
    static let maxKeyLength = 256

    /// The form a key must have, for the log (the redactor keeps these bare prefixes).
    private static let keyHint =
        "expected jry_sdk_ followed by letters, digits and _ (iOS keys: jry_sdk_ios_…), "
        + "as shown under Settings → Apps → your app → SDK Keys"

    /// Why `key` is refused, or `nil` when it is acceptable: `jry_sdk_` followed by at least one
    /// ASCII letter, digit or underscore, and nothing else, at most ``maxKeyLength`` characters.
    /// The reason never quotes the key.
    static func keyProblem(_ key: String) -> Refusal? {
        let scalars = Array(key.unicodeScalars)
        func refusal(_ problem: String) -> Refusal {
            Refusal(reason: "the SDK key \(problem); \(Self.keyHint)")
        }
        if scalars.isEmpty {
            return Refusal(reason: "the SDK key is empty; \(Self.keyHint)")
        }
        if scalars.count > Self.maxKeyLength {
            return Refusal(
                reason: "the SDK key has \(scalars.count) characters, more than any real key "
                    + "(at most \(Self.maxKeyLength)): check that only the key was copied; \(Self.keyHint)"
            )
        }
        if let (position, scalar) = Self.firstInvisible(in: scalars) {
            return refusal("contains \(Self.describe(scalar)) at position \(position)")
        }
        guard key.hasPrefix(Self.keyPrefix) else {
            return refusal("does not start with jry_sdk_")
        }
        guard scalars.count > Self.keyPrefix.unicodeScalars.count else {
            return refusal("has nothing after jry_sdk_")
        }
        if let index = scalars.firstIndex(where: { !Self.isKeyCharacter($0) }) {
            return refusal("contains \(Self.describe(scalars[index])) at position \(index + 1)")
        }
        return nil
    }

    /// The normalised base URL (no trailing slash), or why `apiHost` is refused: `https` anywhere,
    /// `http` only for 127.0.0.1, ::1 and localhost; a host name; no user info, query or fragment;
    /// a port, when given, in 1 … 65535; no whitespace, control or invisible formatting character
    /// (spaces and tabs around it are ignored).
    static func endpoint(_ apiHost: String) -> Result<URL, Refusal> {
        func refused(_ reason: String) -> Result<URL, Refusal> {
            .failure(Refusal(reason: "apiHost \(reason)"))
        }
        let text = apiHost.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return refused("is empty") }
        let leading = apiHost.unicodeScalars.prefix { CharacterSet.whitespaces.contains($0) }.count
        if let (position, scalar) = Self.firstInvisible(in: Array(text.unicodeScalars)) {
            return refused(
                "contains \(Self.describe(scalar)) at position \(position + leading); "
                    + "it would be percent-encoded into every request's URL, which would never reach the API"
            )
        }
        let example = "e.g. https://api-eu1.joryio.com/api"
        guard var components = URLComponents(string: text) else {
            return refused("is not a URL; give the API's base URL, \(example)")
        }
        guard let scheme = components.scheme?.lowercased(), text.contains("://") else {
            return refused("has no scheme; write it as https://host/path, \(example)")
        }
        guard scheme == "https" || scheme == "http" else {
            return refused("uses the scheme \(scheme); only https is supported (http for 127.0.0.1, ::1 and localhost)")
        }
        // Never quoted: it may hold a password.
        guard components.user == nil, components.password == nil else {
            return refused("contains user info (a name before @); credentials do not belong in the API URL")
        }
        guard let host = components.host, !host.isEmpty else {
            return refused("has no host name; \(example)")
        }
        if let port = components.port, !(1...65535).contains(port) {
            return refused("has port \(port), outside 1 … 65535")
        }
        guard components.query == nil else {
            return refused("has a query (?…); give the base URL only, \(example)")
        }
        guard components.fragment == nil else {
            return refused("has a fragment (#…); give the base URL only, \(example)")
        }
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased())
        guard scheme == "https" || loopback else {
            return refused("uses plain http for \(host); use https (plain http only for 127.0.0.1, ::1 and localhost)")
        }
        while components.path.hasSuffix("/") {
            components.path.removeLast()
        }
        guard let url = components.url else {
            return refused("is not a URL; give the API's base URL, \(example)")
        }
        return .success(url)
    }

    // MARK: - Characters

    /// A letter, digit or underscore (ASCII).
    private static func isKeyCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_": true
        default: false
        }
    }

    /// The first whitespace, control or invisible formatting character, with its 1-based position.
    private static func firstInvisible(in scalars: [Unicode.Scalar]) -> (position: Int, scalar: Unicode.Scalar)? {
        for (index, scalar) in scalars.enumerated() {
            let properties = scalar.properties
            if properties.isWhitespace || properties.generalCategory == .control
                || properties.generalCategory == .format
            {
                return (index + 1, scalar)
            }
        }
        return nil
    }

    /// A character named for a log line: "a space", "a line break (U+000A)", "'-'".
    private static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        switch scalar {
        case " ": return "a space"
        case "\t": return "a tab (\(code))"
        case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}": return "a line break (\(code))"
        default: break
        }
        let properties = scalar.properties
        if properties.isWhitespace { return "a whitespace character (\(code))" }
        if properties.generalCategory == .control { return "a control character (\(code))" }
        if properties.generalCategory == .format { return "an invisible formatting character (\(code))" }
        if !scalar.isASCII { return "a non-ASCII character (\(code))" }
        return "'\(Character(scalar))'"
    }
}
