/// What StoreKit handed the SDK, without StoreKit (issue 26): the adapter turns a
/// `Product.PurchaseResult`, a `VerificationResult<Transaction>` or a `Transaction` into one of
/// these, and ``StoreKitIntake/decide(_:restored:trackerCurrency:listening:book:)`` decides.
package enum StoreKitDelivery: Sendable, Equatable {
    /// A verified transaction.
    case verified(EcommerceTransaction)
    /// A transaction StoreKit could not verify, with its id and the verification error.
    case unverified(transactionId: String, reason: String)
    /// `Product.PurchaseResult.pending`: Ask to Buy, or a payment that needs approval.
    case pending
    /// `Product.PurchaseResult.userCancelled`.
    case userCancelled
    /// A purchase result this SDK does not know (a future StoreKit case).
    case unknownPurchaseResult
}

/// How a StoreKit delivery becomes at most one event per transaction (issue 26).
package enum StoreKitIntake {
    /// What the tracker does.
    package enum Decision: Sendable, Equatable {
        /// Tracks the event (its notes logged at info).
        case send(EcommerceEvents.Event)
        /// Sends nothing; the line is logged at info.
        case skip(String)
        /// Sends nothing; the line is logged as a warning.
        case refuse(String)
    }

    /// Decides `delivery`: a verified transaction is mapped (``StoreKitMapping``), built, and sent
    /// only if `book` has not recorded it yet (then it has); everything else is a log line.
    ///
    /// - Parameters:
    ///   - restored: Whether restored purchases are recorded (`trackRestoredPurchases`).
    ///   - trackerCurrency: The tracker's currency, for a refund whose transaction names none.
    ///   - listening: Whether the `Transaction.updates` listener runs, for the pending line.
    ///   - book: The instance's book of recorded transactions.
    package static func decide(
        _ delivery: StoreKitDelivery,
        restored: Bool,
        trackerCurrency: String?,
        listening: Bool,
        book: inout StoreKitTransactionBook
    ) -> Decision {
        let transaction: EcommerceTransaction
        switch delivery {
        case .verified(let verified):
            transaction = verified
        case .unverified(let id, let reason):
            return .refuse("transaction \(id) failed StoreKit verification (\(reason)); not recorded")
        case .pending:
            let then =
                listening
                ? "it is recorded when its transaction arrives through Transaction.updates"
                : "pass its transaction to trackTransaction(_:) when Transaction.updates delivers it"
            return .skip("purchase pending (Ask to Buy or a payment awaiting approval); \(then)")
        case .userCancelled:
            return .skip("purchase cancelled by the user; nothing recorded")
        case .unknownPurchaseResult:
            return .skip("a purchase result this SDK does not know; nothing recorded")
        }
        let built: Result<EcommerceEvents.Event, EcommerceEvents.Refusal>
        let entry: StoreKitTransactionBook.Entry
        switch StoreKitMapping.event(for: transaction, restored: restored) {
        case .failure(let skip):
            return .skip("transaction skipped: \(skip)")
        case .success(.purchase(let order, let currency)):
            built = EcommerceEvents.purchase(order, currency: currency)
            entry = .init(transactionId: transaction.id, isRefund: false)
        case .success(.refund(let orderId, let currency)):
            guard let currency = currency.flatMap(EcommerceEvents.currencyCode) ?? trackerCurrency else {
                return .refuse("no valid currency (neither the transaction's nor the tracker's)")
            }
            built = EcommerceEvents.orderRefunded(orderId: orderId, value: nil, items: nil, currency: currency)
            entry = .init(transactionId: transaction.id, isRefund: true)
        }
        switch built {
        case .failure(let refusal):
            return .refuse("\(refusal)")
        case .success(let event):
            guard book.admit(entry) else {
                return .skip("transaction \(transaction.id) was recorded already (\(event.name)); not sent again")
            }
            return .send(event)
        }
    }
}

extension StoreKitMapping {
    /// The ISO 4217 code of a StoreKit transaction's price (issue 26): the transaction's own
    /// (`Transaction.currency`, iOS 16 and later) when it is a code, else the product's
    /// (`Product.priceFormatStyle.currencyCode`: on iOS 15 a transaction carries none), else
    /// `nil`, and the transaction is skipped: never sent in a currency StoreKit did not give.
    package static func currency(transaction: String?, product: String?) -> String? {
        transaction.flatMap(EcommerceEvents.currencyCode) ?? product.flatMap(EcommerceEvents.currencyCode)
    }

    /// Whether the product must be looked up for the currency: when the transaction gives none
    /// (iOS 15), and only then.
    package static func needsProductForCurrency(transaction: String?) -> Bool {
        transaction.flatMap(EcommerceEvents.currencyCode) == nil
    }

    /// What happened to a transaction: revoked (refunded) first, then upgraded (superseded), then
    /// restored (as the caller says), else purchased.
    package static func kind(revoked: Bool, upgraded: Bool, restored: Bool) -> EcommerceTransaction.Kind {
        revoked ? .revoked : upgraded ? .upgraded : restored ? .restored : .purchased
    }
}
