package import Foundation
internal import JoryioCore

/// The reason in a 401 answer to a request carrying (or lacking) an SDK-authentication token.
///
/// The server answers `401 {"success": false, "error": "unauthorized", "reason": "<reason>"}`
/// (GAP-5). A reason this SDK does not know is kept as ``unknown(_:)`` and handled like
/// ``invalid``: a token is wrong, and only a new one can fix it.
package enum AuthRejection: Sendable, Hashable {
    /// `missing`: no token, but the request names a user (or strict identity is on).
    case missing
    /// `sub_mismatch`: the token's `sub` is not the request's user.
    case subMismatch
    /// `expired`: the token's `exp` has passed.
    case expired
    /// `invalid`: not a well-formed JWT with a valid signature.
    case invalid
    /// Any other reason, including an empty one when the body has none.
    case unknown(String)

    /// The reason named by `reason`, exactly as the server spells it.
    package init(reason: String) {
        switch reason {
        case "missing": self = .missing
        case "sub_mismatch": self = .subMismatch
        case "expired": self = .expired
        case "invalid": self = .invalid
        default: self = .unknown(reason)
        }
    }

    /// Reads `reason` from the body of a 401 answer. A missing, non-JSON or reason-less body is
    /// ``unknown(_:)`` with an empty string.
    package static func parse(body: Data?) -> AuthRejection {
        guard let body, let reason = JSONValue.parse(body)?["reason"]?.stringValue else {
            return .unknown("")
        }
        return AuthRejection(reason: reason)
    }

    /// The reason as the server spells it.
    package var rawValue: String {
        switch self {
        case .missing: "missing"
        case .subMismatch: "sub_mismatch"
        case .expired: "expired"
        case .invalid: "invalid"
        case .unknown(let reason): reason
        }
    }

    /// The public reason the app's handler sees.
    package var publicReason: JoryioAuthError.Reason {
        switch self {
        case .missing: .missing
        case .subMismatch: .subMismatch
        case .expired: .expired
        case .invalid: .invalid
        case .unknown: .unknown
        }
    }
}
