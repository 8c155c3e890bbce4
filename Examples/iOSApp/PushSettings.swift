#if canImport(UIKit)
import Foundation
import Joryio
import os

/// The rest of the push API the DocC article "Push notifications" and the README ("Push") show:
/// the permission status, turning push off, and the variant for apps with their own push stack,
/// which this app does not use (the SDK registers the token itself).
enum PushSettings {
    private static let logger = Logger(subsystem: "com.example.joryio", category: "push")

    /// Whether notifications are allowed: `"granted"`, `"denied"` or `"notDetermined"`.
    static func permissionStatus() async -> String {
        await Joryio.shared.getPushPermissionStatus()
    }

    /// Turns push off; remembered across launches until `requestPushPermission()` or
    /// `registerPushToken(_:onResult:)`.
    static func turnOff() {
        Joryio.shared.unregisterPush()
    }

    /// An app with its own push stack hands over the APNs token (hex) and gets exactly one answer,
    /// on the SDK's thread ("Apps with their own push stack").
    static func register(apnsHexToken: String) {
        Joryio.shared.registerPushToken(apnsHexToken) { result in
            if !result.success, !result.isRetryable {
                logger.error("push registration failed: \(result.message ?? "")")
            }
        }
    }

    /// Such an app also reports its notifications itself, by the `trackingId` in the payload's
    /// `joryio` object.
    static func report(userInfo: [AnyHashable: Any], tapped: Bool) {
        guard let joryio = userInfo["joryio"] as? [String: Any],
            let trackingId = joryio["trackingId"] as? String
        else { return }
        if tapped {
            Joryio.shared.trackPushClick(trackingId: trackingId)  // the person tapped it
        } else {
            Joryio.shared.reportPushDelivered(trackingId)  // the notification arrived
        }
    }
}
#endif
