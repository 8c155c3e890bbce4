package import Foundation
package import JoryioCore
package import JoryioKit

/// The retry loop a platform runs to put a message on screen (INAPP-57): each try reads the app's
/// and the top view controller's state where the tries run, asks ``InAppPresentationGate``, and
/// then presents, schedules the next try after the gate's delay, or gives up with the gate's
/// reason. Logged: every wait with its reason, and the give-up.
///
/// `UIKitInAppPlatform` runs it on the main queue and reads UIKit's state; tests run it on a
/// `ManualScheduler` with scripted states, so the loop the UIKit adapter uses is the tested one.
package struct InAppPresentationLoop: Sendable {
    /// What a try reads: the app's state and the top view controller's.
    package typealias State = @Sendable () -> (app: InAppPresentationGate.AppState, top: InAppPresentationGate.TopState)

    /// The spacing of the tries.
    package var backoff: InAppPresentationGate.Backoff
    /// Where the tries run (the main queue for UIKit).
    package let scheduler: any Scheduler
    /// The state now, read on the scheduler.
    package let state: State
    /// Where the loop's decisions are logged.
    package let log: @Sendable (LogLevel, String) -> Void

    /// A loop with the standard backoff.
    package init(
        backoff: InAppPresentationGate.Backoff = .standard,
        scheduler: any Scheduler,
        state: @escaping State,
        log: @escaping @Sendable (LogLevel, String) -> Void
    ) {
        self.backoff = backoff
        self.scheduler = scheduler
        self.state = state
        self.log = log
    }

    /// Tries to show the message `campaignId`: the first try as soon as the scheduler runs it,
    /// then as the gate says. `present` runs on the scheduler when the gate says the message may
    /// show and answers whether it is on screen; `completion` is called once, with that answer,
    /// or with `false` when the gate gives up (INAPP-60: the message stays eligible).
    package func run(
        campaignId: String,
        present: @escaping @Sendable () -> Bool,
        completion: @escaping @Sendable (Bool) -> Void
    ) {
        let gate = InAppPresentationGate(backoff: self.backoff)
        self.scheduler.enqueue { self.attempt(gate, campaignId, present, completion) }
    }

    /// Loads the image of `message` with `images` first (GAP-44), then runs the tries with it:
    /// the message waits for its image until it arrives or the loader's timeout passes, and then
    /// goes on without it. Without a loader (a presenter that does not draw images), at once.
    package func run(
        _ message: InAppMessage,
        images: InAppImageLoader?,
        present: @escaping @Sendable (_ image: Data?) -> Bool,
        completion: @escaping @Sendable (Bool) -> Void
    ) {
        guard let images else {
            return self.run(campaignId: message.id, present: { present(nil) }, completion: completion)
        }
        images.load(imageOf: message) { image in
            self.run(campaignId: message.id, present: { present(image) }, completion: completion)
        }
    }

    private func attempt(
        _ gate: InAppPresentationGate,
        _ campaignId: String,
        _ present: @escaping @Sendable () -> Bool,
        _ completion: @escaping @Sendable (Bool) -> Void
    ) {
        var gate = gate
        let now = self.state()
        switch gate.decide(app: now.app, top: now.top) {
        case .presentNow:
            completion(present())
        case .retry(let delay, let reason):
            self.log(.debug, "in-app \(campaignId): not shown yet, \(reason); trying again in \(delay) s")
            let next = gate
            self.scheduler.schedule(after: delay) { self.attempt(next, campaignId, present, completion) }
        case .giveUp(let giveUp):
            self.log(.info, "in-app \(campaignId): \(giveUp)")
            completion(false)
        case .finished:
            break
        }
    }
}
