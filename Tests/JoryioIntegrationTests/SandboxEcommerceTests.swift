import Foundation
import Joryio
import JoryioCore
import JoryioTestLanes
import JoryioTesting
import Testing

/// E-commerce against the sandbox over libcurl (issue 18): a purchase arrives with the keys revenue
/// reports read (ECOM-4), and nothing arrives while opted out (ECOM-5).
@Suite("E-commerce against the sandbox", .tags(.sandbox))
struct SandboxEcommerceTests {
    @Test("ECOM-4: a purchase arrives as Order Completed with orderId, total, currency and items")
    func purchaseArrives() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let sdk = rig.launch()
        let ecommerce = sdk.joryio.ecommerce(config: EcommerceConfig(currency: "USD"))
        ecommerce.purchase(
            order: EcommerceOrder(
                orderId: "ORD-1001",
                items: [EcommerceCartItem(productId: "SKU123", name: "Blue Shirt", price: 29.99, quantity: 2)],
                value: 59.98
            )
        )
        sdk.joryio.flush()
        #expect(await rig.drive(sdk) { (try? await rig.sandbox.events().count) == 1 })
        let event = try #require(try await rig.sandbox.events().first)
        #expect(event["event"] as? String == "Order Completed")
        let properties = try #require(event["properties"] as? [String: Any])
        #expect(properties["orderId"] as? String == "ORD-1001")
        #expect(properties["total"] as? Double == 59.98)
        #expect(properties["currency"] as? String == "USD")
        let items = try #require(properties["items"] as? [[String: Any]])
        #expect(items.first?["productId"] as? String == "SKU123")
        #expect(items.first?["quantity"] as? Int == 2)
        #expect(properties["order_id"] == nil && properties["value"] == nil)
    }

    @Test("ECOM-5: while opted out no e-commerce event arrives")
    func optedOut() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let sdk = rig.launch(JoryioConfig(optOut: true))
        let ecommerce = sdk.joryio.ecommerce(config: EcommerceConfig(currency: "USD"))
        ecommerce.purchase(order: EcommerceOrder(orderId: "ORD-2", items: [], value: 10))
        ecommerce.productViewed(productId: "SKU1")
        sdk.joryio.flush()
        await rig.settle(sdk)
        #expect(try await rig.sandbox.events().isEmpty)
    }
}
