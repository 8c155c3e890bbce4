#if canImport(UserNotifications) && canImport(UIKit) && !os(watchOS)
public import Foundation
internal import JoryioCore
import UIKit
import UserNotifications

/// ``PushPlatform`` on iOS: `UNUserNotificationCenter` for authorization, `UIApplication` for the
/// token, badge and links, each UIKit call on the main thread. Decisions are not made here.
public struct UserNotificationsPushPlatform: PushPlatform {
    /// Creates it.
    public init() {}

    /// `UNUserNotificationCenter.getNotificationSettings`' `authorizationStatus`, mapped.
    public func authorizationStatus(_ completion: @escaping @Sendable (PushAuthorization) -> Void) {
        UserNotificationsAuthorization.status(completion)
    }

    /// `requestAuthorization([.alert, .badge, .sound] + .provisional when asked)`.
    public func requestAuthorization(provisional: Bool) async -> Bool {
        await UserNotificationsAuthorization.request(provisional: provisional)
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

    /// `work` on the main queue when the application is active, else at its next
    /// `didBecomeActiveNotification` (once; the observer is removed before `work` runs).
    public func whenActive(_ work: @escaping @Sendable () -> Void) {
        UserNotificationsAuthorization.whenActive(
            work,
            isActive: { UIApplication.shared.applicationState == .active },
            notification: UIApplication.didBecomeActiveNotification
        )
    }

    /// `UIApplication.open(_:)`; called on the main thread (from ``whenActive(_:)``).
    public func open(_ url: URL) {
        MainActor.assumeIsolated { UIApplication.shared.open(url) }
    }

    /// A browsing-web `NSUserActivity` to the delegate of the foreground-active scene (else the
    /// first connected scene) when it implements `scene(_:continue:)`, else to the app delegate's
    /// `application(_:continue:restorationHandler:)`; `.noHandler` when neither implements it.
    /// Called on the main thread (from ``whenActive(_:)``).
    public func continueUserActivity(webpageURL url: URL) -> UniversalLinkDelivery {
        MainActor.assumeIsolated {
            let activity = NSUserActivity(activityType: NSUserActivityTypeBrowsingWeb)
            activity.webpageURL = url
            let application = UIApplication.shared
            let scenes = application.connectedScenes
            let scene = scenes.first { $0.activationState == .foregroundActive } ?? scenes.first
            if let scene, let delegate = scene.delegate,
                delegate.responds(to: #selector((any UISceneDelegate).scene(_:continue:)))
            {
                delegate.scene?(scene, continue: activity)
                return .scene
            }
            if let delegate = application.delegate,
                delegate.responds(
                    to: #selector((any UIApplicationDelegate).application(_:continue:restorationHandler:))
                )
            {
                let handled = delegate.application?(application, continue: activity, restorationHandler: { _ in })
                return .appDelegate(handled: handled ?? false)
            }
            return .noHandler
        }
    }
}
#endif
