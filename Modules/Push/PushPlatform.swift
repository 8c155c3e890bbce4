public import Foundation

/// What the OS says about notification permission (`UNAuthorizationStatus`, platform-neutral).
public enum PushAuthorization: Sendable, Equatable, CaseIterable {
    case notDetermined, denied, authorized, provisional, ephemeral

    /// `getPushPermissionStatus()`'s answer (PUSH-4): provisional and ephemeral count as granted.
    package var status: String {
        switch self {
        case .notDetermined: "notDetermined"
        case .denied: "denied"
        case .authorized, .provisional, .ephemeral: "granted"
        }
    }

    /// `isPushEnabled()` (PUSH-5): exactly when the status is `"granted"`.
    package var isEnabled: Bool { self.status == "granted" }

    /// The `push_permission` attribute's value (PUSH-11): the status, with `not_determined`.
    package var attributeValue: String {
        self == .notDetermined ? "not_determined" : self.status
    }
}

/// Everything push needs from the operating system (issue 14, part 8): one seam, a thin
/// UserNotifications / UIKit adapter on Apple platforms, and a scriptable fake for tests and Linux.
/// Every decision about what to call and when lives in the push feature, tested on Linux.
public protocol PushPlatform: Sendable {
    /// Whether this platform has push notifications at all (`true` unless it says otherwise).
    var hasPush: Bool { get }

    /// Reports the current notification authorization to `completion`, on any thread (at once on
    /// the fake, so tests on virtual time stay deterministic).
    func authorizationStatus(_ completion: @escaping @Sendable (PushAuthorization) -> Void)

    /// Asks for authorization (alert, badge, sound; `provisional` asks quietly, PROV-8); whether it
    /// was granted (provisional counts, PROV-7).
    func requestAuthorization(provisional: Bool) async -> Bool

    /// Asks the OS for a device token (`registerForRemoteNotifications`, on the main thread).
    func registerForRemoteNotifications()

    /// Tells the OS to stop delivering remote notifications to this app (PUSH-15).
    func unregisterForRemoteNotifications()

    /// Sets the app icon's badge (`0` clears it).
    func setBadgeCount(_ count: Int)

    /// Runs `work` on the main thread once the app is active: soon when it is active now, else when
    /// it next becomes active (a cold start from a tap: once the UI is ready). Links from a push are
    /// followed inside it (DEEPLINK-7), so ``open(_:)`` and ``continueUserActivity(webpageURL:)``
    /// are called from `work`. The fake runs it at once while its app is active.
    func whenActive(_ work: @escaping @Sendable () -> Void)

    /// Opens `url` (a custom-scheme deep link, or the fallback for a universal link). Called on the
    /// main thread, from ``whenActive(_:)``.
    func open(_ url: URL)

    /// Delivers an `https://` link as a browsing-web `NSUserActivity` to the active scene's delegate
    /// or the app delegate (ULINK-7), and says how it went, so the caller opens the URL when it was
    /// not handled (ULINK-8, `PushDecision.openAfterUniversalLink`). Called on the main thread,
    /// from ``whenActive(_:)``.
    func continueUserActivity(webpageURL url: URL) -> UniversalLinkDelivery
}

extension PushPlatform {
    /// Whether this platform has push notifications at all; where it has none (Linux, servers) the
    /// SDK writes no `push_permission` attribute.
    public var hasPush: Bool { true }

    /// The current notification authorization.
    public func authorizationStatus() async -> PushAuthorization {
        await withCheckedContinuation { continuation in
            self.authorizationStatus { continuation.resume(returning: $0) }
        }
    }
}

/// The platform on Linux and wherever notifications do not exist: not determined, never granted,
/// nothing to register; links are not opened (a server or command-line tool has no UI).
public struct NoPushPlatform: PushPlatform {
    /// Creates it.
    public init() {}

    /// No push here.
    public var hasPush: Bool { false }

    /// Always `.notDetermined`.
    public func authorizationStatus(_ completion: @escaping @Sendable (PushAuthorization) -> Void) {
        completion(.notDetermined)
    }

    /// Never granted.
    public func requestAuthorization(provisional: Bool) async -> Bool { false }

    /// Does nothing.
    public func registerForRemoteNotifications() {}

    /// Does nothing.
    public func unregisterForRemoteNotifications() {}

    /// Does nothing.
    public func setBadgeCount(_ count: Int) {}

    /// Runs `work` at once: there is no app state to wait for.
    public func whenActive(_ work: @escaping @Sendable () -> Void) { work() }

    /// Does nothing.
    public func open(_ url: URL) {}

    /// Nobody to deliver to.
    public func continueUserActivity(webpageURL url: URL) -> UniversalLinkDelivery { .noHandler }
}
