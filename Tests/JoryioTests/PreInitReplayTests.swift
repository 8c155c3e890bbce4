import JoryioConsent
import JoryioKit
import Testing

/// The pre-init rules as values (INIT-5, INIT-6, INIT-8, INIT-11): which buffered calls survive.
@Suite struct PreInitReplayTests {
    private static let neutral = PrivacyStateMachine(storedOptOut: false, storedDenial: false)

    private func call(_ kind: CallKind?) -> PreInitEntry {
        .call(kind, nil, { _ in })
    }

    private func kept(
        _ entries: [PreInitEntry],
        stored: PrivacyStateMachine = Self.neutral,
        configOptOut: Bool = false,
        configConsent: TrackingConsent? = nil
    ) -> [Bool] {
        PreInitReplay.kept(entries, stored: stored, configOptOut: configOptOut, configConsent: configConsent)
    }

    @Test("optOut(); track; optIn(): the track is dropped at the call, the decisions stay")
    func optOutBracket() {
        #expect(
            self.kept([.decision(.optOut), self.call(.event), .decision(.optIn), self.call(.event)]) == [
                true, false, true, true,
            ]
        )
    }

    @Test("a stored opt-out drops calls made before a pre-init optIn(); the config cannot clear it (OPTOUT-11)")
    func storedOptOut() {
        let stored = PrivacyStateMachine(storedOptOut: true, storedDenial: false)
        #expect(
            self.kept([self.call(.event), .decision(.optIn), self.call(.event)], stored: stored) == [false, true, true]
        )
    }

    @Test("a stored denial is overridden by the config's consent unless a pre-init updateConsent decides (CONSENT-17)")
    func storedDenialAndConfig() {
        let stored = PrivacyStateMachine(storedOptOut: false, storedDenial: true)
        #expect(self.kept([self.call(.event)], stored: stored) == [false])
        #expect(self.kept([self.call(.event)], stored: stored, configConsent: .granted) == [true])
        #expect(
            self.kept([.decision(.updateConsent(.denied)), self.call(.event)], configConsent: .granted) == [
                true, false,
            ]
        )
    }

    @Test("a later opt-out or denial deletes what earlier calls collected; identify and withdrawals stay")
    func laterWithdrawalDeletes() {
        let entries: [PreInitEntry] = [
            self.call(.event), self.call(.attribute), self.call(.identify), self.call(.withdrawal), self.call(nil),
            .decision(.updateConsent(.denied)),
        ]
        #expect(self.kept(entries) == [false, false, true, true, true, true])
    }

    @Test("pending holds instead of dropping; a later denial drops what was held")
    func pending() {
        #expect(
            self.kept([.decision(.updateConsent(.pending)), self.call(.event), .decision(.updateConsent(.granted))])
                == [true, true, true]
        )
        #expect(
            self.kept([.decision(.updateConsent(.pending)), self.call(.event), .decision(.updateConsent(.denied))]) == [
                true, false, true,
            ]
        )
    }

    @Test(
        "wipeData() drops every collecting call before it, identify included; withdrawals, tokens and later calls stay"
    )
    func wipe() {
        let entries: [PreInitEntry] = [
            self.call(.identify), .authToken("t"), self.call(.event), self.call(.withdrawal), self.call(nil),
            .decision(.wipeData), self.call(.event),
        ]
        #expect(self.kept(entries) == [false, true, false, true, true, true, true])
    }

    @Test("the config's opt-out drops calls made before a pre-init optIn; calls after it are kept (INIT-11)")
    func configOptOut() {
        #expect(
            self.kept([self.call(.event), .decision(.optIn), self.call(.event)], configOptOut: true) == [
                false, true, true,
            ]
        )
    }
}
