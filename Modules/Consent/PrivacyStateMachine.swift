/// Consent and opt-out as a value: decisions in, actions out (CONSENT, OPTOUT, INIT-10/11).
///
/// The engine persists, purges and sends according to the returned actions; the machine itself
/// does no I/O, so every combination is tested as plain values.
package struct PrivacyStateMachine: Sendable, Equatable {
    /// What the engine must do after a transition.
    package enum Action: Sendable, Equatable {
        /// Store the opt-out flag (OPTOUT-3).
        case persistOptOut(Bool)
        /// Store or clear the consent denial (CONSENT-7).
        case persistDenial(Bool)
        /// Send the `tracking_opted_out` record with this value, durably (OPTOUT-5).
        case reportOptOut(Bool)
        /// Opt-out or denial: drop queued events, unconfirmed attribute writes and pending
        /// identify/alias/subscription writes; keep withdrawals (OPTOUT-4, CONSENT-5, CONSENT-12).
        case discardCollected
        /// Collection became allowed: send what was held and do the startup work that was
        /// suppressed (Session Start, the kept identify …) (CONSENT-4, OPTOUT-8, SESS-6).
        case resumeCollection
        /// `wipeData()`: delete identifiers, queues and session; the opt-out and a denial stay.
        case wipe
    }

    /// The current state.
    package private(set) var state: PrivacyState
    private var storedOptOut: Bool
    private var storedDenial: Bool

    /// The state stored on the device before anything is applied (what `isUserOptedOut()` and
    /// `getTrackingConsent()` answer before `initialize()`).
    package init(storedOptOut: Bool, storedDenial: Bool) {
        self.storedOptOut = storedOptOut
        self.storedDenial = storedDenial
        self.state = PrivacyState(optedOut: storedOptOut, consent: storedDenial ? .denied : .granted)
    }

    /// Resolves the state at `initialize()` (CONSENT-17, INIT-11): pre-init decisions first (the
    /// latest opt-out/opt-in call beats `configOptOut`; any `updateConsent` call beats
    /// `configConsent`), then the configuration, then what was stored.
    package mutating func start(
        configOptOut: Bool,
        configConsent: TrackingConsent?,
        preInit: [PrivacyDecision]
    ) -> [Action] {
        let before = self.state
        var actions: [Action] = []
        let calledOptOut = preInit.contains { $0 == .optOut || $0 == .optIn }
        let calledConsent = preInit.contains { if case .updateConsent = $0 { true } else { false } }
        if !calledOptOut, configOptOut {
            actions += self.setOptOut(true)
        }
        if !calledConsent, let configConsent {
            actions += self.setConsent(configConsent)
        }
        for decision in preInit {
            actions += self.apply(decision)
        }
        // Held data and suppressed startup work belong to this launch: at start there is nothing
        // held yet, so only a purge matters (stale queued items from an earlier launch).
        actions.removeAll { $0 == .resumeCollection }
        // `.pending` holds what earlier launches queued; only an opt-out or a denial deletes it.
        let blocked = self.state.optedOut || self.state.consent == .denied
        if before.allowsCollection, blocked, !actions.contains(.discardCollected) {
            actions.append(.discardCollected)
        }
        return actions
    }

    /// Applies a decision made after `initialize()`.
    package mutating func handle(_ decision: PrivacyDecision) -> [Action] {
        self.apply(decision)
    }

    // MARK: - Transitions

    private mutating func apply(_ decision: PrivacyDecision) -> [Action] {
        switch decision {
        case .optOut: self.setOptOut(true)
        case .optIn: self.setOptOut(false)
        case .updateConsent(let consent): self.setConsent(consent)
        case .wipeData: [.wipe]
        }
    }

    private mutating func setOptOut(_ optedOut: Bool) -> [Action] {
        guard self.state.optedOut != optedOut else { return [] }
        let wasAllowed = self.state.allowsCollection
        self.state.optedOut = optedOut
        var actions: [Action] = []
        if self.storedOptOut != optedOut {
            self.storedOptOut = optedOut
            actions.append(.persistOptOut(optedOut))
        }
        actions.append(.reportOptOut(optedOut))
        if optedOut {
            actions.append(.discardCollected)
        } else if !wasAllowed, self.state.allowsCollection {
            actions.append(.resumeCollection)
        }
        return actions
    }

    private mutating func setConsent(_ consent: TrackingConsent) -> [Action] {
        // `.pending` never overrides a denial, stored or made earlier (CONSENT-9).
        if consent == .pending, self.state.consent == .denied { return [] }
        guard self.state.consent != consent else { return [] }
        let wasAllowed = self.state.allowsCollection
        self.state.consent = consent
        var actions: [Action] = []
        let denial = consent == .denied
        if self.storedDenial != denial, consent != .pending {
            self.storedDenial = denial
            actions.append(.persistDenial(denial))
        }
        if denial {
            actions.append(.discardCollected)
        } else if !wasAllowed, self.state.allowsCollection {
            actions.append(.resumeCollection)
        }
        return actions
    }
}
