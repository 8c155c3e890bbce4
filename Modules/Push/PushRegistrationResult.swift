/// What `registerPushToken(_:onResult:)` reports, exactly once per call (PUSH-12, SPEC §2.10).
///
/// The field names are the ones the documented sample reads (`result.success`, `result.message`,
/// `result.isUnauthorized`, `result.isRetryable`); the type name is ours (GAP-47).
/// The token machine emits it; the facade hands it to the app's `onResult`, on the SDK's own
/// thread.
public struct PushRegistrationResult: Sendable, Equatable, Hashable {
    /// `true` only when the server confirmed the registration; a 200 answer with `success: false`
    /// is a failure (PUSH-12).
    public package(set) var success: Bool
    /// Why the registration failed, or `nil` on success.
    public package(set) var message: String?
    /// The server refused the SDK authentication (a 401); the SDK-auth error handler was asked
    /// for a new token (AUTH-9).
    public package(set) var isUnauthorized: Bool
    /// The failure was transient (offline, timeout, 402, 429, 5xx, `success: false`): the SDK keeps
    /// the token and retries by itself, so calling again is not needed.
    public package(set) var isRetryable: Bool

    /// Creates a result.
    package init(success: Bool, message: String?, isUnauthorized: Bool, isRetryable: Bool) {
        self.success = success
        self.message = message
        self.isUnauthorized = isUnauthorized
        self.isRetryable = isRetryable
    }

    /// The server confirmed the registration.
    package static let succeeded = PushRegistrationResult(
        success: true,
        message: nil,
        isUnauthorized: false,
        isRetryable: false
    )

    /// A failure decided on the device (an invalid token, a refused SDK key, a privacy state that
    /// suspends registration …): never unauthorized, never retryable.
    package static func refused(_ message: String) -> PushRegistrationResult {
        PushRegistrationResult(success: false, message: message, isUnauthorized: false, isRetryable: false)
    }
}
