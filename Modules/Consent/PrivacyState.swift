/// The two independent switches that decide collection (CONSENT-6): the consent the app reports
/// and the person's own opt-out. Any "no" wins.
package struct PrivacyState: Sendable, Equatable {
    /// Whether the person opted out (persisted, OPTOUT-3).
    package var optedOut: Bool
    /// The effective consent (`.pending` is never persisted, CONSENT-9).
    package var consent: TrackingConsent

    /// Creates a state.
    package init(optedOut: Bool, consent: TrackingConsent) {
        self.optedOut = optedOut
        self.consent = consent
    }

    /// Whether collected data may be sent now.
    package var allowsCollection: Bool {
        !self.optedOut && self.consent == .granted
    }

    /// What happens to a call of `kind` in this state (CONSENT-18).
    package func gate(_ kind: CallKind) -> CollectionGate {
        if kind == .withdrawal { return .accept }
        if self.optedOut || self.consent == .denied {
            switch kind {
            case .identify: return .keepLocally
            case .sessionStart: return .hold
            default: return .drop
            }
        }
        return self.consent == .pending ? .hold : .accept
    }
}
