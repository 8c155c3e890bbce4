public import Foundation
internal import JoryioCore
public import JoryioPush

/// A scriptable `PushPlatform` for tests: set the authorization and what a request answers, then
/// assert on what the SDK asked the OS to do, in order.
public final class FakePushPlatform: PushPlatform {
    /// One thing the SDK asked the OS for.
    public enum Call: Equatable, Sendable {
        case requestAuthorization(provisional: Bool)
        case registerForRemoteNotifications
        case unregisterForRemoteNotifications
        case setBadgeCount(Int)
        case open(URL)
        case continueUserActivity(URL)
    }

    private struct State {
        var authorization: PushAuthorization
        var grantsRequest: Bool
        var handlesUserActivity: Bool
        var calls: [Call] = []
    }

    private let state: Locked<State>

    /// A device whose authorization is `authorization`; a request grants when `grantsRequest`
    /// (and then turns the authorization to `.authorized`, or `.provisional` for a quiet request).
    public init(
        authorization: PushAuthorization = .notDetermined,
        grantsRequest: Bool = true,
        handlesUserActivity: Bool = true
    ) {
        self.state = Locked(
            State(authorization: authorization, grantsRequest: grantsRequest, handlesUserActivity: handlesUserActivity)
        )
    }

    /// What the SDK asked for so far, oldest first.
    public var calls: [Call] { self.state.withLock { $0.calls } }

    /// The authorization the next status query answers (the user changed it in Settings).
    public var authorization: PushAuthorization {
        get { self.state.withLock { $0.authorization } }
        set { self.state.withLock { $0.authorization = newValue } }
    }

    /// The scripted authorization, at once.
    public func authorizationStatus(_ completion: @escaping @Sendable (PushAuthorization) -> Void) {
        completion(self.state.withLock { $0.authorization })
    }

    /// Records the request and answers as scripted.
    public func requestAuthorization(provisional: Bool) async -> Bool {
        self.state.withLock { state in
            state.calls.append(.requestAuthorization(provisional: provisional))
            if state.grantsRequest, state.authorization == .notDetermined || state.authorization == .provisional {
                state.authorization = provisional ? .provisional : .authorized
            }
            return state.authorization.isEnabled
        }
    }

    /// Records the call.
    public func registerForRemoteNotifications() {
        self.state.withLock { $0.calls.append(.registerForRemoteNotifications) }
    }

    /// Records the call.
    public func unregisterForRemoteNotifications() {
        self.state.withLock { $0.calls.append(.unregisterForRemoteNotifications) }
    }

    /// Records the call.
    public func setBadgeCount(_ count: Int) {
        self.state.withLock { $0.calls.append(.setBadgeCount(count)) }
    }

    /// Records the call.
    public func open(_ url: URL) {
        self.state.withLock { $0.calls.append(.open(url)) }
    }

    /// Records the call; answers as scripted.
    public func continueUserActivity(webpageURL url: URL) -> Bool {
        self.state.withLock { state in
            state.calls.append(.continueUserActivity(url))
            return state.handlesUserActivity
        }
    }
}
