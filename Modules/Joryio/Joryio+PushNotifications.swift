public import Foundation
internal import JoryioCore
internal import JoryioFeature
public import JoryioKit
package import JoryioPush

#if canImport(UIKit) && !os(watchOS)
public import UIKit
#endif

/// Notifications that reach the app (issue 14, parts 5 and 6): `didReceiveRemoteNotification`, the
/// notification-center delegate's entry points, and the app's link handler. What to do with a
/// payload is decided by `PushDecision` and carried out on the engine by `PushNotificationHandler`.
extension Joryio {
    #if canImport(UIKit) && !os(watchOS)
    /// What `didReceiveRemoteNotification(_:completionHandler:)` completes with: UIKit's own type.
    public typealias BackgroundFetchResult = UIBackgroundFetchResult
    /// The completion handler `didReceiveRemoteNotification(_:completionHandler:)` takes: exactly
    /// what UIKit hands the app delegate (not `@Sendable`), called on the main thread.
    public typealias BackgroundFetchCompletion = (BackgroundFetchResult) -> Void
    #else
    /// The completion handler `didReceiveRemoteNotification(_:completionHandler:)` takes, called on
    /// the engine's thread where there is no main-thread convention.
    public typealias BackgroundFetchCompletion = @Sendable (BackgroundFetchResult) -> Void
    /// What `didReceiveRemoteNotification(_:completionHandler:)` completes with, where UIKit's
    /// `UIBackgroundFetchResult` does not exist (same cases).
    public enum BackgroundFetchResult: Sendable, Equatable {
        /// New data was fetched.
        case newData
        /// Nothing new.
        case noData
        /// Fetching failed.
        case failed
    }
    #endif

    /// The longest `didReceiveRemoteNotification` waits before it completes a Joryio payload with
    /// `.noData` anyway (PUSH-24): well inside the system's 30 seconds, whether the engine is busy,
    /// the sync slow, or the SDK not initialized yet (GAP-37).
    package static let remoteNotificationBudget: TimeInterval = 20

