package import Foundation
package import JoryioCore

/// What a channel does with a request's items after the server rejected its SDK-auth token (401).
package enum AuthVerdict: Sendable, Equatable {
    /// The items belong to a user who is no longer current: drop them so they never block the next
    /// user's (AUTH-8, DURABLE-15).
    case drop
    /// The current user's items: keep them and send nothing more of them until
    /// ``RequestAuthorization`` reports a new token (AUTH-9).
    case hold
}

/// How a channel authenticates its requests (AUTH): the token is read when a request is *sent*,
/// never when its items are queued, so a retry always carries the newest token of that request's user.
package struct RequestAuthorization: Sendable {
    /// Whether requests carry tokens now, and batches must not mix users (AUTH-3, AUTH-7).
    package var isEnabled: @Sendable () -> Bool
    /// The bearer token for a request naming `userId` (`nil` for anonymous requests).
    package var token: @Sendable (_ userId: String?) -> String?
    /// The server rejected the token sent on a request of `userId` (`body` is the 401 body).
    package var rejected: @Sendable (_ userId: String?, _ token: String?, _ body: Data) -> AuthVerdict

    /// Creates an authorization seam.
    package init(
        isEnabled: @escaping @Sendable () -> Bool,
        token: @escaping @Sendable (_ userId: String?) -> String?,
        rejected: @escaping @Sendable (_ userId: String?, _ token: String?, _ body: Data) -> AuthVerdict
    ) {
        self.isEnabled = isEnabled
        self.token = token
        self.rejected = rejected
    }

    /// No SDK authentication: no header, batches may mix users, a 401 is retried like a 5xx.
    package static let disabled = RequestAuthorization(isEnabled: { false }, token: { _ in nil }, rejected: { _, _, _ in .hold })

    /// Whether a token for `userId` arrived after `used` was stamped: a request rejected with the old
    /// token goes again at once instead of waiting (AUTH-9).
    package func hasNewerToken(than used: String?, for userId: String?) -> Bool {
        guard let newest = self.token(userId) else { return false }
        return newest != used
    }

    /// The `Authorization` header value for a request of `userId`, if any.
    package func header(for userId: String?) -> String? {
        guard self.isEnabled(), let token = self.token(userId) else { return nil }
        return "Bearer " + token
    }
}

extension HTTPRequest {
    /// This request with `Authorization: value` when `value` is given.
    package func authorized(_ value: String?) -> HTTPRequest {
        guard let value else { return self }
        var copy = self
        copy.headers.append(("Authorization", value))
        return copy
    }
}

/// The user id of a stored event payload (its top-level `userId`), `nil` when anonymous.
///
/// Read for every queued event a batch may take while SDK authentication is on, so it avoids parsing
/// the whole event: the SDK's encoder writes keys in sorted order, which puts `userId` last, right
/// after `"type":"track"`. Anything else falls back to a full parse.
package enum EventPayloadIdentity {
    private static let anonymousTail = Data(#""type":"track"}"#.utf8)
    private static let userMarker = Data(#","userId":"#.utf8)

    /// The payload's `userId`, or `nil`.
    package static func userId(of payload: Data) -> String? {
        if payload.count >= Self.anonymousTail.count, payload.suffix(Self.anonymousTail.count) == Self.anonymousTail {
            return nil
        }
        // `…,"userId":"<string>"}`: a raw `,"userId":` cannot occur inside a JSON string, and the
        // top-level key is the last one; a `userId` key inside the properties fails to parse below.
        if let marker = payload.range(of: Self.userMarker, options: .backwards), payload.last == UInt8(ascii: "}") {
            var literal = Data("[".utf8)
            literal.append(payload[marker.upperBound..<(payload.endIndex - 1)])
            literal.append(UInt8(ascii: "]"))
            if let elements = JSONValue.parse(literal)?.arrayValue, elements.count == 1, let value = elements[0].stringValue {
                return value.isEmpty ? nil : value
            }
        }
        return JSONValue.parse(payload)?["userId"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    }
}
