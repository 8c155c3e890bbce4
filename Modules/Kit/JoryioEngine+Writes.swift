internal import Foundation
internal import JoryioConsent
internal import JoryioCore
internal import JoryioDelivery
internal import JoryioIdentity

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
}
