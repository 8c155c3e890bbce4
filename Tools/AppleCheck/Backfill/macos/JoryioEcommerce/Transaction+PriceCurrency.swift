// Compiled into the Apple compile check only (`make check-apple`), for the macOS 14.0 SDK.
//
// `Transaction.price` (macOS 12 / iOS 15) and `Transaction.currency` (macOS 13 / iOS 16) came with
// the Xcode 15.1 SDKs (macOS 14.2, iOS 17.2), back-deployed with `@backDeployed`; the macOS 14.0
// SDK does not declare them. Declared here as the newer SDK does (the values do not matter to a
// type-check), so the expressions around them are still checked.
internal import Foundation
internal import StoreKit

@available(macOS 12.0, *)
extension Transaction {
    var price: Decimal? { nil }
}

@available(macOS 13.0, *)
extension Transaction {
    var currency: Locale.Currency? { nil }
}
