#if canImport(UIKit)
import Foundation
import Joryio
import os

/// The app's links, as the DocC article "Push notifications" writes them ("Links in
/// notifications": `handleLink(_:)`, `handleUniversalLink(_:)` and `setLinkHandler(_:)`).
enum LinkRouter {
    private static let logger = Logger(subsystem: "com.example.joryio", category: "links")

    /// Lets the app see every link of a tapped Joryio notification first; `false` lets the SDK
    /// open it (a custom scheme) or deliver it as a universal link (`https`).
    static func installLinkHandler() {
        Joryio.shared.setLinkHandler { url in
            url.host == "support.example.com"  // say, links the app never wants opened
        }
    }

    /// `myapp://promotion?id=42`; `true` when handled.
    static func handleLink(_ url: URL) -> Bool {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            components.host == "promotion",
            let id = components.queryItems?.first(where: { $0.name == "id" })?.value
        else { return false }
        self.showPromotion(id: id)
        return true
    }

    /// `https://yourdomain.com/promotion?id=42`; `true` when handled.
    static func handleUniversalLink(_ url: URL) -> Bool {
        guard url.path.hasPrefix("/promotion"),
            let id = URLComponents(url: url, resolvingAgainstBaseURL: false)?
                .queryItems?.first(where: { $0.name == "id" })?.value
        else { return false }
        self.showPromotion(id: id)
        return true
    }

    /// Shows the promotion `id` (here: logs it and records a screen view).
    private static func showPromotion(id: String) {
        self.logger.info("promotion \(id, privacy: .public)")
        Joryio.shared.trackScreen("Promotion", properties: ["promotion_id": id])
    }
}
#endif
