import Foundation
import JoryioInApp
import Testing

/// When the built-in presenter may show a message (INAPP-57): only while the app is active and the
/// top view controller is stable; otherwise it waits with a bounded, growing delay and gives up with
/// a reason. Virtual time: the delays the gate answers are added up, nothing sleeps.
@Suite struct InAppPresentationGateTests {
    @Test(
        "INAPP-57: every app state and top state: only active and stable shows",
        arguments: [InAppPresentationGate.AppState.active, .inactive, .background],
        [InAppPresentationGate.TopState.stable, .presenting, .dismissing, .transitioning, .none]
    )
    func table(app: InAppPresentationGate.AppState, top: InAppPresentationGate.TopState) {
        var gate = InAppPresentationGate()
        let decision = gate.decide(app: app, top: top)
        if app == .active, top == .stable {
            #expect(decision == .presentNow)
        } else {
            guard case .retry(let delay, let reason) = decision else {
                Issue.record("\(app), \(top): \(decision)")
                return
            }
            #expect(delay == InAppPresentationGate.Backoff.standard.initialDelay)
            #expect(reason == InAppPresentationGate.waitReason(app: app, top: top))
        }
    }

    @Test("INAPP-57: the app's state is the reason before the view controller's")
    func appStateFirst() {
        #expect(InAppPresentationGate.waitReason(app: .background, top: .transitioning) == .appInBackground)
        #expect(InAppPresentationGate.waitReason(app: .inactive, top: .none) == .appInactive)
        #expect(InAppPresentationGate.waitReason(app: .active, top: .presenting) == .topPresenting)
        #expect(InAppPresentationGate.waitReason(app: .active, top: .dismissing) == .topDismissing)
        #expect(InAppPresentationGate.waitReason(app: .active, top: .transitioning) == .topTransitioning)
        #expect(InAppPresentationGate.waitReason(app: .active, top: .none) == .noTopViewController)
        #expect(InAppPresentationGate.waitReason(app: .active, top: .stable) == nil)
    }

    @Test("INAPP-57: a transition that ends is waited out, then the message shows")
    func waitsThenShows() {
        var gate = InAppPresentationGate()
        var now: TimeInterval = 0
        let states: [InAppPresentationGate.TopState] = [.presenting, .transitioning, .transitioning, .stable]
        var decisions: [InAppPresentationGate.Decision] = []
        for top in states {
            let decision = gate.decide(app: .active, top: top)
            decisions.append(decision)
            if case .retry(let delay, _) = decision { now += delay }
        }
        #expect(
            decisions == [
                .retry(after: 0.25, reason: .topPresenting),
                .retry(after: 0.5, reason: .topTransitioning),
                .retry(after: 1, reason: .topTransitioning),
                .presentNow,
            ]
        )
        #expect(now == 1.75)
        #expect(gate.attempts == 4)
        #expect(gate.decide(app: .active, top: .stable) == .finished, "one answer to show, never two")
    }

    @Test("INAPP-57: the delays double up to the cap, and after maxAttempts the gate gives up with the reason")
    func givesUp() {
        var gate = InAppPresentationGate()
        var delays: [TimeInterval] = []
        var last: InAppPresentationGate.Decision = .finished
        for _ in 0..<InAppPresentationGate.Backoff.standard.maxAttempts {
            last = gate.decide(app: .background, top: .stable)
            if case .retry(let delay, _) = last { delays.append(delay) }
        }
        #expect(delays == [0.25, 0.5, 1, 2, 2, 2, 2, 2, 2, 2, 2])
        let expected = InAppPresentationGate.GiveUp(attempts: 12, waited: 17.75, lastReason: .appInBackground)
        #expect(last == .giveUp(expected))
        #expect(expected.description == "not shown after 12 tries over 17.75 s: the app is in the background")
        #expect(gate.decide(app: .active, top: .stable) == .finished, "given up: no late show")
    }

    @Test("INAPP-57: the backoff's bounds are kept whatever it is made with")
    func backoffBounds() {
        let odd = InAppPresentationGate.Backoff(initialDelay: -1, multiplier: 0.5, maxDelay: -3, maxAttempts: 0)
        #expect(odd.initialDelay == 0)
        #expect(odd.multiplier == 1)
        #expect(odd.maxDelay == 0)
        #expect(odd.maxAttempts == 1)
        var gate = InAppPresentationGate(backoff: odd)
        #expect(
            gate.decide(app: .inactive, top: .stable)
                == .giveUp(.init(attempts: 1, waited: 0, lastReason: .appInactive))
        )
        let slow = InAppPresentationGate.Backoff(initialDelay: 1, multiplier: 3, maxDelay: 5, maxAttempts: 5)
        #expect((1...5).map { slow.delay(afterFailedTries: $0) } == [1, 3, 5, 5, 5])
    }
}
