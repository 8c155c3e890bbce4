/// The e-commerce tracker's settings (SPEC §2.13): the currency of every amount it sends.
public struct EcommerceConfig: Sendable, Equatable {
    /// An ISO 4217 code, three letters (`"USD"`, `"EUR"`); lowercase is accepted and uppercased.
    public var currency: String
    /// Record verified StoreKit purchases as `Order Completed` by themselves (IAP-3). Default
    /// `false`: in-app purchase tracking is opt-in.
    public var trackInAppPurchases: Bool
    /// Also record restored purchases (only with ``trackInAppPurchases``). Default `false`.
    public var trackRestoredPurchases: Bool

    /// Creates settings.
    public init(currency: String, trackInAppPurchases: Bool = false, trackRestoredPurchases: Bool = false) {
        self.currency = currency
        self.trackInAppPurchases = trackInAppPurchases
        self.trackRestoredPurchases = trackRestoredPurchases
    }
}

/// One product line of a cart or an order (ECOM-2); sent with the keys `productId`, `name`,
/// `price` and `quantity` (ECOM-7).
public struct EcommerceCartItem: Sendable, Equatable {
    /// The product's id (SKU), required.
    public var productId: String
    /// The product's name.
    public var name: String
    /// The unit price, finite and not negative, in the tracker's currency.
    public var price: Double
    /// How many, at least 1.
    public var quantity: Int

    /// Creates an item.
    public init(productId: String, name: String, price: Double, quantity: Int) {
        self.productId = productId
        self.name = name
        self.price = price
        self.quantity = quantity
    }
}

/// A completed order (ECOM-2): sent as `Order Completed` with `orderId`, `total` (from `value`),
/// `currency` and `items` (ECOM-4).
public struct EcommerceOrder: Sendable, Equatable {
    /// The order's id, required.
    public var orderId: String
    /// The items; may be empty, never absent (ECOM-3).
    public var items: [EcommerceCartItem]
    /// The order's total, finite and not negative; sent as `total`.
    public var value: Double

    /// Creates an order.
    public init(orderId: String, items: [EcommerceCartItem], value: Double) {
        self.orderId = orderId
        self.items = items
        self.value = value
    }
}
