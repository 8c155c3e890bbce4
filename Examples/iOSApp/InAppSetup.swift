#if canImport(UIKit)
import Foundation
import Joryio
import UIKit

/// The two ways the DocC article "In-app messages" and the README ("In-app messages") give an app
/// to draw in-app messages itself: its own presenter (`Joryio.shared.inAppPresenter`) or a callback
/// (`setInAppMessageCallback(_:capabilities:)`).
enum InAppSetup {
    /// Draws every message with ``MyPresenter`` instead of the built-in renderer (the `JoryioUI`
    /// product, which is then never looked for). Allowed before `initialize`.
    @MainActor
    static func useOwnPresenter() {
        Joryio.shared.inAppPresenter = MyPresenter()
    }

    /// Takes each message with a callback, on the main thread, and reports what happens to it with
    /// `trackInAppImpression(campaignId:action:)` (README "In-app messages").
    static func useCallback() {
        Joryio.shared.setInAppMessageCallback(
            { message in
                CallbackMessageView.show(message)  // on the main thread
            },
            capabilities: ["content.native"]
        )
    }

    /// Hands display back to the presenter (or the built-in renderer).
    static func stopUsingCallback() {
        Joryio.shared.clearInAppMessageCallback()
    }
}

/// A message taken through the callback, drawn as an alert: the app reports `displayed` after
/// `InAppDisplay.IN_APP_DISPLAY_DWELL_MS` on screen and `dismissed` whenever it leaves (README).
@MainActor
enum CallbackMessageView {
    /// Shows `message` over the top-most view controller.
    static func show(_ message: InAppMessage) {
        guard case .native(let content) = message.content, let top = TopViewController.find() else { return }
        let alert = UIAlertController(title: content.headline, message: content.text, preferredStyle: .alert)
        var displayed = false
        let reportDisplayed = {
            guard !displayed else { return }
            displayed = true
            Joryio.shared.trackInAppImpression(campaignId: message.id, action: "displayed")
        }
        for button in content.buttons {
            alert.addAction(
                UIAlertAction(title: button.label, style: .default) { _ in
                    reportDisplayed()  // just before an earlier click
                    Joryio.shared.trackInAppImpression(campaignId: message.id, action: "clicked", elementId: button.id)
                    Joryio.shared.trackInAppImpression(campaignId: message.id, action: "dismissed")
                    if let url = button.url { UIApplication.shared.open(url) }
                }
            )
        }
        alert.addAction(
            UIAlertAction(title: "Close", style: .cancel) { _ in
                reportDisplayed()
                Joryio.shared.trackInAppImpression(campaignId: message.id, action: "dismissed")
            }
        )
        top.present(alert, animated: true)
        let dwell = DispatchTimeInterval.milliseconds(InAppDisplay.IN_APP_DISPLAY_DWELL_MS)
        DispatchQueue.main.asyncAfter(deadline: .now() + dwell) { [weak alert] in
            if alert?.presentingViewController != nil { reportDisplayed() }  // after 1 s on screen
        }
    }
}

/// The top-most view controller of the foreground scene.
@MainActor
enum TopViewController {
    /// The view controller a message is presented over, or `nil` without a window.
    static func find() -> UIViewController? {
        let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
        let window = scenes.flatMap(\.windows).first(where: \.isKeyWindow)
        var top = window?.rootViewController
        while let presented = top?.presentedViewController { top = presented }
        return top
    }
}
#endif
