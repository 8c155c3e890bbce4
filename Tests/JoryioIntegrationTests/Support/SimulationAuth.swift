import Foundation
import JoryioCore

// SDK authentication in the seeded simulation (protocol.md §2.1): tokens minted by the "app's
// backend", and the server's check of a request's bearer token against the users it names.

/// JWTs for the simulation: `header.payload.signature`, base64url without padding. The SDK never
/// verifies signatures, so the signature is a fixed string the ``SimServer`` recognizes; a token
/// with any other signature is `invalid` there.
enum SimJWT {
    static let header = Self.base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
    static let signature = Self.base64URL(Data("simulation-signature".utf8))
    static let forgedSignature = Self.base64URL(Data("forged".utf8))

    /// A token for `sub` expiring at `exp` (whole seconds, rounded down); `id` tells tokens apart.
    static func mint(sub: String, exp: Date, id: Int, signed: Bool = true) -> String {
        let seconds = Int(exp.timeIntervalSince1970.rounded(.down))
        let payload = #"{"exp":\#(seconds),"jti":"\#(id)","sub":"\#(sub)"}"#
        return Self.header + "." + Self.base64URL(Data(payload.utf8)) + "."
            + (signed ? Self.signature : Self.forgedSignature)
    }

    /// What the server reads from a token.
    struct Claims {
        var sub: String?
        var exp: Double?
        var signed: Bool
    }

    /// The claims of a compact JWT, or `nil` when it is not one.
    static func decode(_ token: String) -> Claims? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Self.base64URLDecode(String(parts[1])),
            let object = JSONValue.parse(payload)?.objectValue
        else { return nil }
        let exp: Double? =
            switch object["exp"] {
            case .int(let value)?: Double(value)
            case .double(let value)?: value
            default: nil
            }
        return Claims(sub: object["sub"]?.stringValue, exp: exp, signed: parts[2] == Self.signature[...])
    }

    /// A short description for the trace: `u1 exp +300 s`.
    static func describe(_ token: String?, now: Date) -> String {
        guard let token else { return "no token" }
        guard let claims = Self.decode(token) else { return "a malformed token" }
        let exp = claims.exp.map { "exp \(Int(($0 - now.timeIntervalSince1970).rounded())) s" } ?? "no exp"
        return "token \(claims.sub ?? "?") \(exp)\(claims.signed ? "" : " forged")"
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func base64URLDecode(_ text: String) -> Data? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard)
    }
}

/// The server's SDK-authentication check of one request (protocol.md §2.1, rules 1 - 5), and the
/// rules the SDK must keep, which the simulation records as violations.
struct SimAuthCheck {
    /// The 401 `reason`, or `nil` when the request passes (or authentication is off).
    var reason: String?
    /// The users the request names (non-anonymous), sorted.
    var users: [String]
    /// The SDK broke a rule: a token whose `sub` is not the request's user (THE invariant), a batch
    /// mixing users while authentication is on (AUTH-7; without it batches may mix users), a token
    /// on an anonymous request, or a header while authentication is off.
    var violations: [String]
    /// For the trace: `u1 with token u1 exp 300 s → 401 expired`.
    var summary: String

    /// Checks a request naming `userIds` (events' or the body's; `nil` is anonymous) that carried
    /// `authorization`, at the server's `now`, in a workspace with authentication `enabled` or not.
    init(userIds: [String?], authorization: String?, now: Date, enabled: Bool) {
        let users = Set(userIds.compactMap { $0 }).sorted()
        self.users = users
        var token: String?
        if let authorization {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].isEmpty { token = String(parts[1]) }
        }
        let claims = token.flatMap(SimJWT.decode)
        var violations: [String] = []
        if authorization != nil, !enabled {
            violations.append("a request carried an Authorization header, but SDK authentication was never turned on")
        }
        if authorization != nil, token == nil {
            violations.append("an Authorization header that is not `Bearer <token>`: \(authorization ?? "")")
        }
        if enabled, users.count > 1 {
            violations.append("one request names several users \(users) (AUTH-7: a batch never mixes users)")
        }
        if let token {
            if users.isEmpty {
                violations.append("an anonymous request carried a token (\(SimJWT.describe(token, now: now)))")
            }
            for user in users where claims?.sub != user {
                violations.append(
                    "a request of \(user) carried a token whose sub is \(claims?.sub ?? "unreadable") (AUTH-6)"
                )
            }
        }
        var reason: String?
        if enabled, !users.isEmpty {
            if token == nil {
                reason = "missing"
            } else if let claims, claims.signed, let sub = claims.sub, !sub.isEmpty, let exp = claims.exp {
                if exp <= now.timeIntervalSince1970 {
                    reason = "expired"
                } else if users != [sub] {
                    reason = "sub_mismatch"
                }
            } else {
                reason = "invalid"
            }
        }
        self.reason = reason
        self.violations = violations
        let who = users.isEmpty ? "anonymous" : users.joined(separator: "+")
        self.summary =
            "\(who) with \(SimJWT.describe(token, now: now))" + (reason.map { " → 401 \($0)" } ?? "")
    }

    /// The 401 answer.
    var response: HTTPResponse? {
        self.reason.map { .simJSON(401, #"{"success":false,"error":"unauthorized","reason":"\#($0)"}"#) }
    }
}
