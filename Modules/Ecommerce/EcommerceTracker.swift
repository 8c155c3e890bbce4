internal import JoryioCore
internal import JoryioFeature
package import JoryioKit

/// Typed e-commerce events (ECOM-1): product, cart, checkout and order calls that send the keys
/// revenue reports read. Get one with `Joryio.shared.ecommerce(config:)`.
///
/// Every call is checked first: one missing what gives its event meaning (an id, a finite price
/// or value, the `items` list of a purchase) logs a warning and sends nothing (ECOM-3). The events
/// are ordinary events: consent, opt-out, batching and retry apply as to `track()` (ECOM-5).
/// Safe from any thread, before `initialize()` too.
public final class EcommerceTracker: Sendable {
    /// The settings it was made with.
    public let config: EcommerceConfig
    /// The instance it records on, through the facade seam.
    private let facade: FacadeContext
    /// The ISO 4217 code sent, or `nil` when ``config``'s is not one (then every call is refused).
    let currency: String?
    /// The instance's transactions recorded so far, shared by all its trackers (issue 26).
    private let book: Locked<StoreKitTransactionBook>

    private static let bookSlot = InstanceSlot<Locked<StoreKitTransactionBook>>("ecommerce.transactionBook")

    package init(joryio: Joryio, config: EcommerceConfig) {
        let facade = joryio.facade
        self.facade = facade
        self.config = config
        self.currency = EcommerceEvents.currencyCode(config.currency)
        self.book = facade.update(Self.bookSlot) { book in
            if let book { return book }
            let made = Locked(StoreKitTransactionBook())
            book = made
            return made
        }
        if self.currency == nil {
            facade.warn(
                "ecommerce: \"\(String(config.currency.prefix(16)))\" is not an ISO 4217 currency code "
                    + "(three letters, such as USD); this tracker sends nothing"
            )
        }
    }

    /// `Product Viewed`: `productId`, and `name`, `price` (with `currency`) and `category` when given.
    public func productViewed(productId: String, name: String? = nil, price: Double? = nil, category: String? = nil) {
        self.send("productViewed") {
            EcommerceEvents.productViewed(
                productId: productId,
                name: name,
                price: price,
                category: category,
                currency: $0
            )
        }
    }

    /// `Product Added`: the item's `productId`, `name`, `price`, `quantity`, and `cartId` when given.
    public func productAdded(_ item: EcommerceCartItem, cartId: String? = nil) {
        self.send("productAdded") {
            EcommerceEvents.cartChange(EcommerceEvents.productAdded, item: item, cartId: cartId, currency: $0)
        }
    }

    /// `Product Removed`: as ``productAdded(_:cartId:)``.
    public func productRemoved(_ item: EcommerceCartItem, cartId: String? = nil) {
        self.send("productRemoved") {
            EcommerceEvents.cartChange(EcommerceEvents.productRemoved, item: item, cartId: cartId, currency: $0)
        }
    }

    /// `Cart Viewed`: the `items` (may be empty) and `cartId` when given.
    public func cartViewed(items: [EcommerceCartItem], cartId: String? = nil) {
        self.send("cartViewed") { EcommerceEvents.cartViewed(items: items, cartId: cartId, currency: $0) }
    }

    /// `Checkout Started`: the `items`, `total` (from `value`) and `checkoutId` when given.
    public func checkoutStarted(items: [EcommerceCartItem], value: Double, checkoutId: String? = nil) {
        self.send("checkoutStarted") {
            EcommerceEvents.checkoutStarted(items: items, value: value, checkoutId: checkoutId, currency: $0)
        }
    }

    /// `Order Completed` with `orderId`, `total` (from the order's `value`), `currency` and
    /// `items` (ECOM-4). A total that differs from the items is sent as given and noted in the log.
    public func purchase(order: EcommerceOrder) {
        self.send("purchase") { EcommerceEvents.purchase(order, currency: $0) }
    }

    /// `Order Refunded`: `orderId`, and `total` (from `value`) and `items` for a partial refund.
    public func orderRefunded(orderId: String, value: Double? = nil, items: [EcommerceCartItem]? = nil) {
        self.send("orderRefunded") {
            EcommerceEvents.orderRefunded(orderId: orderId, value: value, items: items, currency: $0)
        }
    }

    /// Records an in-app purchase the app passes itself (IAP-4), mapped by
    /// ``EcommerceTransaction``'s rules: purchased (and, with `trackRestoredPurchases`, restored)
    /// transactions become `Order Completed`; a revocation becomes `Order Refunded`; the rest is
    /// skipped with a line saying why. The SDK never finishes or consumes a transaction (IAP-5).
    ///
    /// Each transaction is recorded once per id (its refund once more), whether it comes here, from
    /// the StoreKit calls or from the `Transaction.updates` listener; a repeat logs a line.
    public func trackTransaction(_ transaction: EcommerceTransaction) {
        self.record(.verified(transaction))
    }

    /// Records what StoreKit handed over, at most once per transaction (issue 26): every StoreKit
    /// path (the purchase result, the app's transactions, the updates listener) comes here.
    package func record(_ delivery: StoreKitDelivery) {
        let decision = self.book.withLock { book in
            StoreKitIntake.decide(
                delivery,
                restored: self.config.trackRestoredPurchases,
                trackerCurrency: self.currency,
                listening: self.config.trackInAppPurchases,
                book: &book
            )
        }
        switch decision {
        case .send(let event):
            for note in event.notes { self.facade.inform("ecommerce.trackTransaction: \(note)") }
            self.facade.track(event.name, values: event.properties)
        case .skip(let line):
            self.facade.inform("ecommerce: \(line)")
        case .refuse(let line):
            self.facade.warn("ecommerce.trackTransaction: \(line); nothing sent")
        }
    }

    /// Builds the event with the currency and sends it, or logs why not.
    private func send(
        _ call: String,
        _ build: (String) -> Result<EcommerceEvents.Event, EcommerceEvents.Refusal>
    ) {
        guard let currency = self.currency else {
            self.facade.warn(
                "ecommerce.\(call): no valid currency (\(String(self.config.currency.prefix(16)))); nothing sent"
            )
            return
        }
        switch build(currency) {
        case .failure(let refusal):
            self.facade.warn("ecommerce.\(call): \(refusal); nothing sent")
        case .success(let event):
            for note in event.notes { self.facade.inform("ecommerce.\(call): \(note)") }
            self.facade.track(event.name, values: event.properties)
        }
    }
}
