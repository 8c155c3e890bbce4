import Foundation
import JoryioCore
import JoryioInApp
import JoryioKit
import JoryioTesting
import Testing

/// The retry loop `UIKitInAppPlatform` runs on the main queue (INAPP-57), here on a manual
/// scheduler with scripted states: present now, retry after the gate's delay, or give up, and
/// what is logged. Virtual time: nothing sleeps.
@Suite struct InAppPresentationLoopTests {
    /// Scripted states, a record of presentations, log lines and completions.
    final class Rig: Sendable {
        let scheduler = ManualScheduler()
        private let script: Locked<[(app: InAppPresentationGate.AppState, top: InAppPresentationGate.TopState)]>
        private let last: Locked<(app: InAppPresentationGate.AppState, top: InAppPresentationGate.TopState)>
        let reads = Locked<[TimeInterval]>([])
        let presented = Locked<[TimeInterval]>([])
        let logs = Locked<[String]>([])
        let completions = Locked<[Bool]>([])
        let start: Date

        init(_ states: [(app: InAppPresentationGate.AppState, top: InAppPresentationGate.TopState)]) {
            self.script = Locked(states)
            self.last = Locked(states.last ?? (app: .active, top: .stable))
            self.start = self.scheduler.now()
        }

        var elapsed: TimeInterval { self.scheduler.now().timeIntervalSince(self.start) }

        func loop(presents: Bool = true) -> (InAppPresentationLoop, @Sendable () -> Bool) {
            let loop = InAppPresentationLoop(
                scheduler: self.scheduler,
                state: {
                    self.reads.withLock { $0.append(self.elapsed) }
                    return self.script.withLock { script in
                        guard !script.isEmpty else { return self.last.withLock { $0 } }
                        return script.removeFirst()
                    }
                },
                log: { level, text in self.logs.withLock { $0.append("\(level) \(text)") } }
            )
            let present: @Sendable () -> Bool = {
                self.presented.withLock { $0.append(self.elapsed) }
                return presents
            }
            return (loop, present)
        }

        func run(presents: Bool = true) {
            let (loop, present) = self.loop(presents: presents)
            loop.run(campaignId: "sale", present: present) { shown in
                self.completions.withLock { $0.append(shown) }
            }
        }
    }

    @Test("INAPP-57: active and stable at the first try: presented at once, nothing logged")
    func presentsAtOnce() {
        let rig = Rig([(.active, .stable)])
        rig.run()
        #expect(rig.presented.withLock { $0 }.isEmpty, "the first try runs on the scheduler, not inline")
        rig.scheduler.runUntilIdle()
        #expect(rig.presented.withLock { $0 } == [0])
        #expect(rig.completions.withLock { $0 } == [true])
        #expect(rig.logs.withLock { $0 }.isEmpty)
    }

    @Test(
        "INAPP-57: a transition is waited out on the gate's backoff (0.25 s, 0.5 s, 1 s), each wait logged with its reason"
    )
    func retriesOnTheGatesBackoff() {
        let rig = Rig([(.active, .presenting), (.active, .transitioning), (.inactive, .stable), (.active, .stable)])
        rig.run()
        rig.scheduler.runUntilIdle()
        #expect(rig.reads.withLock { $0 } == [0])
        rig.scheduler.advance(by: 0.249)
        #expect(rig.reads.withLock { $0 } == [0], "no try before the delay")
        rig.scheduler.advance(to: rig.start.addingTimeInterval(0.25))
        #expect(rig.reads.withLock { $0 } == [0, 0.25])
        rig.scheduler.advance(by: 0.5)
        rig.scheduler.advance(by: 1)
        #expect(rig.reads.withLock { $0 } == [0, 0.25, 0.75, 1.75])
        #expect(rig.presented.withLock { $0 } == [1.75])
        #expect(rig.completions.withLock { $0 } == [true])
        #expect(
            rig.logs.withLock { $0 } == [
                "debug in-app sale: not shown yet, the top view controller is being presented; trying again in 0.25 s",
                "debug in-app sale: not shown yet, the top view controller is in a transition; trying again in 0.5 s",
                "debug in-app sale: not shown yet, the app is inactive; trying again in 1.0 s",
            ]
        )
    }

    @Test("INAPP-57 / INAPP-60: never stable: 12 tries over 17.75 s, then given up with the last reason, not shown")
    func givesUp() {
        let rig = Rig([(.background, .stable)])
        rig.run()
        rig.scheduler.advance(by: 17.749)
        #expect(rig.completions.withLock { $0 }.isEmpty)
        rig.scheduler.advance(to: rig.start.addingTimeInterval(17.75))
        #expect(rig.reads.withLock { $0 } == [0, 0.25, 0.75, 1.75, 3.75, 5.75, 7.75, 9.75, 11.75, 13.75, 15.75, 17.75])
        #expect(rig.presented.withLock { $0 }.isEmpty)
        #expect(rig.completions.withLock { $0 } == [false])
        #expect(
            rig.logs.withLock { $0 }.last
                == "info in-app sale: not shown after 12 tries over 17.75 s: the app is in the background"
        )
        rig.scheduler.advance(by: 60)
        #expect(rig.reads.withLock { $0 }.count == 12, "nothing after the give-up")
        #expect(rig.completions.withLock { $0 }.count == 1)
    }

    @Test("INAPP-30: the gate says present but the presenter answers false: not shown, completed once, no retry")
    func presenterRefuses() {
        let rig = Rig([(.active, .stable)])
        rig.run(presents: false)
        rig.scheduler.advance(by: 30)
        #expect(rig.presented.withLock { $0 } == [0])
        #expect(rig.completions.withLock { $0 } == [false])
    }

    @Test("INAPP-57: a custom backoff is the loop's spacing")
    func customBackoff() {
        let rig = Rig([(.active, .none)])
        var (loop, present) = rig.loop()
        loop.backoff = InAppPresentationGate.Backoff(initialDelay: 1, multiplier: 1, maxDelay: 1, maxAttempts: 3)
        loop.run(campaignId: "sale", present: present) { shown in rig.completions.withLock { $0.append(shown) } }
        rig.scheduler.advance(by: 5)
        #expect(rig.reads.withLock { $0 } == [0, 1, 2])
        #expect(
            rig.logs.withLock { $0 }.last
                == "info in-app sale: not shown after 3 tries over 2.0 s: there is no top view controller"
        )
    }
}
