internal import Foundation
public import JoryioConsent
internal import JoryioCore

/// Opt-out, tracking consent and erasure (OPTOUT, CONSENT, WIPE).
extension Joryio {
    /// Stops collecting on every write path and deletes what is queued; withdrawals still go out.
    /// Persisted: it survives restarts and SDK-key changes (OPTOUT-1 … OPTOUT-4).
    public func optOut() {
        self.decide(.optOut)
    }

    /// Resumes collection after ``optOut()`` (only when consent is also granted) (OPTOUT-8).
    public func optIn() {
        self.decide(.optIn)
    }

    /// Whether the person opted out; answers from stored state even before `initialize()`.
    public func isUserOptedOut() -> Bool {
        self.privacyState().optedOut
    }

    /// Reports the consent the app's consent manager holds: `.pending` holds events on the device,
    /// `.granted` sends them, `.denied` deletes them and collects nothing (CONSENT rules).
    public func updateConsent(_ consent: TrackingConsent) {
        self.decide(.updateConsent(consent))
    }

    /// The effective consent; `.granted` when nothing was decided (INIT-12, CONSENT-10).
    public func getTrackingConsent() -> TrackingConsent {
        self.privacyState().consent
    }

    /// Deletes every identifier, queued event and the session the SDK stored. The opt-out is kept;
    /// the next event starts a new session (WIPE rules). Separate from ``optOut()``: "stop collecting"
    /// and "delete what you have" are different requests, so an app that also wants the person opted
    /// out calls both (WIPE-8, OPTOUT-13).
    public func wipeData() {
        self.decide(.wipeData)
    }

    // MARK: - Private

    /// Applies a decision: at once to what the getters read (as a change the engine has not run
    /// yet), then on the engine in order with every earlier call. Before `initialize()` it is
    /// remembered (and stored) and acts on the calls already waiting.
    private func decide(_ decision: PrivacyDecision) {
        self.state.withLock { state in
            guard let engine = state.engine else {
                self.remember(.decision(decision), &state)
                return
            }
            let sequence = Self.nextSequence(&state)
            self.board.show(.privacy(decision), until: sequence)
            self.enqueue(sequence, on: engine) { $0.handle(decision) }
        }
    }

    private func privacyState() -> PrivacyState {
        // One lock section: `initialize()` cannot take the pre-init list between the two reads.
        self.state.withLock { state in
            if state.engine != nil {
                return self.board.current.privacy.state
            }
            var machine = self.storedPrivacy(&state)
            _ = machine.start(configOptOut: false, configConsent: nil, preInit: state.preInit.compactMap(\.decision))
            return machine.state
        }
    }

}
