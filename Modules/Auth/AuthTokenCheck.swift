/// What an SDK-authentication token must look like to be put in a request header (GAP-5): the
/// token travels as `Authorization: Bearer <token>`, so a character that would end or split the
/// header (a line break, NUL), any other control or non-ASCII character, a space, or a size no
/// HTTP server accepts in a header, is refused where the app hands the token over, with its
/// reason, instead of making every request fail (docs/decisions.md, "Hardening (issue 12)").
package enum AuthTokenCheck {
    /// The longest token accepted, in characters: 8 KB, the smallest header-size limit common
    /// HTTP servers and proxies apply; real JWTs are a few hundred characters.
    package static let maxLength = 8_192

    /// Why `token` cannot be sent in a header, or `nil` (also for an empty token, which the token
    /// book ignores with its own warning). The reason never quotes the token.
    package static func problem(_ token: String) -> String? {
        let count = token.utf8.count
        if count > Self.maxLength {
            return "has \(count) characters, more than any real token (at most \(Self.maxLength)); "
                + "a request header that large is refused by HTTP servers"
        }
        for (index, scalar) in token.unicodeScalars.enumerated() where !(0x21...0x7E).contains(scalar.value) {
            return "contains \(Self.describe(scalar)) at position \(index + 1); "
                + "a token is printable ASCII without spaces, and this would break the Authorization header"
        }
        return nil
    }

    /// A character named for a log line.
    private static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        switch scalar.value {
        case 0x20: return "a space"
        case 0x0A, 0x0D: return "a line break (\(code))"
        case 0x00...0x1F, 0x7F: return "a control character (\(code))"
        default: return "a non-ASCII character (\(code))"
        }
    }
}
