import JoryioIdentity
import Testing

/// Every call from every fixture: the exact actions and the state after them.
@Suite struct IdentityCallTests {
    @Test(arguments: Fixture.allCases, Gate.allCases)
    func identifySomeoneElse(fixture: Fixture, gate: Gate) {
        var machine = fixture.loaded.machine
        let actions = machine.handle(.identify(userId: "b", gate: gate))
        let previous = fixture.userId
        let changed = Action.userChanged(previous: previous, current: "b", reason: .identified)
        let marker: [Action] =
            switch gate {
            case .accept, .hold: fixture.kept ? [.setKeptMarker(false)] : []  // a queued identify settles the kept one
            case .keepLocally, .drop: fixture.kept ? [] : [.setKeptMarker(true)]  // IDENT-5
            }
        let write: [Action] = gate == .accept || gate == .hold ? [.enqueueIdentify(userId: "b")] : []
        #expect(actions == [.persistUserId("b"), .publish] + marker + write + [changed])
        let expected = state(fixture) {
            $0.userId = "b"
            $0.identifyKept = gate == .keepLocally || gate == .drop
            $0.identifyAtStart = nil  // replaced by this identify
        }
        #expect(machine.state == expected)
    }

    @Test(arguments: [Fixture.user, .userKept, .owedAtStart], Gate.allCases)
    func identifyTheCurrentUserAgainOnlyStoresAndPublishes(fixture: Fixture, gate: Gate) {
        #expect(fixture.userId == "a")
        var machine = fixture.loaded.machine
        #expect(machine.handle(.identify(userId: "a", gate: gate)) == [.persistUserId("a"), .publish])
        #expect(machine.state == fixture.state)
    }

    @Test func identifyFromAnonymousTables() {
        // Spelled out, not derived: the anonymous fixtures identifying `a`.
        var machine = Fixture.anonymous.loaded.machine
        #expect(
            machine.handle(.identify(userId: "a", gate: .accept)) == [
                .persistUserId("a"), .publish, .enqueueIdentify(userId: "a"),
                .userChanged(previous: nil, current: "a", reason: .identified),
            ]
        )
        machine = Fixture.anonymous.loaded.machine
        #expect(
            machine.handle(.identify(userId: "a", gate: .keepLocally)) == [
                .persistUserId("a"), .publish, .setKeptMarker(true),
                .userChanged(previous: nil, current: "a", reason: .identified),
            ]
        )
        machine = Fixture.anonymousKept.loaded.machine
        #expect(
            machine.handle(.identify(userId: "a", gate: .hold)) == [
                .persistUserId("a"), .publish, .setKeptMarker(false), .enqueueIdentify(userId: "a"),
                .userChanged(previous: nil, current: "a", reason: .identified),
            ]
        )
    }

    @Test(arguments: Fixture.allCases)
    func identifyWithAnEmptyIdDoesNothing(fixture: Fixture) {
        var machine = fixture.loaded.machine
        #expect(machine.handle(.identify(userId: "", gate: .accept)).isEmpty)  // IDENT-2
        #expect(machine.state == fixture.state)
    }

    @Test(arguments: Fixture.allCases)
    func reset(fixture: Fixture) {
        var machine = fixture.loaded.machine
        let actions = machine.handle(.reset(newAnonymousId: ID.anon1))
        let forget: [Action] = fixture.kept ? [.setKeptMarker(false)] : []  // IDENT-5
        #expect(
            actions == [.persistAnonymousId(ID.anon1), .persistUserId(nil)] + forget + [
                .startNewSession, .publish, .userChanged(previous: fixture.userId, current: nil, reason: .reset),
            ]
        )
        let expected = Machine.State(
            isLoaded: true,
            anonymousId: ID.anon1,
            userId: nil,
            deviceId: ID.dev0,  // IDENT-21
            identifyKept: false,
            identifyAtStart: nil
        )
        #expect(machine.state == expected)
        #expect(!actions.contains(.wipeFeatures) && !actions.contains(.clearSecureStore))  // IDENT-11
    }

    @Test(arguments: Fixture.allCases)
    func wipe(fixture: Fixture) {
        var machine = fixture.loaded.machine
        let actions = machine.handle(.wipe(newAnonymousId: ID.anon1, newDeviceId: ID.dev1))
        let forget: [Action] = fixture.kept ? [.setKeptMarker(false)] : []  // WIPE-7
        #expect(
            actions == [.discardQueuedEvents, .wipeFeatures] + forget + [
                .clearSession, .clearSecureStore, .persistAnonymousId(ID.anon1), .persistDeviceId(ID.dev1),
                .userChanged(previous: fixture.userId, current: nil, reason: .wiped), .publish,
            ]
        )
        let expected = Machine.State(
            isLoaded: true,
            anonymousId: ID.anon1,
            userId: nil,
            deviceId: ID.dev1,
            identifyKept: false,
            identifyAtStart: nil
        )
        #expect(machine.state == expected)
    }

    @Test(arguments: Fixture.allCases, [true, false])
    func collectionStopped(fixture: Fixture, identifyPending: Bool) {
        var machine = fixture.loaded.machine
        let actions = machine.handle(.collectionStopped(identifyPending: identifyPending))
        // Owed again only for a user whose identify was still waiting, and marked once.
        let keeps = identifyPending && [.user, .owedAtStart].contains(fixture)
        #expect(actions == (keeps ? [.setKeptMarker(true)] : []))
        #expect(machine.state == state(fixture) { $0.identifyKept = $0.identifyKept || keeps })
    }

    @Test(arguments: Fixture.allCases)
    func collectionResumed(fixture: Fixture) {
        var machine = fixture.loaded.machine
        let actions = machine.handle(.collectionResumed)
        let expected: [Action] =
            switch fixture {
            case .userKept: [.setKeptMarker(false), .enqueueIdentify(userId: "a")]  // OPTOUT-8
            case .anonymousKept: [.setKeptMarker(false)]
            case .anonymous, .user, .owedAtStart: []
            }
        #expect(actions == expected)
        #expect(machine.state == state(fixture) { $0.identifyKept = false })
        #expect(machine.handle(.collectionResumed).isEmpty)  // sent once
    }

    @Test(arguments: Fixture.allCases, everyCall)
    func whatTheActionsStoreIsWhatARelaunchReads(fixture: Fixture, input: Input) {
        var (machine, device) = fixture.loaded
        device.apply(machine.handle(input))
        let (relaunched, actions) = launched(device.launch())
        #expect(actions.isEmpty)
        var expected = machine.state
        expected.identifyAtStart = nil  // owed by the configuration, not stored
        #expect(relaunched.state == expected)
    }
}
