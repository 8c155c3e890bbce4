#if canImport(StoreKit) && !os(watchOS)
internal import Foundation
public import StoreKit

@available(iOS 15.0, macOS 12.0, tvOS 15.0, visionOS 1.0, *)
extension EcommerceTransaction {
    /// The values of a StoreKit 2 transaction (IAP-4).
    public init(_ transaction: Transaction, restored: Bool = false) {
        let kind: Kind =
            transaction.revocationDate != nil
            ? .revoked : transaction.isUpgraded ? .upgraded : restored ? .restored : .purchased
        var currency: String?
        if #available(iOS 16.0, macOS 13.0, tvOS 16.0, *) {
            currency = transaction.currency?.identifier
        }
        self.init(
            id: String(transaction.id),
            productId: transaction.productID,
            quantity: transaction.purchasedQuantity,
            price: transaction.price.map { NSDecimalNumber(decimal: $0).doubleValue },
            currency: currency,
            kind: kind,
            isFamilyShared: transaction.ownershipType == .familyShared
        )
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, visionOS 1.0, *)
extension EcommerceTracker {
    /// Records a verified StoreKit 2 transaction the app passes itself (IAP-4). The SDK never
    /// finishes it (IAP-5): the app calls `finish()` as before.
    public func trackTransaction(_ transaction: Transaction) {
        self.trackTransaction(EcommerceTransaction(transaction))
    }

    /// Listens to `Transaction.updates` and records each verified one (IAP-3); unverified ones are
    /// ignored. The task runs as long as the process.
    package func listenToStoreKit() -> Task<Void, Never> {
        Task.detached(priority: .utility) { [self] in
            for await result in Transaction.updates {
                if case .verified(let transaction) = result { self.trackTransaction(transaction) }
            }
        }
    }
}
#endif
