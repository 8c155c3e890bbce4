internal import Foundation
internal import JoryioConsent
internal import JoryioCore
internal import JoryioFeature
internal import JoryioIdentity

/// Consent, opt-out and wipe on the engine (CONSENT, OPTOUT, WIPE).
extension JoryioEngine {
    /// The stored switches (STORE-2): what `isUserOptedOut()` and `getTrackingConsent()` answer
    /// before anything is applied.
    static func loadPrivacy(from store: any KeyValueStore) -> PrivacyStateMachine {
        PrivacyStateMachine(
            storedOptOut: store.string(forKey: StoreKey.optedOut) == "true",
            storedDenial: store.string(forKey: StoreKey.consentDenied) == "true"
        )
    }

    /// `optOut()`, `optIn()`, `updateConsent(_:)`, `wipeData()` after `initialize()`.
    func handle(_ decision: PrivacyDecision) {
        let actions = self.state.withValue { $0.privacy.handle(decision) }
        self.perform(actions)
        // A resume applied the new state itself, before asking features to send what was held.
        guard !actions.contains(.resumeCollection) else { return }
        let privacy = self.state.value.privacy.state
        self.features.each { $0.privacyChanged(.applied(privacy)) }
    }

    /// Carries out what the privacy state machine decided, in order. Before the start job has
    /// released sending, features only hear the deletions; the state is applied at the end of it.
    func perform(_ actions: [PrivacyStateMachine.Action]) {
        let keyValue = self.stores.keyValue
        for action in actions {
            switch action {
            case .persistOptOut(let optedOut):
                keyValue.save(optedOut ? "true" : nil, forKey: StoreKey.optedOut, logger: self.logger)
            case .persistDenial(let denied):
                keyValue.save(denied ? "true" : nil, forKey: StoreKey.consentDenied, logger: self.logger)
            case .reportOptOut(let optedOut):
                // A durable withdrawal: sent whatever the consent, kept until confirmed (OPTOUT-5).
                self.enqueueDurable(.optOutRecord(optedOut: optedOut), timestamp: self.environment.clock.now())
                self.logger.info("tracking_opted_out=\(optedOut) queued for the server")
            case .discardCollected:
                let count = self.discardQueuedEvents()
                // The current user's identify still waiting is owed again once allowed (IDENT-5).
                let userId = self.state.value.identity.userId
                let pending = self.durable?.pending.contains { $0.kind == .identify && $0.userId == userId } ?? false
                self.identity(.collectionStopped(identifyPending: pending), at: self.environment.clock.now())
                self.features.each { $0.privacyChanged(.collectionStopped) }
                self.logger.info(
                    "collection stopped: \(count) queued events and unconfirmed writes deleted; withdrawals are kept"
                )
            case .resumeCollection:
                self.logger.info("collection allowed again: sending what was held")
                let privacy = self.state.value.privacy.state
                if self.state.value.started {
                    self.features.each { $0.privacyChanged(.applied(privacy)) }
                }
                self.features.each { $0.privacyChanged(.collectionResumed) }
                self.identity(.collectionResumed, at: self.environment.clock.now())
                self.announceSessionIfAllowed()
            case .wipe:
                self.wipe()
            }
        }
    }

    /// `wipeData()`: deletes the ids, the queue, the session and what features stored; keeps the
    /// opt-out, a stored denial and withdrawals (WIPE-1, WIPE-3, WIPE-6, WIPE-11). The next event
    /// starts a new session (WIPE-4).
    func wipe() {
        let count = self.queuedCount()
        let identifiers = self.environment.identifiers
        self.identity(
            .wipe(newAnonymousId: identifiers.next(), newDeviceId: identifiers.next()),
            at: self.environment.clock.now()
        )
        self.logger.info(
            "wipeData: ids, session, \(count) queued events and unconfirmed writes deleted; withdrawals and opt-out kept"
        )
    }
}
