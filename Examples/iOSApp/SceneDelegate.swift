#if canImport(UIKit)
import Foundation
import UIKit

/// The example app's scene: one window with ``RootViewController``, and the link handlers of the
/// DocC article "Push notifications" ("Links in notifications", the scene delegate variants).
final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    /// The scene's window.
    var window: UIWindow?

    /// Shows the root screen; a link that launched the app arrives in `connectionOptions`.
    func scene(
        _ scene: UIScene,
        willConnectTo session: UISceneSession,
        options connectionOptions: UIScene.ConnectionOptions
    ) {
        guard let windowScene = scene as? UIWindowScene else { return }
        let window = UIWindow(windowScene: windowScene)
        window.rootViewController = RootViewController()
        window.makeKeyAndVisible()
        self.window = window
        if let url = connectionOptions.urlContexts.first?.url {
            _ = LinkRouter.handleLink(url)
        }
    }

    /// A custom-scheme link (`myapp://promotion?id=42`).
    func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {
        guard let url = URLContexts.first?.url else { return }
        _ = LinkRouter.handleLink(url)
    }

    /// A universal link (`https://yourdomain.com/promotion?id=42`); one delivered to a scene counts
    /// as handled.
    func scene(_ scene: UIScene, continue userActivity: NSUserActivity) {
        guard userActivity.activityType == NSUserActivityTypeBrowsingWeb,
            let url = userActivity.webpageURL
        else { return }
        _ = LinkRouter.handleUniversalLink(url)
    }
}
#endif
