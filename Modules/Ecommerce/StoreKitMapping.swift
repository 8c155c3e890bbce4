/// An in-app purchase transaction as the e-commerce tracker reads it (IAP-4): the values StoreKit
/// gives, without StoreKit, so the mapping is one tested function on every platform. The StoreKit 2
/// adapter fills it from a verified `Transaction`; apps with their own purchase code may fill it too.
public struct EcommerceTransaction: Sendable, Equatable {
    /// What happened to the purchase.
    public enum Kind: Sendable, Equatable {
        /// Bought (or renewed) now.
        case purchased
        /// Restored on this device (bought earlier).
        case restored
        /// Refunded or revoked by the App Store.
        case revoked
        /// Replaced by a higher subscription level: the new transaction carries the revenue.
        case upgraded
    }

    /// The transaction id: sent as `orderId`.
    public var id: String
    /// The StoreKit product identifier: the item's `productId` (and name).
    public var productId: String
    /// How many.
    public var quantity: Int
    /// What was charged for the whole transaction, in ``currency``; `nil` when StoreKit did not say.
    public var price: Double?
    /// The ISO 4217 code of ``price``; `nil` when StoreKit did not say.
    public var currency: String?
    /// What happened.
    public var kind: Kind
    /// Bought by another member of the family and shared with this person.
    public var isFamilyShared: Bool

    /// Creates a transaction.
    public init(
        id: String,
        productId: String,
        quantity: Int = 1,
        price: Double?,
        currency: String?,
        kind: Kind = .purchased,
        isFamilyShared: Bool = false
    ) {
        self.id = id
        self.productId = productId
        self.quantity = quantity
        self.price = price
        self.currency = currency
        self.kind = kind
        self.isFamilyShared = isFamilyShared
    }
}

/// How a transaction becomes an e-commerce event (IAP-4), or why it does not.
package enum StoreKitMapping {
    /// The event a transaction maps to.
    package enum Mapped: Sendable, Equatable {
        /// `Order Completed` in `currency`.
        case purchase(EcommerceOrder, currency: String)
        /// `Order Refunded` of the transaction (its currency when known).
        case refund(orderId: String, currency: String?)
    }

    /// Why a transaction maps to nothing.
    package struct Skip: Error, Sendable, Equatable, CustomStringConvertible {
        /// The reason, for the log.
        package var description: String
        init(_ description: String) { self.description = description }
    }

    /// Maps `transaction`; `restored` says whether restored purchases are recorded.
    ///
    /// Purchased → `Order Completed` (transaction id as `orderId`, the product as the one item,
    /// unit price = price ÷ quantity, `total` = price, StoreKit's currency). Restored → the same,
    /// only when `restored`. Revoked → `Order Refunded`. Upgraded (superseded) and family-shared
    /// (another person paid) → skipped. No price, a non-finite or negative price, no currency, or a
    /// quantity below 1 → skipped: never an order with a made-up amount (ECOM-3).
    package static func event(for transaction: EcommerceTransaction, restored: Bool) -> Result<Mapped, Skip> {
        let id = transaction.id
        switch transaction.kind {
        case .revoked:
            return .success(.refund(orderId: id, currency: transaction.currency))
        case .upgraded:
            return .failure(Skip("\(id) was superseded by an upgrade; the upgrade's transaction carries the revenue"))
        case .restored where !restored:
            return .failure(Skip("\(id) is a restored purchase (trackRestoredPurchases is off)"))
        case .purchased, .restored:
            break
        }
        if transaction.isFamilyShared {
            return .failure(Skip("\(id) is shared by another family member, who paid for it"))
        }
        guard transaction.quantity >= 1 else {
            return .failure(Skip("\(id) has quantity \(transaction.quantity)"))
        }
        guard let price = transaction.price, price.isFinite, price >= 0 else {
            return .failure(Skip("\(id) has no usable price"))
        }
        guard let currency = transaction.currency.flatMap(EcommerceEvents.currencyCode) else {
            return .failure(Skip("\(id) has no currency"))
        }
        let unit = price / Double(transaction.quantity)
        let item = EcommerceCartItem(
            productId: transaction.productId,
            name: transaction.productId,
            price: unit,
            quantity: transaction.quantity
        )
        return .success(.purchase(EcommerceOrder(orderId: id, items: [item], value: price), currency: currency))
    }
}
