internal import JoryioFeature

/// How a separately linked product joins an instance (issue 19, GAP-70): not through the product's
/// catalog, which apps cannot change, but by attaching its feature to the instance at run time, in
/// order with every call (kept until `initialize()` like any call). The feature then hears every
/// hook the catalog's features hear, from its attachment on.
extension Joryio {
    /// Attaches the feature `make` builds, once per instance and `slot` (``FacadeContext/attachFeature(once:_:)``).
    func attachFeature(
        once slot: InstanceSlot<Bool>,
        _ make: @escaping @Sendable (FeatureSetup, FeatureContext) -> any EngineFeature
    ) -> Bool {
        let first = self.slots.update(slot) { attached -> Bool in
            guard attached == nil else { return false }
            attached = true
            return true
        }
        guard first else { return false }
        self.submit { engine in engine.attach(make) }
        return true
    }
}