    /// Forwards a remote notification from your app delegate's
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)` (MISC-2).
    ///
    /// `completionHandler` is called exactly once (PUSH-24): at once with `.noData` for a
    /// notification that is not Joryio's (no `joryio` key); for Joryio's, after its delivery receipt
    /// is recorded and, for a silent sync push, the in-app sync finished (its outcome), and never
    /// later than 20 seconds, even before `initialize()` (the notification is then handled when the
    /// SDK starts).
    ///
    /// With UIKit it takes the handler exactly as UIKit hands it to the app delegate (not
    /// `@Sendable`: forwarding it compiles in the Swift 6 language mode) and calls it on the main
    /// thread; elsewhere (AppKit, Linux), where no main-thread convention applies, the handler must
    /// be `@Sendable` and is called on the SDK's queue.
    public func didReceiveRemoteNotification(
        _ userInfo: [AnyHashable: Any],
        completionHandler: @escaping BackgroundFetchCompletion
    ) {
        #if canImport(UIKit) && !os(watchOS)
        // Called only on the main queue (CompletionOnce hops there), where UIKit gave it to the app.
        let handler = MainThreadHandler(completionHandler)
        self.receiveRemoteNotification(userInfo) { result in handler.value(result) }
        #else
        self.receiveRemoteNotification(userInfo, completionHandler: completionHandler)
        #endif
    }

    /// ``didReceiveRemoteNotification(_:completionHandler:)`` with a handler that may be called on
    /// any thread (the main thread on Apple platforms).
    private func receiveRemoteNotification(
        _ userInfo: [AnyHashable: Any],
        completionHandler: @escaping @Sendable (BackgroundFetchResult) -> Void
    ) {
        let completion = CompletionOnce(completionHandler)
        guard let payload = PushPayload(userInfo: userInfo), payload.isJoryio else {
            completion.complete(.noData)
            return
        }
        let timestamp = self.facade.now
        let deadline = self.facade.scheduleDeadline(after: Self.remoteNotificationBudget) {
            completion.complete(.noData)
        }
        self.facade.submitToFeatures({ features in
            guard let handler = features.first(PushNotificationHandler.self) else {
                deadline.cancel()
                completion.complete(.noData)
                return
            }
            handler.handle(
                payload,
                arrival: .remoteNotification,
                appIsActive: false,
                receivedAt: timestamp,
                services: PushServices(features: features)
            ) { outcome in
                deadline.cancel()
                completion.complete(outcome)
            }
        })
    }

    /// Lets the app see every link of a tapped Joryio notification before the SDK follows it
    /// (DEEPLINK-6): `handler` gets the URL on the main thread once the app is active and returns
    /// `true` when it handled it, so the SDK does nothing more; `false` lets the SDK open it (a
    /// custom scheme) or deliver it as a universal link (`https`). `nil` removes the handler. Set
    /// before `initialize()`, it is installed when the SDK starts, before any notification is handled.
    public func setLinkHandler(_ handler: (@Sendable (URL) -> Bool)?) {
        self.facade.submit(to: PushNotificationHandler.self) { $0.linkHandler = handler }
    }

    /// A notification about to be presented in the foreground (`willPresent`): `nil` when it is not
    /// Joryio's, for the caller to forward unchanged (PUSH-22); otherwise how to present it, and its
    /// receipt and sync are handed to the engine (PUSH-21, PUSH-27).
    package func notificationWillPresent(_ payload: PushPayload?) -> PushPresentation? {
        guard let payload, payload.isJoryio else { return nil }
        let decision = PushDecision.decide(payload, PushContext(arrival: .willPresent, appIsActive: true))
        self.handleOnEngine(payload, arrival: .willPresent, appIsActive: true)
        return decision.presentation
    }

    /// The person acted on a notification (`didReceive`): `false` when it is not Joryio's, for the
    /// caller to forward unchanged (PUSH-22); otherwise the click, link and sync are handed to the
    /// engine (PUSH-21, PUSH-26, DEEPLINK-5). `appIsActive` is the application's state now (a cold
    /// start from the tap is not active yet: the link waits, DEEPLINK-7).
    package func notificationResponse(
        _ payload: PushPayload?,
        action: PushResponseAction,
        appIsActive: Bool
    ) -> Bool {
        guard let payload, payload.isJoryio else { return false }
        self.handleOnEngine(payload, arrival: .response(action: action), appIsActive: appIsActive)
        return true
    }

    private func handleOnEngine(_ payload: PushPayload, arrival: PushArrival, appIsActive: Bool) {
        let timestamp = self.facade.now
        self.facade.submitToFeatures({ features in
            features.first(PushNotificationHandler.self)?.handle(
                payload,
                arrival: arrival,
                appIsActive: appIsActive,
                receivedAt: timestamp,
                services: PushServices(features: features)
            )
        })
    }
}

/// A completion handler called at most once, whoever asks first (the handling or the budget); on
/// Apple platforms on the main thread.
#if canImport(UIKit) && !os(watchOS)
/// A value that is only touched on the main thread: UIKit's non-`Sendable` completion handler,
/// carried to the main queue where it is called.
private struct MainThreadHandler<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) { self.value = value }
}
#endif

private final class CompletionOnce: Sendable {
    private let handler: Locked<(@Sendable (Joryio.BackgroundFetchResult) -> Void)?>

    init(_ handler: @escaping @Sendable (Joryio.BackgroundFetchResult) -> Void) {
        self.handler = Locked(handler)
    }

    func complete(_ outcome: PushSyncOutcome) {
        let handler = self.handler.withLock { handler in
            defer { handler = nil }
            return handler
        }
        guard let handler else { return }
        let result: Joryio.BackgroundFetchResult =
            switch outcome {
            case .newData: .newData
            case .noData: .noData
            case .failed: .failed
            }
        #if canImport(UIKit) && !os(watchOS)
        DispatchQueue.main.async { handler(result) }
        #else
        handler(result)
        #endif
    }
}
