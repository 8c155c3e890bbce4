import Foundation
import JoryioCore
import JoryioEcommerce
import Testing

/// Issue 26: every StoreKit path (the purchase result, the app's transactions, the
/// `Transaction.updates` listener) records a transaction once per id, and on iOS 15 the currency
/// comes from the product. The tests run the old rules next to the new ones where they differed.
@Suite struct StoreKitIntakeTests {
    static func transaction(
        id: String = "2000000123",
        kind: EcommerceTransaction.Kind = .purchased,
        price: Double? = 4.99,
        currency: String? = "USD"
    ) -> EcommerceTransaction {
        EcommerceTransaction(id: id, productId: "com.example.coins", price: price, currency: currency, kind: kind)
    }

    /// Decides `delivery` as a tracker in USD with the listener on does.
    static func decide(
        _ delivery: StoreKitDelivery,
        book: inout StoreKitTransactionBook,
        trackerCurrency: String? = "USD",
        listening: Bool = true
    ) -> StoreKitIntake.Decision {
        StoreKitIntake.decide(
            delivery,
            restored: false,
            trackerCurrency: trackerCurrency,
            listening: listening,
            book: &book
        )
    }

    static func sent(_ decision: StoreKitIntake.Decision) -> EcommerceEvents.Event? {
        if case .send(let event) = decision { event } else { nil }
    }

    static func line(_ decision: StoreKitIntake.Decision) -> String {
        switch decision {
        case .send(let event): "send \(event.name)"
        case .skip(let line): "skip: \(line)"
        case .refuse(let line): "refuse: \(line)"
        }
    }

