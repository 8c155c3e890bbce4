import Foundation
import JoryioEcommerce
import Testing

/// IAP-4: how a StoreKit transaction becomes an e-commerce event, as a table.
@Suite struct StoreKitMappingTests {
    static func transaction(
        kind: EcommerceTransaction.Kind = .purchased,
        quantity: Int = 1,
        price: Double? = 4.99,
        currency: String? = "USD",
        familyShared: Bool = false
    ) -> EcommerceTransaction {
        EcommerceTransaction(
            id: "2000000123",
            productId: "com.example.coins",
            quantity: quantity,
            price: price,
            currency: currency,
            kind: kind,
            isFamilyShared: familyShared
        )
    }

    @Test(
        "a purchase is Order Completed: the transaction id as orderId, the product as the item, unit price from the total"
    )
    func purchase() {
        let mapped = StoreKitMapping.event(for: Self.transaction(quantity: 4, price: 19.96), restored: false)
        let item = EcommerceCartItem(
            productId: "com.example.coins",
            name: "com.example.coins",
            price: 4.99,
            quantity: 4
        )
        #expect(
            mapped
                == .success(
                    .purchase(EcommerceOrder(orderId: "2000000123", items: [item], value: 19.96), currency: "USD")
                )
        )
    }

    @Test("the table: restore, refund or revocation, upgrade, family sharing, missing or bad price and currency")
    func table() {
        let skipped: [(EcommerceTransaction, Bool, String)] = [
            (Self.transaction(kind: .restored), false, "restored purchase"),
            (Self.transaction(kind: .upgraded), true, "superseded by an upgrade"),
            (Self.transaction(familyShared: true), true, "family member"),
            (Self.transaction(price: nil), true, "no usable price"),
            (Self.transaction(price: .nan), true, "no usable price"),
            (Self.transaction(price: .infinity), true, "no usable price"),
            (Self.transaction(price: -1), true, "no usable price"),
            (Self.transaction(currency: nil), true, "no currency"),
            (Self.transaction(currency: "dollars"), true, "no currency"),
            (Self.transaction(quantity: 0), true, "quantity 0"),
        ]
        for (transaction, restored, reason) in skipped {
            guard case .failure(let skip) = StoreKitMapping.event(for: transaction, restored: restored) else {
                Issue.record("\(transaction) should be skipped (\(reason))")
                continue
            }
            #expect(skip.description.contains(reason), "\(skip)")
        }
        if case .success(.purchase(_, let currency)) = StoreKitMapping.event(
            for: Self.transaction(kind: .restored, currency: "eur"),
            restored: true
        ) {
            #expect(currency == "EUR")
        } else {
            Issue.record("a restored purchase is recorded when asked")
        }
        #expect(
            StoreKitMapping.event(for: Self.transaction(kind: .revoked), restored: false)
                == .success(.refund(orderId: "2000000123", currency: "USD"))
        )
    }
}
