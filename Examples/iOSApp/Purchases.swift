#if canImport(UIKit)
import Foundation
import Joryio
import StoreKit
import os

/// E-commerce as the README shows it ("E-commerce"), and a StoreKit 2 purchase passed to the
/// tracker (`EcommerceTracker.trackPurchase(_:product:)`, the StoreKit 2 adapter of `JoryioEcommerce`).
enum Purchases {
    private static let logger = Logger(subsystem: "com.example.joryio", category: "purchases")

    /// The app's tracker, in the currency its prices are in.
    static let ecommerce = Joryio.shared.ecommerce(config: EcommerceConfig(currency: "USD"))

    /// A product page and an order from the app's own checkout (README "E-commerce").
    static func trackShopExample() {
        ecommerce.productViewed(productId: "SKU123", name: "Blue Shirt", price: 29.99)
        ecommerce.purchase(
            order: EcommerceOrder(
                orderId: "ORD-1001",
                items: [EcommerceCartItem(productId: "SKU123", name: "Blue Shirt", price: 29.99, quantity: 2)],
                value: 59.98
            )
        )  // Order Completed: orderId, total, currency, items
    }

    /// Buys `productId` with StoreKit 2 and records the purchase as `Order Completed` (in the
    /// product's currency on iOS 15); the SDK never finishes a transaction, so the app does.
    static func buy(productId: String) async {
        guard #available(iOS 15.0, *) else { return }
        do {
            guard let product = try await Product.products(for: [productId]).first else { return }
            let result = try await product.purchase()
            // Transaction.updates never delivers this purchase: pass its result (once per id).
            self.ecommerce.trackPurchase(result, product: product)
            if case .success(.verified(let transaction)) = result { await transaction.finish() }
        } catch {
            self.logger.error("purchase failed: \(String(describing: error), privacy: .public)")
        }
    }
}
#endif
