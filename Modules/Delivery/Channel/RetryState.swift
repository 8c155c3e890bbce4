package import Foundation

/// One channel's failure streak and the earliest time it may send again (BATCH-9, BATCH-18): the
/// bookkeeping the event uploader, the attribute channel and the durable-write channel share.
package struct RetryState: Sendable, Equatable {
    /// Retryable failures in a row.
    package var consecutiveFailures = 0
    /// The SDK's own backoff: no send before this (a `flush()` may skip it).
    package var backoffUntil: Date?
    /// The server's `Retry-After`: no send before this, whatever the trigger.
    package var retryAfterUntil: Date?
    /// Whether an unconfirmed answer (a 2xx that is not the protocol's success shape) was logged
    /// since the last clean answer: the channel logs the first of a streak only.
    package var reportedUnconfirmed = false

    /// Creates an empty streak.
    package init() {}

    /// Records a retryable failure at `now`: the next send waits for `policy`'s delay, and never
    /// before `retryAfter`. Returns the streak length and when the next send is due.
    package mutating func recordFailure(
        policy: BackoffPolicy,
        jitter: Double,
        retryAfter: TimeInterval?,
        now: Date
    ) -> (failures: Int, due: Date) {
        self.consecutiveFailures += 1
        let delay = policy.delay(afterFailures: self.consecutiveFailures, jitter: jitter, retryAfter: retryAfter)
        let due = now.addingTimeInterval(delay)
        self.backoffUntil = due
        if let retryAfter {
            self.retryAfterUntil = now.addingTimeInterval(retryAfter)
        }
        return (self.consecutiveFailures, due)
    }

    /// A clean answer ends the streak and the SDK's own backoff (a `Retry-After` still stands).
    package mutating func recordSuccess() {
        self.consecutiveFailures = 0
        self.backoffUntil = nil
        self.reportedUnconfirmed = false
    }

    /// Notes an unconfirmed answer; returns whether it is the first since the last clean answer,
    /// which the channel logs as a warning (the rest of the streak only at debug level).
    package mutating func noteUnconfirmed() -> Bool {
        defer { self.reportedUnconfirmed = true }
        return !self.reportedUnconfirmed
    }
}
