public import Foundation
public import JoryioKit

#if canImport(UIKit) && !os(watchOS)
public import UIKit

/// What a presenter draws in: the top-most view controller (GAP-40).
public typealias InAppPresentationContext = UIViewController
#else
/// What a presenter draws in. On UIKit platforms the top-most `UIViewController` (GAP-40); here,
/// without UIKit, a placeholder the SDK passes so presenters can be written and tested anywhere.
@MainActor
public final class InAppPresentationContext {
    /// A context.
    public init() {}
}
#endif

/// Takes over drawing in-app messages (INAPP-28 … INAPP-30): assign one to
/// `Joryio.shared.inAppPresenter`, before or after `initialize()`. The built-in presenter is then
/// never looked for.
///
/// `present(campaign:in:delegate:)` runs on the main thread and returns `true` only when the
/// message is on screen: the SDK then reports `displayed` itself, after the message has been
/// visible for `InAppDisplay.IN_APP_DISPLAY_DWELL_MS` with the app active, and counts it toward
/// the campaign's caps. Report taps and closing through the delegate, never with
/// `trackInAppImpression` (the message would be reported twice).
public protocol InAppMessagePresenter: AnyObject, Sendable {
    /// Shows `campaign` in `viewController`; `true` only when it is on screen.
    @MainActor
    func present(
        campaign: InAppMessage,
        in viewController: InAppPresentationContext,
        delegate: any InAppMessageViewDelegate
    ) -> Bool
}

/// How a presenter reports what the person did with a message (INAPP-30).
public protocol InAppMessageViewDelegate: AnyObject, Sendable {
    /// The person tapped the button or link `action` (its id), which opens `url` if it has one.
    @MainActor
    func messageViewClicked(_ message: InAppMessage, action: String, url: URL?)
    /// The message left the screen.
    @MainActor
    func messageViewDidDismiss(_ message: InAppMessage)
}

/// The content forms an app's message callback can render (SPEC §2.14).
package enum InAppCapability {
    /// `content.native`.
    package static let native = "content.native"
    /// `content.html`: HTML campaigns reach the callback whatever `allowHtmlJsInAppMessages`
    /// says (INAPP-23).
    package static let html = "content.html"
}
