import Foundation
import JoryioCore
import JoryioEcommerce
import Testing

/// The typed e-commerce calls as values (ECOM-1 … ECOM-7): each call's event against a table, and
/// every refusal.
@Suite struct EcommerceEventTests {
    static let shirt = EcommerceCartItem(productId: "SKU123", name: "Blue Shirt", price: 29.99, quantity: 2)
    static let shirtJSON: JSONValue = .object([
        "productId": .string("SKU123"), "name": .string("Blue Shirt"), "price": .double(29.99), "quantity": .int(2),
    ])

    private func event(_ result: Result<EcommerceEvents.Event, EcommerceEvents.Refusal>) -> EcommerceEvents.Event? {
        if case .success(let event) = result { return event }
        return nil
    }

    private func refusal(_ result: Result<EcommerceEvents.Event, EcommerceEvents.Refusal>) -> String? {
        if case .failure(let refusal) = result { return refusal.description }
        return nil
    }

    @Test(
        "ECOM-2 / ECOM-4 / ECOM-7: purchase sends Order Completed with orderId, total (from value), currency and the items"
    )
    func purchase() throws {
        let order = EcommerceOrder(orderId: "ORD-1001", items: [Self.shirt], value: 59.98)
        let event = try #require(self.event(EcommerceEvents.purchase(order, currency: "USD")))
        #expect(event.name == "Order Completed")
        #expect(
            event.properties == [
                "orderId": .string("ORD-1001"), "total": .double(59.98), "currency": .string("USD"),
                "items": .array([Self.shirtJSON]),
            ]
        )
        #expect(event.notes.isEmpty)
        #expect(event.properties["order_id"] == nil && event.properties["value"] == nil, "ECOM-6")
    }

    @Test("the other typed calls, each with the fields that give it meaning")
    func table() throws {
        let cases: [(Result<EcommerceEvents.Event, EcommerceEvents.Refusal>, String, [String: JSONValue])] = [
            (
                EcommerceEvents.productViewed(
                    productId: "SKU1",
                    name: "Hat",
                    price: 5,
                    category: "hats",
                    currency: "EUR"
                ),
                "Product Viewed",
                [
                    "productId": .string("SKU1"), "name": .string("Hat"), "price": .double(5),
                    "currency": .string("EUR"), "category": .string("hats"),
                ]
            ),
            (
                EcommerceEvents.productViewed(productId: "SKU1", name: nil, price: nil, category: nil, currency: "EUR"),
                "Product Viewed",
                ["productId": .string("SKU1")]
            ),
            (
                EcommerceEvents.cartChange("Product Added", item: Self.shirt, cartId: "c1", currency: "USD"),
                "Product Added",
                [
                    "productId": .string("SKU123"), "name": .string("Blue Shirt"), "price": .double(29.99),
                    "quantity": .int(2), "cartId": .string("c1"), "currency": .string("USD"),
                ]
            ),
            (
                EcommerceEvents.cartChange("Product Removed", item: Self.shirt, cartId: nil, currency: "USD"),
                "Product Removed",
                [
                    "productId": .string("SKU123"), "name": .string("Blue Shirt"), "price": .double(29.99),
                    "quantity": .int(2), "currency": .string("USD"),
                ]
            ),
            (
                EcommerceEvents.cartViewed(items: [], cartId: "c1", currency: "USD"),
                "Cart Viewed",
                ["items": .array([]), "cartId": .string("c1"), "currency": .string("USD")]
            ),
            (
                EcommerceEvents.checkoutStarted(items: [Self.shirt], value: 59.98, checkoutId: "k1", currency: "USD"),
                "Checkout Started",
                [
                    "items": .array([Self.shirtJSON]), "total": .double(59.98), "checkoutId": .string("k1"),
                    "currency": .string("USD"),
                ]
            ),
            (
                EcommerceEvents.orderRefunded(orderId: "ORD-1", value: nil, items: nil, currency: "USD"),
                "Order Refunded",
                ["orderId": .string("ORD-1"), "currency": .string("USD")]
            ),
            (
                EcommerceEvents.orderRefunded(orderId: "ORD-1", value: 10, items: [Self.shirt], currency: "USD"),
                "Order Refunded",
                [
                    "orderId": .string("ORD-1"), "total": .double(10), "items": .array([Self.shirtJSON]),
                    "currency": .string("USD"),
                ]
            ),
        ]
        for (result, name, properties) in cases {
            let event = try #require(self.event(result), "\(name)")
            #expect(event.name == name)
            #expect(event.properties == properties, "\(name)")
        }
    }

    @Test("ECOM-3: what gives an event its meaning is required; never an empty or zero order")
    func refusals() {
        let bad = EcommerceCartItem(productId: "SKU", name: "x", price: 1, quantity: 1)
        func item(_ change: (inout EcommerceCartItem) -> Void) -> EcommerceCartItem {
            var copy = bad
            change(&copy)
            return copy
        }
        let refusals: [(Result<EcommerceEvents.Event, EcommerceEvents.Refusal>, String)] = [
            (
                EcommerceEvents.purchase(EcommerceOrder(orderId: "", items: [], value: 1), currency: "USD"),
                "orderId is empty"
            ),
            (
                EcommerceEvents.purchase(EcommerceOrder(orderId: "  ", items: [], value: 1), currency: "USD"),
                "orderId is empty"
            ),
            (
                EcommerceEvents.purchase(EcommerceOrder(orderId: "o", items: [], value: .nan), currency: "USD"),
                "not a finite"
            ),
            (
                EcommerceEvents.purchase(EcommerceOrder(orderId: "o", items: [], value: .infinity), currency: "USD"),
                "not a finite"
            ),
            (EcommerceEvents.purchase(EcommerceOrder(orderId: "o", items: [], value: -1), currency: "USD"), "negative"),
            (
                EcommerceEvents.purchase(EcommerceOrder(orderId: "o", items: [], value: 1e14), currency: "USD"),
                "larger than"
            ),
            (
                EcommerceEvents.purchase(
                    EcommerceOrder(orderId: "o", items: [item { $0.productId = "" }], value: 1),
                    currency: "USD"
                ), "item 0's productId is empty"
            ),
            (
                EcommerceEvents.purchase(
                    EcommerceOrder(orderId: "o", items: [item { $0.price = .nan }], value: 1),
                    currency: "USD"
                ),
                "item 0's price is not a finite"
            ),
            (
                EcommerceEvents.purchase(
                    EcommerceOrder(orderId: "o", items: [item { $0.quantity = -2 }], value: 1),
                    currency: "USD"
                ),
                "quantity -2"
            ),
            (
                EcommerceEvents.purchase(
                    EcommerceOrder(orderId: "o", items: [item { $0.quantity = 0 }], value: 1),
                    currency: "USD"
                ),
                "quantity 0"
            ),
            (
                EcommerceEvents.productViewed(productId: "", name: nil, price: nil, category: nil, currency: "USD"),
                "productId is empty"
            ),
            (
                EcommerceEvents.productViewed(productId: "p", name: nil, price: -3, category: nil, currency: "USD"),
                "price is negative"
            ),
            (
                EcommerceEvents.cartChange(
                    "Product Added",
                    item: item { $0.price = -0.01 },
                    cartId: nil,
                    currency: "USD"
                ), "negative"
            ),
            (EcommerceEvents.checkoutStarted(items: [], value: .nan, checkoutId: nil, currency: "USD"), "not a finite"),
            (EcommerceEvents.orderRefunded(orderId: "", value: nil, items: nil, currency: "USD"), "orderId is empty"),
            (
                EcommerceEvents.cartViewed(items: Array(repeating: bad, count: 1001), cartId: nil, currency: "USD"),
                "more than 1000 items"
            ),
            (
                EcommerceEvents.productViewed(
                    productId: String(repeating: "x", count: 256),
                    name: nil,
                    price: nil,
                    category: nil,
                    currency: "USD"
                ), "longer than 255"
            ),
        ]
        for (result, reason) in refusals {
            let refusal = self.refusal(result)
            #expect(refusal?.contains(reason) == true, "\(refusal ?? "sent") should say \(reason)")
        }
    }

    @Test(
        "a total that differs from its items is sent as given and noted, never corrected; an empty items list is allowed"
    )
    func mismatchNoted() throws {
        let order = EcommerceOrder(orderId: "o", items: [Self.shirt], value: 50)
        let event = try #require(self.event(EcommerceEvents.purchase(order, currency: "USD")))
        #expect(event.properties["total"] == .double(50))
        #expect(event.notes.count == 1 && event.notes[0].contains("differs"))
        let rounding = EcommerceOrder(orderId: "o", items: [Self.shirt], value: 59.984)
        #expect(self.event(EcommerceEvents.purchase(rounding, currency: "USD"))?.notes.isEmpty == true)
        let empty = EcommerceOrder(orderId: "o", items: [], value: 0)
        #expect(self.event(EcommerceEvents.purchase(empty, currency: "USD"))?.properties["items"] == .array([]))
    }

    @Test("ISO 4217 codes: three letters, uppercased; anything else is not a currency")
    func currencies() {
        #expect(EcommerceEvents.currencyCode("USD") == "USD")
        #expect(EcommerceEvents.currencyCode("eur") == "EUR")
        for bad in ["", "US", "USDD", "U$D", "12A", "ÉUR", " US"] {
            #expect(EcommerceEvents.currencyCode(bad) == nil, "\(bad)")
        }
    }
}
