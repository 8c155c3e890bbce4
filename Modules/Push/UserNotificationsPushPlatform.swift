#if canImport(UserNotifications) && canImport(UIKit) && !os(watchOS)
public import Foundation
import UIKit
import UserNotifications

/// ``PushPlatform`` on iOS: `UNUserNotificationCenter` for authorization, `UIApplication` for the
/// token, badge and links, each UIKit call on the main thread. Decisions are not made here.
public struct UserNotificationsPushPlatform: PushPlatform {
    /// Creates it.
    public init() {}

    /// `UNUserNotificationCenter.getNotificationSettings`' `authorizationStatus`, mapped.
    public func authorizationStatus(_ completion: @escaping @Sendable (PushAuthorization) -> Void) {
        UNUserNotificationCenter.current().getNotificationSettings { settings in
            switch settings.authorizationStatus {
            case .denied: completion(.denied)
            case .authorized: completion(.authorized)
            case .provisional: completion(.provisional)
            case .ephemeral: completion(.ephemeral)
            case .notDetermined: completion(.notDetermined)
            @unknown default: completion(.notDetermined)
            }
        }
    }

    /// `requestAuthorization([.alert, .badge, .sound] + .provisional when asked)`.
    public func requestAuthorization(provisional: Bool) async -> Bool {
        var options: UNAuthorizationOptions = [.alert, .badge, .sound]
        if provisional { options.insert(.provisional) }
        return (try? await UNUserNotificationCenter.current().requestAuthorization(options: options)) ?? false
    }

    /// `UIApplication.registerForRemoteNotifications()` on the main thread.
    public func registerForRemoteNotifications() {
        DispatchQueue.main.async { UIApplication.shared.registerForRemoteNotifications() }
    }

    /// `UIApplication.unregisterForRemoteNotifications()` on the main thread.
    public func unregisterForRemoteNotifications() {
        DispatchQueue.main.async { UIApplication.shared.unregisterForRemoteNotifications() }
    }

    /// `UNUserNotificationCenter.setBadgeCount` (iOS 16+), else the application's badge number.
    public func setBadgeCount(_ count: Int) {
        DispatchQueue.main.async {
            if #available(iOS 16.0, tvOS 16.0, visionOS 1.0, *) {
                UNUserNotificationCenter.current().setBadgeCount(count)
            } else {
                UIApplication.shared.applicationIconBadgeNumber = count
            }
        }
    }

    /// `UIApplication.open(_:)` on the main thread.
    public func open(_ url: URL) {
        DispatchQueue.main.async { UIApplication.shared.open(url) }
    }

    /// A browsing-web `NSUserActivity` to the first scene delegate that implements
    /// `scene(_:continue:)`, else the app delegate's `application(_:continue:restorationHandler:)`;
    /// `false` when neither does (the caller then opens the URL, ULINK-8). Call on the main thread.
    public func continueUserActivity(webpageURL url: URL) -> Bool {
        MainActor.assumeIsolated {
            let activity = NSUserActivity(activityType: NSUserActivityTypeBrowsingWeb)
            activity.webpageURL = url
            let application = UIApplication.shared
            for scene in application.connectedScenes {
                if let delegate = scene.delegate as? UIWindowSceneDelegate,
                    delegate.responds(to: #selector(UISceneDelegate.scene(_:continue:)))
                {
                    delegate.scene?(scene, continue: activity)
                    return true
                }
            }
            if let delegate = application.delegate,
                delegate.responds(to: #selector(UIApplicationDelegate.application(_:continue:restorationHandler:)))
            {
                return delegate.application?(application, continue: activity, restorationHandler: { _ in }) ?? false
            }
            return false
        }
    }
}
#endif
