#if canImport(StoreKit) && !os(watchOS)
internal import Foundation
public import StoreKit

@available(iOS 15.0, macOS 12.0, tvOS 15.0, visionOS 1.0, *)
extension EcommerceTransaction {
    /// The values of a StoreKit 2 transaction (IAP-4).
    ///
    /// The currency is the transaction's (iOS 16 and later), else `product`'s: on iOS 15 a
    /// transaction carries none, so pass the product it was bought from (issue 26).
    public init(_ transaction: Transaction, product: Product? = nil, restored: Bool = false) {
        self.init(
            id: String(transaction.id),
            productId: transaction.productID,
            quantity: transaction.purchasedQuantity,
            price: transaction.price.map { NSDecimalNumber(decimal: $0).doubleValue },
            currency: StoreKitMapping.currency(
                transaction: ownCurrency(transaction),
                product: product?.priceFormatStyle.currencyCode
            ),
            kind: StoreKitMapping.kind(
                revoked: transaction.revocationDate != nil,
                upgraded: transaction.isUpgraded,
                restored: restored
            ),
            isFamilyShared: transaction.ownershipType == .familyShared
        )
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, visionOS 1.0, *)
extension StoreKitDelivery {
    /// A verification result as the tracker decides it.
    init(_ result: VerificationResult<Transaction>, product: Product?) {
        switch result {
        case .verified(let transaction):
            self = .verified(EcommerceTransaction(transaction, product: product))
        case .unverified(let transaction, let error):
            self = .unverified(transactionId: String(transaction.id), reason: "\(error)")
        }
    }

    /// A purchase result as the tracker decides it.
    init(_ result: Product.PurchaseResult, product: Product) {
        switch result {
        case .success(let verification): self.init(verification, product: product)
        case .pending: self = .pending
        case .userCancelled: self = .userCancelled
        @unknown default: self = .unknownPurchaseResult
        }
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, visionOS 1.0, *)
extension EcommerceTracker {
    /// Records what `product.purchase()` returned (issue 26): `Transaction.updates` never
    /// delivers that purchase, so pass it here.
    ///
    /// A verified transaction becomes `Order Completed` (in the transaction's currency, or the
    /// product's on iOS 15); an unverified one, a pending purchase or a cancellation sends nothing
    /// and logs why. Each transaction is recorded once per id, whichever call or the listener
    /// sees it first. The SDK never finishes the transaction (IAP-5): the app calls `finish()`.
    ///
    /// ```swift
    /// let result = try await product.purchase()
    /// ecommerce.trackPurchase(result, product: product)
    /// if case .success(.verified(let transaction)) = result { await transaction.finish() }
    /// ```
    public func trackPurchase(_ result: Product.PurchaseResult, product: Product) {
        self.record(StoreKitDelivery(result, product: product))
    }

    /// Records a StoreKit verification result the app handles itself (issue 26): verified ones as
    /// ``trackTransaction(_:product:)`` does, unverified ones only logged.
    public func trackTransaction(_ result: VerificationResult<Transaction>, product: Product? = nil) {
        self.record(StoreKitDelivery(result, product: product))
    }

    /// Records a verified StoreKit 2 transaction the app passes itself (IAP-4). The SDK never
    /// finishes it (IAP-5): the app calls `finish()` as before.
    ///
    /// On iOS 15 pass the `product` too: it gives the currency the transaction lacks there. Each
    /// transaction is recorded once per id (issue 26).
    public func trackTransaction(_ transaction: Transaction, product: Product? = nil) {
        self.record(.verified(EcommerceTransaction(transaction, product: product)))
    }

    /// Listens to `Transaction.updates` and records each verified one (IAP-3), once per id with
    /// the other paths; unverified ones are logged. Where a transaction gives no currency (iOS
    /// 15) its product is looked up for it. The task runs as long as the process.
    package func listenToStoreKit() -> Task<Void, Never> {
        Task.detached(priority: .utility) { [self] in
            for await result in Transaction.updates {
                var product: Product?
                if case .verified(let transaction) = result,
                    StoreKitMapping.needsProductForCurrency(transaction: ownCurrency(transaction))
                {
                    product = try? await Product.products(for: [transaction.productID]).first
                }
                self.record(StoreKitDelivery(result, product: product))
            }
        }
    }
}

/// The transaction's own currency code: `Transaction.currency` exists from iOS 16 on.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, visionOS 1.0, *)
private func ownCurrency(_ transaction: Transaction) -> String? {
    guard #available(iOS 16.0, macOS 13.0, tvOS 16.0, *) else { return nil }
    return transaction.currency?.identifier
}
#endif
