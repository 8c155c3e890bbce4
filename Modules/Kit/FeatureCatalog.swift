package import JoryioFeature

/// Which features an instance runs: the product's choice, made once when the instance is created.
///
/// `JoryioAnalytics` runs ``analytics`` (the delivery channels: events, durable writes, attributes);
/// `Joryio` adds push, in-app and e-commerce registrations to it as those modules arrive. The
/// engine never changes for a new feature: only a catalog does.
package struct FeatureCatalog: Sendable {
    /// The registrations for one instance, in hook order.
    package var registrations: @Sendable (FeatureSetup) -> [FeatureRegistration]

    /// Runs once an instance made its engine, on the thread that called `initialize()` (or where
    /// the first unlock was noticed, INIT-14), outside the instance's lock: how a product attaches
    /// to the OS what must be in place before the app finishes launching (the notification-center
    /// delegate, INIT-16). Nothing by default.
    package var didInitialize: @Sendable (Joryio) -> Void = { _ in }

    /// Runs when `initialize()` accepted its key and host, synchronously on the calling thread and
    /// before anything else (before a first-unlock wait, INIT-14, and before the engine exists):
    /// how a product attaches what must not wait for the storage, the notification-center
    /// delegate that catches the tap which launched the app (INIT-16, issue 26). Once per instance:
    /// a refused call does not run it, a later call does not run it again. Nothing by default.
    package var willInitialize: @Sendable (Joryio) -> Void = { _ in }

    /// A catalog built from `registrations`.
    package init(_ registrations: @escaping @Sendable (FeatureSetup) -> [FeatureRegistration]) {
        self.registrations = registrations
    }

    /// This catalog, running `hook` after its own ``didInitialize``.
    package func onInitialize(_ hook: @escaping @Sendable (Joryio) -> Void) -> FeatureCatalog {
        self.chaining(\.didInitialize, hook)
    }

    /// This catalog, running `hook` after its own ``willInitialize``.
    package func onInitializeCall(_ hook: @escaping @Sendable (Joryio) -> Void) -> FeatureCatalog {
        self.chaining(\.willInitialize, hook)
    }

    /// This catalog with `hook` run after the hook at `keyPath`.
    private func chaining(
        _ keyPath: WritableKeyPath<FeatureCatalog, @Sendable (Joryio) -> Void>,
        _ hook: @escaping @Sendable (Joryio) -> Void
    ) -> FeatureCatalog {
        var catalog = self
        let earlier = self[keyPath: keyPath]
        catalog[keyPath: keyPath] = { joryio in
            earlier(joryio)
            hook(joryio)
        }
        return catalog
    }

    /// Tracking, identity, consent, attributes, subscriptions and SDK auth: the three channels.
    package static let analytics = FeatureCatalog { $0.standardRegistrations }

    /// This catalog followed by `more`.
    package func adding(_ more: @escaping @Sendable (FeatureSetup) -> [FeatureRegistration]) -> FeatureCatalog {
        let base = self.registrations
        var catalog = FeatureCatalog { setup in base(setup) + more(setup) }
        catalog.didInitialize = self.didInitialize
        catalog.willInitialize = self.willInitialize
        return catalog
    }
}
