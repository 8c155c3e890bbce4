import JoryioIdentity
import Testing

@Suite struct IdentityLaunchTests {
    private let stored = Device(anonymousId: ID.anon0, deviceId: ID.dev0, userId: "a")

    @Test(arguments: Fixture.allCases)
    func fixturesReachTheirSpelledOutState(fixture: Fixture) {
        #expect(fixture.loaded.machine.state == fixture.state)
    }

    @Test("STORE-8: a first launch (no install marker) clears the secure store and stores fresh ids")
    func firstLaunchClearsTheSecureStoreAndStoresFreshIds() {
        let (machine, actions) = launched(Device(installMarker: false).launch())
        #expect(
            actions == [
                .clearSecureStore, .writeInstallMarker, .persistAnonymousId(ID.freshAnon),
                .persistDeviceId(ID.freshDev),
            ]
        )
        let expected = Machine.State(
            isLoaded: true,
            anonymousId: ID.freshAnon,
            userId: nil,
            deviceId: ID.freshDev,
            identifyKept: false,
            identifyAtStart: nil
        )
        #expect(machine.state == expected)
    }

    @Test func relaunchUsesWhatIsStoredAndWritesNothing() {
        var device = self.stored
        device.identifyKept = true
        let (machine, actions) = launched(device.launch())
        #expect(actions.isEmpty)
        #expect(machine.state == state(.userKept))
    }

    @Test("STORE-8: a reinstall deletes the earlier installation's user but keeps the key-value store")
    func reinstallDeletesTheEarlierInstallationsUserButKeepsTheKeyValueStore() {
        // STORE-8/GAP-52: the user id lived in the secure store; the key-value store is read as found.
        var device = self.stored
        device.installMarker = false
        device.identifyKept = true
        let (machine, actions) = launched(device.launch())
        #expect(actions == [.clearSecureStore, .writeInstallMarker])
        #expect(machine.state == state(.anonymousKept))
    }

    @Test func reinstallWithTheSameConfiguredUserIdentifiesThemAgain() {
        var device = self.stored
        device.installMarker = false
        let (machine, actions) = launched(device.launch(configUserId: "a"))
        #expect(actions == [.clearSecureStore, .writeInstallMarker, .persistUserId("a")])
        #expect(machine.state.identifyAtStart == "a")
    }

    // INIT-18: JoryioConfig.anonymousId supplies the anonymous id (precedence: GAP decision).
    @Test(arguments: [
        // (stored, configured, expected anonymous id, persisted)
        (String?.none, String?.none, ID.freshAnon, true),
        (ID.anon0, nil, ID.anon0, false),
        (ID.anon0, "cfg", "cfg", true),
        ("cfg", "cfg", "cfg", false),
        (nil, "cfg", "cfg", true),
        ("", nil, ID.freshAnon, true),  // empty counts as absent
        (ID.anon0, "", ID.anon0, false),
    ])
    func configuredAnonymousIdWins(stored: String?, configured: String?, expected: String, persisted: Bool) {
        var device = self.stored
        device.anonymousId = stored
        let (machine, actions) = launched(device.launch(configAnonymousId: configured))
        #expect(machine.state.anonymousId == expected)
        #expect(actions == (persisted ? [.persistAnonymousId(expected)] : []))
        #expect(machine.state.identifyAtStart == nil)  // a new anonymous id is no user change
    }

    // INIT-18: JoryioConfig.userId starts with a known user, identified when it differs from the stored one.
    @Test(arguments: [
        // (stored, configured, expected user, persisted and identified at start)
        (String?.none, String?.none, String?.none, false),
        ("a", nil, "a", false),
        (nil, "a", "a", true),
        ("a", "a", "a", false),
        ("old", "a", "a", true),
        ("a", "", "a", false),  // an empty config id counts as absent
        ("", nil, nil, false),
    ])
    func configuredUserWinsAndIsIdentifiedWhenItDiffers(
        stored: String?,
        configured: String?,
        expected: String?,
        changed: Bool
    ) {
        var device = self.stored
        device.userId = stored
        let (machine, actions) = launched(device.launch(configUserId: configured))
        #expect(machine.state.userId == expected)
        #expect(actions == (changed ? [.persistUserId(expected)] : []))
        #expect(machine.state.identifyAtStart == (changed ? expected : nil))
    }

    @Test func aMissingDeviceIdIsReplacedAndAResetKeepsIt() {
        var device = self.stored
        device.deviceId = ""
        var (machine, actions) = launched(device.launch())
        #expect(actions == [.persistDeviceId(ID.freshDev)])
        _ = machine.handle(.reset(newAnonymousId: ID.anon1))
        #expect(machine.state.deviceId == ID.freshDev)  // IDENT-21
    }

    // INIT-4: every identity call before the launch is safe and changes nothing.
    @Test(arguments: everyCall)
    func callsBeforeLaunchAreIgnored(input: Input) {
        var machine = Machine()
        #expect(machine.handle(input).isEmpty)
        #expect(machine.state == .unloaded)
        #expect(machine.state.anonymousId.isEmpty && machine.state.userId == nil)  // INIT-7
    }

    @Test func aSecondLaunchIsIgnored() {
        var (machine, _) = launched(self.stored.launch())
        let before = machine
        #expect(machine.handle(.launch(Device().launch(configUserId: "b"))).isEmpty)
        #expect(machine == before)
    }
}

