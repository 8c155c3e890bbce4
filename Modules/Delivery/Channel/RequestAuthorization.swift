package import Foundation
package import JoryioCore

/// What a channel does with a request's items after the server rejected its SDK-auth token (401).
package enum AuthVerdict: Sendable, Equatable {
    /// The items belong to a user who is no longer current: drop them so they never block the next
    /// user's (AUTH-8, DURABLE-15).
    case drop
    /// The current user's items: keep them (AUTH-9). The event and attribute channels send nothing
    /// more of them until ``RequestAuthorization`` reports a new token; the durable-write channel
    /// retries them with backoff, counted (DURABLE-8), and at once when a new token arrives.
    case hold
}

/// How a channel authenticates its requests (AUTH): the token is read when a request is *sent*,
/// never when its items are queued, so a retry always carries the newest token of that request's user.
///
/// Every channel goes through the same two steps: ``credentials(for:)`` when a request leaves, and
/// ``rejection(of:sentWith:)`` when its answer arrives (the one 401 flow).
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
    package static let disabled = RequestAuthorization(
        isEnabled: { false },
        token: { _ in nil },
        rejected: { _, _, _ in .hold }
    )

    /// The credentials for a request of `userId`, read now (AUTH-5); `nil` while SDK
    /// authentication is off, so the request carries no header and its 401 is an ordinary answer.
    package func credentials(for userId: String?) -> SentCredentials? {
        guard self.isEnabled() else { return nil }
        return SentCredentials(userId: userId, token: self.token(userId))
    }

    /// The one 401 flow: `nil` unless `result` is a 401 to a request sent with `credentials`;
    /// otherwise the engine decides (AUTH-8, AUTH-9) and the channel applies the answer.
    package func rejection(
        of result: Result<HTTPResponse, TransportError>,
        sentWith credentials: SentCredentials?
    ) -> TokenRejection? {
        guard let credentials, case .success(let response) = result, response.status == 401 else { return nil }
        switch self.rejected(credentials.userId, credentials.token, response.body) {
        case .drop:
            return .drop
        case .hold:
            return .hold(tokenArrived: self.hasNewerToken(than: credentials.token, for: credentials.userId))
        }
    }

    /// Whether a token for `userId` arrived after `used` was stamped: a request rejected with the old
    /// token goes again at once instead of waiting (AUTH-9).
    package func hasNewerToken(than used: String?, for userId: String?) -> Bool {
        guard let newest = self.token(userId) else { return false }
        return newest != used
    }
}

/// The SDK-auth identity a request was sent with: whose request it is and the token it carried,
/// stamped when it left (AUTH-5).
package struct SentCredentials: Sendable, Equatable {
    /// The user the request's items belong to (`nil` for anonymous items).
    package var userId: String?
    /// The token sent, `nil` when there was none for that user.
    package var token: String?

    /// Creates credentials.
    package init(userId: String?, token: String?) {
        self.userId = userId
        self.token = token
    }

    /// The `Authorization` header value, when there is a token.
    package var header: String? { self.token.map { "Bearer " + $0 } }
}

/// What a channel does after the server rejected a request's SDK-auth token (the one 401 flow).
package enum TokenRejection: Sendable, Equatable {
    /// The items belong to a user who is no longer current: drop them (AUTH-8, DURABLE-15).
    case drop
    /// The current user's items: keep them and wait for a new token (AUTH-9), or, on the
    /// durable-write channel, for the end of the backoff (DURABLE-8). `tokenArrived` when one
    /// already arrived while the request was on the wire: send again at once.
    case hold(tokenArrived: Bool)
}

/// Requests carrying the credentials they were sent with.
extension HTTPRequest {
    /// This request with `Authorization: Bearer <token>` when `credentials` carry a token.
    package func authorized(_ credentials: SentCredentials?) -> HTTPRequest {
        guard let value = credentials?.header else { return self }
        var copy = self
        copy.headers.append(("Authorization", value))
        return copy
    }
}
