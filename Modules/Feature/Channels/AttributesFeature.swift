package import Foundation
internal import JoryioConsent
internal import JoryioCore
package import JoryioDelivery

/// Attributes on the seam (ATTR): the consent gate, the current identity, and the
/// ``AttributeChannel`` that stores, coalesces and sends the writes.
///
/// The engine knows nothing about attributes: the facade reaches this feature by type, and every
/// rule that ties attributes to privacy, identity and lifecycle lives in the hooks below.
package final class AttributesFeature: EngineFeature {
    /// The channel that stores and sends the writes.
    package let channel: AttributeChannel
    private let context: FeatureContext

    /// Wraps `channel`, made with `context`'s stores, transport and authorization.
    package init(channel: AttributeChannel, context: FeatureContext) {
        self.channel = channel
        self.context = context
    }

    /// Attribute changes past the caller's checks: dropped while opted out or denied (ATTR-20),
    /// held while pending (ATTR-19), otherwise queued under the current identity (ATTR-7).
    package func record(_ changes: [(key: String, operation: AttributeWrite.Operation)], timestamp: Date) {
        guard self.context.privacy().gate(.attribute) != .drop else {
            self.context.logger.debug(
                "\(changes.count) attribute changes dropped: collection is not allowed (opted out or consent denied)"
            )
            return
        }
        let identity = self.context.identity()
        let writes = changes.map { key, operation in
            AttributeWrite(
                id: self.context.identifiers.next(),
                key: key,
                operation: operation,
                userId: identity.userId,
                anonymousId: identity.anonymousId,
                timestamp: timestamp
            )
        }
        self.channel.enqueue(writes)
        self.context.attributesRecorded(changes)
    }

    // MARK: - EngineFeature

    /// Loads unconfirmed writes, held until the launch's privacy is applied.
    package func start() {
        self.channel.setCollectionAllowed(false)
        self.channel.load()
    }

    /// Holds or sends (ATTR-19), discards on opt-out or denial (ATTR-15), retries on resume (ATTR-8).
    package func privacyChanged(_ change: PrivacyChange) {
        switch change {
        case .applied(let state): self.channel.setCollectionAllowed(state.allowsCollection)
        case .collectionStopped: self.channel.discardCollected()
        case .collectionResumed: self.channel.trigger()
        }
    }

    /// `reset()` discards unconfirmed writes (ATTR-15); identify keeps them: they carry their user.
    package func identityChanged(_ change: IdentityChange) {
        if case .reset = change { self.channel.discardCollected() }
    }

    /// Held writes go again (AUTH-9).
    package func authorizationChanged() {
        self.channel.authorizationChanged()
    }

    /// Foreground retries unconfirmed writes (ATTR-8).
    package func lifecycle(_ event: LifecycleEvent) {
        if case .foreground = event { self.channel.trigger() }
    }

    /// Every unconfirmed write goes (ATTR-15, WIPE-1).
    package func wipe() {
        self.channel.discardCollected()
    }

    /// Users whose writes still wait (AUTH-5).
    package var usersWithPendingItems: Set<String> {
        let queue = self.channel.queue
        return Set((queue.batches.flatMap(\.writes) + queue.waiting).compactMap(\.userId))
    }
}
