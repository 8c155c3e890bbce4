import JoryioConsent
import Testing

@Suite struct PrivacyStartTests {
    typealias Action = PrivacyStateMachine.Action

    private func start(
        storedOptOut: Bool = false,
        storedDenial: Bool = false,
        configOptOut: Bool = false,
        configConsent: TrackingConsent? = nil,
        preInit: [PrivacyDecision] = []
    ) -> (PrivacyState, [Action]) {
        var machine = PrivacyStateMachine(storedOptOut: storedOptOut, storedDenial: storedDenial)
        let actions = machine.start(configOptOut: configOptOut, configConsent: configConsent, preInit: preInit)
        return (machine.state, actions)
    }

    @Test("INIT-12, CONSENT-8, CONSENT-10: nothing decided means granted and nothing to do")
    func nothingDecidedMeansGrantedAndNothingToDo() {
        let (state, actions) = self.start()
        #expect(state == PrivacyState(optedOut: false, consent: .granted))
        #expect(actions.isEmpty)
    }

    @Test("INIT-11, CONSENT-10, OPTOUT-9: stored state answers before initialize()")
    func storedStateAnswersBeforeInitialize() {
        let machine = PrivacyStateMachine(storedOptOut: true, storedDenial: true)
        #expect(machine.state == PrivacyState(optedOut: true, consent: .denied))
    }

    @Test("OPTOUT-3: the config's optOut: true is persisted and reported once")
    func configOptOutIsPersistedAndReportedOnce() {
        let (state, actions) = self.start(configOptOut: true)
        #expect(state.optedOut)
        #expect(actions == [.persistOptOut(true), .reportOptOut(true), .discardCollected])
        let (again, secondLaunch) = self.start(storedOptOut: true, configOptOut: true)
        #expect(again.optedOut)
        #expect(secondLaunch.isEmpty)  // sent only when the state changes (OPTOUT-5)
    }

    @Test func configOptOutFalseDoesNotClearAStoredOptOut() {
        let (state, actions) = self.start(storedOptOut: true, configOptOut: false)
        #expect(state.optedOut)
        #expect(actions.isEmpty)
    }

    @Test("INIT-11: a pre-init optIn() beats the config's optOut")
    func preInitOptInBeatsConfigOptOut() {
        let (state, actions) = self.start(configOptOut: true, preInit: [.optIn])
        #expect(!state.optedOut)
        #expect(actions.isEmpty)
        let (stored, fromStored) = self.start(storedOptOut: true, configOptOut: true, preInit: [.optIn])
        #expect(!stored.optedOut)
        #expect(fromStored == [.persistOptOut(false), .reportOptOut(false)])
    }

    @Test("INIT-11: a pre-init optOut() beats the config")
    func preInitOptOutBeatsConfig() {
        let (state, actions) = self.start(preInit: [.optOut])
        #expect(state.optedOut)
        #expect(actions == [.persistOptOut(true), .reportOptOut(true), .discardCollected])
    }

    // CONSENT-7, CONSENT-8, CONSENT-9, STORE-7: a denial is stored and lifted only by a grant; unset
    // keeps a stored denial; pending is never stored and never overrides a denial.
    @Test(arguments: [
        // (stored denial, config consent, pre-init consents, expected consent, expected persisted denial)
        (false, TrackingConsent?.none, [TrackingConsent](), TrackingConsent.granted, Bool?.none),
        (true, nil, [], .denied, nil),
        (true, .granted, [], .granted, false),
        (false, .denied, [], .denied, true),
        (false, .pending, [], .pending, nil),
        (true, .pending, [], .denied, nil),
        (false, .granted, [.pending], .pending, nil),
        (false, nil, [.denied, .pending], .denied, true),
        (true, .denied, [.granted], .granted, false),
        (false, .denied, [.pending], .pending, nil),
    ])
    func consentResolution(
        storedDenial: Bool,
        configConsent: TrackingConsent?,
        preInit: [TrackingConsent],
        expected: TrackingConsent,
        persisted: Bool?
    ) {
        let (state, actions) = self.start(
            storedDenial: storedDenial,
            configConsent: configConsent,
            preInit: preInit.map(PrivacyDecision.updateConsent)
        )
        #expect(state.consent == expected)
        let persistedDenial = actions.compactMap { action -> Bool? in
            if case .persistDenial(let value) = action { return value }
            return nil
        }.last
        #expect(persistedDenial == persisted)
        #expect(!actions.contains(.resumeCollection))
    }

    @Test func aPendingLaunchHoldsWhatEarlierLaunchesQueued() {
        let (state, actions) = self.start(configConsent: .pending)
        #expect(state.consent == .pending)
        #expect(!actions.contains(.discardCollected))
        let (_, preInit) = self.start(preInit: [.updateConsent(.pending)])
        #expect(!preInit.contains(.discardCollected))
    }

