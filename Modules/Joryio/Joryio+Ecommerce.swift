public import JoryioEcommerce
public import JoryioKit

/// E-commerce (issue 18).
extension Joryio {
    private static let storeKitListenerKey = "ecommerce.storeKitListener"

    /// The e-commerce tracker for `config`'s currency (ECOM-1). With
    /// `EcommerceConfig.trackInAppPurchases`, verified StoreKit purchases are recorded by
    /// themselves from then on (IAP-3; once per instance, from the first tracker that asks).
    public func ecommerce(config: EcommerceConfig) -> EcommerceTracker {
        let tracker = EcommerceTracker(joryio: self, config: config)
        if config.trackInAppPurchases { self.startStoreKitListener(tracker) }
        return tracker
    }

    private func startStoreKitListener(_ tracker: EcommerceTracker) {
        #if canImport(StoreKit) && !os(watchOS)
        guard #available(iOS 15.0, macOS 12.0, tvOS 15.0, visionOS 1.0, *) else { return }
        let first = self.productValues.withLock { values -> Bool in
            guard values[Self.storeKitListenerKey] == nil else { return false }
            values[Self.storeKitListenerKey] = true
            return true
        }
        if first { _ = tracker.listenToStoreKit() }
        #else
        _ = tracker
        #endif
    }
}
