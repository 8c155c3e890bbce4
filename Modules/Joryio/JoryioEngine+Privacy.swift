internal import Foundation
internal import JoryioConsent
internal import JoryioCore
internal import JoryioDelivery
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
        let actions = self.privacy.withLock { $0.handle(decision) }
        self.perform(actions)
        self.applyPrivacyToDelivery()
    }

    /// Carries out what the privacy state machine decided, in order.
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
                self.attributes.discardCollected()
                self.keepUnsentIdentify()
                self.durable.discardCollected()
                self.logger.info("collection stopped: \(count) queued events and unconfirmed writes deleted; withdrawals are kept")
            case .resumeCollection:
                self.logger.info("collection allowed again: sending what was held")
                self.uploader.setCollectionAllowed(true)
                self.attributes.setCollectionAllowed(true)
                self.durable.setCollectionAllowed(true)
                self.attributes.trigger()
                self.sendKeptIdentify()
                self.announceSessionIfAllowed()
            case .wipe:
                self.wipe()
            }
        }
        self.publishIdentity()
    }

    /// Sending is held unless collection is allowed: while pending, events wait on the device; while
    /// opted out or denied nothing is queued, and nothing collected may leave (CONSENT-3).
    func applyPrivacyToDelivery() {
        let allowed = self.privacy.value.state.allowsCollection
        self.uploader.setCollectionAllowed(allowed)
        self.attributes.setCollectionAllowed(allowed)
        self.durable.setCollectionAllowed(allowed)
    }

    /// `wipeData()`: deletes the ids, the queue and the session; keeps the opt-out and a stored
    /// denial (WIPE-1, WIPE-3, WIPE-11). The next event starts a new session (WIPE-4).
    func wipe() {
        let previous = self.identity.value.userId
        let count = self.discardQueuedEvents()
        self.attributes.discardCollected()
        self.durable.discardCollected()
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
        let fresh = Identity(
            anonymousId: self.environment.identifiers.next(),
            userId: nil,
            deviceId: self.environment.identifiers.next()
        )
        keyValue.save(fresh.anonymousId, forKey: StoreKey.anonymousId, logger: self.logger)
        keyValue.save(fresh.deviceId, forKey: StoreKey.deviceId, logger: self.logger)
        self.identity.withLock { $0 = fresh }
        self.sessions.withLock { $0.clear() }
        self.authUserChanged(previous: previous, reason: .wiped)
        self.logger.info("wipeData: ids, session, \(count) queued events and unconfirmed writes deleted; withdrawals and opt-out kept")
        self.notifyIdentity(.wiped)
    }
}
