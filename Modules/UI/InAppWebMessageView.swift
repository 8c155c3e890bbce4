#if canImport(UIKit) && canImport(WebKit) && !os(watchOS)
internal import UIKit
internal import WebKit

/// An HTML message's card (GAP-43): a `WKWebView` that loads ``InAppHTMLDocument/html`` with no
/// base URL, answers the `joryio` script messages through ``InAppBridgeMessage`` and
/// ``InAppPresenterEffects``, and asks ``InAppWebNavigationPolicy`` about every navigation. The
/// configuration keeps the page in: scripts cannot open windows, no link previews, no data
/// detectors, a non-persistent website data store (nothing the message sets outlives it).
@MainActor
final class InAppWebMessageView: UIView, WKNavigationDelegate, WKUIDelegate {
    /// The name `joryioBridge` posts to (`window.webkit.messageHandlers.joryio`).
    static let handlerName = "joryio"

    private let onEffects: @MainActor ([InAppPresenterEffect]) -> Void
    private var policy = InAppWebNavigationPolicy()
    private var webView: WKWebView?

    /// A web view showing `document`.
    init(document: InAppHTMLDocument, onEffects: @escaping @MainActor ([InAppPresenterEffect]) -> Void) {
        self.onEffects = onEffects
        super.init(frame: .zero)
        let configuration = WKWebViewConfiguration()
        configuration.websiteDataStore = .nonPersistent()
        configuration.preferences.javaScriptCanOpenWindowsAutomatically = false
        configuration.dataDetectorTypes = []
        configuration.mediaTypesRequiringUserActionForPlayback = .all
        // The controller holds its handlers strongly: the proxy holds this view weakly.
        configuration.userContentController.add(InAppScriptMessageProxy(self), name: Self.handlerName)
        let webView = WKWebView(frame: .zero, configuration: configuration)
        webView.allowsLinkPreview = false
        webView.navigationDelegate = self
        webView.uiDelegate = self
        webView.isOpaque = false
        webView.backgroundColor = .clear
        webView.translatesAutoresizingMaskIntoConstraints = false
        self.addSubview(webView)
        NSLayoutConstraint.activate([
            webView.leadingAnchor.constraint(equalTo: self.leadingAnchor),
            webView.trailingAnchor.constraint(equalTo: self.trailingAnchor),
            webView.topAnchor.constraint(equalTo: self.topAnchor),
            webView.bottomAnchor.constraint(equalTo: self.bottomAnchor),
        ])
        self.webView = webView
        webView.loadHTMLString(document.html, baseURL: nil)
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) {
        nil
    }

    /// Leaving its window (the message was dismissed): the handler is removed and loading stops.
    override func willMove(toWindow newWindow: UIWindow?) {
        super.willMove(toWindow: newWindow)
        guard newWindow == nil, let webView = self.webView else { return }
        webView.stopLoading()
        webView.configuration.userContentController.removeScriptMessageHandler(forName: Self.handlerName)
        self.webView = nil
    }

    /// A bridge message from the page's main frame; anything else is dropped.
    fileprivate func received(_ message: WKScriptMessage) {
        guard message.frameInfo.isMainFrame, let bridgeMessage = InAppBridgeMessage(body: message.body) else { return }
        self.onEffects(InAppPresenterEffects.effects(for: bridgeMessage))
    }

    /// Every navigation goes through ``InAppWebNavigationPolicy``.
    func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationAction: WKNavigationAction,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy) -> Void
    ) {
        let target: InAppWebNavigationPolicy.Target =
            switch navigationAction.targetFrame {
            case nil: .newWindow
            case let frame?: frame.isMainFrame ? .mainFrame : .subFrame
            }
        let request = InAppWebNavigationPolicy.Request(
            url: navigationAction.request.url,
            kind: Self.kind(navigationAction.navigationType),
            target: target
        )
        switch self.policy.decide(request) {
        case .allow:
            decisionHandler(.allow)
        case .cancel(let routeAsClick):
            decisionHandler(.cancel)
            if let routeAsClick { self.onEffects(InAppPresenterEffects.effects(for: routeAsClick)) }
        }
    }

    /// No new web views: `window.open` and `target="_blank"` were already cancelled by the policy.
    func webView(
        _ webView: WKWebView,
        createWebViewWith configuration: WKWebViewConfiguration,
        for navigationAction: WKNavigationAction,
        windowFeatures: WKWindowFeatures
    ) -> WKWebView? {
        nil
    }

    private static func kind(_ type: WKNavigationType) -> InAppWebNavigationPolicy.Kind {
        switch type {
        case .linkActivated: .linkActivated
        case .formSubmitted: .formSubmitted
        case .backForward: .backForward
        case .reload: .reload
        case .formResubmitted: .formResubmitted
        case .other: .other
        @unknown default: .other
        }
    }
}

/// Holds the web view weakly for the user content controller, which holds its handlers strongly
/// (a direct registration would keep the view alive forever).
@MainActor
private final class InAppScriptMessageProxy: NSObject, WKScriptMessageHandler {
    private weak var target: InAppWebMessageView?

    init(_ target: InAppWebMessageView) {
        self.target = target
    }

    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        self.target?.received(message)
    }
}
#endif
