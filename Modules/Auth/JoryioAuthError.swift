/// Why the server refused a request's SDK-authentication token, as the app's error handler hears it.
///
/// The SDK calls the handler set with `setSdkAuthenticationErrorHandler(_:)` only for the current
/// user's requests (AUTH-9), one request at a time; the handler is expected to fetch a fresh token
/// and pass it to `setSdkAuthenticationToken(_:)`.
public struct JoryioAuthError: Error, Sendable, Equatable {
    /// The reason the server gave for the rejection.
    public enum Reason: Sendable, Equatable {
        /// The request carried no token, but it names a user (or the workspace requires one).
        case missing
        /// The token's `sub` is not the request's user.
        case subMismatch
        /// The token's `exp` has passed.
        case expired
        /// The token is not a well-formed JWT signed with the workspace's secret.
        case invalid
        /// A reason this SDK version does not know; handle it like ``invalid``.
        case unknown
    }

    /// Why the token was refused.
    public var reason: Reason

    /// The user whose request was refused, or `nil` for an anonymous visitor.
    public var userId: String?

    /// Creates an error value, for example to test an app's handler.
    ///
    /// - Parameters:
    ///   - reason: Why the token was refused.
    ///   - userId: The user whose request was refused.
    public init(reason: Reason, userId: String?) {
        self.reason = reason
        self.userId = userId
    }
}
