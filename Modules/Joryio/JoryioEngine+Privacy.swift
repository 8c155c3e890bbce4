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
                self.keepUnsentIdentify()
                self.features.each { $0.privacyChanged(.collectionStopped) }
                self.logger.info("collection stopped: \(count) queued events and unconfirmed writes deleted; withdrawals are kept")
            case .resumeCollection:
                self.logger.info("collection allowed again: sending what was held")
                let privacy = self.state.value.privacy.state
                if self.state.value.started {
                    self.features.each { $0.privacyChanged(.applied(privacy)) }
                }
                self.features.each { $0.privacyChanged(.collectionResumed) }
                self.sendKeptIdentify()
                self.announceSessionIfAllowed()
            case .wipe:
                self.wipe()
            }
        }
    }

    /// `wipeData()`: deletes the ids, the queue and the session; keeps the opt-out and a stored
    /// denial (WIPE-1, WIPE-3, WIPE-11). The next event starts a new session (WIPE-4).
    func wipe() {
        let previous = self.state.value.identity.userId
        let count = self.discardQueuedEvents()
        self.features.each { $0.wipe() }
        self.forgetKeptIdentify()
        let keyValue = self.stores.keyValue
        for key in [StoreKey.anonymousId, StoreKey.deviceId, StoreKey.session] {
            keyValue.save(nil, forKey: key, logger: self.logger)
        }
        do {
            try self.stores.secure.removeAll()
        } catch {
            self.logger.error("cannot clear the secure store: \(error)")
        }
        let fresh = EngineState.Identity(
            anonymousId: self.environment.identifiers.next(),
            userId: nil,
            deviceId: self.environment.identifiers.next()
        )
        keyValue.save(fresh.anonymousId, forKey: StoreKey.anonymousId, logger: self.logger)
        keyValue.save(fresh.deviceId, forKey: StoreKey.deviceId, logger: self.logger)
        self.state.withValue {
            $0.identity = fresh
            $0.sessions.clear()
        }
        self.identityChanged(.wiped(previous: previous))
        self.logger.info("wipeData: ids, session, \(count) queued events and unconfirmed writes deleted; withdrawals and opt-out kept")
    }
}
