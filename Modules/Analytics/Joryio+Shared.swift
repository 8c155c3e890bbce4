internal import JoryioCore
public import JoryioKit

extension Joryio {
    /// The shared instance apps use: tracking, identity, consent, attributes, subscriptions and SDK
    /// auth, without push, in-app or e-commerce code.
    public static let shared = Joryio(catalog: .analytics)

    /// Creates an independent instance with the `JoryioAnalytics` features, for an extra workspace.
    public convenience init() {
        self.init(catalog: .analytics)
    }

    private convenience init(catalog: FeatureCatalog) {
        self.init(environment: .live(), features: catalog)
    }
}
