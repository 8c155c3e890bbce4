package import Foundation

/// What the web view of an HTML message lets through (GAP-43): exactly one navigation, the initial
/// load of the SDK's document (`loadHTMLString(_:baseURL: nil)`, which WebKit reports as
/// `about:blank`), and nothing after it. CSP does not govern top-level navigation, so this is what
/// stops a link the bridge did not catch, `<meta http-equiv="refresh">`, `window.open`, a form post,
/// a redirect or a frame from leaving the message.
///
/// A cancelled navigation is never loaded. One kind is still honoured: a link the person tapped
/// (`linkActivated`, in the message's frame or a new window) that the bridge did not report. It
/// becomes a click with an empty element id, routed like every other tap
/// (``InAppActionRouting/steps(for:)-(InAppBridgeMessage)``: reported, opened as routed, closed), so a
/// tap is never silently lost. Everything else is dropped without a report (docs/decisions.md,
/// "JoryioUI presenter (issue 17)").
///
/// One value per web view; the WebKit adapter's `decidePolicyFor` asks ``decide(_:)``.
package struct InAppWebNavigationPolicy: Sendable, Equatable {
    /// What WebKit says started the navigation (`WKNavigationType`).
    package enum Kind: Sendable, Equatable {
        /// A link the person activated.
        case linkActivated
        /// A form submitted.
        case formSubmitted
        /// Back or forward.
        case backForward
        /// A reload.
        case reload
        /// A form resubmitted.
        case formResubmitted
        /// Anything else: the initial load, script or meta navigation, redirects.
        case other
    }

    /// Where the navigation would load (`WKNavigationAction.targetFrame`).
    package enum Target: Sendable, Equatable {
        /// The message's own top-level frame.
        case mainFrame
        /// A sub-frame (an `<iframe>`; `frame-src 'none'` should have stopped it).
        case subFrame
        /// No frame: a new window (`target="_blank"`, `window.open`).
        case newWindow
    }

    /// One navigation WebKit asks about.
    package struct Request: Sendable, Equatable {
        /// The URL it would load, `nil` when WebKit gives none.
        package var url: URL?
        /// What started it.
        package var kind: Kind
        /// Where it would load.
        package var target: Target

        /// A request.
        package init(url: URL?, kind: Kind, target: Target) {
            self.url = url
            self.kind = kind
            self.target = target
        }
    }

    /// The answer.
    package enum Decision: Sendable, Equatable {
        /// Load it: only the initial load of the SDK's document.
        case allow
        /// Do not load it; when `routeAsClick` is set, hand this bridge message to
        /// ``InAppActionRouting`` as if the bridge had posted it.
        case cancel(routeAsClick: InAppBridgeMessage?)
    }

    /// Whether the initial load has been allowed.
    package private(set) var didAllowInitialLoad = false

    /// A policy for a web view that has loaded nothing yet.
    package init() {}

    /// Whether `url` is what `loadHTMLString(_:baseURL: nil)` loads: `about:blank`, or no URL.
    package static func isInitialDocumentURL(_ url: URL?) -> Bool {
        guard let url else { return true }
        return url.absoluteString.lowercased() == "about:blank"
    }

    /// Decides `request`: the first main-frame `about:blank` load of kind ``Kind/other`` is allowed,
    /// once; every other navigation is cancelled, a tapped link routed as a click with an empty
    /// element id.
    package mutating func decide(_ request: Request) -> Decision {
        if !self.didAllowInitialLoad, request.target == .mainFrame, request.kind == .other,
            Self.isInitialDocumentURL(request.url)
        {
            self.didAllowInitialLoad = true
            return .allow
        }
        guard request.kind == .linkActivated, request.target != .subFrame, let url = request.url,
            !Self.isSameDocument(url)
        else {
            return .cancel(routeAsClick: nil)
        }
        return .cancel(routeAsClick: .click(elementId: "", url: url.absoluteString))
    }

    /// An in-page anchor (`about:blank#top`): scrolling, not leaving; never routed.
    private static func isSameDocument(_ url: URL) -> Bool {
        url.absoluteString.lowercased().hasPrefix("about:blank")
    }
}
