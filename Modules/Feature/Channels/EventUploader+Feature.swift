internal import JoryioConsent
package import JoryioDelivery

/// The event uploader on the seam: held unless collection is allowed (CONSENT-3), sends on
/// background; its own `authorizationChanged()` resends what a rejected token held (AUTH-9). The engine owns the event queue
/// itself (stored, deleted on opt-out and wipe); the uploader only sends from it.
extension EventUploader: EngineFeature {
    /// Held until the launch's privacy is applied: the engine owns the queue, nothing to load.
    package func start() {
        self.setCollectionAllowed(false)
    }

    /// Holds or releases sending.
    package func privacyChanged(_ change: PrivacyChange) {
        if case .applied(let state) = change {
            self.setCollectionAllowed(state.allowsCollection)
        }
    }

    /// Background: send what is queued (the engine stored its pending events first).
    package func lifecycle(_ event: LifecycleEvent) {
        if event == .background { self.trigger(.timer) }
    }
}
