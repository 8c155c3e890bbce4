package import JoryioConsent

/// Which pre-init calls survive to be replayed at start: the pre-init rules as a pure function.
///
/// A call that collects is judged by the privacy state in force **when it was made** — what was
/// stored, the configuration, and the decisions made before it — and dropped when that state drops
/// its kind (INIT-8, CONSENT-18). A call that survived is still dropped when a later pre-init
/// decision deletes what was collected: an opt-out or denial (for the kinds the new state drops) or
/// a wipe (for everything but withdrawals), exactly as if the calls had run after `initialize()`.
package enum PreInitReplay {
    /// For each entry, whether it is kept (decisions, tokens and handlers always are).
    package static func kept(
        _ entries: [PreInitEntry],
        stored: PrivacyStateMachine,
        configOptOut: Bool,
        configConsent: TrackingConsent?
    ) -> [Bool] {
        var kept = Array(repeating: true, count: entries.count)
        var decisions: [PrivacyDecision] = []
        // Calls still alive, by index, and the privacy machine as the app's calls moved it.
        var alive: [Int] = []
        var machine = stored
        _ = machine.start(configOptOut: configOptOut, configConsent: configConsent, preInit: [])
        for (index, entry) in entries.enumerated() {
            if let decision = entry.decision {
                decisions.append(decision)
                var next = stored
                _ = next.start(configOptOut: configOptOut, configConsent: configConsent, preInit: decisions)
                let actions = machine.handle(decision)
                machine = next
                if actions.contains(.wipe) {
                    for call in alive where entries[call].isWipedCall { kept[call] = false }
                }
                if actions.contains(.discardCollected) {
                    for call in alive where entries[call].isDropped(by: { next.state.gate($0) }) { kept[call] = false }
                }
                alive.removeAll { !kept[$0] }
            } else if case .call = entry {
                if entry.isDropped(by: { machine.state.gate($0) }) {
                    kept[index] = false
                } else {
                    alive.append(index)
                }
            }
        }
        return kept
    }
}