    @Test("the same transaction from the purchase result, the app and Transaction.updates is recorded once")
    func exactlyOnceAcrossPaths() throws {
        var book = StoreKitTransactionBook()
        let purchase = Self.transaction()
        // 1. the app's `product.purchase()` result, 2. the app's own `Transaction.updates` loop
        // passing the verification result, 3. the SDK's listener: three deliveries of one id.
        let decisions = (0..<3).map { _ in Self.decide(.verified(purchase), book: &book) }
        let event = try #require(Self.sent(decisions[0]))
        #expect(event.name == "Order Completed")
        #expect(event.properties["orderId"] == .string("2000000123"))
        for repeated in decisions.dropFirst() {
            #expect(
                Self.line(repeated)
                    == "skip: transaction 2000000123 was recorded already (Order Completed); not sent again"
            )
        }
        #expect(book.count == 1)
        // The old tracker mapped every delivery on its own, with no memory: three Order Completed.
        let old = (0..<3).filter { _ in
            if case .success(.purchase) = StoreKitMapping.event(for: purchase, restored: false) { true } else { false }
        }
        #expect(old.count == 3)
    }

    @Test("a purchase and its later refund are each recorded once; another id is its own transaction")
    func refundAfterPurchase() {
        var book = StoreKitTransactionBook()
        let lines = [
            Self.decide(.verified(Self.transaction()), book: &book),
            Self.decide(.verified(Self.transaction(kind: .revoked)), book: &book),
            Self.decide(.verified(Self.transaction(kind: .revoked)), book: &book),
            Self.decide(.verified(Self.transaction(id: "2000000124")), book: &book),
        ].map(Self.line)
        #expect(
            lines == [
                "send Order Completed", "send Order Refunded",
                "skip: transaction 2000000123 was recorded already (Order Refunded); not sent again",
                "send Order Completed",
            ]
        )
    }

    @Test(
        "iOS 15: a transaction without a currency is skipped, not booked; with the product's currency it is recorded"
    )
    func skippedIsNotBooked() throws {
        var book = StoreKitTransactionBook()
        // Transaction.updates on iOS 15, the product lookup failed: no currency.
        let bare = Self.transaction(currency: StoreKitMapping.currency(transaction: nil, product: nil))
        #expect(
            Self.line(Self.decide(.verified(bare), book: &book))
                == "skip: transaction skipped: 2000000123 has no currency"
        )
        #expect(book.count == 0)
        // The app's purchase result with its product: the product's currency.
        let priced = Self.transaction(currency: StoreKitMapping.currency(transaction: nil, product: "EUR"))
        let event = try #require(Self.sent(Self.decide(.verified(priced), book: &book)))
        #expect(event.properties["currency"] == .string("EUR"))
        #expect(Self.sent(Self.decide(.verified(priced), book: &book)) == nil)
    }

    @Test("the currency: the transaction's when it is a code, else the product's (iOS 15), else none")
    func currencySource() {
        let table: [(String?, String?, String?)] = [
            ("USD", "EUR", "USD"),  // iOS 16 and later: the transaction's
            ("usd", nil, "USD"),
            (nil, "eur", "EUR"),  // iOS 15: the transaction has none, the product's
            ("dollars", "EUR", "EUR"),
            (nil, "", nil),  // a product locale without a currency
            (nil, nil, nil),
        ]
        for (transaction, product, expected) in table {
            #expect(
                StoreKitMapping.currency(transaction: transaction, product: product) == expected,
                "\(String(describing: transaction)), \(String(describing: product))"
            )
            #expect(
                StoreKitMapping.needsProductForCurrency(transaction: transaction)
                    == (transaction == nil || transaction == "dollars")
            )
        }
    }

    @Test("iOS 15: a purchase is recorded in the product's currency; the old rule skipped it for want of one")
    func iOS15Purchase() throws {
        // The adapter on iOS 15: `Transaction.currency` does not exist, the product says EUR.
        let currency = StoreKitMapping.currency(transaction: nil, product: "EUR")
        var book = StoreKitTransactionBook()
        let event = try #require(Self.sent(Self.decide(.verified(Self.transaction(currency: currency)), book: &book)))
        #expect(event.properties["currency"] == .string("EUR"))
        #expect(event.properties["total"] == .double(4.99))
        // The old adapter read the currency only `if #available(iOS 16…)`: nil on iOS 15, and the
        // mapping skipped every purchase there.
        let oldCurrency: String? = nil
        guard
            case .failure(let skip) = StoreKitMapping.event(
                for: Self.transaction(currency: oldCurrency),
                restored: false
            )
        else {
            Issue.record("the old rule should have skipped it")
            return
        }
        #expect(skip.description.contains("no currency"))
    }

    @Test("purchase results that are not a verified transaction send nothing, say why, and book nothing")
    func purchaseResults() {
        var book = StoreKitTransactionBook()
        let table: [(StoreKitDelivery, Bool, String)] = [
            (.pending, true, "skip: purchase pending (Ask to Buy or a payment awaiting approval); it is recorded when"),
            (
                .pending, false,
                "skip: purchase pending (Ask to Buy or a payment awaiting approval); pass its transaction"
            ),
            (.userCancelled, true, "skip: purchase cancelled by the user; nothing recorded"),
            (.unknownPurchaseResult, true, "skip: a purchase result this SDK does not know"),
            (
                .unverified(transactionId: "2000000123", reason: "invalidSignature"), true,
                "refuse: transaction 2000000123 failed StoreKit verification (invalidSignature); not recorded"
            ),
        ]
        for (delivery, listening, prefix) in table {
            let line = Self.line(Self.decide(delivery, book: &book, listening: listening))
            #expect(line.hasPrefix(prefix), "\(line)")
        }
        #expect(book.count == 0)
        #expect(Self.sent(Self.decide(.verified(Self.transaction()), book: &book)) != nil, "verified later: recorded")
    }

    @Test("a refund without a currency takes the tracker's; with neither it is refused; a bad event is not booked")
    func refundCurrencyAndRefusals() {
        var book = StoreKitTransactionBook()
        let refund = Self.transaction(kind: .revoked, currency: nil)
        #expect(Self.sent(Self.decide(.verified(refund), book: &book))?.properties["currency"] == .string("USD"))
        var empty = StoreKitTransactionBook()
        #expect(
            Self.line(Self.decide(.verified(refund), book: &empty, trackerCurrency: nil))
                == "refuse: no valid currency (neither the transaction's nor the tracker's)"
        )
        let blank = EcommerceTransaction(id: "7", productId: " ", price: 1, currency: "USD")
        #expect(Self.line(Self.decide(.verified(blank), book: &empty)).hasPrefix("refuse: "))
        #expect(empty.count == 0)
    }

    @Test("the book keeps the most recent entries: beyond its capacity the oldest is forgotten")
    func bookCapacity() {
        var book = StoreKitTransactionBook(capacity: 2)
        let a = StoreKitTransactionBook.Entry(transactionId: "a", isRefund: false)
        let b = StoreKitTransactionBook.Entry(transactionId: "b", isRefund: false)
        let c = StoreKitTransactionBook.Entry(transactionId: "c", isRefund: false)
        let admitted = [a, b, a, c].map { book.admit($0) }
        #expect(admitted == [true, true, false, true])
        #expect(!book.contains(a) && book.contains(b) && book.contains(c) && book.count == 2)
        let again = book.admit(a)
        #expect(again, "forgotten, so new again")
        #expect(StoreKitTransactionBook(capacity: 0).capacity == 1)
        #expect(StoreKitTransactionBook().capacity == 1_000)
    }

    @Test("a transaction's kind: revoked before upgraded before restored, else purchased")
    func kinds() {
        let table: [(Bool, Bool, Bool, EcommerceTransaction.Kind)] = [
            (true, true, true, .revoked), (false, true, true, .upgraded), (false, false, true, .restored),
            (false, false, false, .purchased),
        ]
        for (revoked, upgraded, restored, kind) in table {
            #expect(StoreKitMapping.kind(revoked: revoked, upgraded: upgraded, restored: restored) == kind)
        }
    }
}
