package import Foundation

/// How long to wait after consecutive failures (BATCH-18, GAP-19).
///
/// The delay after the n-th consecutive failure is `base × 2^(n−1)`, capped at ``cap``, then
/// jittered down by up to half ("equal jitter") so many devices recovering from the same outage do
/// not retry in step; it is never shorter than the server's `Retry-After`.
package struct BackoffPolicy: Sendable, Equatable {
    /// The first delay, in seconds (`retryBackoffMs / 1000`).
    package var base: TimeInterval
    /// The longest delay the SDK chooses by itself, in seconds.
    package var cap: TimeInterval

    /// Creates a policy.
    package init(base: TimeInterval, cap: TimeInterval = 300) {
        self.base = max(0, base)
        self.cap = max(self.base, cap)
    }

    /// The delay after `failures` consecutive failures (1 for the first), given a uniform random
    /// `jitter` in `0..<1` (0 means no reduction) and the server's `Retry-After`, if any.
    package func delay(afterFailures failures: Int, jitter: Double, retryAfter: TimeInterval?) -> TimeInterval {
        let exponent = Double(max(0, min(failures, 64) - 1))
        let full = min(self.cap, self.base * pow(2, exponent))
        let jittered = full * (1 - 0.5 * min(max(jitter, 0), 1))
        return max(jittered, retryAfter ?? 0)
    }
}

/// A source of uniform random numbers in `0..<1`, injectable for deterministic tests.
package protocol JitterSource: Sendable {
    /// The next number in `0..<1`.
    func next() -> Double
}

/// The production ``JitterSource``.
package struct SystemJitter: JitterSource {
    /// Creates the source.
    package init() {}

    /// A uniformly random number in `0..<1`.
    package func next() -> Double {
        Double.random(in: 0..<1)
    }
}
