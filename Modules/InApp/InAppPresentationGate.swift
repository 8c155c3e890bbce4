package import Foundation

/// Whether a message may go on screen now (INAPP-57): only while the app is active and the top view
/// controller is stable, that is neither presenting, dismissing nor in a transition. Otherwise wait
/// and try again after a bounded, growing delay, and give up after ``Backoff/maxAttempts`` tries
/// with the reason that kept it off screen.
///
/// A value with no clock: the caller reads the app's and the top view controller's state, asks
/// ``decide(app:top:)``, and schedules the next try itself after the delay the answer carries (the
/// UIKit adapter with `DispatchQueue.main.asyncAfter`, tests by adding the delays up).
package struct InAppPresentationGate: Sendable, Equatable {
    /// The application's state (`UIApplication.State`).
    package enum AppState: Sendable, Equatable {
        /// In the foreground and receiving events: messages may show.
        case active
        /// In the foreground but not receiving events (a system alert, the app switcher, launching).
        case inactive
        /// Not visible.
        case background
    }

    /// The state of the view controller a message would be shown over.
    package enum TopState: Sendable, Equatable {
        /// Nothing is moving: messages may show.
        case stable
        /// It is being presented (`isBeingPresented`).
        case presenting
        /// It is being dismissed (`isBeingDismissed`).
        case dismissing
        /// A transition is running (`transitionCoordinator != nil`: a push, pop or rotation).
        case transitioning
        /// There is no top view controller (no foreground-active scene, no key window, no root).
        case none
    }

    /// Why a message is not shown yet.
    package enum WaitReason: Sendable, Equatable, CustomStringConvertible {
        /// The app is inactive.
        case appInactive
        /// The app is in the background.
        case appInBackground
        /// The top view controller is being presented.
        case topPresenting
        /// The top view controller is being dismissed.
        case topDismissing
        /// The top view controller is in a transition.
        case topTransitioning
        /// There is no top view controller.
        case noTopViewController

        /// For logs.
        package var description: String {
            switch self {
            case .appInactive: "the app is inactive"
            case .appInBackground: "the app is in the background"
            case .topPresenting: "the top view controller is being presented"
            case .topDismissing: "the top view controller is being dismissed"
            case .topTransitioning: "the top view controller is in a transition"
            case .noTopViewController: "there is no top view controller"
            }
        }
    }

    /// How the tries are spaced: the first retry after ``initialDelay``, each later one
    /// ``multiplier`` times longer, never longer than ``maxDelay``; after ``maxAttempts`` tries
    /// that could not show, the message is given up.
    package struct Backoff: Sendable, Equatable {
        /// The delay before the first retry, in seconds.
        package var initialDelay: TimeInterval
        /// How much longer each next delay is.
        package var multiplier: Double
        /// The longest delay, in seconds.
        package var maxDelay: TimeInterval
        /// How many tries in all (the first included) before giving up; at least 1.
        package var maxAttempts: Int

        /// A backoff.
        package init(initialDelay: TimeInterval, multiplier: Double, maxDelay: TimeInterval, maxAttempts: Int) {
            self.initialDelay = max(0, initialDelay)
            self.multiplier = max(1, multiplier)
            self.maxDelay = max(self.initialDelay, maxDelay)
            self.maxAttempts = max(1, maxAttempts)
        }

        /// 0.25 s, doubling up to 2 s, 12 tries: 17.75 s of waiting in all, enough for a
        /// launch, an alert or a navigation to settle, short enough that a message does not show
        /// long after what triggered it.
        package static let standard = Backoff(initialDelay: 0.25, multiplier: 2, maxDelay: 2, maxAttempts: 12)

        /// The delay after the `failedTries`-th try that could not show (1-based).
        package func delay(afterFailedTries failedTries: Int) -> TimeInterval {
            var delay = self.initialDelay
            var step = 1
            while step < failedTries, delay < self.maxDelay {
                delay *= self.multiplier
                step += 1
            }
            return min(delay, self.maxDelay)
        }
    }

    /// Why the gate gave up.
    package struct GiveUp: Sendable, Equatable, CustomStringConvertible {
        /// How many tries were made.
        package var attempts: Int
        /// The seconds waited between them, in all.
        package var waited: TimeInterval
        /// What kept the message off screen at the last try.
        package var lastReason: WaitReason

        /// A give-up.
        package init(attempts: Int, waited: TimeInterval, lastReason: WaitReason) {
            self.attempts = attempts
            self.waited = waited
            self.lastReason = lastReason
        }

        /// For logs: "not shown after 12 tries over 14.75 s: the app is in the background".
        package var description: String {
            let seconds = (self.waited * 100).rounded() / 100
            return "not shown after \(self.attempts) tries over \(seconds) s: \(self.lastReason)"
        }
    }

    /// What to do now.
    package enum Decision: Sendable, Equatable {
        /// Show the message.
        case presentNow
        /// Ask again after `after` seconds.
        case retry(after: TimeInterval, reason: WaitReason)
        /// Stop trying: the message is not shown (the platform answers `false`, INAPP-60: it stays
        /// eligible).
        case giveUp(GiveUp)
        /// ``decide(app:top:)`` was called after ``presentNow`` or ``giveUp(_:)``: nothing to do.
        case finished
    }

    /// The spacing of the tries.
    package let backoff: Backoff
    /// Tries made so far.
    package private(set) var attempts = 0
    /// Seconds of waiting scheduled so far.
    package private(set) var waited: TimeInterval = 0
    /// Whether the gate has answered ``Decision/presentNow`` or ``Decision/giveUp(_:)``.
    package private(set) var isFinished = false

    /// A gate that has not tried yet.
    package init(backoff: Backoff = .standard) {
        self.backoff = backoff
    }

    /// Why a message cannot show in this state; `nil` when it can (INAPP-57). The app's state is
    /// checked first: a background app's view controllers are not looked at.
    package static func waitReason(app: AppState, top: TopState) -> WaitReason? {
        switch app {
        case .inactive: return .appInactive
        case .background: return .appInBackground
        case .active: break
        }
        switch top {
        case .stable: return nil
        case .presenting: return .topPresenting
        case .dismissing: return .topDismissing
        case .transitioning: return .topTransitioning
        case .none: return .noTopViewController
        }
    }

    /// One try: show now, wait and ask again, or give up.
    package mutating func decide(app: AppState, top: TopState) -> Decision {
        guard !self.isFinished else { return .finished }
        self.attempts += 1
        guard let reason = Self.waitReason(app: app, top: top) else {
            self.isFinished = true
            return .presentNow
        }
        guard self.attempts < self.backoff.maxAttempts else {
            self.isFinished = true
            return .giveUp(GiveUp(attempts: self.attempts, waited: self.waited, lastReason: reason))
        }
        let delay = self.backoff.delay(afterFailedTries: self.attempts)
        self.waited += delay
        return .retry(after: delay, reason: reason)
    }
}
