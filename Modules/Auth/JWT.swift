package import Foundation
internal import JoryioCore

/// The claims the SDK reads from an SDK-authentication token.
package struct JWTClaims: Sendable, Hashable {
    /// `sub`: the user the token proves; tokens are indexed by it (AUTH-6).
    package var subject: String
    /// `exp`, when present as a number: only for logging, the SDK never refuses a token itself
    /// (GAP-5: the server is the only judge of expiry, whose clock may differ from the device's).
    package var expiresAt: Date?

    /// Creates claims.
    package init(subject: String, expiresAt: Date?) {
        self.subject = subject
        self.expiresAt = expiresAt
    }
}

/// Reads a JWT's payload without verifying anything (AUTH-6 DERIVED).
///
/// The signature belongs to the app's backend and the server; the SDK only needs `sub` to know
/// which user's requests a token may be stamped on.
package enum JWT {
    /// Decodes `token`'s payload.
    ///
    /// A token is three `.`-separated segments (`header.payload.signature`); the header and
    /// payload must be non-empty, the signature may be empty (it is never checked). The payload is
    /// base64url, with or without `=` padding (the standard alphabet's `+` and `/` are tolerated
    /// too), holding a JSON object whose `sub` is a non-empty string. `exp` is read when it is a
    /// number (integer or fractional seconds since 1970); anything else there leaves it `nil`.
    ///
    /// - Returns: The claims, or `nil` for anything else. Never traps.
    package static func decode(_ token: String) -> JWTClaims? {
        let segments = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count == 3, !segments[0].isEmpty, !segments[1].isEmpty,
            let payload = Self.base64URLDecode(segments[1]),
            let object = JSONValue.parse(payload)?.objectValue,
            let subject = object["sub"]?.stringValue, !subject.isEmpty
        else {
            return nil
        }
        return JWTClaims(subject: subject, expiresAt: object["exp"].flatMap(Self.date))
    }

    /// `exp` as a date: a JSON number, integer or not (`true` is not a number here).
    private static func date(_ value: JSONValue) -> Date? {
        switch value {
        case .int(let seconds): Date(timeIntervalSince1970: TimeInterval(seconds))
        case .double(let seconds) where seconds.isFinite: Date(timeIntervalSince1970: seconds)
        default: nil
        }
    }

    /// base64url without padding (RFC 7515 §2), tolerating `=` padding and the standard alphabet.
    static func base64URLDecode(_ segment: Substring.UTF8View) -> Data? {
        var bytes = Array(segment)
        while bytes.last == UInt8(ascii: "=") { bytes.removeLast() }
        guard segment.count - bytes.count <= 2, bytes.count % 4 != 1 else { return nil }
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "-"): bytes[index] = UInt8(ascii: "+")
            case UInt8(ascii: "_"): bytes[index] = UInt8(ascii: "/")
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                break
            default:
                return nil
            }
        }
        bytes += Array(repeating: UInt8(ascii: "="), count: (4 - bytes.count % 4) % 4)
        return Data(base64Encoded: Data(bytes))
    }
}
