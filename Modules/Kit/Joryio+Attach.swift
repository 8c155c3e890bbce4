package import JoryioFeature

/// How a separately linked product joins an instance (issue 19, GAP-70): not through the product's
/// catalog, which apps cannot change, but by attaching its feature to the instance at run time, in
/// order with every call (kept until `initialize()` like any call). The feature then hears every
/// hook the catalog's features hear, from its attachment on.
extension Joryio {
    /// Attaches the feature `make` builds, once per instance and `key`: the first call for a key
    /// attaches, later ones do nothing. Returns whether this call attached it.
    @discardableResult
    package func attachFeature(
        key: String,
        _ make: @escaping @Sendable (FeatureSetup, FeatureContext) -> any EngineFeature
    ) -> Bool {
        let first = self.productValues.withLock { values -> Bool in
            let slot = "attached." + key
            guard values[slot] == nil else { return false }
            values[slot] = true
            return true
        }
        guard first else { return false }
        self.submit { engine in engine.attach(make) }
        return true
    }
}
