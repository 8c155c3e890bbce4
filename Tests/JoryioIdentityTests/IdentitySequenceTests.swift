import JoryioIdentity
import Testing

/// Calls in a row, as an app makes them.
@Suite struct IdentitySequenceTests {
    private func started(_ fixture: Fixture = .anonymous, gate: Gate = .accept) -> Machine {
        var machine = fixture.loaded.machine
        _ = machine.handle(.start(identifyGate: gate))
        return machine
    }

    @Test func identifyAThenB() {
        var machine = self.started()
        _ = machine.handle(.identify(userId: "a", gate: .accept))
        #expect(
            machine.handle(.identify(userId: "b", gate: .accept)) == [
                .persistUserId("b"), .publish, .enqueueIdentify(userId: "b"),
                .userChanged(previous: "a", current: "b", reason: .identified),
            ]
        )
        #expect(machine.state.userId == "b" && machine.state.anonymousId == ID.anon0)  // no reset in between
    }

    @Test func identifyWhileOptedOutThenResume() {
        var machine = self.started(gate: .keepLocally)
        #expect(
            machine.handle(.identify(userId: "a", gate: .keepLocally)) == [
                .persistUserId("a"), .publish, .setKeptMarker(true),
                .userChanged(previous: nil, current: "a", reason: .identified),
            ]
        )
        #expect(machine.handle(.collectionResumed) == [.setKeptMarker(false), .enqueueIdentify(userId: "a")])
        #expect(machine.handle(.collectionResumed).isEmpty)
        #expect(!machine.state.identifyKept)
    }

    @Test func onlyTheLastUserIdentifiedWhileOptedOutIsSentOnResume() {
        var machine = self.started(gate: .keepLocally)
        _ = machine.handle(.identify(userId: "a", gate: .keepLocally))
        #expect(
            machine.handle(.identify(userId: "b", gate: .keepLocally)) == [
                .persistUserId("b"), .publish, .userChanged(previous: "a", current: "b", reason: .identified),
            ]
        )
        #expect(machine.handle(.collectionResumed) == [.setKeptMarker(false), .enqueueIdentify(userId: "b")])
    }

    @Test func aHeldIdentifyDroppedByADenialIsSentOnGrant() {
        var machine = self.started(gate: .hold)
        #expect(machine.handle(.identify(userId: "a", gate: .hold)).contains(.enqueueIdentify(userId: "a")))
        #expect(machine.handle(.collectionStopped(identifyPending: true)) == [.setKeptMarker(true)])
        #expect(machine.handle(.identify(userId: "a", gate: .keepLocally)) == [.persistUserId("a"), .publish])
        #expect(machine.handle(.collectionResumed) == [.setKeptMarker(false), .enqueueIdentify(userId: "a")])
    }

    @Test func aKeptIdentifyWaitsOutAPendingLaunchAndAnIdentifyWhilePendingReplacesIt() {
        var machine = self.started(.userKept, gate: .hold)
        #expect(machine.state.identifyKept)  // pending: not sent, not lost
        #expect(
            machine.handle(.identify(userId: "b", gate: .hold)) == [
                .persistUserId("b"), .publish, .setKeptMarker(false), .enqueueIdentify(userId: "b"),
                .userChanged(previous: "a", current: "b", reason: .identified),
            ]
        )
        #expect(machine.handle(.collectionResumed).isEmpty)
    }

    @Test func resetThenIdentify() {
        var machine = self.started(.userKept, gate: .keepLocally)
        _ = machine.handle(.reset(newAnonymousId: ID.anon1))
        #expect(
            machine.handle(.identify(userId: "a", gate: .accept)) == [
                .persistUserId("a"), .publish, .enqueueIdentify(userId: "a"),
                .userChanged(previous: nil, current: "a", reason: .identified),  // `a` again is a new login
            ]
        )
        #expect(machine.state.anonymousId == ID.anon1)
    }

    @Test func resetForgetsTheKeptIdentify() {
        var machine = self.started(.userKept, gate: .keepLocally)
        _ = machine.handle(.reset(newAnonymousId: ID.anon1))
        #expect(machine.handle(.collectionResumed).isEmpty)  // IDENT-5
    }

    @Test func wipeThenIdentify() {
        var machine = self.started(.userKept, gate: .keepLocally)
        _ = machine.handle(.wipe(newAnonymousId: ID.anon1, newDeviceId: ID.dev1))
        #expect(machine.handle(.collectionResumed).isEmpty)  // WIPE-7
        #expect(
            machine.handle(.identify(userId: "a", gate: .keepLocally)) == [
                .persistUserId("a"), .publish, .setKeptMarker(true),
                .userChanged(previous: nil, current: "a", reason: .identified),
            ]
        )
        #expect(machine.state.anonymousId == ID.anon1 && machine.state.deviceId == ID.dev1)
    }

    @Test func aPreInitWipeCancelsTheConfiguredUsersIdentify() {
        // INIT-10: the wipe runs during start, before the start-time identify.
        var machine = Fixture.owedAtStart.loaded.machine
        _ = machine.handle(.wipe(newAnonymousId: ID.anon1, newDeviceId: ID.dev1))
        #expect(machine.handle(.start(identifyGate: .accept)) == [.publish])
        #expect(machine.state.userId == nil)
    }

    @Test func aPreInitOptOutKeepsTheConfiguredUsersIdentifyUntilOptIn() {
        var machine = Fixture.owedAtStart.loaded.machine
        #expect(machine.handle(.collectionStopped(identifyPending: false)).isEmpty)
        #expect(machine.handle(.start(identifyGate: .keepLocally)) == [.setKeptMarker(true), .publish])
        #expect(machine.handle(.collectionResumed) == [.setKeptMarker(false), .enqueueIdentify(userId: "a")])
    }

    @Test func aKeptIdentifySurvivesARelaunch() {
        var (machine, device) = Fixture.anonymous.loaded
        device.apply(machine.handle(.start(identifyGate: .keepLocally)))
        device.apply(machine.handle(.identify(userId: "a", gate: .keepLocally)))
        var (next, _) = launched(device.launch())
        #expect(next.handle(.start(identifyGate: .hold)) == [.publish])  // still pending: kept
        #expect(
            next.handle(.start(identifyGate: .accept)) == [
                .setKeptMarker(false), .enqueueIdentify(userId: "a"), .publish,
            ]
        )
    }

    @Test func launchAfterReinstallThenStart() {
        let device = Device(
            anonymousId: ID.anon0,
            deviceId: ID.dev0,
            userId: "a",
            identifyKept: true,
            installMarker: false
        )
        var (machine, actions) = launched(device.launch())
        #expect(actions == [.clearSecureStore, .writeInstallMarker])
        #expect(machine.handle(.start(identifyGate: .accept)) == [.setKeptMarker(false), .publish])  // nobody to send
        #expect(machine.state.userId == nil)
    }

    @Test func configuredUserAgainstTheStoredOne() {
        let device = Device(anonymousId: ID.anon0, deviceId: ID.dev0, userId: "old")
        var (same, sameActions) = launched(device.launch(configUserId: "old"))
        #expect(sameActions.isEmpty)
        #expect(same.handle(.start(identifyGate: .accept)) == [.publish])
        var (other, otherActions) = launched(device.launch(configUserId: "a"))
        #expect(otherActions == [.persistUserId("a")])
        // GAP-22: a durable identify, but no user change is reported at start.
        #expect(other.handle(.start(identifyGate: .accept)) == [.enqueueIdentify(userId: "a"), .publish])
    }
}
