#if canImport(UIKit) && !os(watchOS)
package import Foundation
public import JoryioInApp
public import JoryioKit
public import UIKit

/// The built-in in-app renderer (issue 17). Install it on an instance with its
/// `useDefaultInAppPresenter()` (issue 26). Without that call the SDK looks for it by class name (INAPP-40), which works only
/// when the linker kept the class: a final `NSObject` subclass with a `required init()` and no
/// `@objc(…)` name, so the runtime knows it as `JoryioUI.DefaultInAppMessagePresenter` (SwiftPM)
/// and `Joryio.DefaultInAppMessagePresenter` (the pod, whose module is `Joryio`), the two names
/// `UIKitInAppPlatform.discoverPresenter()` tries.
///
/// A thin adapter: whether it may show is ``InAppPresentationGate``'s answer (INAPP-57), the window
/// is ``InAppMessageWindowing``'s (INAPP-44), what a tap does is ``InAppPresenterEffects``' (through
/// ``InAppActionRouting``), and links are followed by push's link handling (DEEPLINK-5, ULINK-9).
/// One message at a time (INAPP-48).
@MainActor
public final class DefaultInAppMessagePresenter: NSObject, InAppMessagePresenter, InAppImagePresenting,
    InAppMessageTakingDown
{
    /// A message on screen, its window and the delegate that hears about it.
    private struct Presentation {
        let message: InAppMessage
        let window: InAppMessageWindow
        let delegate: any InAppMessageViewDelegate
    }

    private var presentation: Presentation?

    /// Creates the presenter; discovery calls it through `NSObject.Type.init()`, on any thread
    /// (nothing here touches UIKit).
    nonisolated public override required init() {
        super.init()
    }

    /// Shows `campaign` over `viewController`'s scene; `true` only when it is on screen (INAPP-30).
    /// `false`, and nothing shown, while another message shows, when the app is not active or the
    /// view controller is not stable (INAPP-57: the platform waits and asks again), without a window
    /// scene, or for HTML where WebKit does not exist.
    public func present(
        campaign: InAppMessage,
        in viewController: UIViewController,
        delegate: any InAppMessageViewDelegate
    ) -> Bool {
        self.present(campaign: campaign, image: nil, in: viewController, delegate: delegate)
    }

    /// As ``present(campaign:in:delegate:)``, drawing the native message's `image` (its loaded bytes,
    /// GAP-44; `nil`: without it).
    package func present(
        campaign: InAppMessage,
        image: Data?,
        in viewController: UIViewController,
        delegate: any InAppMessageViewDelegate
    ) -> Bool {
        guard self.presentation == nil else { return false }
        let app = InAppUIKitState.appState(UIApplication.shared.applicationState)
        guard InAppPresentationGate.waitReason(app: app, top: InAppUIKitState.topState(viewController)) == nil,
            let scene = viewController.view.window?.windowScene,
            let card = self.card(for: campaign, image: image)
        else { return false }
        let window = InAppMessageWindow(
            windowScene: scene,
            kind: InAppMessageWindowing.windowKind(for: campaign.type),
            layout: InAppNativeLayout(type: campaign.type),
            card: card,
            onClose: { [weak self] in self?.perform(InAppPresenterEffects.close) }
        )
        self.presentation = Presentation(message: campaign, window: window, delegate: delegate)
        window.show()
        return true
    }

    /// The SDK took `message` down (a reset, a user change or an opt-out while it shows): the window
    /// goes and the delegate hears nothing (INAPP-58 reports nothing), so the next message can show.
    public func takeDown(_ message: InAppMessage) {
        guard let presentation = self.presentation, presentation.message.id == message.id else { return }
        self.presentation = nil
        presentation.window.hide {}
    }

    /// The message's card: native views drawing its layout, or a web view with its document.
    private func card(for campaign: InAppMessage, image: Data?) -> UIView? {
        switch campaign.content {
        case .native(let content):
            let layout = InAppNativeLayout(type: campaign.type, content: content)
            return InAppNativeCardView(layout: layout, image: image) { [weak self] effects in self?.perform(effects) }
        case .html(let html):
            #if canImport(WebKit)
            return InAppWebMessageView(document: InAppHTMLDocument(authorHTML: html)) { [weak self] effects in
                self?.perform(effects)
            }
            #else
            return nil
            #endif
        }
    }

    /// Carries out what a tap decided, in order (INAPP-58, DEEPLINK-5: the click is reported before
    /// the link is followed): ``InAppPresenterPerforming`` hands clicks, forms and links to the
    /// delegate, which belongs to the instance that presented the message; this takes the window down.
    private func perform(_ effects: [InAppPresenterEffect]) {
        guard let presentation = self.presentation else { return }
        let message = presentation.message
        let dismissed = InAppPresenterPerforming.perform(effects, for: message, delegate: presentation.delegate)
        guard dismissed else { return }
        self.presentation = nil
        presentation.window.hide {
            presentation.delegate.messageViewDidDismiss(message)
        }
    }
}
#endif
