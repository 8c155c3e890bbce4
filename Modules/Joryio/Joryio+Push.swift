internal import Foundation
internal import JoryioFeature
public import JoryioKit
package import JoryioPush

/// Push (issue 14, first part): the permission answers and the badge. Token registration,
/// receipts, clicks and the notification-center delegate follow on the same feature.
extension Joryio {
    /// The profile attribute that mirrors the notification permission: `granted`, `denied` or
    /// `not_determined` (PUSH-11).
    public static let pushPermissionAttribute = JoryioPush.permissionAttribute

    /// The notification permission: `"granted"` (provisional and ephemeral authorization count),
    /// `"denied"` or `"notDetermined"` (PUSH-4); `""` before `initialize()` (INIT-7).
    public func getPushPermissionStatus() async -> String {
        guard let push = self.feature(PushFeature.self) else { return "" }
        return await push.platform.authorizationStatus().status
    }

    /// `true` exactly when ``getPushPermissionStatus()`` is `"granted"` (PUSH-5); `false` before
    /// `initialize()` (INIT-7).
    public func isPushEnabled() async -> Bool {
        guard let push = self.feature(PushFeature.self) else { return false }
        return await push.platform.authorizationStatus().isEnabled
    }

    /// Sets the app icon's badge to `count` (negative counts are 0).
    public func updateBadgeCount(_ count: Int) {
        let count = max(0, count)
        self.submit(to: PushFeature.self) { $0.platform.setBadgeCount(count) }
    }

    /// Clears the app icon's badge.
    public func clearBadge() {
        self.updateBadgeCount(0)
    }
}

extension FeatureCatalog {
    /// The `Joryio` product's features over `platform`: the analytics channels, then push.
    package static func joryio(push platform: any PushPlatform) -> FeatureCatalog {
        FeatureCatalog.analytics.adding { _ in
            [
                FeatureRegistration { context in PushFeature(context: context, platform: platform) },
                FeatureRegistration { context in PushNotificationHandler(context: context, platform: platform) },
            ]
        }
    }

    /// The OS's push services: UserNotifications and UIKit on iOS, none elsewhere.
    static var livePushPlatform: any PushPlatform {
        #if canImport(UserNotifications) && canImport(UIKit) && !os(watchOS)
        UserNotificationsPushPlatform()
        #else
        NoPushPlatform()
        #endif
    }
}
