#if canImport(UIKit) && !os(watchOS)
public import Foundation
public import JoryioInApp
public import JoryioKit

/// The built-in in-app renderer (issue 17), found by class name at run time (INAPP-40): in SwiftPM
/// its runtime name is `JoryioUI.DefaultInAppMessagePresenter`, in the pod (one module, PKG-9)
/// `Joryio.DefaultInAppMessagePresenter`; discovery tries both, so the class keeps its Swift name
/// (an `@objc(…)` name would replace the module-qualified one `NSClassFromString` looks up) and
/// subclasses `NSObject` for the `init()` discovery calls.
///
/// A skeleton for now: it works out what it would draw (`InAppNativeLayout` or
/// `InAppHTMLDocument`) and answers `false`, "not shown", so the SDK frees the slot without
/// consuming caps (RMQ-5). The UIKit views and the `WKWebView` arrive with the rest of issue 17.
public final class DefaultInAppMessagePresenter: NSObject, InAppMessagePresenter {
    /// The presenter discovery creates.
    override public init() {
        super.init()
    }

    /// Not drawn yet: `false` (issue 17).
    @MainActor
    public func present(
        campaign: InAppMessage,
        in viewController: InAppPresentationContext,
        delegate: any InAppMessageViewDelegate
    ) -> Bool {
        switch campaign.content {
        case .native:
            _ = InAppNativeLayout(message: campaign)
        case .html(let markup):
            _ = InAppHTMLDocument(authorHTML: markup).html
        }
        return false
    }
}
#endif
