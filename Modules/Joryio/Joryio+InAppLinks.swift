package import Foundation
package import JoryioKit
internal import JoryioPush

/// Links tapped in the built-in renderer's messages (issue 17): followed by push's link handling, so
/// in-app and push links reach the app the same way (DEEPLINK-5, ULINK-9) and there is one router.
extension Joryio {
    /// Follows `url` from an in-app message on the engine, after what was submitted before it (the
    /// click the presenter reported first, DEEPLINK-5): the app's link handler first, then opened
    /// (a custom scheme, `http`) or offered as a universal link and opened when not handled
    /// (`asUniversalLink`, for `https`). Before `initialize()` it is kept and followed at start.
    package func followInAppLink(_ url: URL, asUniversalLink: Bool) {
        self.submit(to: PushNotificationHandler.self) { handler in
            handler.followMessageLink(url, route: asUniversalLink ? .universalLink : .openURL)
        }
    }
}
