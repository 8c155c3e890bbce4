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
    /// the next event starts a new session (WIPE rules).
    public func wipeData() {
        self.decide(.wipeData)
    }

    // MARK: - Private

    /// Applies a decision: at once to the state the getters read, then its effects on the engine,
    /// in order with every earlier call. Before `initialize()` it is remembered (and stored).
    private func decide(_ decision: PrivacyDecision) {
        self.state.withLock { state in
            guard let engine = state.engine else {
                state.decisions.append(decision)
                self.defaultKeyValue(&state)?.save(
                    Self.encode(state.decisions),
                    forKey: StoreKey.preInitDecisions,
                    logger: .disabled
                )
                return
            }
            _ = state.privacyShadow?.handle(decision)
            self.environment.scheduler.enqueue { engine.handle(decision) }
        }
    }

    private func privacyState() -> PrivacyState {
        self.state.withLock { state in
            if let shadow = state.privacyShadow {
                return shadow.state
            }
            let stored = self.defaultKeyValue(&state).map(JoryioEngine.loadPrivacy) ?? PrivacyStateMachine(storedOptOut: false, storedDenial: false)
            var machine = stored
            _ = machine.start(configOptOut: false, configConsent: nil, preInit: state.decisions)
            return machine.state
        }
    }

    /// The platform's settings store, opened once.
    func defaultKeyValue(_ state: inout State) -> (any KeyValueStore)? {
        if let opened = state.defaultKeyValue { return opened }
        let store = self.environment.defaultKeyValue()
        state.defaultKeyValue = .some(store)
        if let store, state.decisions.isEmpty {
            state.decisions = Self.decode(store.string(forKey: StoreKey.preInitDecisions))
        }
        return store
    }

    /// The decisions to apply at start, removed from storage.
    static func takeDecisions(_ state: inout State) -> [PrivacyDecision] {
        if case .some(.some(let store)) = state.defaultKeyValue {
            store.save(nil, forKey: StoreKey.preInitDecisions, logger: .disabled)
        }
        defer { state.decisions = [] }
        return state.decisions
    }

    static func encode(_ decisions: [PrivacyDecision]) -> String {
        decisions.map { decision in
            switch decision {
            case .optOut: "optOut"
            case .optIn: "optIn"
            case .wipeData: "wipe"
            case .updateConsent(let consent): "consent:\(consent.rawValue)"
            }
        }.joined(separator: ",")
    }

    static func decode(_ text: String?) -> [PrivacyDecision] {
        (text ?? "").split(separator: ",").compactMap { item -> PrivacyDecision? in
            switch item {
            case "optOut": .optOut
            case "optIn": .optIn
            case "wipe": .wipeData
            default:
                item.hasPrefix("consent:")
                    ? TrackingConsent(rawValue: String(item.dropFirst(8))).map(PrivacyDecision.updateConsent) : nil
            }
        }
    }
}
