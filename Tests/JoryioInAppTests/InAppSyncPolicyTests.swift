import Foundation
import JoryioInApp
import Testing

@Suite struct InAppSyncPolicyTests {
    let t0 = Date(timeIntervalSince1970: 1_767_225_600)

    @Test("INAPP-9 / INAPP-10: launch and foreground syncs are at most one per syncInterval, to the second")
    func automaticSyncsAreSpaced() {
        var policy = InAppSyncPolicy(syncInterval: 300, enabled: true)
        #expect(policy.decide(.launch, now: self.t0, allowed: true) == .sync)
        #expect(
            policy.decide(.foreground, now: self.t0.addingTimeInterval(299.999), allowed: true)
                == .tooSoon(after: self.t0.addingTimeInterval(300))
        )
        #expect(policy.decide(.foreground, now: self.t0.addingTimeInterval(300), allowed: true) == .sync)
    }

    @Test(
        "INAPP-11 / INAPP-12: identify, reset, push tap, silent push, watched attribute and explicit syncs are never rate-limited"
    )
    func immediateSyncs() {
        for reason in InAppSyncPolicy.Reason.allCases where !reason.isRateLimited {
            var policy = InAppSyncPolicy(syncInterval: 300, enabled: true)
            #expect(policy.decide(.launch, now: self.t0, allowed: true) == .sync)
            #expect(policy.decide(reason, now: self.t0.addingTimeInterval(0.001), allowed: true) == .sync, "\(reason)")
        }
        #expect(InAppSyncPolicy.Reason.allCases.filter(\.isRateLimited) == [.launch, .foreground])
    }

    @Test("an immediate sync also restarts the automatic interval")
    func immediateRestartsTheInterval() {
        var policy = InAppSyncPolicy(syncInterval: 300, enabled: true)
        _ = policy.decide(.launch, now: self.t0, allowed: true)
        _ = policy.decide(.identify, now: self.t0.addingTimeInterval(200), allowed: true)
        #expect(policy.decide(.foreground, now: self.t0.addingTimeInterval(400), allowed: true) != .sync)
        #expect(policy.decide(.foreground, now: self.t0.addingTimeInterval(500), allowed: true) == .sync)
    }

    @Test("INAPP-14 / INAPP-15: nothing syncs while disabled or not allowed; a refused sync is owed once allowed")
    func disabledAndNotAllowed() {
        var off = InAppSyncPolicy(syncInterval: 300, enabled: false)
        for reason in InAppSyncPolicy.Reason.allCases {
            #expect(off.decide(reason, now: self.t0, allowed: true) == .disabled)
        }
        var pending = InAppSyncPolicy(syncInterval: 300, enabled: true)
        #expect(pending.collectionAllowed(now: self.t0) == nil, "nothing owed yet")
        #expect(pending.decide(.launch, now: self.t0, allowed: false) == .notAllowed)
        #expect(pending.decide(.explicit, now: self.t0, allowed: false) == .notAllowed)
        #expect(pending.collectionAllowed(now: self.t0.addingTimeInterval(5)) == .sync)
        #expect(pending.collectionAllowed(now: self.t0.addingTimeInterval(6)) == nil, "owed once")
    }

    @Test("hostile intervals and clocks: negative or NaN intervals are 0; a clock far in the past does not block syncs")
    func hostileIntervals() {
        for interval in [-5, .nan, -.infinity] as [TimeInterval] {
            var policy = InAppSyncPolicy(syncInterval: interval, enabled: true)
            #expect(policy.syncInterval == 0)
            #expect(policy.decide(.launch, now: self.t0, allowed: true) == .sync)
            #expect(policy.decide(.foreground, now: self.t0, allowed: true) == .sync)
        }
        var policy = InAppSyncPolicy(syncInterval: 300, enabled: true)
        _ = policy.decide(.launch, now: self.t0, allowed: true)
        #expect(policy.decide(.foreground, now: self.t0.addingTimeInterval(-3600), allowed: true) == .sync)
    }
}
