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

    /// Opens `url` (a custom-scheme deep link, or the fallback for a universal link).
    func open(_ url: URL)

    /// Delivers an `https://` link as a browsing-web `NSUserActivity` to the scene or app delegate
    /// (ULINK-7); `false` when nobody handled it, so the caller opens the URL instead (ULINK-8).
    func continueUserActivity(webpageURL url: URL) -> Bool
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

    /// Does nothing.
    public func open(_ url: URL) {}

    /// Never handled.
    public func continueUserActivity(webpageURL url: URL) -> Bool { false }
}
