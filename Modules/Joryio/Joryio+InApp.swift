internal import Foundation
internal import JoryioCore
internal import JoryioFeature
public import JoryioInApp
public import JoryioKit

/// In-app messaging (issue 16): how the app takes over drawing, and the documented calls.
extension Joryio {
    private static let presenterKey = "inApp.presenter"

    /// A presenter that draws every in-app message instead of the built-in renderer (INAPP-28).
    /// Assign it before or after `initialize()`; while it is set, the built-in presenter is never
    /// looked for (INAPP-42).
    public var inAppPresenter: (any InAppMessagePresenter)? {
        get { self.productValues.withLock { $0[Self.presenterKey] } as? any InAppMessagePresenter }
        set {
            self.productValues.withLock { $0[Self.presenterKey] = newValue }
            self.submit(to: InAppFeature.self) { $0.setPresenter(newValue) }
        }
    }

    /// Draw in-app messages with the app's own UI (INAPP-32): `callback` receives each message on
    /// the main thread. `capabilities` declares the content forms it renders: `"content.native"`,
    /// `"content.html"` (HTML campaigns then reach it whatever `allowHtmlJsInAppMessages` says,
    /// INAPP-23). Report what happens with `trackInAppImpression(campaignId:action:elementId:)`:
    /// `displayed` once the message was visible for `InAppDisplay.IN_APP_DISPLAY_DWELL_MS` (or
    /// just before an earlier click or dismissal), and `dismissed` whenever it leaves the screen.
    /// Set before `initialize()`, it is installed before the first sync (INAPP-36).
    public func setInAppMessageCallback(
        _ callback: @escaping @MainActor @Sendable (InAppMessage) -> Void,
        capabilities: [String] = ["content.native"]
    ) {
        let known: Set<String> = ["content.native", "content.html"]
        let unknown = capabilities.filter { !known.contains($0) }
        if !unknown.isEmpty {
            self.warn(
                "setInAppMessageCallback: unknown capabilities \(unknown.map { "\"\(String($0.prefix(64)))\"" }) "
                    + "ignored (content.native, content.html)"
            )
        }
        let set = Set(capabilities.filter(known.contains))
        self.submit(to: InAppFeature.self) { $0.setCallback(.init(deliver: callback, capabilities: set)) }
    }

    /// Hands display back to the SDK's own renderer (INAPP-39); a held message is drawn now.
    public func clearInAppMessageCallback() {
        self.submit(to: InAppFeature.self) { $0.clearCallback() }
    }
}
