internal import JoryioConsent
package import JoryioDelivery

/// The durable-write channel on the seam (DURABLE): collecting writes wait until collection is
/// allowed, withdrawals always go; opt-out, denial and wipe drop the collecting ones.
extension DurableWriteChannel: EngineFeature {
    /// Loads earlier launches' writes, holding every one (withdrawals too) until the launch's
    /// pre-init entries ran and its privacy is applied.
    package func start() {
        self.setSendingHeld(true)
        self.setCollectionAllowed(false)
        self.load()
    }

    /// Holds, releases or drops collecting writes.
    package func privacyChanged(_ change: PrivacyChange) {
        switch change {
        case .applied(let state):
            self.setCollectionAllowed(state.allowsCollection)
            self.setSendingHeld(false)
        case .collectionStopped: self.discardCollected()
        case .collectionResumed: break
        }
    }

    /// Foreground: retry now (never before `Retry-After`).
    package func lifecycle(_ event: LifecycleEvent) {
        if case .foreground = event { self.trigger() }
    }

    /// Identify, alias and sign-ups are dropped; withdrawals stay (WIPE-6).
    package func wipe() {
        self.discardCollected()
    }

    /// Users whose writes still wait.
    package var usersWithPendingItems: Set<String> {
        Set(self.pending.compactMap(\.userId))
    }
}