    @Test("WIPE-3, WIPE-9: a pre-init wipeData() is applied at start and keeps the opt-out")
    func preInitWipeIsAppliedAndKeepsTheOptOut() {
        let (state, actions) = self.start(storedOptOut: true, preInit: [.wipeData])
        #expect(state.optedOut)
        #expect(actions == [.wipe])
    }
}

@Suite struct PrivacyTransitionTests {
    private func started(optedOut: Bool = false, consent: TrackingConsent? = nil) -> PrivacyStateMachine {
        var machine = PrivacyStateMachine(storedOptOut: optedOut, storedDenial: false)
        _ = machine.start(configOptOut: false, configConsent: consent, preInit: [])
        return machine
    }

    @Test func pendingThenGrantedReleasesWhatWasHeld() {
        var machine = self.started(consent: .pending)
        #expect(machine.handle(.updateConsent(.granted)) == [.resumeCollection])
        #expect(machine.state.allowsCollection)
    }

    @Test("CONSENT-5, CONSENT-7, CONSENT-9: pending then denied discards and persists; pending never overrides it")
    func pendingThenDeniedDiscardsAndPersists() {
        var machine = self.started(consent: .pending)
        #expect(machine.handle(.updateConsent(.denied)) == [.persistDenial(true), .discardCollected])
        #expect(machine.handle(.updateConsent(.pending)).isEmpty)  // pending never overrides a denial
        #expect(machine.state.consent == .denied)
        #expect(machine.handle(.updateConsent(.granted)) == [.persistDenial(false), .resumeCollection])
    }

    @Test("OPTOUT-10, CONSENT-11: optOut() then optIn(); opting out never changes consent")
    func optOutThenOptIn() {
        var machine = self.started()
        #expect(machine.handle(.optOut) == [.persistOptOut(true), .reportOptOut(true), .discardCollected])
        #expect(machine.handle(.optOut).isEmpty)
        #expect(machine.state.consent == .granted)  // opt-out never changes consent
        #expect(machine.handle(.optIn) == [.persistOptOut(false), .reportOptOut(false), .resumeCollection])
    }

    @Test("OPTOUT-10, CONSENT-11, CONSENT-6: consent never lifts an opt-out")
    func consentNeverLiftsAnOptOut() {
        var machine = self.started(optedOut: true, consent: .pending)
        #expect(machine.handle(.updateConsent(.granted)).isEmpty)
        #expect(machine.state == PrivacyState(optedOut: true, consent: .granted))
        #expect(!machine.state.allowsCollection)
        #expect(machine.handle(.optIn) == [.persistOptOut(false), .reportOptOut(false), .resumeCollection])
    }

    @Test("CONSENT-13, CONSENT-6: optIn() while denied reports the change but does not resume")
    func optInWhileDeniedReportsButDoesNotResume() {
        var machine = self.started(optedOut: true, consent: .denied)
        #expect(machine.handle(.optIn) == [.persistOptOut(false), .reportOptOut(false)])
        #expect(!machine.state.allowsCollection)
    }

    @Test("WIPE-3, WIPE-8, WIPE-11: wipeData() keeps every switch, the opt-out and a denial included")
    func wipeKeepsEverySwitch() {
        var machine = self.started(optedOut: true, consent: .denied)
        let before = machine.state
        #expect(machine.handle(.wipeData) == [.wipe])
        #expect(machine.state == before)
    }
}

@Suite struct CollectionGateTests {
    // The CONSENT-18 matrix: G, P, D, O columns.
    static let states: [(String, PrivacyState)] = [
        ("G", PrivacyState(optedOut: false, consent: .granted)),
        ("P", PrivacyState(optedOut: false, consent: .pending)),
        ("D", PrivacyState(optedOut: false, consent: .denied)),
        ("O", PrivacyState(optedOut: true, consent: .granted)),
        ("O+P", PrivacyState(optedOut: true, consent: .pending)),
    ]

    // CONSENT-6, SESS-7: any "no" wins; no Session Start while pending (held until allowed).
    @Test(arguments: CallKind.allCases)
    func matrix(kind: CallKind) {
        let expected: [String: CollectionGate] =
            switch kind {
            case .event, .attribute, .alias, .subscribe:
                ["G": .accept, "P": .hold, "D": .drop, "O": .drop, "O+P": .drop]
            case .identify:
                ["G": .accept, "P": .hold, "D": .keepLocally, "O": .keepLocally, "O+P": .keepLocally]
            case .withdrawal:
                ["G": .accept, "P": .accept, "D": .accept, "O": .accept, "O+P": .accept]
            case .sessionStart:
                ["G": .accept, "P": .hold, "D": .hold, "O": .hold, "O+P": .hold]
            }
        for (name, state) in Self.states {
            #expect(state.gate(kind) == expected[name], "\(kind) in \(name)")
        }
    }
}
