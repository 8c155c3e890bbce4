#if canImport(UIKit)
import Foundation
import UserNotifications
import os

/// The app's own `UNUserNotificationCenter` delegate, set before `initialize`: the SDK keeps it and
/// hands it every notification that is not Joryio's, and every other delegate call, unchanged
/// (DocC "Push notifications", "Your own notification center delegate").
final class AppNotificationDelegate: NSObject, UNUserNotificationCenterDelegate {
    private static let logger = Logger(subsystem: "com.example.joryio", category: "notifications")

    /// The app's own (non-Joryio) notifications are shown as banners in the foreground.
    func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        completionHandler([.banner, .list, .sound])
    }

    /// The person acted on one of the app's own notifications.
    func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        Self.logger.info("notification action \(response.actionIdentifier, privacy: .public)")
        completionHandler()
    }

    /// "Notification settings" in the Settings app: forwarded here by the SDK's delegate.
    func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?) {
        Self.logger.info("notification settings requested")
    }
}
#endif
