import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import Testing

/// E-commerce through the SDK (issue 18): typed calls become ordinary events (ECOM-5).
@Suite struct EcommerceTests {
    private func sdk(_ transport: RecordingTransport) -> TestSDK {
        TestSDK(transport: transport, features: .joryio(push: NoPushPlatform()))
    }

    @Test(
        "ECOM-1 / ECOM-4 / ECOM-5 / EVT-9: purchase(order:) is an Order Completed event with the revenue keys, batched like any event"
    )
    func purchaseIsAnEvent() throws {
        let transport = RecordingTransport()
        let sdk = self.sdk(transport)
        let ecommerce = sdk.joryio.ecommerce(config: EcommerceConfig(currency: "usd"))
        ecommerce.purchase(
            order: EcommerceOrder(
                orderId: "ORD-1001",
                items: [EcommerceCartItem(productId: "SKU123", name: "Blue Shirt", price: 29.99, quantity: 2)],
                value: 59.98
            )
        )
        sdk.start()
        ecommerce.productViewed(productId: "SKU123", name: "Blue Shirt", price: 29.99)
        sdk.flushAll()
        let events = transport.requests.flatMap(\.events)
        #expect(events.compactMap { $0["event"]?.stringValue } == ["Order Completed", "Product Viewed"])
        let order = try #require(events.first?["properties"])
        #expect(order["orderId"]?.stringValue == "ORD-1001")
        #expect(order["total"]?.doubleValue == 59.98)
        #expect(order["currency"]?.stringValue == "USD")
        #expect(order["items"]?.arrayValue?.first?["quantity"]?.doubleValue == 2)
        #expect(order["order_id"] == nil && order["value"] == nil, "ECOM-6")
    }

    @Test("ECOM-3: a refused call logs a warning and sends nothing; an invalid currency refuses every call")
    func refusedCalls() {
        let transport = RecordingTransport()
        let sdk = self.sdk(transport)
        sdk.start()
        let ecommerce = sdk.joryio.ecommerce(config: EcommerceConfig(currency: "USD"))
        ecommerce.purchase(order: EcommerceOrder(orderId: "", items: [], value: 10))
        ecommerce.checkoutStarted(items: [], value: .nan)
        let broken = sdk.joryio.ecommerce(config: EcommerceConfig(currency: "dollars"))
        broken.productViewed(productId: "SKU1")
        sdk.flushAll()
        #expect(transport.requests.flatMap(\.events).isEmpty)
        let warnings = sdk.messages(at: .warning)
        #expect(warnings.contains { $0.contains("ecommerce.purchase: orderId is empty; nothing sent") })
        #expect(warnings.contains { $0.contains("ecommerce.checkoutStarted: value is not a finite number") })
        #expect(warnings.contains { $0.contains("\"dollars\" is not an ISO 4217 currency code") })
        #expect(warnings.contains { $0.contains("ecommerce.productViewed: no valid currency") })
    }

    @Test("ECOM-5: while opted out nothing is sent; a total that differs from its items is noted and sent as given")
    func privacyAndNotes() {
        let transport = RecordingTransport()
        let sdk = self.sdk(transport)
        sdk.start()
        let ecommerce = sdk.joryio.ecommerce(config: EcommerceConfig(currency: "EUR"))
        sdk.joryio.optOut()
        ecommerce.purchase(order: EcommerceOrder(orderId: "o1", items: [], value: 5))
        sdk.flushAll()
        #expect(transport.requests.flatMap(\.events).isEmpty)
        sdk.joryio.optIn()
        let item = EcommerceCartItem(productId: "p", name: "P", price: 10, quantity: 1)
        ecommerce.purchase(order: EcommerceOrder(orderId: "o2", items: [item], value: 8))
        sdk.flushAll()
        let events = transport.requests.flatMap(\.events).filter { $0["event"]?.stringValue == "Order Completed" }
        #expect(events.compactMap { $0["properties"]?["total"]?.doubleValue } == [8])
        #expect(sdk.messages(at: .info).contains { $0.contains("differs from the items") })
    }

    @Test("IAP-1 / IAP-3: in-app purchase tracking (and restored purchases) is off unless the config turns it on")
    func purchaseTrackingIsOptIn() {
        let config = EcommerceConfig(currency: "USD")
        #expect(!config.trackInAppPurchases)
        #expect(!config.trackRestoredPurchases)
        #expect(EcommerceConfig(currency: "USD", trackInAppPurchases: true).trackInAppPurchases)
    }

    @Test("IAP-2 / IAP-4: a transaction the app passes is mapped; skipped ones say why; the SDK never finishes it")
    func manualTransactions() {
        let transport = RecordingTransport()
        let sdk = self.sdk(transport)
        sdk.start()
        let ecommerce = sdk.joryio.ecommerce(config: EcommerceConfig(currency: "USD"))
        ecommerce.trackTransaction(
            EcommerceTransaction(id: "1000", productId: "coins.100", quantity: 2, price: 1.98, currency: "GBP")
        )
        ecommerce.trackTransaction(
            EcommerceTransaction(id: "1001", productId: "coins.100", price: nil, currency: "GBP")
        )
        ecommerce.trackTransaction(
            EcommerceTransaction(id: "1000", productId: "coins.100", price: 1.98, currency: "GBP", kind: .revoked)
        )
        sdk.flushAll()
        let events = transport.requests.flatMap(\.events)
        #expect(events.compactMap { $0["event"]?.stringValue } == ["Order Completed", "Order Refunded"])
        #expect(
            events.first?["properties"]?["currency"]?.stringValue == "GBP",
            "StoreKit's currency, not the tracker's"
        )
        #expect(sdk.messages(at: .info).contains { $0.contains("1001 has no usable price") })
    }
}