@Suite struct IdentityStartTests {
    @Test(arguments: Fixture.allCases, Gate.allCases)
    func startRunsOwedIdentifiesThenPublishes(fixture: Fixture, gate: Gate) {
        var machine = fixture.loaded.machine
        let actions = machine.handle(.start(identifyGate: gate))
        let expected: ([Action], Machine.State) =
            switch (fixture, gate) {
            case (.anonymous, _), (.user, _):
                ([.publish], state(fixture))
            case (.userKept, .accept):  // the identify kept by an earlier launch (IDENT-5)
                (
                    [.setKeptMarker(false), .enqueueIdentify(userId: "a"), .publish],
                    state(fixture) { $0.identifyKept = false }
                )
            case (.anonymousKept, .accept):  // nobody to identify: the marker is only cleared
                ([.setKeptMarker(false), .publish], state(fixture) { $0.identifyKept = false })
            case (.userKept, _), (.anonymousKept, _):  // pending or still off: the marker stays
                ([.publish], state(fixture))
            case (.owedAtStart, .accept), (.owedAtStart, .hold):  // GAP-22, held by the channel while pending
                ([.enqueueIdentify(userId: "a"), .publish], state(fixture) { $0.identifyAtStart = nil })
            case (.owedAtStart, .keepLocally), (.owedAtStart, .drop):
                (
                    [.setKeptMarker(true), .publish],
                    state(fixture) {
                        $0.identifyAtStart = nil
                        $0.identifyKept = true
                    }
                )
            }
        #expect(actions == expected.0)
        #expect(machine.state == expected.1)
        #expect(machine.handle(.start(identifyGate: gate)) == [.publish])  // nothing is owed twice
    }

    @Test(arguments: Gate.allCases)
    func theConfiguredUsersIdentifySettlesAnEarlierUsersKeptIdentify(gate: Gate) {
        // Stored user `old` was identified while opted out; the config now names `a`.
        let device = Device(anonymousId: ID.anon0, deviceId: ID.dev0, userId: "old", identifyKept: true)
        var (machine, _) = launched(device.launch(configUserId: "a"))
        let actions = machine.handle(.start(identifyGate: gate))
        switch gate {
        case .accept, .hold:
            #expect(actions == [.setKeptMarker(false), .enqueueIdentify(userId: "a"), .publish])
            #expect(!machine.state.identifyKept)
        case .keepLocally, .drop:
            #expect(actions == [.publish])  // already kept: now owed for `a`
            #expect(machine.state.identifyKept)
            #expect(machine.handle(.collectionResumed) == [.setKeptMarker(false), .enqueueIdentify(userId: "a")])
        }
        #expect(machine.state.userId == "a" && machine.state.identifyAtStart == nil)
    }
}
