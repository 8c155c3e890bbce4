#if canImport(UIKit) && !os(watchOS)
internal import JoryioInApp
public import JoryioKit

extension Joryio {
    /// Draws this instance's in-app messages with the built-in renderer,
    /// ``DefaultInAppMessagePresenter`` (issue 26). Call it once, before `initialize()`, in an app
    /// that links the `JoryioUI` product (SwiftPM) or `pod 'Joryio/UI'`, on the instance the app
    /// uses (the shared one, or one it made):
    ///
    /// ```swift
    /// let joryio = Joryio()   // or the product's shared instance
    /// joryio.useDefaultInAppPresenter()
    /// joryio.initialize(sdkKey: "jry_sdk_…", apiHost: "https://…")
    /// ```
    ///
    /// The presenter reports every message's clicks, forms and links to the instance that
    /// presented it.
    ///
    /// The call references the class, so the linker keeps it. Without the call the SDK looks for it
    /// by class name at the first message (INAPP-40), which finds nothing when the linker dropped
    /// the class (a static link that references nothing of `JoryioUI`): messages are then not shown
    /// and "No in-app presenter found" is logged. A presenter assigned to ``inAppPresenter`` still
    /// takes precedence (INAPP-42).
    public func useDefaultInAppPresenter() {
        self.useBuiltInInAppPresenter(DefaultInAppMessagePresenter())
    }
}
#endif
