public import Foundation
internal import JoryioCore
public import JoryioInApp
public import JoryioKit

/// A scriptable in-app platform for tests and Linux: active or not, records what the SDK asked
/// for (`present <id>`, `deliver <id>`, `takeDown <id>`, `hook`), answers `present` as told, and
/// never runs UI code: the test plays the presenter's delegate through the SDK.
public final class FakeInAppPlatform: InAppPlatform {
    private struct State {
        var active = true
        var shows = true
        var calls: [String] = []
        var presentations: [(id: String, at: Date)] = []
        var clock: (@Sendable () -> Date)?
        var removals: [@MainActor @Sendable () -> Void] = []
        var discoveries = 0
        var delegates: [String: any InAppMessageViewDelegate] = [:]
    }

    private let state = Locked(State())

    /// An active app whose presentations succeed.
    public init() {}

    /// What the SDK asked for, oldest first.
    public var calls: [String] { self.state.withLock { $0.calls } }

    /// The campaigns presented and when, by ``clock``, oldest first.
    public var presentations: [(id: String, at: Date)] { self.state.withLock { $0.presentations } }

    /// The clock presentations are stamped with (`nil`: not stamped).
    public var clock: (@Sendable () -> Date)? {
        get { self.state.withLock { $0.clock } }
        set { self.state.withLock { $0.clock = newValue } }
    }

    /// Whether the app is active (settable by the test).
    public var isActive: Bool {
        get { self.state.withLock { $0.active } }
        set { self.state.withLock { $0.active = newValue } }
    }

    /// Whether a presentation with a presenter succeeds (settable by the test).
    public var shows: Bool {
        get { self.state.withLock { $0.shows } }
        set { self.state.withLock { $0.shows = newValue } }
    }

    /// Records the call; shown when ``shows`` and a presenter was given.
    public func present(
        _ message: InAppMessage,
        with presenter: (any InAppMessagePresenter)?,
        delegate: any InAppMessageViewDelegate,
        completion: @escaping @Sendable (Bool) -> Void
    ) {
        let shown = self.state.withLock { state -> Bool in
            state.calls.append("present \(message.id)\(presenter == nil ? " (no presenter)" : "")")
            state.delegates[message.id] = delegate
            if let clock = state.clock { state.presentations.append((message.id, clock())) }
            return state.shows && presenter != nil
        }
        completion(shown)
    }

    /// The delegate the SDK handed over with the last presentation of campaign `id`: what a
    /// presenter would report through, and route the message's forms and links through (issue 26).
    package func delegate(for id: String) -> (any InAppMessageViewDelegate)? {
        self.state.withLock { $0.delegates[id] }
    }

    /// Records the call (`takeDown <id>`, with ` (no presenter)` when there was none) and keeps
    /// what the UIKit platform would run on the main thread (`InAppTakeDown`) for
    /// ``performTakeDowns()``.
    public func takeDown(_ message: InAppMessage, from presenter: (any InAppMessagePresenter)?) {
        let removal = InAppTakeDown.removal(of: message, from: presenter)
        self.state.withLock { state in
            state.calls.append("takeDown \(message.id)\(presenter == nil ? " (no presenter)" : "")")
            if let removal { state.removals.append(removal) }
        }
    }

    /// Runs, on the main actor, the presenters' removals the take-downs asked for, oldest first
    /// (what the UIKit platform's main-thread hop does); returns how many ran.
    @MainActor
    @discardableResult
    public func performTakeDowns() -> Int {
        let removals = self.state.withLock { state in
            defer { state.removals.removeAll() }
            return state.removals
        }
        for removal in removals { removal() }
        return removals.count
    }

    /// Records the call (the callback is not run).
    public func deliver(_ message: InAppMessage, to callback: @escaping @MainActor @Sendable (InAppMessage) -> Void) {
        self.state.withLock { $0.calls.append("deliver \(message.id)") }
    }

    /// Records the call (the hook is not run).
    public func runOnMain(_ hook: @escaping @MainActor @Sendable () -> Void) {
        self.state.withLock { $0.calls.append("hook") }
    }

    /// How many times the SDK looked for the built-in presenter (INAPP-42).
    public var discoveries: Int { self.state.withLock { $0.discoveries } }

    /// None; counted in ``discoveries``.
    public func discoverPresenter() -> (any InAppMessagePresenter)? {
        self.state.withLock { $0.discoveries += 1 }
        return nil
    }
}

/// A presenter for tests: the fake platform answers for it and never calls it to present; it
/// takes messages down as the built-in presenter does (`InAppMessageTakingDown`) and records it.
public final class StubInAppPresenter: InAppMessagePresenter, InAppMessageTakingDown {
    private let removed = Locked<[String]>([])

    /// Creates one.
    public init() {}

    /// The ids of the messages it was asked to take down, oldest first.
    public var takenDown: [String] { self.removed.withLock { $0 } }

    /// Records the message's id.
    @MainActor
    public func takeDown(_ message: InAppMessage) {
        self.removed.withLock { $0.append(message.id) }
    }

    /// On screen.
    @MainActor
    public func present(
        campaign: InAppMessage,
        in viewController: InAppPresentationContext,
        delegate: any InAppMessageViewDelegate
    ) -> Bool {
        true
    }
}
