internal import JoryioCore
internal import JoryioFeature

/// Features a separate product attaches after the engine was made (issue 19, GAP-70).
extension JoryioEngine {
    /// Makes the feature from the catalog's setup and context, appends it to the feature list and
    /// starts it, on the executor. Once the start job has run it also hears the privacy state now;
    /// attached during the start job (a pre-init call), it hears it with every other feature when
    /// the start job applies it, so it never sends before sending is released.
    func attach(_ make: (FeatureSetup, FeatureContext) -> any EngineFeature) {
        let feature = make(self.featureSetup, self.featureContext)
        let features = self.featureSlot.withLock { list -> FeatureList in
            list = FeatureList(list.all + [feature])
            return list
        }
        self.state.withValue { $0.eventObservers = features.eventObservers }
        feature.start()
        if self.state.value.started {
            feature.privacyChanged(.applied(self.state.value.privacy.state))
        }
    }
}
