internal import JoryioFeature
public import JoryioKit

/// E-commerce's public members (issue 18): the tracker, and the StoreKit listener it starts.
extension Joryio {
    private static let storeKitListenerSlot = InstanceSlot<Bool>("ecommerce.storeKitListener")

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
        let first = self.facade.update(Self.storeKitListenerSlot) { started -> Bool in
            guard started == nil else { return false }
            started = true
            return true
        }
        if first { _ = tracker.listenToStoreKit() }
        #else
        _ = tracker
        #endif
    }
}
