public import Foundation
internal import JoryioCore
public import JoryioPush

/// A scriptable `PushPlatform` for tests: set the authorization, what a request answers, whether
/// the app is active and how a universal link is delivered, then assert on what the SDK asked the
/// OS to do, in order.
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
        var universalLinks: UniversalLinkDelivery
        var isActive: Bool
        var waiting: [@Sendable () -> Void] = []
        var calls: [Call] = []
    }

    private let state: Locked<State>

    /// A device whose authorization is `authorization`; a request grants when `grantsRequest`
    /// (and then turns the authorization to `.authorized`, or `.provisional` for a quiet request).
    /// A universal link is delivered as `universalLinks` says; the app is active when `isActive`.
    public init(
        authorization: PushAuthorization = .notDetermined,
        grantsRequest: Bool = true,
        universalLinks: UniversalLinkDelivery = .scene,
        isActive: Bool = true
    ) {
        self.state = Locked(
            State(
                authorization: authorization,
                grantsRequest: grantsRequest,
                universalLinks: universalLinks,
                isActive: isActive
            )
        )
    }

    /// What the SDK asked for so far, oldest first.
    public var calls: [Call] { self.state.withLock { $0.calls } }

    /// ``calls`` without the requests for a device token the SDK makes at every start (PUSH-2):
    /// what it did in answer to notifications and calls.
    public var actions: [Call] { self.calls.filter { $0 != .registerForRemoteNotifications } }

    /// How the next universal link is delivered.
    public var universalLinks: UniversalLinkDelivery {
        get { self.state.withLock { $0.universalLinks } }
        set { self.state.withLock { $0.universalLinks = newValue } }
    }

    /// Whether the app is active; while it is not, ``whenActive(_:)`` keeps its work.
    public var isActive: Bool { self.state.withLock { $0.isActive } }

    /// How many ``whenActive(_:)`` works wait for the app to become active.
    public var waitingForActive: Int { self.state.withLock { $0.waiting.count } }

    /// The app leaves the active state (a cold start has not reached it yet).
    public func resignActive() {
        self.state.withLock { $0.isActive = false }
    }

    /// The app becomes active: the works that waited run, oldest first, on the calling thread.
    public func becomeActive() {
        let waiting = self.state.withLock { state -> [@Sendable () -> Void] in
            state.isActive = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for work in waiting { work() }
    }

    /// Runs `work` at once while the app is active, else keeps it for ``becomeActive()``.
    public func whenActive(_ work: @escaping @Sendable () -> Void) {
        let now = self.state.withLock { state -> Bool in
            if !state.isActive { state.waiting.append(work) }
            return state.isActive
        }
        if now { work() }
    }

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
    public func continueUserActivity(webpageURL url: URL) -> UniversalLinkDelivery {
        self.state.withLock { state in
            state.calls.append(.continueUserActivity(url))
            return state.universalLinks
        }
    }
}
