#if canImport(UserNotifications) && canImport(AppKit) && os(macOS)
public import Foundation
internal import JoryioCore
import AppKit
import UserNotifications

/// ``PushPlatform`` on macOS (issue 26): `UNUserNotificationCenter` for authorization and the
/// badge, `NSApplication` for the token and activity, `NSWorkspace` for links, each AppKit call on
/// the main thread. Decisions are not made here; before, push ran on ``NoPushPlatform`` on macOS
/// and silently did nothing.
public struct AppKitPushPlatform: PushPlatform {
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

    /// `NSApplication.registerForRemoteNotifications()` on the main thread.
    public func registerForRemoteNotifications() {
        DispatchQueue.main.async { MainActor.assumeIsolated { NSApplication.shared.registerForRemoteNotifications() } }
    }

    /// `NSApplication.unregisterForRemoteNotifications()` on the main thread.
    public func unregisterForRemoteNotifications() {
        DispatchQueue.main.async {
            MainActor.assumeIsolated { NSApplication.shared.unregisterForRemoteNotifications() }
        }
    }

    /// `UNUserNotificationCenter.setBadgeCount` (macOS 14+), else the Dock tile's badge label.
    public func setBadgeCount(_ count: Int) {
        DispatchQueue.main.async {
            if #available(macOS 14.0, *) {
                UNUserNotificationCenter.current().setBadgeCount(count)
            } else {
                MainActor.assumeIsolated { NSApplication.shared.dockTile.badgeLabel = count > 0 ? "\(count)" : nil }
            }
        }
    }

    /// `work` on the main queue when the application is active, else at its next
    /// `didBecomeActiveNotification` (once; the observer is removed before `work` runs).
    public func whenActive(_ work: @escaping @Sendable () -> Void) {
        UserNotificationsAuthorization.whenActive(
            work,
            isActive: { NSApplication.shared.isActive },
            notification: NSApplication.didBecomeActiveNotification
        )
    }

    /// `NSWorkspace.open(_:)`; called on the main thread (from ``whenActive(_:)``).
    public func open(_ url: URL) {
        NSWorkspace.shared.open(url)
    }

    /// A browsing-web `NSUserActivity` to the app delegate's
    /// `application(_:continue:restorationHandler:)`; `.noHandler` when it does not implement it.
    /// Called on the main thread (from ``whenActive(_:)``).
    public func continueUserActivity(webpageURL url: URL) -> UniversalLinkDelivery {
        MainActor.assumeIsolated {
            let activity = NSUserActivity(activityType: NSUserActivityTypeBrowsingWeb)
            activity.webpageURL = url
            let application = NSApplication.shared
            guard let delegate = application.delegate,
                delegate.responds(
                    to: #selector((any NSApplicationDelegate).application(_:continue:restorationHandler:))
                )
            else { return .noHandler }
            let handled = delegate.application?(application, continue: activity, restorationHandler: { _ in })
            return .appDelegate(handled: handled ?? false)
        }
    }
}
#endif
