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

/// How a presenter reports what the person did with a message (INAPP-30), and where the message's
/// forms and links go.
///
/// The delegate the SDK hands a presenter belongs to the instance that presented the message: the
/// click and dismissal are reported there, a submitted form is sent there (INAPP-51) and a link is
/// followed by its link handling (DEEPLINK-5, ULINK-9), in call order, never on another instance.
/// An app that presents with a presenter itself, with its own delegate, gets the form and link
/// calls too; by default they do nothing.
public protocol InAppMessageViewDelegate: AnyObject, Sendable {
    /// The person tapped the button or link `action` (its id), which opens `url` if it has one.
    @MainActor
    func messageViewClicked(_ message: InAppMessage, action: String, url: URL?)
    /// The message left the screen.
    @MainActor
    func messageViewDidDismiss(_ message: InAppMessage)
    /// The person submitted the form shown in `message` with `values` (after its click was
    /// reported).
    @MainActor
    func messageViewSubmittedForm(_ message: InAppMessage, values: [String: String])
    /// The person tapped a link in `message` (after its click was reported): follow `url`, offered
    /// as a universal link first when `asUniversalLink`.
    @MainActor
    func messageViewFollowsLink(_ message: InAppMessage, url: URL, asUniversalLink: Bool)
}

extension InAppMessageViewDelegate {
    /// Does nothing: a delegate that is not the SDK's decides for itself what a form does.
    @MainActor
    public func messageViewSubmittedForm(_ message: InAppMessage, values: [String: String]) {}

    /// Does nothing: a delegate that is not the SDK's decides for itself what a link does.
    @MainActor
    public func messageViewFollowsLink(_ message: InAppMessage, url: URL, asUniversalLink: Bool) {}
}

/// The content forms an app's message callback can render (SPEC §2.14).
package enum InAppCapability {
    /// `content.native`.
    package static let native = "content.native"
    /// `content.html`: HTML campaigns reach the callback whatever `allowHtmlJsInAppMessages`
    /// says (INAPP-23).
    package static let html = "content.html"
}

/// A presenter that can remove a message it shows when the SDK takes it down (a reset, a user
/// change or an opt-out while it shows): the message leaves the screen **without** a click or a
/// dismissal reaching the delegate, since INAPP-58 reports nothing for it. The built-in presenter
/// adopts it, and so should an app's own presenter: one that does not keeps its view until the
/// person closes it (that late dismissal is ignored). The SDK asks on the main thread.
public protocol InAppMessageTakingDown: AnyObject, Sendable {
    /// Removes `message` if it is the one on screen, reporting nothing; otherwise does nothing.
    @MainActor
    func takeDown(_ message: InAppMessage)
}

/// How a platform takes a message down: the presenter that showed it removes it, on the main
/// thread. The UIKit platform and the test platform both ask this, so the decision is tested on
/// Linux.
package enum InAppTakeDown {
    /// What to run on the main thread so that `presenter` removes `message`; `nil` (and nothing
    /// can be done) when there is no presenter or it cannot take messages down.
    package static func removal(
        of message: InAppMessage,
        from presenter: (any InAppMessagePresenter)?
    ) -> (@MainActor @Sendable () -> Void)? {
        guard let remover = presenter as? any InAppMessageTakingDown else { return nil }
        return { remover.takeDown(message) }
    }
}

/// A presenter that draws a native message's image (GAP-44): the platform loads it first
/// (``InAppImageLoader``: `https` only, bounded in size and time) and hands the bytes over, `nil`
/// when there is none or it did not arrive in time. The built-in presenter adopts it; an app's own
/// presenter loads its images itself.
package protocol InAppImagePresenting: InAppMessagePresenter {
    /// Shows `campaign` with its loaded `image`; `true` only when it is on screen (INAPP-30).
    @MainActor
    func present(
        campaign: InAppMessage,
        image: Data?,
        in viewController: InAppPresentationContext,
        delegate: any InAppMessageViewDelegate
    ) -> Bool
}

/// Where the forms and links of a message go: back to the SDK instance that presented it
/// (issue 26), never to `Joryio.shared` by default. The product that links in-app and push
/// (`Joryio`) gives the in-app feature one at `initialize()`: its form submission (INAPP-51) and
/// push's link handling (DEEPLINK-5, ULINK-9).
package struct InAppMessageActions: Sendable {
    /// Submits the form of campaign `campaignId` with its `values` (INAPP-51, INAPP-52).
    package var submitForm: @Sendable (_ campaignId: String, _ values: [String: String]) -> Void
    /// Follows `url`: offered as a universal link first when `asUniversalLink` (DEEPLINK-5, ULINK-7).
    package var followLink: @Sendable (_ url: URL, _ asUniversalLink: Bool) -> Void

    /// Actions over these two calls.
    package init(
        submitForm: @escaping @Sendable (_ campaignId: String, _ values: [String: String]) -> Void,
        followLink: @escaping @Sendable (_ url: URL, _ asUniversalLink: Bool) -> Void
    ) {
        self.submitForm = submitForm
        self.followLink = followLink
    }
}
