#if canImport(UIKit) && !os(watchOS)
internal import Joryio
public import JoryioKit

extension Joryio {
    /// Draws in-app messages with the built-in renderer, ``DefaultInAppMessagePresenter`` (issue
    /// 26). Call it once, before `initialize()`, in an app that links the `JoryioUI` product (SwiftPM)
    /// or `pod 'Joryio/UI'`:
    ///
    /// ```swift
    /// Joryio.shared.useDefaultInAppPresenter()
    /// Joryio.shared.initialize(sdkKey: "jry_sdk_…", apiHost: "https://…")
    /// ```
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
