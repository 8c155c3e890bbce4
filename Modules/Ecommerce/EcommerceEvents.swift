package import JoryioCore

/// The e-commerce events as values (ECOM-1 … ECOM-7): each typed call becomes one event name and
/// its properties, or a refusal with the reason the SDK logs (ECOM-3). Decisions:
/// docs/decisions.md, "E-commerce (issue 18)".
package enum EcommerceEvents {
    /// The event names (the analytics tools' shared e-commerce vocabulary).
    package static let productViewed = "Product Viewed"
    package static let productAdded = "Product Added"
    package static let productRemoved = "Product Removed"
    package static let cartViewed = "Cart Viewed"
    package static let checkoutStarted = "Checkout Started"
    package static let orderCompleted = "Order Completed"
    package static let orderRefunded = "Order Refunded"

    /// The largest price or total accepted: beyond it a double no longer holds every cent.
    package static let maxAmount = 1e13
    /// The most items in one quantity.
    package static let maxQuantity = 1_000_000
    /// The most items in one list.
    package static let maxItems = 1_000
    /// The longest id or name, in characters.
    package static let maxIdLength = 255

    /// One event ready to track, and what to log about it.
    package struct Event: Sendable, Equatable {
        /// The event name.
        package var name: String
        /// The properties.
        package var properties: [String: JSONValue]
        /// Lines to log at info level (a total that differs from its items, …); the event is sent.
        package var notes: [String]
    }

    /// Why a call sends nothing (ECOM-3): the reason, for the warning.
    package struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// The reason.
        package var description: String
        init(_ description: String) { self.description = description }
    }

    /// The currency as sent: three ASCII letters, uppercased; `nil` when it is not a code.
    package static func currencyCode(_ text: String) -> String? {
        let code = text.uppercased()
        guard code.utf8.count == 3, code.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) })
        else { return nil }
        return code
    }

    // MARK: - Calls

    /// `productViewed(productId:name:price:category:)`.
    package static func productViewed(
        productId: String,
        name: String?,
        price: Double?,
        category: String?,
        currency: String
    ) -> Result<Event, Refusal> {
        Self.build(Self.productViewed) { properties in
            properties["productId"] = .string(try Self.id(productId, "productId"))
            if let name { properties["name"] = .string(try Self.text(name, "name")) }
            if let category { properties["category"] = .string(try Self.text(category, "category")) }
            if let price {
                properties["price"] = .double(try Self.amount(price, "price"))
                properties["currency"] = .string(currency)
            }
        }
    }

    /// `productAdded(_:cartId:)` and `productRemoved(_:cartId:)`.
    package static func cartChange(
        _ name: String,
        item: EcommerceCartItem,
        cartId: String?,
        currency: String
    ) -> Result<Event, Refusal> {
        Self.build(name) { properties in
            for (key, value) in try Self.item(item, "the item") { properties[key] = value }
            if let cartId { properties["cartId"] = .string(try Self.id(cartId, "cartId")) }
            properties["currency"] = .string(currency)
        }
    }

    /// `cartViewed(items:cartId:)`.
    package static func cartViewed(
        items: [EcommerceCartItem],
        cartId: String?,
        currency: String
    ) -> Result<Event, Refusal> {
        Self.build(Self.cartViewed) { properties in
            properties["items"] = try Self.items(items)
            if let cartId { properties["cartId"] = .string(try Self.id(cartId, "cartId")) }
            properties["currency"] = .string(currency)
        }
    }

    /// `checkoutStarted(items:value:checkoutId:)`.
    package static func checkoutStarted(
        items: [EcommerceCartItem],
        value: Double,
        checkoutId: String?,
        currency: String
    ) -> Result<Event, Refusal> {
        Self.build(Self.checkoutStarted) { properties in
            properties["items"] = try Self.items(items)
            properties["total"] = .double(try Self.amount(value, "value"))
            if let checkoutId { properties["checkoutId"] = .string(try Self.id(checkoutId, "checkoutId")) }
            properties["currency"] = .string(currency)
        }
        .map { Self.noteMismatch($0, items: items, total: value) }
    }

    /// `purchase(order:)` (ECOM-2 … ECOM-4): `Order Completed` with `orderId`, `total`, `currency`
    /// and `items`; never `order_id` or `value` (ECOM-6).
    package static func purchase(_ order: EcommerceOrder, currency: String) -> Result<Event, Refusal> {
        Self.build(Self.orderCompleted) { properties in
            properties["orderId"] = .string(try Self.id(order.orderId, "orderId"))
            properties["total"] = .double(try Self.amount(order.value, "value"))
            properties["items"] = try Self.items(order.items)
            properties["currency"] = .string(currency)
        }
        .map { Self.noteMismatch($0, items: order.items, total: order.value) }
    }

    /// `orderRefunded(orderId:value:items:)`: a whole refund (no value) or a partial one.
    package static func orderRefunded(
        orderId: String,
        value: Double?,
        items: [EcommerceCartItem]?,
        currency: String
    ) -> Result<Event, Refusal> {
        Self.build(Self.orderRefunded) { properties in
            properties["orderId"] = .string(try Self.id(orderId, "orderId"))
            if let value { properties["total"] = .double(try Self.amount(value, "value")) }
            if let items { properties["items"] = try Self.items(items) }
            properties["currency"] = .string(currency)
        }
    }

    // MARK: - Checks

    private static func build(
        _ name: String,
        _ fill: (inout [String: JSONValue]) throws -> Void
    )
        -> Result<Event, Refusal>
    {
        var properties: [String: JSONValue] = [:]
        do {
            try fill(&properties)
        } catch let refusal as Refusal {
            return .failure(refusal)
        } catch {
            return .failure(Refusal("\(error)"))
        }
        return .success(Event(name: name, properties: properties, notes: []))
    }

    private static func id(_ value: String, _ field: String) throws(Refusal) -> String {
        guard !value.allSatisfy(\.isWhitespace) else { throw Refusal("\(field) is empty") }
        return try Self.text(value, field)
    }

    private static func text(_ value: String, _ field: String) throws(Refusal) -> String {
        guard value.count <= Self.maxIdLength else {
            throw Refusal("\(field) is longer than \(Self.maxIdLength) characters")
        }
        return value
    }

    private static func amount(_ value: Double, _ field: String) throws(Refusal) -> Double {
        guard value.isFinite else { throw Refusal("\(field) is not a finite number") }
        guard value >= 0 else { throw Refusal("\(field) is negative") }
        guard value <= Self.maxAmount else { throw Refusal("\(field) is larger than \(Int64(Self.maxAmount))") }
        return value
    }

    private static func item(_ item: EcommerceCartItem, _ what: String) throws(Refusal) -> [String: JSONValue] {
        guard (1...Self.maxQuantity).contains(item.quantity) else {
            throw Refusal("\(what) has quantity \(item.quantity) (1 … \(Self.maxQuantity))")
        }
        return [
            "productId": .string(try Self.id(item.productId, "\(what)'s productId")),
            "name": .string(try Self.text(item.name, "\(what)'s name")),
            "price": .double(try Self.amount(item.price, "\(what)'s price")),
            "quantity": .int(Int64(item.quantity)),
        ]
    }

    private static func items(_ items: [EcommerceCartItem]) throws(Refusal) -> JSONValue {
        guard items.count <= Self.maxItems else { throw Refusal("more than \(Self.maxItems) items") }
        var list: [JSONValue] = []
        for (index, item) in items.enumerated() {
            list.append(.object(try Self.item(item, "item \(index)")))
        }
        return .array(list)
    }

    /// A total that differs from its items by more than half a cent is sent as given and noted:
    /// discounts, tax and shipping make that normal, so it is never corrected.
    private static func noteMismatch(_ event: Event, items: [EcommerceCartItem], total: Double) -> Event {
        guard !items.isEmpty else { return event }
        let sum = items.reduce(0) { $0 + $1.price * Double($1.quantity) }
        guard abs(sum - total) > 0.005 else { return event }
        var event = event
        event.notes.append(
            "\(event.name): total \(total) differs from the items' price × quantity (\(sum)); sent as given"
        )
        return event
    }
}
