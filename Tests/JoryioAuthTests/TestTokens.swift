import Foundation

/// Builds JWT-shaped strings for tests (the signature is never checked by the SDK).
enum TestTokens {
    /// base64url without padding.
    static func segment(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static let header = Self.segment(#"{"alg":"HS256","typ":"JWT"}"#)

    /// A token whose payload is `payload` verbatim.
    static func token(payload: String, signature: String = "c2lnbmF0dXJl") -> String {
        "\(Self.header).\(Self.segment(payload)).\(signature)"
    }

    /// A token for `sub`; `variant` makes different tokens for the same user.
    static func token(sub: String, exp: Int = 2_000_000_000, variant: Int = 0) -> String {
        Self.token(payload: #"{"sub":"\#(sub)","exp":\#(exp),"iat":\#(variant)}"#)
    }
}
