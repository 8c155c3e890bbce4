internal import Foundation
public import JoryioKit

/// What in-app display needs from the OS (issue 16): presenting on the main thread while the app
/// is active, taking a message down, calling the app's callback and hooks on the main thread, and
/// finding the built-in presenter. Every decision is the display machine's; the live adapter only
/// carries them out, and a scriptable fake stands in for it in tests and on Linux.
public protocol InAppPlatform: Sendable {
    /// Whether the app is active now (INAPP-57, INAPP-59).
    var isActive: Bool { get }

    /// Shows `message` with `presenter` on the main thread once the top view controller is stable
    /// (INAPP-57), and calls `completion` once, on any thread, with whether it is on screen
    /// (INAPP-30). `presenter` is `nil` when none was assigned or discovered: answer `false`.
    func present(
        _ message: InAppMessage,
        with presenter: (any InAppMessagePresenter)?,
        delegate: any InAppMessageViewDelegate,
        completion: @escaping @Sendable (Bool) -> Void
    )

    /// Takes `message` off the screen (a reset, a user change or an opt-out while it shows) by
    /// asking `presenter`, the one it was presented with, to remove it without reporting anything
    /// (INAPP-58). `presenter` is `nil` when there was none.
    func takeDown(_ message: InAppMessage, from presenter: (any InAppMessagePresenter)?)

    /// Hands `message` to the app's callback on the main thread (INAPP-32).
    func deliver(_ message: InAppMessage, to callback: @escaping @MainActor @Sendable (InAppMessage) -> Void)

    /// Runs an `InAppConfig` hook on the main thread (INAPP-49).
    func runOnMain(_ hook: @escaping @MainActor @Sendable () -> Void)

    /// The built-in presenter, found by class name (INAPP-40): `JoryioUI.DefaultInAppMessagePresenter`,
    /// then `Joryio.DefaultInAppMessagePresenter`; `nil` when neither is linked.
    func discoverPresenter() -> (any InAppMessagePresenter)?

    /// Whether this platform can put a message on screen at all; where it cannot (Linux, a server,
    /// macOS today) the SDK says so once at start (issue 26).
    var displaysMessages: Bool { get }
}

extension InAppPlatform {
    /// Most platforms display messages.
    public var displaysMessages: Bool { true }
}

/// In-app display where there is no UI (Linux, a server, a command-line tool): the app is never
/// active, so nothing is presented; the app's callback and hooks run on the main actor when it
/// runs.
public struct NoInAppPlatform: InAppPlatform {
    /// Creates it.
    public init() {}

    /// Never active.
    public var isActive: Bool { false }

    /// Nothing to display on.
    public var displaysMessages: Bool { false }

    /// Nothing to present on: not shown.
    public func present(
        _ message: InAppMessage,
        with presenter: (any InAppMessagePresenter)?,
        delegate: any InAppMessageViewDelegate,
        completion: @escaping @Sendable (Bool) -> Void
    ) {
        completion(false)
    }

    /// Nothing on screen.
    public func takeDown(_ message: InAppMessage, from presenter: (any InAppMessagePresenter)?) {}

    /// On the main actor.
    public func deliver(_ message: InAppMessage, to callback: @escaping @MainActor @Sendable (InAppMessage) -> Void) {
        Task { @MainActor in callback(message) }
    }

    /// On the main actor.
    public func runOnMain(_ hook: @escaping @MainActor @Sendable () -> Void) {
        Task { @MainActor in hook() }
    }

    /// No built-in presenter here.
    public func discoverPresenter() -> (any InAppMessagePresenter)? { nil }
}

/// What a presenter's delegate reports reaches the feature on the engine's executor.
/// The live platform also logs through it what kept a message off screen (its retry loop's
/// decisions, INAPP-57), into the SDK's log. The message's forms and links go through it too, so
/// they reach the instance that presented the message.
final class InAppViewEvents: InAppMessageViewDelegate {
    private let handle: @Sendable (_ campaignId: String, _ clickedElement: String?) -> Void
    private let actions: @Sendable () -> InAppMessageActions?
    /// Logs into the SDK's log (the platform's presentation loop).
    let log: @Sendable (LogLevel, String) -> Void

    /// Calls `handle` with the message's id and the element tapped (`nil`: dismissed); forms and
    /// links go to what `actions` answers when they happen (`nil`: the product gave none).
    init(
        log: @escaping @Sendable (LogLevel, String) -> Void,
        actions: @escaping @Sendable () -> InAppMessageActions?,
        _ handle: @escaping @Sendable (_ campaignId: String, _ clickedElement: String?) -> Void
    ) {
        self.log = log
        self.actions = actions
        self.handle = handle
    }

    @MainActor
    func messageViewSubmittedForm(_ message: InAppMessage, values: [String: String]) {
        guard let actions = self.actions() else {
            return self.log(.warning, "in-app \(message.id): the form was not submitted: no form handling here")
        }
        actions.submitForm(message.id, values)
    }

    @MainActor
    func messageViewFollowsLink(_ message: InAppMessage, url: URL, asUniversalLink: Bool) {
        guard let actions = self.actions() else {
            return self.log(.warning, "in-app \(message.id): the link was not followed: no link handling here")
        }
        actions.followLink(url, asUniversalLink)
    }

    @MainActor
    func messageViewClicked(_ message: InAppMessage, action: String, url: URL?) {
        self.handle(message.id, action)
    }

    @MainActor
    func messageViewDidDismiss(_ message: InAppMessage) {
        self.handle(message.id, nil)
    }
}
