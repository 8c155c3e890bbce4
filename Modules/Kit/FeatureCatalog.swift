package import JoryioFeature

/// Which features an instance runs: the product's choice, made once when the instance is created.
///
/// `JoryioAnalytics` runs ``analytics`` (the delivery channels: events, durable writes, attributes);
/// `Joryio` adds push, in-app and e-commerce registrations to it as those modules arrive. The
/// engine never changes for a new feature: only a catalog does.
package struct FeatureCatalog: Sendable {
    /// The registrations for one instance, in hook order.
    package var registrations: @Sendable (FeatureSetup) -> [FeatureRegistration]

    /// A catalog built from `registrations`.
    package init(_ registrations: @escaping @Sendable (FeatureSetup) -> [FeatureRegistration]) {
        self.registrations = registrations
    }

    /// Tracking, identity, consent, attributes, subscriptions and SDK auth: the three channels.
    package static let analytics = FeatureCatalog { $0.standardRegistrations }

    /// This catalog followed by `more`.
    package func adding(_ more: @escaping @Sendable (FeatureSetup) -> [FeatureRegistration]) -> FeatureCatalog {
        let base = self.registrations
        return FeatureCatalog { setup in base(setup) + more(setup) }
    }
}
