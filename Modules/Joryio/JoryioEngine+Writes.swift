package import Foundation
internal import JoryioConsent
internal import JoryioCore
internal import JoryioDelivery

/// Attributes, durable writes, aliases and subscriptions on the engine (ATTR, DURABLE, SUB).
extension JoryioEngine {
    /// Attribute changes past the caller's checks: dropped while opted out or denied (ATTR-20),
    /// held while pending (ATTR-19), otherwise queued under the current identity (ATTR-7).
    func setAttributes(_ changes: [(key: String, change: AttributeChange)], timestamp: Date) {
        guard self.privacy.value.state.gate(.attribute) != .drop else {
            self.logger.debug("\(changes.count) attribute changes dropped: collection is not allowed (opted out or consent denied)")
            return
        }
        let identity = self.identity.value
        let writes = changes.map { key, change in
            AttributeWrite(
                id: self.environment.identifiers.next(),
                key: key,
                operation: change.operation,
                userId: identity.userId,
                anonymousId: identity.anonymousId,
                timestamp: timestamp
            )
        }
        self.attributes.enqueue(writes)
    }

    /// `addAlias`: a durable write, dropped while opted out or denied (IDENT-15).
    func addAlias(label: String, name: String, timestamp: Date) {
        guard self.privacy.value.state.gate(.alias) != .drop else {
            self.logger.debug("addAlias \"\(label)\" dropped: collection is not allowed (opted out or consent denied)")
            return
        }
        self.enqueueDurable(.alias(label: label, name: name), timestamp: timestamp)
    }

    /// A subscription change: withdrawals always go (SUB-6); sign-ups are dropped while opted out or
    /// denied (SUB-7) and wait while pending (SUB-4).
    func subscribe(_ kind: DurableWrite.Kind, timestamp: Date) {
        let identity = self.identity.value
        guard identity.userId.nonEmpty != nil || !identity.anonymousId.isEmpty else {
            self.logger.error("subscription change skipped: there is neither a user id nor an anonymous id")
            return
        }
        if !kind.isWithdrawal, self.privacy.value.state.gate(.subscribe) == .drop {
            self.logger.debug("subscription sign-up dropped: collection is not allowed (opted out or consent denied)")
            return
        }
        self.enqueueDurable(kind, timestamp: timestamp)
    }

    /// Queues a durable write under the current identity.
    func enqueueDurable(_ kind: DurableWrite.Kind, timestamp: Date, userId: String?? = .none) {
        let identity = self.identity.value
        let write = DurableWrite(
            id: self.environment.identifiers.next(),
            kind: kind,
            userId: userId ?? identity.userId,
            anonymousId: identity.anonymousId,
            timestamp: timestamp
        )
        self.durable.enqueue(write)
    }

    /// The durable `identify` write (IDENT-3): sent when collection is allowed, held while
    /// pending; while opted out or denied only a marker is kept, and the identify runs when
    /// collection is allowed again (IDENT-5).
    func sendIdentify(_ userId: String, timestamp: Date) {
        switch self.privacy.value.state.gate(.identify) {
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
            self.privacy.value.state.gate(.identify) == .accept
        else { return }
        self.stores.keyValue.save(nil, forKey: StoreKey.identifyKept, logger: self.logger)
        guard let userId = self.identity.value.userId else { return }
        self.logger.info("collection allowed again: sending the identify kept on the device")
        self.enqueueDurable(.identify, timestamp: self.environment.clock.now(), userId: .some(userId))
    }

    /// Collection stops while the current user's identify still waits: it is dropped with the other
    /// collecting writes, and owed again once collection is allowed (IDENT-5).
    func keepUnsentIdentify() {
        guard let userId = self.identity.value.userId,
            self.durable.pending.contains(where: { $0.kind == .identify && $0.userId == userId })
        else { return }
        self.stores.keyValue.save("true", forKey: StoreKey.identifyKept, logger: self.logger)
    }

    /// Forgets a user id kept while collection was off (IDENT-5: `reset()` and `wipeData()`).
    func forgetKeptIdentify() {
        self.stores.keyValue.save(nil, forKey: StoreKey.identifyKept, logger: self.logger)
    }

    /// The app returned to the foreground: retry unconfirmed writes (ATTR-8) and apply the session
    /// rules (WIPE-4).
    package func enteredForeground(at now: Date) {
        if self.privacy.value.state.gate(.sessionStart) != .drop {
            _ = self.touchSession(at: now)
        }
        self.attributes.trigger()
        self.durable.trigger()
    }
}
