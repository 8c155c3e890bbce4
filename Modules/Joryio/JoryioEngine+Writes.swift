internal import Foundation
internal import JoryioConsent
internal import JoryioCore
internal import JoryioDelivery

/// Durable writes, aliases and subscriptions on the engine (DURABLE, IDENT-12…15, SUB).
extension JoryioEngine {
    /// `addAlias`: a durable write, dropped while opted out or denied (IDENT-15).
    func addAlias(label: String, name: String, timestamp: Date) {
        guard self.state.value.privacy.state.gate(.alias) != .drop else {
            self.logger.debug("addAlias \"\(label)\" dropped: collection is not allowed (opted out or consent denied)")
            return
        }
        self.enqueueDurable(.alias(label: label, name: name), timestamp: timestamp)
    }

    /// A subscription change: withdrawals always go (SUB-6); sign-ups are dropped while opted out or
    /// denied (SUB-7) and wait while pending (SUB-4).
    func subscribe(_ kind: DurableWrite.Kind, timestamp: Date) {
        let identity = self.state.value.identity
        guard identity.userId.nonEmpty != nil || !identity.anonymousId.isEmpty else {
            self.logger.error("subscription change skipped: there is neither a user id nor an anonymous id")
            return
        }
        if !kind.isWithdrawal, self.state.value.privacy.state.gate(.subscribe) == .drop {
            self.logger.debug("subscription sign-up dropped: collection is not allowed (opted out or consent denied)")
            return
        }
        self.enqueueDurable(kind, timestamp: timestamp)
    }

    /// Queues a durable write under the current identity.
    func enqueueDurable(_ kind: DurableWrite.Kind, timestamp: Date, userId: String?? = .none) {
        guard let durable = self.durable else {
            self.logger.error("no durable-write channel is registered; a write was dropped")
            return
        }
        let identity = self.state.value.identity
        let write = DurableWrite(
            id: self.environment.identifiers.next(),
            kind: kind,
            userId: userId ?? identity.userId,
            anonymousId: identity.anonymousId,
            timestamp: timestamp
        )
        durable.enqueue(write)
    }

    /// The durable `identify` write (IDENT-3): sent when collection is allowed, held while
    /// pending; while opted out or denied only a marker is kept, and the identify runs when
    /// collection is allowed again (IDENT-5).
    func sendIdentify(_ userId: String, timestamp: Date) {
        switch self.state.value.privacy.state.gate(.identify) {
        case .accept, .hold:
            self.stores.keyValue.save(nil, forKey: StoreKey.identifyKept, logger: self.logger)
            self.enqueueDurable(.identify, timestamp: timestamp, userId: .some(userId))
        case .keepLocally, .drop:
            self.stores.keyValue.save("true", forKey: StoreKey.identifyKept, logger: self.logger)
        }
    }

    /// Runs the identify kept while collection was off, once it is allowed (IDENT-5, OPTOUT-8).
    func sendKeptIdentify() {
        // Only once collection is allowed: a launch while pending keeps the marker, so a later
        // denial cannot lose the identify and an identify of someone else meanwhile replaces it.
        guard self.stores.keyValue.string(forKey: StoreKey.identifyKept) != nil,
            self.state.value.privacy.state.gate(.identify) == .accept
        else { return }
        self.stores.keyValue.save(nil, forKey: StoreKey.identifyKept, logger: self.logger)
        guard let userId = self.state.value.identity.userId else { return }
        self.logger.info("collection allowed again: sending the identify kept on the device")
        self.enqueueDurable(.identify, timestamp: self.environment.clock.now(), userId: .some(userId))
    }

    /// Collection stops while the current user's identify still waits: it is dropped with the other
    /// collecting writes, and owed again once collection is allowed (IDENT-5).
    func keepUnsentIdentify() {
        guard let userId = self.state.value.identity.userId,
            self.durable?.pending.contains(where: { $0.kind == .identify && $0.userId == userId }) == true
        else { return }
        self.stores.keyValue.save("true", forKey: StoreKey.identifyKept, logger: self.logger)
    }

    /// Forgets a user id kept while collection was off (IDENT-5: `reset()` and `wipeData()`).
    func forgetKeptIdentify() {
        self.stores.keyValue.save(nil, forKey: StoreKey.identifyKept, logger: self.logger)
    }
}
