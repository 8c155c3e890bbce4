/// The APNs device token as a hex string, checked before anything stores or sends it (PUSH-7,
/// PUSH-10).
///
/// Accepted: an even number of `0-9a-fA-F` characters, 32 … 200 bytes (64 … 400 characters).
/// APNs tokens are 32 bytes today but Apple does not promise a length, so 64 is not hard-coded
/// (PUSH-10). A Firebase (FCM) registration token such as `abc:APA91b…` is refused with its own
/// reason. Accepted tokens are lowercased, the form `didRegisterForRemoteNotifications` produces,
/// so the same token compares equal whichever way it arrived.
package enum PushTokenFormat {
    /// The shortest accepted token, in bytes.
    package static let minimumBytes = 32
    /// The longest accepted token, in bytes.
    package static let maximumBytes = 200

    /// The outcome of checking one token.
    package enum Check: Sendable, Equatable {
        /// A well-formed token, lowercased.
        case valid(String)
        /// Refused; `reason` is what the SDK logs and reports (it never contains the token).
        case invalid(reason: String)
    }

    /// Checks `token` and lowercases it when it is well formed.
    package static func check(_ token: String) -> Check {
        let utf8 = token.utf8
        if utf8.isEmpty {
            return .invalid(reason: "the push token is empty; pass the APNs device token as a hex string")
        }
        if utf8.contains(UInt8(ascii: ":")) {
            return .invalid(
                reason: "the push token looks like a Firebase (FCM) registration token; "
                    + "registerPushToken takes the APNs device token as a hex string"
            )
        }
        guard utf8.allSatisfy(Self.isHexDigit) else {
            return .invalid(
                reason: "the push token contains characters other than 0-9 and a-f; "
                    + "pass the APNs device token as a hex string"
            )
        }
        guard utf8.count.isMultiple(of: 2) else {
            return .invalid(reason: "the push token has an odd number of hex digits (\(utf8.count))")
        }
        let bytes = utf8.count / 2
        guard (Self.minimumBytes...Self.maximumBytes).contains(bytes) else {
            return .invalid(
                reason: "the push token is \(bytes) bytes long; an APNs device token has "
                    + "\(Self.minimumBytes) to \(Self.maximumBytes) bytes"
            )
        }
        return .valid(token.lowercased())
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }
}
