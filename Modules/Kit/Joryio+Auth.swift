internal import Foundation
public import JoryioAuth
internal import JoryioCore

/// SDK authentication (AUTH): per-user JWTs issued by the app's backend.
///
/// The token is read when each request is sent, never when its items are queued, and every request
/// carries the token of its own user: events and writes a user left behind at logout are still sent
/// with that user's token, kept in the secure store until they are delivered or dropped.
extension Joryio {
    /// Provides or replaces the SDK-authentication JWT (AUTH-3). The SDK reads the token's `sub` (it
    /// never verifies the signature) and uses it for that user's requests; a token set for the next
    /// user before `identify` or `reset()` is kept for them. Supplying a token turns the
    /// `Authorization` header on, with or without `JoryioConfig.enableSdkAuthentication`.
    ///
    /// A token that cannot go in a request header (a line break or other control character, a
    /// space, a non-ASCII character, more than 8,192 characters) is refused with a warning naming
    /// the reason; the token in use stays (GAP-5).
    public func setSdkAuthenticationToken(_ token: String) {
        if let problem = AuthTokenCheck.problem(token) {
            self.warn("setSdkAuthenticationToken: the token \(problem); it is ignored")
            return
        }
        self.rememberOrSubmit(.authToken(token)) { $0.setAuthToken(token) }
    }

    /// Sets the handler the SDK calls when the server rejects the current user's token (AUTH-4,
    /// AUTH-9). It is called on the SDK's queue, once per rejection episode however many requests
    /// failed together; fetch a fresh token and pass it to ``setSdkAuthenticationToken(_:)``. It
    /// never hears about a previous user's leftovers, which are dropped instead (AUTH-8).
    public func setSdkAuthenticationErrorHandler(_ handler: @escaping @Sendable (JoryioAuthError) -> Void) {
        self.applyAuthHandler(handler)
    }

    /// Removes the error handler, for example when a bridge or screen that set it goes away.
    public func clearSdkAuthenticationErrorHandler() {
        self.applyAuthHandler(nil)
    }

    private func applyAuthHandler(_ handler: AuthErrorHandler?) {
        self.rememberOrSubmit(.authHandler(handler)) { $0.setAuthHandler(handler) }
    }
}
