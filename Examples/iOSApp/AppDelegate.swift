#if canImport(UIKit)
import Foundation
import Joryio
import UIKit
import UserNotifications
import os

/// The example app's delegate: starts `Joryio.shared` and forwards every push callback, as the
/// README ("Using it", "Push") and the DocC articles "Getting started" (JoryioKit) and
/// "Push notifications" (Joryio) say.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    /// The app's own notification-center delegate. The center holds its delegate weakly, and the
    /// SDK keeps the one it replaces weakly too ("Your own notification center delegate"), so the
    /// app keeps it alive.
    private let notificationDelegate = AppNotificationDelegate()

    /// Sets the app's notification-center delegate **before** `initialize`, so that the SDK chains
    /// to it ("Your own notification center delegate"), installs the in-app presenter and the
    /// link handler, then starts the SDK once, as early as possible ("Start the SDK").
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        UNUserNotificationCenter.current().delegate = self.notificationDelegate
        InAppSetup.useOwnPresenter()
        LinkRouter.installLinkHandler()
        Joryio.shared.initialize(
            sdkKey: "jry_sdk_ios_YOUR_SDK_KEY",
            apiHost: "https://api-eu1.joryio.com/api",
            config: JoryioConfig(batchSize: 50, flushInterval: 5)
        )
        return true
    }

    /// The scene the app shows (scenes are the usual case, "Links in notifications").
    func application(
        _ application: UIApplication,
        configurationForConnecting connectingSceneSession: UISceneSession,
        options: UIScene.ConnectionOptions
    ) -> UISceneConfiguration {
        let configuration = UISceneConfiguration(name: nil, sessionRole: connectingSceneSession.role)
        configuration.delegateClass = SceneDelegate.self
        return configuration
    }

    // MARK: - Push ("Forward the app delegate's callbacks")

    /// Hands the APNs device token to the SDK, which registers it for the current person.
    func application(
        _ application: UIApplication,
        didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data
    ) {
        Joryio.shared.didRegisterForRemoteNotifications(deviceToken: deviceToken)
    }

    /// Hands a registration failure to the SDK, which logs it.
    func application(
        _ application: UIApplication,
        didFailToRegisterForRemoteNotificationsWithError error: any Error
    ) {
        Joryio.shared.didFailToRegisterForRemoteNotifications(error: error)
    }

    /// Hands a remote notification (a silent in-app sync push, say) to the SDK, which calls the
    /// completion handler exactly once, on the main thread
    /// ("Forward the app delegate's callbacks"): UIKit's own signature, forwarded as it is.
    func application(
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        Joryio.shared.didReceiveRemoteNotification(userInfo, completionHandler: completionHandler)
    }

    // MARK: - Links, for apps without scenes ("Links in notifications")

    /// A custom-scheme link (`myapp://promotion?id=42`).
    func application(
        _ app: UIApplication,
        open url: URL,
        options: [UIApplication.OpenURLOptionsKey: Any] = [:]
    ) -> Bool {
        LinkRouter.handleLink(url)
    }

    /// A universal link (`https://yourdomain.com/promotion?id=42`); `false` lets the SDK open a
    /// link from a notification in Safari.
    func application(
        _ application: UIApplication,
        continue userActivity: NSUserActivity,
        restorationHandler: @escaping ([any UIUserActivityRestoring]?) -> Void
    ) -> Bool {
        guard userActivity.activityType == NSUserActivityTypeBrowsingWeb,
            let url = userActivity.webpageURL
        else { return false }
        return LinkRouter.handleUniversalLink(url)  // false: the SDK opens the URL in Safari
    }
}
#endif
