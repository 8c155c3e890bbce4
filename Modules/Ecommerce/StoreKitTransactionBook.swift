/// The transactions already recorded, so each is recorded once per transaction id whichever way
/// it arrives: the app's purchase result, a transaction the app passes, or the
/// `Transaction.updates` listener (issue 26). One per SDK instance, shared by its trackers.
///
/// A purchase and its later refund (the same id, revoked) are two entries: each is recorded once.
/// Only transactions that became an event are entered, so one skipped on one path (no currency
/// yet) can still be recorded from another (with the product's currency). The book is in memory
/// and keeps the most recent ``capacity`` entries: after a process restart `Transaction.updates`
/// delivers only transactions the app has not finished (docs/decisions.md, issue 26).
package struct StoreKitTransactionBook: Sendable, Equatable {
    /// Entries kept by default.
    package static let defaultCapacity = 1_000

    /// One recorded event of a transaction.
    package struct Entry: Sendable, Hashable {
        /// The StoreKit transaction id (`orderId`).
        package var transactionId: String
        /// `Order Refunded` (a revocation) rather than `Order Completed`.
        package var isRefund: Bool

        /// An entry.
        package init(transactionId: String, isRefund: Bool) {
            self.transactionId = transactionId
            self.isRefund = isRefund
        }
    }

    /// The most entries kept; the oldest is forgotten beyond it.
    package let capacity: Int
    private var order: [Entry] = []
    private var entries: Set<Entry> = []

    /// An empty book keeping at most `capacity` entries (at least 1).
    package init(capacity: Int = Self.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// How many entries it holds.
    package var count: Int { self.order.count }

    /// Whether `entry` was recorded (and not forgotten since).
    package func contains(_ entry: Entry) -> Bool { self.entries.contains(entry) }

    /// Enters `entry`: `true` the first time, `false` when it was recorded already.
    package mutating func admit(_ entry: Entry) -> Bool {
        guard self.entries.insert(entry).inserted else { return false }
        self.order.append(entry)
        if self.order.count > self.capacity {
            self.entries.remove(self.order.removeFirst())
        }
        return true
    }
}
