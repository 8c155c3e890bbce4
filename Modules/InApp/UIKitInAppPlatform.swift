#if canImport(UIKit) && !os(watchOS)
internal import Foundation
internal import JoryioCore
public import JoryioKit
package import UIKit

/// In-app display on UIKit: thin; every decision is the display machine's (tested on Linux).
public struct UIKitInAppPlatform: InAppPlatform {
    /// Creates it.
    public init() {}

    /// Whether the app is active, as the lifecycle observer last published it from the main thread
    /// (`didBecomeActive` / `willResignActive`, and the state read at `initialize()`). Never waits
    /// on the main thread: the engine's queue asks, and a main thread waiting on the SDK (its own
    /// `willTerminate`) would deadlock on a `DispatchQueue.main.sync` here (issue 26).
    public var isActive: Bool {
        AppActivity.isActive
    }

    /// On the main thread, once the app is active and the top view controller is stable
    /// (INAPP-57): ``InAppPresentationLoop`` on the main queue asks ``InAppPresentationGate`` at each
    /// try (0.25 s doubling to 2 s, 12 tries), and logs why it waits or gives up. For the built-in
    /// presenter a native message's image is loaded first (``InAppImageLoader``, GAP-44): the tries
    /// start when it arrives or after its timeout, without it.
    public func present(
        _ message: InAppMessage,
        with presenter: (any InAppMessagePresenter)?,
        delegate: any InAppMessageViewDelegate,
        completion: @escaping @Sendable (Bool) -> Void
    ) {
        guard let presenter else { return completion(false) }
        let log: @Sendable (LogLevel, String) -> Void
        if let events = delegate as? InAppViewEvents {
            log = events.log
        } else {
            log = { _, _ in }
        }
        let loop = InAppPresentationLoop(
            scheduler: SerialQueueScheduler(queue: .main),
            state: {
                MainActor.assumeIsolated {
                    (
                        app: InAppUIKitState.appState(UIApplication.shared.applicationState),
                        top: InAppUIKitState.topState(Self.topViewController())
                    )
                }
            },
            log: log
        )
        // Only the built-in presenter draws images: for it, the image is loaded first (GAP-44).
        let drawing = presenter as? any InAppImagePresenting
        let images = drawing.map { _ in
            InAppImageLoader(
                fetcher: URLSessionInAppImageFetcher(),
                scheduler: SerialQueueScheduler(queue: .main),
                log: log
            )
        }
        loop.run(
            message,
            images: images,
            present: { image in
                MainActor.assumeIsolated {
                    guard let top = Self.topViewController() else { return false }
                    if let drawing {
                        return drawing.present(campaign: message, image: image, in: top, delegate: delegate)
                    }
                    return presenter.present(campaign: message, in: top, delegate: delegate)
                }
            },
            completion: completion
        )
    }

    /// The top-most view controller of the foreground-active scene's key window.
    @MainActor
    private static func topViewController() -> UIViewController? {
        let scene = UIApplication.shared.connectedScenes
            .compactMap { $0 as? UIWindowScene }
            .first { $0.activationState == .foregroundActive }
        var top = scene?.windows.first(where: \.isKeyWindow)?.rootViewController
        while let presented = top?.presentedViewController { top = presented }
        return top
    }

    /// On the main thread, the presenter removes `message` without reporting (``InAppTakeDown``);
    /// a presenter that does not adopt ``InAppMessageTakingDown`` keeps its view until the person
    /// closes it (its later dismissal is ignored: the message is no longer on screen for the SDK).
    public func takeDown(_ message: InAppMessage, from presenter: (any InAppMessagePresenter)?) {
        guard let removal = InAppTakeDown.removal(of: message, from: presenter) else { return }
        self.runOnMain(removal)
    }

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

/// UIKit's states as ``InAppPresentationGate`` reads them (the platform's loop and the built-in
/// presenter's last check).
@MainActor
package enum InAppUIKitState {
    /// `UIApplication.State` as the gate's.
    package static func appState(_ state: UIApplication.State) -> InAppPresentationGate.AppState {
        switch state {
        case .active: .active
        case .inactive: .inactive
        case .background: .background
        @unknown default: .inactive
        }
    }

    /// Whether `viewController` is presenting, dismissing, in a transition, or stable.
    package static func topState(_ viewController: UIViewController?) -> InAppPresentationGate.TopState {
        guard let viewController else { return .none }
        if viewController.isBeingPresented { return .presenting }
        if viewController.isBeingDismissed { return .dismissing }
        if viewController.transitionCoordinator != nil { return .transitioning }
        return .stable
    }
}
#endif
