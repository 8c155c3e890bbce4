/// The engine's features in registration order: one loop for every hook, and lookup by type for
/// the facade members that reach one feature (`Joryio.setAttributes` → ``AttributesFeature``).
package struct FeatureList: Sendable {
    /// The features, in the order their hooks run.
    package let all: [any EngineFeature]

    /// The features that listen to events (``EngineFeature/observesEvents``).
    package let eventObservers: [any EngineFeature]

    /// Wraps `features`.
    package init(_ features: [any EngineFeature]) {
        self.all = features
        self.eventObservers = features.filter(\.observesEvents)
    }

    /// The first feature of type `type`, or `nil` when none is registered.
    package func first<Feature: EngineFeature>(_ type: Feature.Type) -> Feature? {
        for feature in self.all {
            if let match = feature as? Feature { return match }
        }
        return nil
    }

    /// Runs `hook` on every feature, in registration order.
    package func each(_ hook: (any EngineFeature) -> Void) {
        for feature in self.all { hook(feature) }
    }

    /// Users with items waiting in any feature (AUTH-5).
    package var usersWithPendingItems: Set<String> {
        self.all.reduce(into: Set<String>()) { $0.formUnion($1.usersWithPendingItems) }
    }
}
