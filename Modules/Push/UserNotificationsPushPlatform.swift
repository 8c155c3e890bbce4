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

    /// `work` on the main queue when the application is active, else at its next
    /// `didBecomeActiveNotification` (once; the observer is removed before `work` runs).
    public func whenActive(_ work: @escaping @Sendable () -> Void) {
        DispatchQueue.main.async {
            if UIApplication.shared.applicationState == .active {
                work()
                return
            }
            let observer = Locked<(any NSObjectProtocol)?>(nil)
            let token = NotificationCenter.default.addObserver(
                forName: UIApplication.didBecomeActiveNotification,
                object: nil,
                queue: .main
            ) { _ in
                let registered = observer.withLock { value -> (any NSObjectProtocol)? in
                    defer { value = nil }
                    return value
                }
                guard let registered else { return }
                NotificationCenter.default.removeObserver(registered)
                work()
            }
            observer.withLock { $0 = token }
        }
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
