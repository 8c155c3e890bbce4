#if canImport(UIKit) && !os(watchOS)
internal import Foundation
public import JoryioKit
internal import UIKit

/// In-app display on UIKit: thin; every decision is the display machine's (tested on Linux).
public struct UIKitInAppPlatform: InAppPlatform {
    /// Creates it.
    public init() {}

    /// `UIApplication.applicationState == .active`, read on the main thread.
    public var isActive: Bool {
        guard Thread.isMainThread else {
            return DispatchQueue.main.sync {
                MainActor.assumeIsolated { UIApplication.shared.applicationState == .active }
            }
        }
        return MainActor.assumeIsolated { UIApplication.shared.applicationState == .active }
    }

    /// On the main thread, once the top view controller is stable (not presenting, dismissing or
    /// in a transition, INAPP-57): retried every 0.5 s for up to 10 s, then not shown.
    public func present(
        _ message: InAppMessage,
        with presenter: (any InAppMessagePresenter)?,
        delegate: any InAppMessageViewDelegate,
        completion: @escaping @Sendable (Bool) -> Void
    ) {
        guard let presenter else { return completion(false) }
        Self.attempt(0, message, presenter, delegate, completion)
    }

    private static func attempt(
        _ tries: Int,
        _ message: InAppMessage,
        _ presenter: any InAppMessagePresenter,
        _ delegate: any InAppMessageViewDelegate,
        _ completion: @escaping @Sendable (Bool) -> Void
    ) {
        DispatchQueue.main.asyncAfter(deadline: .now() + (tries == 0 ? 0 : 0.5)) {
            MainActor.assumeIsolated {
                guard UIApplication.shared.applicationState == .active, let top = Self.stableTop() else {
                    if tries < 20 {
                        Self.attempt(tries + 1, message, presenter, delegate, completion)
                    } else {
                        completion(false)
                    }
                    return
                }
                completion(presenter.present(campaign: message, in: top, delegate: delegate))
            }
        }
    }

    @MainActor
    private static func stableTop() -> UIViewController? {
        let scene = UIApplication.shared.connectedScenes
            .compactMap { $0 as? UIWindowScene }
            .first { $0.activationState == .foregroundActive }
        var top = scene?.windows.first(where: \.isKeyWindow)?.rootViewController
        while let presented = top?.presentedViewController { top = presented }
        guard let top, !top.isBeingPresented, !top.isBeingDismissed, top.transitionCoordinator == nil else {
            return nil
        }
        return top
    }

    /// The presenters draw and remove their own views; a message the SDK takes down is closed by
    /// dismissing what the top view controller presents for it (presenters that add windows
    /// observe the delegate's dismissal instead).
    public func takeDown(_ message: InAppMessage) {}

    /// On the main thread.
    public func deliver(_ message: InAppMessage, to callback: @escaping @MainActor @Sendable (InAppMessage) -> Void) {
        DispatchQueue.main.async { MainActor.assumeIsolated { callback(message) } }
    }

    /// On the main thread.
    public func runOnMain(_ hook: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.main.async { MainActor.assumeIsolated { hook() } }
    }

    /// `JoryioUI.DefaultInAppMessagePresenter`, then `Joryio.DefaultInAppMessagePresenter` (INAPP-40).
    public func discoverPresenter() -> (any InAppMessagePresenter)? {
        for name in ["JoryioUI.DefaultInAppMessagePresenter", "Joryio.DefaultInAppMessagePresenter"] {
            if let type = NSClassFromString(name) as? NSObject.Type,
                let presenter = type.init() as? any InAppMessagePresenter
            {
                return presenter
            }
        }
        return nil
    }
}
#endif
